//! virtio-gpu / VirGL for ChrisOS: the control protocol, the VirGL command encoder with its
//! protocol table and stream checker, bounded id pools, a transport abstraction with two
//! implementations (the virtio device, and a vtest client on the host), and reusable test scenes.
//!
//! Owns: everything between "Gfx3D wants to draw" and the bytes a virglrenderer receives.
//! Must never: know GLSL (TGSI text arrives ready-made), keep global mutable state, or panic on
//! anything a device or a caller supplies. `unsafe` lives only in `device.rs`.
#![no_std]
#![deny(unsafe_op_in_unsafe_fn)]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod batch;
pub mod caps;
pub mod context;
pub mod decode;
pub mod device;
pub mod encode;
pub mod error;
pub mod handles;
pub mod limits;
pub mod proto;
pub mod protocol;
pub mod scenes;
pub mod selftest;
pub mod transport;
#[cfg(feature = "std")]
pub mod vtest;

pub use batch::{CollectSink, CommandBuffer, Sink};
pub use caps::HostCaps;
pub use context::VirglContext;
pub use error::{GpuError, Result};
pub use handles::IdPool;
pub use transport::{CtxId, GpuTransport3d, ResId, ResourceDesc};
