//! Structured liveness over profile 2's loops, and the optimisations it allows (issue 14).
//!
//! [`crate::ir::opt`]'s pass never kills a value (a write under IF may not run), and inside a
//! loop it keeps every value read anywhere in the body live everywhere in it. This pass runs
//! only on modules with a LOOP (profile 1 has none, so its modules never reach it) and computes
//! liveness over the structured control flow as each lane sees it: the executor's masks make
//! every lane follow its own path through IF/ELSE/ENDIF, LOOP/ENDLOOP, BREAK and CONTINUE, so a
//! per-lane backward dataflow is exact for the SIMD executor and for TGSI alike.
//!
//! - A write kills the lanes it writes (it runs whenever its lane's path passes it); STORE_IDX
//!   and STORE_LANE write no named lane (`lanes` 0) and kill nothing.
//! - IF: live before = live into the IF part ∪ live into the ELSE part (or after ENDIF) ∪ the
//!   condition. BREAK: live before = live after the loop. CONTINUE: live before = live at
//!   ENDLOOP (after the loop ∪ the loop's head). DISCARD falls through (conservative).
//! - LOOP/ENDLOOP: ENDLOOP goes back to the head or leaves (the bound, the budget); LOOP may
//!   skip the body (a spent budget). The head's set is iterated to its fixed point from empty.
//!
//! The sets of the last walk of a loop body are those of the fixed point, and that walk happens
//! inside the last walk of every enclosing body, so per-instruction facts are recorded on every
//! visit and the last visit's facts are the exact ones.
//!
//! With it: (1) dead code: a pure instruction whose written lanes are not live after it becomes
//! NOP (the old pass kept, for example, a postfix `i++`'s copy of the old value in every loop);
//! (2) copy coalescing: `t = OP ...; u = MOV t` (adjacent, same lanes, `t`'s lanes dead after
//! the MOV, OP lane-wise and not reading `u`, or reading it when OP is one of `alias_safe`'s
//! single-step ops) becomes `u = OP ...`, so loop variables are updated in place of a
//! compute-then-copy (`i = iadd i, one`); (3) reuse: a repeated computation in straight code
//! (the same op on the same unchanged operands) has its later reads renamed to the first
//! result, and then goes as dead code; (4) loop-invariant CONSTs are hoisted in front of the
//! innermost loop, and again past every nested loop that never writes their temp, so a
//! constant read only in an inner loop ends up in front of the outermost one.
//!
//! It must never: change what a module computes for any lane, panic, or index out of bounds on
//! an unverified module. A module with an operand outside the temps, unbalanced control flow, or
//! nesting deeper than [`DEPTH_MAX`] is left as it is.
use crate::ir::opt::{effects, Access};
use crate::ir::{Inst, Module, Op};
use crate::limits::{IR_CAP, TEMP_CAP};

const WORDS: usize = TEMP_CAP * 4 / 64;
/// Deepest IF/LOOP nesting analysed (each level holds a few sets on the stack).
pub(crate) const DEPTH_MAX: usize = 12;
/// Fixed-point rounds per loop visit before giving up (bit sets grow, so it always ends).
const ROUNDS_MAX: usize = 64;

/// Live temp lanes: bit `4 * t + k` is lane k of temp t. `W` words hold the lanes of temps
/// below `16 * W`: [`analyse`] walks a module with the narrowest sets that hold every temp it
/// names (the words past them would stay zero; copying and combining 512-byte sets cost most
/// of a loop shader's compile).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Set<const W: usize = WORDS>([u64; W]);

impl<const W: usize> Set<W> {
    pub(crate) const EMPTY: Set<W> = Set([0; W]);

    fn bits(a: Access, mut f: impl FnMut(usize, u64)) {
        if a.base < 0 {
            return;
        }
        for k in 0..a.count as usize {
            let t = a.base as usize + k;
            let bit = t * 4;
            f(bit / 64, ((a.lanes & 15) as u64) << (bit % 64));
        }
    }

    pub(crate) fn add(&mut self, a: Access) {
        let w = &mut self.0;
        Self::bits(a, |i, m| {
            if let Some(x) = w.get_mut(i) {
                *x |= m;
            }
        });
    }

