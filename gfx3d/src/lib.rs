//! Gfx3D: the backend-neutral 3D API (in progress).
#![no_std]
#![forbid(unsafe_code)]
extern crate alloc;
#[cfg(test)]
extern crate std;
pub mod selftest;
