//! Scopes and symbols: nested scopes over one symbol table, lookup by name (innermost visible
//! first), declaration with the duplicate and capacity rules.
use super::{Scope, Sema, Sym, SymKind, R};
use crate::ir::Type;
use crate::limits::*;

/// Name equality as an inline byte loop: names are short, and a library compare call per
/// candidate cost more.
#[inline]
pub(super) fn same_name(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Length and first, middle and last bytes of a name, packed: equal names have equal keys, and
/// the names of one shader nearly always differ in one of these.
pub(super) fn name_key(name: &str) -> u32 {
    key_of(name.as_bytes())
}

/// [`name_key`] of a name's bytes.
pub(super) fn key_of(b: &[u8]) -> u32 {
    let at = |i: usize| b.get(i).copied().unwrap_or(0) as u32;
    (b.len() as u32 & 0xff)
        | at(0) << 8
        | at(b.len() / 2) << 16
        | at(b.len().saturating_sub(1)) << 24
}

impl<'a> Sema<'a> {
    pub(super) fn push_scope(&mut self, parent: u16, at: i16) -> R<u16> {
        let id = self.scopes.len();
        let max = self.lim.scopes_max;
        let base = self.syms.len() as u16;
        if id >= max
            || self
                .scopes
                .push(Scope {
                    parent,
                    sym_base: base,
                })
                .is_err()
        {
            bail!(
                self,
                at,
                "too many nested scopes: the limit is {} (blocks, loops and inlined calls count)",
                max
            );
        }
        let prev = self.cur;
        self.cur = id as u16;
        Ok(prev)
    }

    pub(super) fn pop_scope(&mut self, prev: u16) {
        let popped = self.scopes.len().saturating_sub(1) as u16;
        if let Some(s) = self.scopes.pop() {
            self.syms.truncate(s.sym_base as usize);
            if !self.structs.is_empty() {
                self.pop_structs(popped);
            }
        }
        self.cur = prev;
    }

    pub(super) fn visible(&self, scope: u16) -> bool {
        let mut s = self.cur;
        for _ in 0..=SCOPE_CAP {
            if s == scope {
                return true;
            }
            if s == 0 {
                return false;
            }
            s = self.scopes.get(s as usize).map(|r| r.parent).unwrap_or(0);
        }
        false
    }

    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        let key = name_key(name);
        (0..self.syms.len()).rev().find(|&i| {
            self.syms
                .get(i)
                .map(|s| s.key == key && same_name(s.name, name) && self.visible(s.scope))
                .unwrap_or(false)
        })
    }

    pub(super) fn add_sym(
        &mut self,
        at: i16,
        name: &'a str,
        kind: SymKind,
        ty: Type,
        tmp: i16,
    ) -> R<usize> {
        let cur = self.cur;
        let key = name_key(name);
        if let Some(prev) = self
            .syms
            .iter()
            .find(|s| s.key == key && s.scope == cur && same_name(s.name, name))
        {
            let line = self
                .toks
                .get(self.node(prev.node).tok)
                .map(|t| t.line)
                .unwrap_or(0);
            if prev.kind == SymKind::Position || prev.kind == SymKind::FragCoord {
                bail!(
                    self,
                    at,
                    "'{}' is a built-in variable and cannot be redeclared",
                    name
                );
            }
            bail!(
                self,
                at,
                "duplicate declaration of '{}' (first declared at line {})",
                name,
                line
            );
        }
        let sym = Sym {
            name,
            key,
            kind,
            ty,
            scope: cur,
            tmp,
            known: None,
            node: at,
            slot: -1,
            agg: super::aggregate::AggTy::NONE,
        };
        let max = self.lim.symbols_max;
        if self.syms.len() >= max || self.syms.push(sym).is_err() {
            bail!(
                self,
                at,
                "too many symbols: the limit is {} names in scope at once",
                max
            );
        }
        Ok(self.syms.len() - 1)
    }

    pub(super) fn sym(&self, i: usize) -> Option<&Sym<'a>> {
        self.syms.get(i)
    }
}