    fn kill(&mut self, a: Access) {
        let w = &mut self.0;
        Self::bits(a, |i, m| {
            if let Some(x) = w.get_mut(i) {
                *x &= !m;
            }
        });
    }

    pub(crate) fn any(&self, a: Access) -> bool {
        let mut hit = false;
        Self::bits(a, |i, m| {
            hit |= self.0.get(i).is_none_or(|x| x & m != 0);
        });
        hit
    }

    fn union(&mut self, o: &Set<W>) {
        for (x, y) in self.0.iter_mut().zip(o.0.iter()) {
            *x |= *y;
        }
    }

    fn subset_of(&self, o: &Set<W>) -> bool {
        self.0.iter().zip(o.0.iter()).all(|(x, y)| x & !y == 0)
    }
}

/// Per-instruction facts of the last visit.
struct Facts {
    /// A pure instruction whose written lanes are not live after it.
    dead: [u64; IR_CAP / 64],
    /// A MOV whose source lanes are not live after it.
    src_dead: [u64; IR_CAP / 64],
}

fn set_bit(v: &mut [u64], i: usize, on: bool) {
    if let Some(w) = v.get_mut(i / 64) {
        if on {
            *w |= 1 << (i % 64);
        } else {
            *w &= !(1 << (i % 64));
        }
    }
}

fn bit(v: &[u64], i: usize) -> bool {
    v.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

struct Walk<'a, const W: usize> {
    insts: &'a [Inst],
    facts: Facts,
    ok: bool,
}

impl<const W: usize> Walk<'_, W> {
    /// The LOOP matching the ENDLOOP at `j`, or the IF (and ELSE) matching the ENDIF at `j`.
    fn opener(&self, j: usize) -> Option<(usize, Option<usize>)> {
        let mut depth = 0usize;
        let mut els = None;
        for k in (0..j).rev() {
            let op = self.insts.get(k)?.op;
            match op {
                Op::EndLoop | Op::Endif => depth += 1,
                Op::Loop | Op::If if depth > 0 => depth -= 1,
                Op::Loop | Op::If => {
                    let want = if self.insts.get(j)?.op == Op::EndLoop {
                        Op::Loop
                    } else {
                        Op::If
                    };
                    return (op == want).then_some((k, els));
                }
                Op::Else if depth == 0 => {
                    if els.is_some() {
                        return None;
                    }
                    els = Some(k);
                }
                _ => {}
            }
        }
        None
    }

    /// Live lanes before instructions `lo..hi` (one structured region) given those live after.
    fn region(
        &mut self,
        lo: usize,
        hi: usize,
        out: Set<W>,
        brk: &Set<W>,
        cont: &Set<W>,
        depth: usize,
    ) -> Set<W> {
        let mut live = out;
        if depth > DEPTH_MAX {
            self.ok = false;
            return live;
        }
        let mut j = hi;
        while j > lo && self.ok {
            j -= 1;
            let Some(inst) = self.insts.get(j) else {
                self.ok = false;
                break;
            };
            match inst.op {
                Op::EndLoop => {
                    let Some((s, None)) = self.opener(j).filter(|o| o.0 >= lo) else {
                        self.ok = false;
                        break;
                    };
                    let exit = live;
                    let mut head = Set::EMPTY;
                    let mut rounds = 0;
                    let body_in = loop {
                        let mut at_end = exit;
                        at_end.union(&head);
                        let body_in = self.region(s + 1, j, at_end, &exit, &at_end, depth + 1);
                        if body_in.subset_of(&head) || !self.ok {
                            break body_in;
                        }
                        head.union(&body_in);
                        rounds += 1;
                        if rounds > ROUNDS_MAX {
                            self.ok = false;
                            break body_in;
                        }
                    };
                    live = body_in;
                    live.union(&exit);
                    j = s;
                }
                Op::Endif => {
                    let Some((i, els)) = self.opener(j).filter(|o| o.0 >= lo) else {
                        self.ok = false;
                        break;
                    };
                    let after = live;
                    let (then_end, else_in) = match els {
                        Some(e) => (e, self.region(e + 1, j, after, brk, cont, depth + 1)),
                        None => (j, after),
                    };
                    live = self.region(i + 1, then_end, after, brk, cont, depth + 1);
                    live.union(&else_in);
                    if let Some(c) = self.insts.get(i) {
                        for r in effects(c).reads {
                            live.add(r);
                        }
                    }
                    j = i;
                }
                Op::Break => live = *brk,
                Op::Continue => live = *cont,
                Op::Loop | Op::If | Op::Else => {
                    self.ok = false;
                    break;
                }
                _ => {
                    let e = effects(inst);
                    let dead = inst.op.is_pure() && e.write.count > 0 && !live.any(e.write);
                    set_bit(&mut self.facts.dead, j, dead);
                    let src_dead = inst.op == Op::Mov && !live.any(e.reads[0]);
                    if e.write.lanes != 0 {
                        live.kill(e.write);
                    }
                    for r in e.reads {
                        live.add(r);
                    }
                    // The source counts as dead after the MOV unless something after reads it
                    // (the MOV's own read is not "after").
                    set_bit(&mut self.facts.src_dead, j, src_dead);
                }
            }
        }
        live
    }
}

