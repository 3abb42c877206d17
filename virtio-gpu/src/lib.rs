//! virtio-gpu / VirGL (in progress).
#![no_std]
#[cfg(any(test, feature = "std"))]
extern crate std;
extern crate alloc;
pub mod selftest;
