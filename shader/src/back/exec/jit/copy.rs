//! Copies without instructions (issue 17, session 12).
//!
//! A MOV, SWZ or SETLANE component `dst = src` becomes an *alias*: no code, and until `dst`
//! is written again its reads are reads of `src` (a register value, or a bank register,
//! read in its frame slot). The profile-2 front end passes structs and vectors to
//! functions by copy (p2 lights copies each light's uniforms and four vectors per call): as
//! moves, those copies took a YMM each, a VMOVAPS, and a spill when evicted.
//!
//! An alias is made only where it is exact for the whole of `dst`'s current value: outside
//! any IF or loop, in a module without loops (no back edge), and only when every read of
//! `dst` before its next write comes before the next write of `src` (a write of `dst` counts
//! as a read in a module with IF or DISCARD, whose masked writes keep old lanes). So `src`
//! still holds `dst`'s value at each of those reads. For the allocator, `src` stays live
//! while an alias of it is (`next_read`), so it is spilled, not dropped, when evicted. Where a
//! read bypasses the YMMs (a seam's or call-out's operands and the old value a masked seam or
//! call-out keeps, read from the frame slots), the alias is first made a real value
//! ([`Gen::materialize`]). An alias ends when `dst` is written (`place`, `rename`, and after
//! each instruction for the writes that go to frame slots) or `src` is.

use super::{touch, val, writes, Gen, JitError, Touch, Val, NONE, V_ONE};
use crate::back::exec::{DInst, BANK_BASE};

/// Aliases live at once (a copy past them is a move).
pub(super) const ALIASES_MAX: usize = 96;

/// `dst` reads as `src` (made by the copy at instruction `at`).
#[derive(Clone, Copy, Default)]
pub(super) struct Alias {
    pub dst: u16,
    pub src: u16,
    pub at: u16,
}

impl Gen<'_, '_> {
    /// What `v` reads as, when it is an alias.
    pub(super) fn alias_of(&self, v: Val) -> Option<Val> {
        self.aliases
            .iter()
            .take(self.naliases)
            .find(|a| a.dst as usize == v)
            .map(|a| a.src as usize)
    }

    /// [`super::Gen::next_read`]'s part for the aliases of `v`: the nearest read of one.
    pub(super) fn alias_read(&self, v: Val, start: usize) -> Option<usize> {
        self.aliases
            .iter()
            .take(self.naliases)
            .filter(|a| a.src as usize == v)
            .map(|a| self.read_from(start, self.depth + self.loops, a.dst as usize))
            .min()
    }

    /// Ends the alias `dst` (it is being written).
    pub(super) fn unalias(&mut self, dst: Val) {
        let n = self.naliases;
        if let Some(i) = self
            .aliases
            .iter()
            .take(n)
            .position(|a| a.dst as usize == dst)
        {
            self.aliases.swap(i, n - 1);
            self.naliases -= 1;
        }
    }

    /// Ends the aliases whose `dst` or `src` the instruction `d` (just lowered) wrote, but
    /// those it made.
    pub(super) fn end_aliases(&mut self, d: &DInst) {
        let mut i = 0;
        while i < self.naliases {
            let a = self.aliases[i];
            if a.at as usize != self.pc && (writes(d, a.dst as usize) || writes(d, a.src as usize))
            {
                self.naliases -= 1;
                self.aliases.swap(i, self.naliases);
            } else {
                i += 1;
            }
        }
    }

    /// Makes `dst` an alias of `src` (the copy at the current instruction) when that is exact
    /// (see the module header); false (nothing done) otherwise.
    pub(super) fn alias(&mut self, dst: Val, src: Val) -> bool {
        let src = self.alias_of(src).unwrap_or(src);
        if !self.copies
            || self.masked()
            || dst >= V_ONE
            || src >= V_ONE
            || dst / 4 == src / 4
            || self.zero[src]
            || self.naliases >= ALIASES_MAX
            || !self.alias_exact(dst, src)
        {
            return false;
        }
        self.unalias(dst);
        if let Some(&y) = self.loc.get(dst) {
            if y != NONE {
                self.holder[y as usize] = None;
                self.dirty[y as usize] = false;
            }
        }
        self.loc[dst] = NONE;
        self.zero[dst] = false;
        self.aliases[self.naliases] = Alias {
            dst: dst as u16,
            src: src as u16,
            at: self.pc as u16,
        };
        self.naliases += 1;
        true
    }

    /// Whether every read of `dst` from the next instruction up to its next write comes
    /// before the next write of `src` (a bank register is never written).
    fn alias_exact(&self, dst: Val, src: Val) -> bool {
        if src / 4 >= BANK_BASE {
            return true;
        }
        let mut src_written = false;
        for d in self.code.get(self.pc + 1..).unwrap_or(&[]) {
            // A read in the instruction that writes `src` may come after that write (another
            // component's), so it counts as after.
            src_written |= writes(d, src);
            let wd = writes(d, dst);
            let rd = touch(d, dst) == Touch::Read || wd && self.flow;
            if rd && src_written {
                return false;
            }
            if wd {
                return true;
            }
        }
        true
    }

    /// Makes the alias `v` a value of its own in a YMM, dirty (so a flush stores it to its
    /// frame slot), for the reads that go to the slots.
    pub(super) fn materialize(&mut self, v: Val) -> Result<(), JitError> {
        let Some(src) = self.alias_of(v) else {
            return Ok(());
        };
        self.unalias(v);
        let s = self.get(src)?;
        let y = self.alloc()?;
        self.e.mov(y, s)?;
        self.holder[y.0 as usize] = Some(v);
        self.loc[v] = y.0;
        self.dirty[y.0 as usize] = true;
        Ok(())
    }

    /// [`Self::materialize`] for every component of the registers `regs`.
    pub(super) fn materialize_regs(&mut self, regs: &[usize]) -> Result<(), JitError> {
        for &r in regs {
            for c in 0..4 {
                self.materialize(val(r, c))?;
                self.pinned = 0;
            }
        }
        Ok(())
    }
}
