//! Gfx3D: the backend-neutral 3D API over the software renderer, a mock logger and the VirGL
//! device. It owns the handle tables (contexts, targets, meshes, textures, program instances),
//! backend selection with the device-lost policy, frames and statistics.
//!
//! It must never: keep global state (a `Gfx3d` value owns everything), let device ids cross the
//! public API, panic on any input, or use `unsafe`.
//!
//! A frame on the software backend (the VirGL backend is the same after
//! `g.boot(BackendMode::Auto, Some(Box::new(virgl::VirglBackend::new(transport))))`). The
//! shader compiler's fixed tables are sized for profile 2 (several MiB, boxed inside `Gfx3d`),
//! and an unoptimised build passes them through the stack while building them: give the thread
//! that creates a `Gfx3d` room (the kernel's boot stack is 16 MiB; host programs spawn a thread
//! as below, or build with optimisation).
//!
//! ```
//! use gfx3d::{glsl, BackendMode, Element, Gfx3d, Linked, Usage, VertexLayout, OWNER_KERNEL as K};
//!
//! # std::thread::Builder::new().stack_size(64 << 20).spawn(|| {
//! let mut g: Gfx3d = Gfx3d::new();
//! g.boot(BackendMode::Software, None).unwrap();
//! let ctx = g.context_create(K).unwrap();
//! let target = g.target_create(K, ctx, 64, 64).unwrap();
//! let linked = Linked::from_glsl(g.compiler(), glsl::TRI_VERT, glsl::TRI_FRAG, "tri").unwrap();
//! let prog = g.prog_prepare(K, ctx, linked).unwrap();
//! let layout = VertexLayout::new(32, &[
//!     Element { location: 0, components: 4, offset: 0 },
//!     Element { location: 1, components: 4, offset: 16 },
//! ]).unwrap();
//! let mesh = g.mesh_create(K, Usage::Static).unwrap();
//! #[rustfmt::skip]
//! g.mesh_upload_f32(K, mesh, &layout, &[
//!     -0.8, -0.8, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,
//!      0.8, -0.8, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,
//!      0.0,  0.8, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,
//! ], None).unwrap();
//! g.begin(K, ctx, target).unwrap();
//! g.clear(K, ctx, [0.0, 0.0, 1.0, 1.0], true).unwrap();
//! g.use_program(K, ctx, prog).unwrap();
//! g.draw(K, ctx, mesh).unwrap();
//! g.end(K, ctx).unwrap();
//! let mut pixels = vec![0u32; 64 * 64];
//! g.target_read(K, target, &mut pixels).unwrap();
//! assert_eq!(pixels[40 * 64 + 32], 0xFFFF_0000); // red, row 0 = top
//! assert_eq!(g.stats().draws, 1);
//! g.drop_owner(K);
//! # }).unwrap().join().unwrap();
//! ```
#![no_std]
#![forbid(unsafe_code)]
extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod compare;
pub mod compat;
pub mod context;
pub mod demo;
pub mod device;
pub mod error;
pub mod fault;
mod frame;
pub mod geometry;
mod gfx3d;
pub mod glsl;
pub mod handle;
pub mod image;
pub mod layout;
pub mod limits;
pub mod linked;
pub mod math;
pub mod mesh;
mod mock;
pub mod program;
pub mod scenes;
pub mod selftest;
pub mod state;
pub mod stats;
pub mod target;
pub mod termination;
pub mod texture;
pub mod virgl;

pub use error::{Error, LayoutError, ObjectKind, Result};
pub use frame::pack_color;
pub use gfx3d::Gfx3d;
pub use handle::{ContextId, MeshId, ProgramId, TargetId, TextureId, OWNER_KERNEL};
pub use layout::{int_word, uint_word, Element, ElementKind, VertexLayout};
pub use linked::{BuildError, Linked};
pub use math::{Mat3, Mat4};
pub use mesh::Usage;
pub use program::ShaderProgram;
/// What runs the bands of a software draw (see `Gfx3d::set_workers`).
pub use shader::back::raster::parallel::{Serial, Workers};
pub use state::{
    Blend, BlendComponent, BlendFactor, BlendOp, ColorMask, CompareFunc, CullFace, DepthDesc,
    FrontFace, Primitive, Scissor,
};
pub use stats::{Backend, BackendMode, Stats};
pub use target::{TargetFormat, TargetPlane};
pub use texture::{Filter, SamplerState, TextureFormat, Wrap};
