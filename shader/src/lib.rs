//! ChrisOS shader compiler: a bounded GLSL-like language lowered to a verified IR, which is then
//! executed on the CPU (`exec`, `raster`), emitted as TGSI text for VirGL (`tgsi`) or saved as
//! CSIR (`csir`).
//!
//! This crate owns: the language, the IR, its verifier, the software reference renderer, program
//! linking and uniforms, the compile cache and the guest-owned handle tables.
//! It must never: touch hardware, allocate inside the compiler (fixed-capacity tables only),
//! keep global mutable state, or panic on any input (source text, CSIR bytes, handles).
#![no_std]
#![forbid(unsafe_code)]

#[cfg(test)]
extern crate std;

pub mod ir;
pub mod limits;

// Frontend (source -> IR).
pub mod ast;
pub mod compile;
pub mod diag;
pub mod dump;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod sema;

// IR passes and the software path.
pub mod exec;
mod lanes;
pub mod link;
pub mod opt;
pub mod raster;
mod texel;
pub mod verify;

// VirGL text, serialization, caching, ownership.
pub mod cache;
pub mod csir;
pub mod guest;
pub mod tgsi;

pub use ir::{Module, Stage, Type};
pub mod selftest;
