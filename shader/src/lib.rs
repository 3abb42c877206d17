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

pub mod limits;
pub mod ir;

// Frontend (source -> IR).
pub mod diag;
pub mod lex;
pub mod ast;
pub mod parse;
pub mod sema;
pub mod dump;
pub mod compile;

// IR passes and the software path.
pub mod opt;
pub mod verify;
pub mod exec;
pub mod raster;
pub mod link;

// VirGL text, serialization, caching, ownership.
pub mod tgsi;
pub mod csir;
pub mod cache;
pub mod guest;

pub use ir::{Module, Stage, Type};
pub mod selftest;
