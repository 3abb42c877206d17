//! The frontend: source bytes to a typed, lowered [`crate::ir::Module`].
//!
//! `lex` (tokens) -> `parse` (the flat tree of `ast`) -> `sema` (types, scopes, inlining,
//! unrolling, folding, slot binding, lowering to the IR); `diag` holds the diagnostics every phase
//! reports, `dump` prints the tree. `pp` is the GLSL preprocessor of profile 2 (not wired into
//! the compile yet).
pub mod ast;
pub mod diag;
pub mod dump;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod sema;