/// One past the highest temp an operand names, when every operand of every instruction names
/// temps inside the table (None otherwise).
fn in_range(m: &Module) -> Option<usize> {
    let mut top = 0;
    for i in &m.insts {
        let e = effects(i);
        for a in [e.write, e.reads[0], e.reads[1]] {
            if a.count == 0 {
                continue;
            }
            let end = a.base as usize + a.count as usize;
            if a.base < 0 || end > TEMP_CAP {
                return None;
            }
            top = top.max(end);
        }
    }
    Some(top)
}

/// Facts of the whole module, or None when it is left alone.
fn analyse(m: &Module) -> Option<Facts> {
    let top = in_range(m)?;
    // The same walk with sets of 4, 16 or all words: every set bit is below `4 * top`.
    if top <= 16 * 4 {
        analyse_in::<4>(m)
    } else if top <= 16 * 16 {
        analyse_in::<16>(m)
    } else {
        analyse_in::<WORDS>(m)
    }
}

fn analyse_in<const W: usize>(m: &Module) -> Option<Facts> {
    let mut w = Walk::<W> {
        insts: &m.insts,
        facts: Facts {
            dead: [0; IR_CAP / 64],
            src_dead: [0; IR_CAP / 64],
        },
        ok: true,
    };
    let none = Set::EMPTY;
    let _ = w.region(0, m.insts.len(), Set::EMPTY, &none, &none, 0);
    w.ok.then_some(w.facts)
}

/// Live lanes before the first instruction (the values read before any write: "temps start at
/// zero"), for tests.
#[cfg(test)]
pub(crate) fn live_in(m: &Module) -> Option<Set> {
    in_range(m)?;
    let mut w = Walk::<WORDS> {
        insts: &m.insts,
        facts: Facts {
            dead: [0; IR_CAP / 64],
            src_dead: [0; IR_CAP / 64],
        },
        ok: true,
    };
    let none = Set::EMPTY;
    let s = w.region(0, m.insts.len(), Set::EMPTY, &none, &none, 0);
    w.ok.then_some(s)
}

/// Indexes of the pure instructions the structured liveness finds dead, for tests.
#[cfg(test)]
pub(crate) fn dead_insts(m: &Module) -> Option<heapless::Vec<usize, 64>> {
    let f = analyse(m)?;
    let mut v = heapless::Vec::new();
    for i in 0..m.insts.len() {
        if bit(&f.dead, i) {
            let _ = v.push(i);
        }
    }
    Some(v)
}

/// Lane-wise ops (component k of the result depends on component k of the operands only) and
/// CONST: their destination may be renamed freely.
fn lane_wise(op: Op) -> bool {
    matches!(
        op,
        Op::Const
            | Op::Mov
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Max
            | Op::Min
            | Op::Div
            | Op::Abs
            | Op::Rsq
            | Op::Rcp
            | Op::Sin
            | Op::Cos
            | Op::Trunc
            | Op::Sqrt
            | Op::Floor
            | Op::Ceil
            | Op::Fract
            | Op::RoundEven
            | Op::Exp2
            | Op::Log2
            | Op::Sign
            | Op::Pow
            | Op::CmpV
    ) || op.is_int()
}

