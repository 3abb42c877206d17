//! virtio-gpu / VirGL (in progress).
#![no_std]
#[cfg(feature = "std")]
extern crate std;
extern crate alloc;
pub mod selftest;
