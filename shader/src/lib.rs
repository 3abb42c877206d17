//! ChrisOS shader compiler: a bounded GLSL-like language lowered to a verified IR, which is then
//! executed on the CPU (`back::exec`, `back::raster`), emitted as TGSI text for VirGL
//! (`back::tgsi`) or saved as CSIR (`program::csir`).
//!
//! The tree is the pipeline: `front` (source -> IR), `ir` (the IR, its passes and verifier),
//! `back` (software execution, rasterizer, TGSI), `program` (compile, link, cache, guest handles,
//! CSIR). Every fixed capacity is in `limits`.
//!
//! This crate owns: the language, the IR, its verifier, the software reference renderer, program
//! linking and uniforms, the compile cache and the guest-owned handle tables.
//! It must never: touch hardware, allocate inside the compiler (fixed-capacity tables only),
//! keep global mutable state, or panic on any input (source text, CSIR bytes, handles).
#![no_std]
// `unsafe` is denied everywhere except `back::exec::simd`, the one documented module that owns
// it (run-time selection of AVX2 lane loops).
#![deny(unsafe_code)]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod back;
pub mod front;
pub mod ir;
pub mod limits;
pub mod program;
pub mod selftest;

pub use ir::{Module, Stage, Type};
pub use program::compile::{compile, Diagnostics, Shader};
pub use program::link::Program;
