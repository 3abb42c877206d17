//! The frontend: source bytes to a typed, lowered [`crate::ir::Module`].
//!
//! `lex` (tokens) -> `parse` (the flat tree of `ast`) -> `sema` (types, scopes, inlining,
//! unrolling, folding, slot binding, lowering to the IR); `diag` holds the diagnostics every phase
//! reports, `dump` prints the tree. In profile 2, `pp` (the GLSL preprocessor) runs first and
//! `lex::lex_pp` classifies its tokens; `profile` selects the profile and words its hints.
pub mod ast;
pub mod diag;
pub mod dump;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod profile;
pub mod sema;

use heapless::Vec;

use crate::back::tgsi::{TgsiScratch, TgsiText};
use crate::front::ast::Ast;
use crate::front::lex::{Tokens, TEXT_CAP};
use crate::front::pp::Preprocessor;
use crate::front::sema::SemaTables;

/// The frontend's storage for one compile at a time, reusable (every compile starts afresh):
/// about 3 MiB: the preprocessor, tokens and syntax tree of the largest profile-2 source and
/// the TGSI emitter's tables.
/// Callers own it (the kernel boxes it once) so it never lives on a small stack.
// repr(C), largest tables last: building one touches none of their storage.
#[repr(C)]
pub struct Workspace {
    pub(crate) toks: Tokens,
    pub(crate) ast: Ast,
    pub(crate) sema: SemaTables,
    pub(crate) text: Vec<u8, TEXT_CAP>,
    pub(crate) pp: Preprocessor,
    /// The TGSI emission that ends a compile (its text is not kept: see `compile`).
    pub(crate) tgsi: TgsiScratch,
    pub(crate) tgsi_text: TgsiText,
}

impl Default for Workspace {
    fn default() -> Self {
        Workspace::new()
    }
}

impl Workspace {
    #[inline(always)]
    pub const fn new() -> Workspace {
        Workspace {
            toks: Tokens::new(),
            ast: Ast::new(),
            sema: SemaTables::new(),
            text: Vec::new(),
            pp: Preprocessor::new(),
            tgsi: TgsiScratch::new(),
            tgsi_text: TgsiText::new(),
        }
    }
}
