//! Gfx3D: the backend-neutral 3D API over the software renderer, a mock logger and the VirGL
//! device. It owns the handle tables (contexts, targets, meshes, textures, program instances),
//! backend selection with the device-lost policy, frames and statistics.
//!
//! It must never: keep global state (a `Gfx3d` value owns everything), let device ids cross the
//! public API, panic on any input, or use `unsafe`.
#![no_std]
#![forbid(unsafe_code)]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod compare;
pub mod context;
pub mod demo;
pub mod device;
pub mod error;
mod frame;
pub mod geometry;
mod gfx3d;
pub mod glsl;
pub mod handle;
pub mod layout;
pub mod limits;
pub mod linked;
pub mod math;
pub mod mesh;
mod mock;
pub mod program;
pub mod scenes;
pub mod selftest;
pub mod stats;
pub mod target;
pub mod texture;
pub mod virgl;

pub use error::{Error, LayoutError, ObjectKind, Result};
pub use frame::pack_color;
pub use gfx3d::Gfx3d;
pub use handle::{ContextId, MeshId, ProgramId, TargetId, TextureId, OWNER_KERNEL};
pub use layout::{Element, VertexLayout};
pub use linked::{BuildError, Linked};
pub use math::{Mat3, Mat4};
pub use mesh::Usage;
pub use program::ShaderProgram;
pub use stats::{Backend, BackendMode, Stats};
pub use texture::{Filter, SamplerState, Wrap};
