//! Scopes and symbols: nested scopes over one symbol table, lookup by name (innermost visible
//! first), declaration with the duplicate and capacity rules.
use super::{Scope, Sema, Sym, SymKind, SymName, R, STATIC_NAMES};
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

/// Buckets of the symbol table's key chains.
pub(super) const SYM_BUCKETS: usize = 64;
/// No symbol (the end of a key chain).
pub(super) const NO_SYM: u16 = u16::MAX;
const _: () = assert!(SYM_CAP < NO_SYM as usize);

/// The chain bucket of a [`name_key`].
fn bucket(key: u32) -> usize {
    (key.wrapping_mul(0x9e37_79b1) >> 26) as usize % SYM_BUCKETS
}

impl<'a> Sema<'a> {
    /// The symbols whose key falls in `key`'s bucket, newest first.
    fn key_chain(&self, key: u32) -> impl Iterator<Item = (usize, &Sym)> + '_ {
        let mut at = self.t.sym_heads.get(bucket(key)).copied().unwrap_or(NO_SYM);
        core::iter::from_fn(move || {
            let i = at as usize;
            let s = self.t.syms.get(i)?;
            at = s.next;
            Some((i, s))
        })
    }

    pub(super) fn push_scope(&mut self, parent: u16, at: i16) -> R<u16> {
        let id = self.t.scopes.len();
        let max = self.lim.scopes_max;
        let base = self.t.syms.len() as u16;
        if id >= max
            || self
                .t
                .scopes
                .push(Scope {
                    parent,
                    sym_base: base,
                })
                .is_err()
        {
            return self.too_many_scopes(at);
        }
        let prev = self.cur;
        self.cur = id as u16;
        Ok(prev)
    }

    #[cold]
    #[inline(never)]
    fn too_many_scopes(&mut self, at: i16) -> R<u16> {
        let max = self.lim.scopes_max;
        bail!(
            self,
            at,
            "too many nested scopes: the limit is {} (blocks, loops and inlined calls count)",
            max
        );
    }

    pub(super) fn pop_scope(&mut self, prev: u16) {
        let popped = self.t.scopes.len().saturating_sub(1) as u16;
        if let Some(s) = self.t.scopes.pop() {
            // Newest first: each symbol dropped is the head of its chain.
            while self.t.syms.len() > s.sym_base as usize {
                if let Some(x) = self.t.syms.pop() {
                    if let Some(h) = self.t.sym_heads.get_mut(bucket(x.key)) {
                        *h = x.next;
                    }
                }
            }
            if !self.t.structs.is_empty() {
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
            s = self.t.scopes.get(s as usize).map(|r| r.parent).unwrap_or(0);
        }
        false
    }

    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        self.lookup_bytes(name.as_bytes())
    }

    /// [`Self::lookup`] of the name of node `i` (an identifier), read as its token's bytes:
    /// the lexer's names are ASCII, so these are the bytes of `name_of(i)`, without slicing
    /// the text.
    #[inline]
    pub(super) fn lookup_node(&self, i: i16) -> Option<usize> {
        let tok = self.ast.get(i).map_or(-1, |n| n.tok);
        self.lookup_bytes(self.token_bytes(tok))
    }

    fn lookup_bytes(&self, name: &[u8]) -> Option<usize> {
        let key = key_of(name);
        self.key_chain(key)
            .find(|(_, s)| {
                // The global scope (0) is every scope's ancestor: visible without the walk.
                s.key == key
                    && same_bytes(self.sym_bytes(s), name)
                    && (s.scope == 0 || self.visible(s.scope))
            })
            .map(|(i, _)| i)
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
        let prev = self
            .key_chain(key)
            .find(|(_, s)| {
                s.key == key && s.scope == cur && same_bytes(self.sym_bytes(s), name.as_bytes())
            })
            .map(|(_, s)| (s.node, s.kind));
        if let Some((prev_node, prev_kind)) = prev {
            return self.duplicate_sym(at, name, prev_node, prev_kind);
        }
        let Some(name_ref) = self.name_ref(name) else {
            return self.unnamed_sym(at, name);
        };
        self.push_sym(at, name_ref, key, kind, ty, tmp)
    }

    /// [`Self::add_sym`]'s error for a name already declared in the scope (out of line, as
    /// the other errors of the symbol table: inline, their formatting made every call save
    /// and restore six registers).
    #[cold]
    #[inline(never)]
    fn duplicate_sym(
        &mut self,
        at: i16,
        name: &'a str,
        prev_node: i16,
        prev_kind: SymKind,
    ) -> R<usize> {
        {
            let line = self
                .toks
                .get(self.node(prev_node).tok)
                .map(|t| t.line)
                .unwrap_or(0);
            if matches!(
                prev_kind,
                SymKind::Position
                    | SymKind::FragCoord
                    | SymKind::FragDepth
                    | SymKind::ClipDistance
                    | SymKind::SysVal
            ) {
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
    }

    #[cold]
    #[inline(never)]
    fn unnamed_sym(&mut self, at: i16, name: &'a str) -> R<usize> {
        bail!(
            self,
            at,
            "internal compiler error: the name '{}' is not in the source",
            name
        );
    }

    /// A built-in variable's symbol in the empty global scope at the start of `run` (no
    /// earlier symbol to clash with, a literal name): `add_sym` without the duplicate check and
    /// the name's search in [`STATIC_NAMES`].
    pub(super) fn builtin_sym(&mut self, name: &'static str, kind: SymKind, ty: Type) -> R<usize> {
        self.push_sym(-1, SymName::Static(name), name_key(name), kind, ty, -1)
    }

    /// Pushes a new symbol of the current scope and links it into its key chain.
    fn push_sym(
        &mut self,
        at: i16,
        name_ref: SymName,
        key: u32,
        kind: SymKind,
        ty: Type,
        tmp: i16,
    ) -> R<usize> {
        let cur = self.cur;
        let sym = Sym {
            name: name_ref,
            key,
            next: self.t.sym_heads.get(bucket(key)).copied().unwrap_or(NO_SYM),
            kind,
            ty,
            scope: cur,
            tmp,
            known: None,
            node: at,
            slot: -1,
            agg: super::aggregate::AggTy::NONE,
            unit: -1,
        };
        let max = self.lim.symbols_max;
        if self.t.syms.len() >= max || self.t.syms.push(sym).is_err() {
            return self.too_many_syms(at);
        }
        let i = self.t.syms.len() - 1;
        if i as u16 >= self.sym_peak {
            self.sym_peak = i as u16 + 1;
        }
        if let Some(h) = self.t.sym_heads.get_mut(bucket(key)) {
            *h = i as u16;
        }
        Ok(i)
    }

    #[cold]
    #[inline(never)]
    fn too_many_syms(&mut self, at: i16) -> R<usize> {
        let max = self.lim.symbols_max;
        bail!(
            self,
            at,
            "too many symbols: the limit is {} names in scope at once",
            max
        );
    }

    /// How a symbol records `name`: by offset when it is a slice of the source, else one of
    /// the built-in names.
    pub(super) fn name_ref(&self, name: &str) -> Option<SymName> {
        // Address arithmetic only (no pointer is dereferenced): is `name` inside `src`?
        let base = self.src.as_ptr() as usize;
        let at = (name.as_ptr() as usize).wrapping_sub(base);
        if at <= self.src.len() && name.len() <= self.src.len() - at {
            return Some(SymName::Src {
                off: at as u32,
                len: name.len() as u32,
            });
        }
        STATIC_NAMES
            .iter()
            .find(|s| **s == name)
            .map(|s| SymName::Static(s))
    }

    /// A symbol's name (a slice of the source, as when it was declared).
    pub(super) fn sym_name(&self, s: &Sym) -> &'a str {
        self.name_str(s.name)
    }

    /// A symbol's name as bytes: the bytes of [`Self::sym_name`] (a source name is a valid
    /// `str` slice, so its range is in the source and on character boundaries), without the
    /// text's boundary checks.
    #[inline]
    pub(super) fn sym_bytes(&self, s: &Sym) -> &'a [u8] {
        match s.name {
            SymName::Static(n) => n.as_bytes(),
            SymName::Src { off, len } => {
                let start = off as usize;
                self.src.get(start..start + len as usize).unwrap_or(&[])
            }
        }
    }

    /// The text of a recorded name.
    pub(super) fn name_str(&self, n: SymName) -> &'a str {
        match n {
            SymName::Static(n) => n,
            SymName::Src { off, len } => {
                let (start, end) = (off as usize, off as usize + len as usize);
                match self.text {
                    Some(text) => text.get(start..end).unwrap_or(""),
                    None => self
                        .src
                        .get(start..end)
                        .and_then(|b| core::str::from_utf8(b).ok())
                        .unwrap_or(""),
                }
            }
        }
    }

    pub(super) fn sym(&self, i: usize) -> Option<&Sym> {
        self.t.syms.get(i)
    }
}
