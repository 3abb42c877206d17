//! Temporary renumbering by live range: maps a module's temps (up to profile 2's 1024) onto at
//! most `regs` registers, for the software executor, whose register file holds `TEMP_MAX` (96).
//!
//! The IR has no loops (structured IF/ELSE/ENDIF only), so instruction order is execution order
//! and a temp's value lives, at most, from its first access to its last: its interval is
//! `[first, last]` over every read and write of it (under IF or not). Two temps may share a
//! register when their intervals are disjoint, end points included (an instruction that reads
//! one and writes the other keeps them apart, so no opcode ever sees its destination alias a
//! source it did not alias before). The rules that keep the renumbered module equivalent:
//!
//! - A temp some instruction may read before it wrote those lanes (read before written, a lane
//!   a partial write left alone, a value written only in a branch that has closed) relies on the
//!   IR's "temps start at zero": its interval starts at instruction 0, so its register holds no
//!   other temp before it and the executor zeroes it (it too sees a read before a top-level
//!   write). Lanes count as written for a read when a top-level write wrote them, or a write
//!   directly in a branch (IF or ELSE part) that is still open at the read (so a temp written
//!   and read inside one branch, as the frontend's expression temps are, keeps its own short
//!   interval). Per temp one such branch is remembered (the oldest still open); anything else
//!   counts as not written, which only lengthens an interval.
//! - Temps named together by one operand (MULMV/MULMM matrix columns, MULMM and LOAD_UNI
//!   results: `count` consecutive temps) form one block with one interval; a block gets
//!   consecutive registers in the same order. Overlapping ranges merge into one block.
//! - Registers are given first-fit, lowest first, to blocks in order of interval start (linear
//!   scan; without loops this is optimal for blocks of one temp).
//!
//! - Profile 2's loops: a LOOP opens a branch like IF (writes in its body may not run for a lane
//!   that left the loop earlier), and every temp touched in an outermost loop body, or live into
//!   it, has its interval stretched over the whole loop, LOOP to ENDLOOP: a value read in a later
//!   iteration (across the back-edge) keeps its register for the whole body.
//!
//! It must never: change what a module computes, allocate, or panic on a verified module (it
//! runs after `verify`; out-of-range operands are refused, not indexed).
use crate::ir::opt::effects;
use crate::ir::{Inst, Module, Op};
use crate::limits::{IF_DEPTH_MAX, LOOP_DEPTH_MAX, TEMP_CAP};

/// The register of every temp (`map[t]`; -1 for temps no instruction touches), and how many
/// registers the module now needs.
pub struct Renumbering {
    map: [i16; TEMP_CAP],
    /// Registers used: every mapped temp is below this.
    pub registers: u16,
}

/// Why a module does not fit: `inst` is where the temps live at once (the start of the first
/// block that found no room) need more than the registers available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressureError {
    pub inst: usize,
    /// Temps live at `inst` (including the block that did not fit).
    pub live: usize,
    pub registers: usize,
}

impl Renumbering {
    /// The register of temp `t` (None: out of range or untouched).
    pub fn register(&self, t: i16) -> Option<i16> {
        let r = *self.map.get(usize::try_from(t).ok()?)?;
        (r >= 0).then_some(r)
    }

    /// `i` with its temp operands renumbered (the fields `effects` names: the write is `dst`,
    /// the reads `a` and `b`; a range is renamed by its first temp, the block keeps the rest
    /// consecutive).
    pub fn apply(&self, i: &Inst) -> Inst {
        let (d, a, b) = temp_operands(i);
        let mut o = *i;
        let ren = |v: i16| self.register(v).unwrap_or(v);
        if d {
            o.dst = ren(i.dst);
        }
        if a {
            o.a = ren(i.a);
        }
        if b {
            o.b = ren(i.b);
        }
        o
    }
}

/// Which of `dst`, `a` and `b` name temps in `i` (the first of a range for matrix and
/// uniform-range operands).
pub fn temp_operands(i: &Inst) -> (bool, bool, bool) {
    let e = effects(i);
    (
        e.write.count > 0,
        e.reads[0].count > 0,
        e.reads[1].count > 0,
    )
}

const NEVER: u16 = u16::MAX;

fn touch(t: usize, at: u16, first: &mut [u16; TEMP_CAP], last: &mut [u16; TEMP_CAP]) {
    if let (Some(f), Some(l)) = (first.get_mut(t), last.get_mut(t)) {
        if *f == NEVER {
            *f = at;
        }
        *l = at;
    }
}

