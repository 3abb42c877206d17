//! Scene files shared by `shc render` (the software path) and `mesa-ref` (Mesa's GLSL through EGL).
//!
//! Owns: JSON reading rules on top of serde_json (correctly rounded f32 numbers, duplicate
//! keys rejected: [`json`]), the scene JSON model and its validation ([`model`]), RGBA images and PNG files with row 0
//! at the top of the picture ([`image`]), and the comparison of two renderings with the edge rule
//! of the differential tests ([`compare`]).
//! Must never: render anything or know about a particular renderer; both renderers read the same
//! [`Scene`] so that a difference in pictures is a difference in renderers, not in input handling.

pub mod compare;
pub mod image;
pub mod json;
pub mod model;

pub use compare::{compare, diff_image, edge_mask_from_ids, Comparison};
pub use image::{read_png, write_png, Image, ImageError};
pub use model::{
    box_chain, Attachment, AttrKind, Attribute, Blend, ColorFormat, Filter, Mip, Pass, PassSource,
    Pipeline, Scene, SceneError, TexFormat, Texture, Wrap,
};