/// Applies dead-code removal and copy coalescing until nothing changes; true when something
/// changed. Modules without a LOOP are not touched.
pub fn optimize_loops(m: &mut Module) -> bool {
    if !m.insts.iter().any(|i| i.op == Op::Loop) {
        return false;
    }
    let mut any = false;
    // One hoist per round, and nested loops hoist a constant once per level.
    for _ in 0..512 {
        let Some(f) = analyse(m) else { break };
        let mut changed = false;
        for i in 0..m.insts.len() {
            if bit(&f.dead, i) {
                if let Some(inst) = m.insts.get_mut(i) {
                    *inst = Inst::new(Op::Nop);
                    changed = true;
                }
            }
        }
        if !changed {
            for j in 0..m.insts.len() {
                if coalesce(m, &f, j) {
                    changed = true;
                }
            }
        }
        if !changed {
            changed = reuse(m);
        }
        if !changed {
            changed = hoist_const(m);
        }
        if !changed {
            break;
        }
        any = true;
    }
    any
}

/// The innermost LOOP around instruction `j`.
fn enclosing_loop(m: &Module, j: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (0..j).rev() {
        match m.insts.get(k)?.op {
            Op::EndLoop => depth += 1,
            Op::Loop if depth == 0 => return Some(k),
            Op::Loop => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Loop-invariant constants: a CONST into `t` inside a loop whose reads (those it alone
/// reaches: up to the next write of `t`, a LOOP or ENDLOOP, or the end of its IF part) are
/// renamed to a fresh temp set by a copy of the CONST placed before the innermost LOOP. The
/// fresh temp is written once and only read where `t` held the same value, so every lane reads
/// the same bits; the in-loop CONST then goes as dead code when nothing else reads it. Only
/// while the module stays within the executor's register file without renumbering
/// (`TEMP_MAX`), so no module that ran before can fail to. One hoist per call.
fn hoist_const(m: &mut Module) -> bool {
    use crate::limits::TEMP_MAX;
    if m.temps as usize >= TEMP_MAX {
        return false;
    }
    let fresh = m.temps as i16;
    for j in 0..m.insts.len() {
        let Some(&x) = m.insts.get(j) else { break };
        if x.op != Op::Const || x.dst < 0 {
            continue;
        }
        let Some(s) = enclosing_loop(m, j) else {
            continue;
        };
        let t = x.dst;
        let mut renamed = false;
        let mut depth = 0usize;
        // Inside a nested loop that never writes t, up to its ENDLOOP (exclusive).
        let mut inner_end = 0usize;
        let mut k = j + 1;
        while k < m.insts.len() {
            let Some(op) = m.insts.get(k).map(|i| i.op) else {
                break;
            };
            if inner_end != 0 && k == inner_end {
                // The nested loop's ENDLOOP: scanning goes on after it.
                inner_end = 0;
                k += 1;
                continue;
            }
            if k >= inner_end {
                match op {
                    // A nested loop that never writes t: each of its reads sees the CONST's
                    // value (the loop is entered only through its LOOP, reached from here).
                    Op::Loop => match loop_end(m, k) {
                        Some(end) if !writes_between(m, k, end, t) => {
                            inner_end = end;
                            k += 1;
                            continue;
                        }
                        _ => break,
                    },
                    Op::EndLoop => break,
                    Op::If => depth += 1,
                    Op::Else if depth == 0 => break,
                    Op::Endif if depth == 0 => break,
                    Op::Endif => depth -= 1,
                    _ => {}
                }
            }
            let Some(inst) = m.insts.get_mut(k) else {
                break;
            };
            let e = effects(inst);
            for (r, field) in e.reads.iter().zip([0, 1]) {
                if r.count == 1 && r.base == t && r.lanes != 0 {
                    if field == 0 {
                        inst.a = fresh;
                    } else {
                        inst.b = fresh;
                    }
                    renamed = true;
                }
            }
            let w = effects(inst).write;
            let hits = w.count > 0 && w.base <= t && (t as i32) < w.base as i32 + w.count as i32;
            if hits {
                break;
            }
            k += 1;
        }
        if renamed {
            let copy = Inst { dst: fresh, ..x };
            if m.insts.insert(s, copy).is_ok() {
                m.temps += 1;
                return true;
            }
            // No room: undo the renaming.
            for k in j + 1..m.insts.len() {
                if let Some(inst) = m.insts.get_mut(k) {
                    if inst.a == fresh {
                        inst.a = t;
                    }
                    if inst.b == fresh {
                        inst.b = t;
                    }
                }
            }
            return false;
        }
    }
    false
}

/// Control flow and DISCARD: where a straight run of instructions ends.
fn is_flow(op: Op) -> bool {
    matches!(
        op,
        Op::If
            | Op::Else
            | Op::Endif
            | Op::Loop
            | Op::EndLoop
            | Op::Break
            | Op::Continue
            | Op::Discard
    )
}

/// Whether `a` touches temp `t`.
fn holds(a: Access, t: i16) -> bool {
    a.count > 0 && a.base <= t && (t as i32) < a.base as i32 + a.count as i32
}

/// Repeated computations in straight code: `u = OP x, y` after an identical `t = OP x, y`
/// (same operands and aux, none of them, nor t, written in between, no control flow in
/// between; OP's result a function of its operands only) has the reads that follow it in the
/// same straight run renamed to `t`, up to the next write of `u` or `t` (only reads of the lanes
/// OP writes: those hold the same bits in both). The second instruction then goes as dead code
/// (the fractal's `z.y` was swizzled out three times per iteration). Names only: nothing is
/// computed differently.
fn reuse(m: &mut Module) -> bool {
    let mut changed = false;
    for j in 0..m.insts.len() {
        let Some(&x) = m.insts.get(j) else { break };
        let pure = (lane_wise(x.op) && !matches!(x.op, Op::Const | Op::Mov))
            || matches!(x.op, Op::Swz | Op::Dot | Op::Cmp);
        if !pure || x.dst < 0 {
            continue;
        }
        let ex = effects(&x);
        if ex.write.count != 1 || ex.reads.iter().any(|r| r.count > 1 || holds(*r, x.dst)) {
            continue;
        }
        // The latest identical instruction before j in the same straight run.
        let mut written = Set::<WORDS>::EMPTY;
        let mut found = None;
        for k in (0..j).rev() {
            let Some(&y) = m.insts.get(k) else { break };
            if is_flow(y.op) {
                break;
            }
            let same = Inst { dst: x.dst, ..y } == x;
            let ey = effects(&y);
            if same
                && y.dst != x.dst
                && !ey.reads.iter().any(|r| holds(*r, y.dst))
                && !written.any(Access {
                    base: y.dst,
                    count: 1,
                    lanes: 15,
                })
            {
                found = Some(y.dst);
                break;
            }
            if ey.write.count > 0 && ey.write.lanes != 0 {
                written.add(ey.write);
            } else if ey.write.count > 0 {
                // A write of no named lane (an indexed store): may touch any of its range.
                written.add(Access {
                    lanes: 15,
                    ..ey.write
                });
            }
            if ex.reads.iter().any(|r| r.count > 0 && written.any(*r)) {
                break;
            }
        }
        let Some(t) = found else { continue };
        let u = x.dst;
        for i in j + 1..m.insts.len() {
            let Some(inst) = m.insts.get_mut(i) else {
                break;
            };
            if is_flow(inst.op) {
                break;
            }
            let e = effects(inst);
            for (r, field) in e.reads.iter().zip([0, 1]) {
                if r.count == 1 && r.base == u && r.lanes & !ex.write.lanes == 0 {
                    if field == 0 {
                        inst.a = t;
                    } else {
                        inst.b = t;
                    }
                    changed = true;
                }
            }
            if holds(e.write, u) || holds(e.write, t) {
                break;
            }
        }
    }
    changed
}

/// The ENDLOOP matching the LOOP at `k`.
fn loop_end(m: &Module, k: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in k + 1..m.insts.len() {
        match m.insts.get(i)?.op {
            Op::Loop => depth += 1,
            Op::EndLoop if depth == 0 => return Some(i),
            Op::EndLoop => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether an instruction strictly between `lo` and `hi` writes temp `t` (or may: an operand
/// range holding it).
fn writes_between(m: &Module, lo: usize, hi: usize, t: i16) -> bool {
    m.insts
        .iter()
        .take(hi)
        .skip(lo + 1)
        .any(|i| holds(effects(i).write, t))
}

/// Ops whose destination may also be one of their sources: component k of the result depends on
/// component k of the operands only, the executor computes each component from its operands
/// before writing it (`binary`, `ints::run`), and the TGSI emitter writes each as one
/// instruction that reads every source before writing its destination (ADD, MUL, MAX, MIN,
/// UADD, UMUL, AND, OR, XOR; ISUB is INEG into the emitter's scratch register, then UADD), with
/// no scratch use of the destination. Division, the transcendental and compare expansions use
/// the destination or more than one instruction, so they are not listed.
fn alias_safe(op: Op) -> bool {
    matches!(
        op,
        Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Max
            | Op::Min
            | Op::IAdd
            | Op::ISub
            | Op::IMul
            | Op::And
            | Op::Or
            | Op::Xor
    )
}

/// `t = OP ...; u = MOV t` at `j` (OP the previous non-NOP) becomes `u = OP ...` when allowed.
fn coalesce(m: &mut Module, f: &Facts, j: usize) -> bool {
    let Some(&mv) = m.insts.get(j) else {
        return false;
    };
    if mv.op != Op::Mov || !bit(&f.src_dead, j) {
        return false;
    }
    let Some(k) = (0..j)
        .rev()
        .find(|&k| m.insts.get(k).is_some_and(|i| i.op != Op::Nop))
    else {
        return false;
    };
    let Some(&p) = m.insts.get(k) else {
        return false;
    };
    let (em, ep) = (effects(&mv), effects(&p));
    let u = em.write;
    if !lane_wise(p.op)
        || ep.write.count != 1
        || ep.write != em.reads[0]
        || u.count != 1
        || u.lanes != ep.write.lanes
        || u.base == ep.write.base
    {
        return false;
    }
    // OP may read u only when it is one lane-wise step in every backend (see `alias_safe`).
    let overlaps = |r: Access| {
        r.count > 0 && r.base <= u.base && (u.base as i32) < r.base as i32 + r.count as i32
    };
    if !alias_safe(p.op) && ep.reads.iter().any(|r| overlaps(*r)) {
        return false;
    }
    if let Some(pi) = m.insts.get_mut(k) {
        pi.dst = u.base;
    }
    if let Some(mi) = m.insts.get_mut(j) {
        *mi = Inst::new(Op::Nop);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Stage;

    fn ins(op: Op, dst: i16, a: i16, b: i16, lanes: u8) -> Inst {
        Inst {
            lanes,
            dst,
            a,
            b,
            ..Inst::new(op)
        }
    }

    /// The narrow sets find what the full-width ones find, on every compiled corpus and
    /// compatibility shader with a loop.
    #[test]
    fn narrow_sets_give_the_full_width_facts() {
        let mut walked = 0;
        for (name, stage, src) in crate::program::compile::corpus_sources() {
            let Ok(sh) = crate::program::compile::compile(stage, &src, &name) else {
                continue;
            };
            let m = &sh.module;
            if !m.insts.iter().any(|i| i.op == Op::Loop) {
                continue;
            }
            let (narrow, wide) = (analyse(m), analyse_in::<WORDS>(m));
            assert_eq!(narrow.is_some(), wide.is_some(), "{}", name);
            if let (Some(a), Some(b)) = (narrow, wide) {
                assert!(a.dead == b.dead && a.src_dead == b.src_dead, "{}", name);
                walked += 1;
            }
        }
        assert!(walked > 20, "{}", walked);
    }

    fn module(insts: &[Inst]) -> Module {
        let mut m = Module::new(Stage::Fragment);
        m.temps = 8;
        for i in insts {
            m.insts.push(*i).unwrap();
        }
        m
    }

    fn lp() -> Inst {
        Inst {
            aux: 4,
            ..Inst::new(Op::Loop)
        }
    }

    fn one(t: i16, lanes: u8) -> Access {
        Access {
            base: t,
            count: 1,
            lanes,
        }
    }

    #[test]
    fn a_value_read_across_the_back_edge_is_live_at_the_loop() {
        // %1 = ...; loop { %2 = add %1, %0; %1 = mov %2; } store %1
        let m = module(&[
            ins(Op::Const, 0, -1, -1, 1),
            ins(Op::Const, 1, -1, -1, 1),
            lp(),
            ins(Op::Add, 2, 1, 0, 1),
            ins(Op::Mov, 1, 2, -1, 1),
            Inst::new(Op::EndLoop),
            ins(Op::StoreColor, -1, 1, -1, 0),
        ]);
        assert_eq!(dead_insts(&m).unwrap().as_slice(), &[] as &[usize]);
        // Nothing is read before it is written.
        assert_eq!(live_in(&m).unwrap(), Set::EMPTY);
    }

    #[test]
    fn a_value_defined_and_last_read_in_one_iteration_is_not_live_across() {
        // loop { %3 = const; %4 = add %3, %3; %5 = mov %3 (never read); %0 = add %0, %4 } store %0
        let m = module(&[
            lp(),
            ins(Op::Const, 3, -1, -1, 1),
            ins(Op::Add, 4, 3, 3, 1),
            ins(Op::Mov, 5, 3, -1, 4),
            ins(Op::Add, 0, 0, 4, 1),
            Inst::new(Op::EndLoop),
            ins(Op::StoreColor, -1, 0, -1, 0),
        ]);
        // The old pass keeps the MOV (%5 is... never read: it would drop it too); the point
        // here is the live-in set: only %0 (all four lanes: STORE_COLOR reads them, and only
        // lane 0 is ever written) is read before being written; %3 and %4 are not.
        assert_eq!(dead_insts(&m).unwrap().as_slice(), &[3]);
        let s = live_in(&m).unwrap();
        assert!(s.any(one(0, 15)));
        assert!(!s.any(one(3, 15)) && !s.any(one(4, 15)));
    }

    #[test]
    fn break_and_continue_take_the_exit_and_head_sets() {
        // loop { if %6 { break } %1 = const; %2 = mov %1 } store %2:
        // %2 is live at BREAK (after the loop), so the MOV stays; a MOV into %7 after a
        // CONTINUE that %7's only reader (before the CONTINUE, next iteration) needs stays too.
        let m = module(&[
            ins(Op::Const, 6, -1, -1, 1),
            lp(),
            ins(Op::If, -1, 6, -1, 0),
            Inst::new(Op::Break),
            Inst::new(Op::Endif),
            ins(Op::Add, 0, 7, 7, 1),
            ins(Op::If, -1, 0, -1, 0),
            Inst::new(Op::Continue),
            Inst::new(Op::Endif),
            ins(Op::Const, 1, -1, -1, 1),
            ins(Op::Mov, 2, 1, -1, 4),
            ins(Op::Const, 7, -1, -1, 1),
            ins(Op::Const, 5, -1, -1, 1),
            Inst::new(Op::EndLoop),
            ins(Op::StoreColor, -1, 2, -1, 0),
        ]);
        assert_eq!(dead_insts(&m).unwrap().as_slice(), &[12]);
        let s = live_in(&m).unwrap();
        // %2 (read after the loop, maybe never written: the loop may break first) and %7
        // (read in the first iteration before its write) are live at the start.
        assert!(s.any(one(2, 15)) && s.any(one(7, 1)));
        assert!(!s.any(one(1, 15)) && !s.any(one(0, 15)));
    }

    #[test]
    fn a_write_under_if_does_not_kill() {
        // %1 = const; loop { if %0 { %1 = const } } store %1: the first CONST stays.
        let m = module(&[
            ins(Op::Const, 0, -1, -1, 1),
            ins(Op::Const, 1, -1, -1, 4),
            lp(),
            ins(Op::If, -1, 0, -1, 0),
            ins(Op::Const, 1, -1, -1, 4),
            Inst::new(Op::Endif),
            Inst::new(Op::EndLoop),
            ins(Op::StoreColor, -1, 1, -1, 0),
        ]);
        assert_eq!(dead_insts(&m).unwrap().as_slice(), &[] as &[usize]);
    }

    #[test]
    fn unbalanced_or_out_of_range_modules_are_left_alone() {
        let mut m = module(&[lp(), ins(Op::Const, 1, -1, -1, 1)]);
        assert!(!optimize_loops(&mut m));
        let mut m = module(&[lp(), ins(Op::Mov, 2, 5000, -1, 4), Inst::new(Op::EndLoop)]);
        assert!(dead_insts(&m).is_none());
        assert!(!optimize_loops(&mut m));
    }
}