/// Renumbers the temps of verified module `m` into at most `regs` registers.
pub fn renumber(m: &Module, regs: usize) -> Result<Renumbering, PressureError> {
    let n = (m.temps as usize).min(TEMP_CAP);
    let mut first = [NEVER; TEMP_CAP];
    let mut last = [0u16; TEMP_CAP];
    // joined[t]: temps t and t + 1 belong to one block.
    let mut joined = [false; TEMP_CAP];
    // Lanes written at top level so far; lanes written directly in branch `scope[t]` (0: none);
    // temps that may be read before those lanes were written.
    let mut defined = [0u8; TEMP_CAP];
    let mut nested = [0u8; TEMP_CAP];
    let mut scope = [0u16; TEMP_CAP];
    let mut zero = [false; TEMP_CAP];
    // The open branches, innermost last (ids from 1; an ELSE opens a new one).
    let mut open = [0u16; IF_DEPTH_MAX + LOOP_DEPTH_MAX + 1];
    let mut depth = 0usize;
    let mut next_id = 0u16;
    // Open loops, and where the outermost one started.
    let mut loops = 0usize;
    let mut loop_start = 0u16;
    for (i, inst) in m.insts.iter().enumerate() {
        let at = i.min(NEVER as usize - 1) as u16;
        let e = effects(inst);
        for r in e.reads {
            if r.count == 0 || r.base < 0 {
                continue;
            }
            for k in 0..r.count as usize {
                let t = r.base as usize + k;
                touch(t, at, &mut first, &mut last);
                let mut have = defined.get(t).copied().unwrap_or(0);
                let sc = scope.get(t).copied().unwrap_or(0);
                if sc != 0 && open.get(..depth).unwrap_or(&[]).contains(&sc) {
                    have |= nested.get(t).copied().unwrap_or(0);
                }
                if have & r.lanes != r.lanes {
                    if let Some(z) = zero.get_mut(t) {
                        *z = true;
                    }
                }
                if k + 1 < r.count as usize {
                    if let Some(j) = joined.get_mut(t) {
                        *j = true;
                    }
                }
            }
        }
        let w = e.write;
        if w.count > 0 && w.base >= 0 {
            for k in 0..w.count as usize {
                let t = w.base as usize + k;
                touch(t, at, &mut first, &mut last);
                let here = depth.checked_sub(1).and_then(|d| open.get(d)).copied();
                match here {
                    None => {
                        if let Some(d) = defined.get_mut(t) {
                            *d |= w.lanes;
                        }
                    }
                    Some(id) => {
                        if let (Some(sc), Some(l)) = (scope.get_mut(t), nested.get_mut(t)) {
                            if *sc == id {
                                *l |= w.lanes;
                            } else if *sc == 0 || !open.get(..depth).unwrap_or(&[]).contains(sc) {
                                // The remembered branch has closed: this one replaces it.
                                *sc = id;
                                *l = w.lanes;
                            }
                            // Otherwise an outer branch is still open: it stays remembered.
                        }
                    }
                }
                if k + 1 < w.count as usize {
                    if let Some(j) = joined.get_mut(t) {
                        *j = true;
                    }
                }
            }
        }
        match inst.op {
            Op::If => {
                next_id = next_id.wrapping_add(1).max(1);
                if let Some(o) = open.get_mut(depth) {
                    *o = next_id;
                }
                depth += 1;
            }
            Op::Else => {
                next_id = next_id.wrapping_add(1).max(1);
                if let Some(o) = depth.checked_sub(1).and_then(|d| open.get_mut(d)) {
                    *o = next_id;
                }
            }
            Op::Endif => depth = depth.saturating_sub(1),
            Op::Loop => {
                next_id = next_id.wrapping_add(1).max(1);
                if let Some(o) = open.get_mut(depth) {
                    *o = next_id;
                }
                depth += 1;
                if loops == 0 {
                    loop_start = at;
                }
                loops += 1;
            }
            Op::EndLoop => {
                depth = depth.saturating_sub(1);
                loops = loops.saturating_sub(1);
                if loops == 0 {
                    for (f, l) in first.iter_mut().zip(last.iter_mut()).take(n) {
                        if *f != NEVER && *l >= loop_start {
                            *f = (*f).min(loop_start);
                            *l = at;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // Blocks: maximal runs of joined temps, with the union of their members' intervals.
    // block[b] = (start, end, first temp, width); at most one block per temp.
    let mut blocks = [(0u16, 0u16, 0u16, 0u16); TEMP_CAP];
    let mut nb = 0usize;
    let mut t = 0usize;
    while t < n {
        let lo = t;
        while t + 1 < n && joined.get(t).copied().unwrap_or(false) {
            t += 1;
        }
        let hi = t;
        t += 1;
        let (mut s, mut e) = (NEVER, 0u16);
        for u in lo..=hi {
            let (f, l) = (
                first.get(u).copied().unwrap_or(NEVER),
                last.get(u).copied().unwrap_or(0),
            );
            if f == NEVER {
                continue;
            }
            let f = if zero.get(u).copied().unwrap_or(false) {
                0
            } else {
                f
            };
            s = s.min(f);
            e = e.max(l);
        }
        if s == NEVER {
            continue; // untouched
        }
        if let Some(b) = blocks.get_mut(nb) {
            *b = (s, e, lo as u16, (hi - lo + 1) as u16);
            nb += 1;
        }
    }
    let blocks = blocks.get_mut(..nb).unwrap_or(&mut []);
    blocks.sort_unstable_by_key(|b| (b.0, b.2));
    let mut map = [-1i16; TEMP_CAP];
    // busy[r]: the last instruction of the block holding register r (None: never used).
    let mut busy: [Option<u16>; TEMP_CAP] = [None; TEMP_CAP];
    let regs = regs.min(TEMP_CAP);
    let mut used = 0usize;
    for &(s, e, lo, w) in blocks.iter() {
        let w = w as usize;
        let free = |r: usize, busy: &[Option<u16>; TEMP_CAP]| {
            busy.get(r).is_some_and(|b| b.is_none_or(|end| end < s))
        };
        let Some(base) = (0..regs.saturating_sub(w - 1))
            .find(|&r| (r..r + w).all(|x| x < regs && free(x, &busy)))
        else {
            let live = blocks
                .iter()
                .filter(|b| b.0 <= s && s <= b.1)
                .map(|b| b.3 as usize)
                .sum();
            return Err(PressureError {
                inst: s as usize,
                live,
                registers: regs,
            });
        };
        for k in 0..w {
            if let Some(b) = busy.get_mut(base + k) {
                *b = Some(e);
            }
            if let Some(m) = map.get_mut(lo as usize + k) {
                *m = (base + k) as i16;
            }
        }
        used = used.max(base + w);
    }
    Ok(Renumbering {
        map,
        registers: used as u16,
    })
}
