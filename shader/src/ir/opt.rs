//! Dead-result elimination over the IR: pure instructions whose results no later instruction
//! reads become NOP.
//!
//! It owns the read/write lane model of every opcode ([`effects`]), which the executor reuses
//! to find temps that may be read before they are written.
//!
//! Correctness rules (the old design broke them, see the reference's fault list): every column
//! of a matrix operand counts as read (MULMV, MULMM, every column a+k and b+k); partial-lane
//! writes (MOV/ADD/... with fewer than 4 lanes, SETLANE, DOT, CMP) keep the other lanes of
//! `dst`, so an earlier writer of those lanes stays live when a later reader wants them; a NOP
//! reads nothing. Liveness is tracked per temp lane and is never killed by a later write (the IR
//! has structured IF/ELSE whose writes may not run), so a result is removed only when no
//! surviving later instruction reads any lane it writes. Without a loop one backward pass
//! reaches the fixed point (a second one is not run). A profile-2 LOOP's body runs again
//! after its end, so a value read anywhere in a loop body is live everywhere in it: reaching an
//! ENDLOOP (walking backwards), every read of the body counts as live before anything in the
//! body is considered, and the pass is repeated until nothing changes. Modules with loops then go through [`crate::ir::loopopt`], whose
//! structured liveness kills on writes and so removes more.
//!
//! It must never: remove an impure instruction (stores, control flow, DISCARD), remove a result
//! that a later instruction reads, or index out of bounds on an unverified module (operands out
//! of range are treated as "reads everything", which keeps the instruction).
use crate::ir::{Inst, Module, Op};
use crate::limits::TEMP_MAX;

/// A range of consecutive temps and the lanes touched in each (bit k = lane k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    pub base: i16,
    /// Temps in the range (u16: an indirectly indexed array is one range).
    pub count: u16,
    pub lanes: u8,
}

impl Access {
    pub(crate) const NONE: Access = Access {
        base: -1,
        count: 0,
        lanes: 0,
    };
    fn one(base: i16, lanes: u8) -> Access {
        Access {
            base,
            count: 1,
            lanes,
        }
    }
}

/// What one instruction reads and writes, in temp lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Effects {
    pub write: Access,
    pub reads: [Access; 2],
}

impl Effects {
    /// No access (a NOP's effects).
    pub(crate) const NONE: Effects = Effects {
        write: Access::NONE,
        reads: [Access::NONE; 2],
    };
}

/// The low `n` lanes (all four from 4 up): 0, 1, 3, 7, 15, without a jump table.
fn mask(n: u8) -> u8 {
    (1u8 << n.min(4)) - 1
}

/// Lanes of an op whose stored 0 means `zero_means`.
fn lanes_or(lanes: u8, zero_means: u8) -> u8 {
    if lanes == 0 {
        zero_means
    } else {
        lanes.min(4)
    }
}

fn cols(aux: i16, zero_means: u8) -> u8 {
    match aux {
        0 => zero_means,
        3 => 3,
        _ => 4,
    }
}

/// The usual instruction's effects held in registers: at most the one temp `dst` written and
/// the single temps `a` and `b` read, each with its lanes (0: no access, [`Access::NONE`]).
/// [`straight_pass`] works from this form without building an [`Effects`] in memory.
#[derive(Clone, Copy)]
struct Simple {
    w: u8,
    a: u8,
    b: u8,
}

impl Simple {
    const NONE: Simple = Simple { w: 0, a: 0, b: 0 };
    #[inline(always)]
    fn new(w: u8, a: u8, b: u8) -> Simple {
        Simple { w, a, b }
    }
    #[inline(always)]
    fn effects(self, i: &Inst) -> Effects {
        let one = |base: i16, lanes: u8| {
            if lanes == 0 {
                Access::NONE
            } else {
                Access::one(base, lanes)
            }
        };
        Effects {
            write: one(i.dst, self.w),
            reads: [one(i.a, self.a), one(i.b, self.b)],
        }
    }
}

/// The [`Simple`] form of `i`'s effects, or `None` for the ops whose effects need ranges (or
/// a defined-nothing write, STORE_LANE). Every op is named here, so a new one must be sorted.
#[inline(always)]
fn simple(i: &Inst) -> Option<Simple> {
    Some(match i.op {
        Op::Nop | Op::Else | Op::Endif | Op::Discard => Simple::NONE,
        Op::Loop | Op::Break | Op::Continue | Op::EndLoop => Simple::NONE,
        Op::Const | Op::LoadAttr | Op::LoadVar | Op::LoadFcoord | Op::LoadSysval | Op::LoadFace => {
            Simple::new(15, 0, 0)
        }
        Op::Mov | Op::Abs => {
            let m = mask(lanes_or(i.lanes, 4));
            Simple::new(m, m, 0)
        }
        Op::Swz => {
            let mut read = 0u8;
            for k in 0..lanes_or(i.lanes, 4) {
                read |= 1 << ((i.aux >> (2 * k)) & 3);
            }
            Simple::new(15, read, 0)
        }
        Op::SetLane => Simple::new(1 << (i.aux & 3), 1 << (i.aux2 & 3), 0),
        Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div => {
            let m = mask(lanes_or(i.lanes, 4));
            Simple::new(m, m, m)
        }
        Op::Rsq
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
        | Op::Ddx
        | Op::Ddy => {
            let m = mask(lanes_or(i.lanes, 1));
            Simple::new(m, m, 0)
        }
        crate::ir::int_ops!() => {
            let m = mask(lanes_or(i.lanes, 1));
            Simple::new(m, m, if i.op.is_int_unary() { 0 } else { m })
        }
        Op::Pow | Op::CmpV => {
            let m = mask(lanes_or(i.lanes, 1));
            Simple::new(m, m, m)
        }
        Op::Dot => {
            let m = mask(cols(i.aux, 3));
            Simple::new(1, m, m)
        }
        Op::Cmp => Simple::new(1, 1, 1),
        Op::Sample => Simple::new(15, 3, 0),
        Op::SampleLod | Op::TexFetch | Op::CubeLod | Op::ShadowLod | Op::ArrLod | Op::ArrFetch => {
            Simple::new(15, coord_lanes(i.op), 1)
        }
        Op::SampleBias | Op::CubeBias | Op::ShadowBias | Op::ShadowCube | Op::ArrBias => {
            Simple::new(15, coord_lanes(i.op), if i.b >= 0 { 1 } else { 0 })
        }
        Op::TexSize | Op::ArrSize => Simple::new(15, 1, 0),
        Op::StorePos | Op::StoreVar | Op::StoreColor | Op::StoreDepth | Op::StoreClip => {
            Simple::new(0, 15, 0)
        }
        Op::If => Simple::new(0, 1, 0),
        Op::LoadUniIdx => Simple::new(15, 1, 0),
        Op::MulMV
        | Op::MulMM
        | Op::SampleGrad
        | Op::CubeGrad
        | Op::ShadowGrad
        | Op::ArrGrad
        | Op::LoadUni
        | Op::LoadIdx
        | Op::StoreIdx
        | Op::LoadLane
        | Op::StoreLane => return None,
    })
}

pub(crate) fn effects(i: &Inst) -> Effects {
    match simple(i) {
        Some(s) => s.effects(i),
        None => range_effects(i),
    }
}

/// The effects of the ops [`simple`] leaves out.
fn range_effects(i: &Inst) -> Effects {
    match i.op {
        Op::MulMV => {
            let n = cols(i.aux, 4);
            Effects {
                write: Access::one(i.dst, 15),
                reads: [
                    Access {
                        base: i.a,
                        count: n as u16,
                        lanes: 15,
                    },
                    Access::one(i.b, 15),
                ],
            }
        }
        Op::MulMM => {
            let n = cols(i.aux, 4);
            Effects {
                write: Access {
                    base: i.dst,
                    count: n as u16,
                    lanes: 15,
                },
                reads: [
                    Access {
                        base: i.a,
                        count: n as u16,
                        lanes: 15,
                    },
                    Access {
                        base: i.b,
                        count: n as u16,
                        lanes: 15,
                    },
                ],
            }
        }
        Op::SampleGrad | Op::CubeGrad | Op::ShadowGrad | Op::ArrGrad => Effects {
            write: Access::one(i.dst, 15),
            reads: [
                Access::one(i.a, coord_lanes(i.op)),
                Access {
                    base: i.b,
                    count: 2,
                    // The derivatives are of (s, t) only.
                    lanes: if i.op == Op::ArrGrad {
                        3
                    } else {
                        coord_lanes(i.op)
                    },
                },
            ],
        },
        Op::LoadUni => {
            let n = i.aux2.clamp(0, 4) as u8;
            Effects {
                write: Access {
                    base: i.dst,
                    count: n as u16,
                    lanes: 15,
                },
                reads: [Access::NONE; 2],
            }
        }
        // Profile 2's indirect ops: the whole indexed range counts as read (LOAD_IDX) or
        // written (STORE_IDX), so liveness and register allocation treat it as one object. A
        // STORE_IDX or STORE_LANE writes lanes nobody can name statically: its write defines
        // no lane (`lanes` 0), so those ops are not pure and never dropped.
        Op::LoadIdx => Effects {
            write: Access::one(i.dst, 15),
            reads: [Access::one(i.a, 1), range(i.b, i.aux, i.aux2)],
        },
        Op::StoreIdx => Effects {
            write: Access {
                lanes: 0,
                ..range(i.dst, i.aux, i.aux2)
            },
            reads: [
                Access::one(i.a, 1),
                Access::one(i.b, mask(lanes_or(i.lanes, 4))),
            ],
        },
        Op::LoadLane => Effects {
            write: Access::one(i.dst, 1),
            reads: [
                Access::one(i.a, 1),
                Access::one(i.b, mask(i.aux.clamp(0, 4) as u8)),
            ],
        },
        Op::StoreLane => Effects {
            write: Access::one(i.dst, 0),
            reads: [Access::one(i.a, 1), Access::one(i.b, 1)],
        },
        // The [`simple`] ops: not reached from `effects`.
        _ => match simple(i) {
            Some(s) => s.effects(i),
            None => Effects::NONE,
        },
    }
}

/// The temp range `len` elements of `stride` temps from `base` (LOAD_IDX, STORE_IDX).
fn range(base: i16, len: i16, stride: i16) -> Access {
    let n = (len.max(0) as i32 * stride.max(0) as i32).clamp(0, u16::MAX as i32) as u16;
    Access {
        base,
        count: n,
        lanes: 15,
    }
}

/// Live lanes per temp; out-of-range accesses are treated conservatively.
struct Live {
    lanes: [u8; TEMP_MAX],
    /// Set when an instruction read a temp outside the table: keep everything from then on.
    everything: bool,
}

impl Live {
    /// [`Live::read`] of `Access::one(base, lanes)`, `lanes` not 0.
    #[inline(always)]
    fn read_one(&mut self, base: i16, lanes: u8) {
        match usize::try_from(base)
            .ok()
            .and_then(|t| self.lanes.get_mut(t))
        {
            Some(l) => *l |= lanes,
            None => self.everything = true,
        }
    }

    /// [`Live::is_read`] of `Access::one(base, lanes)`.
    #[inline(always)]
    fn is_read_one(&self, base: i16, lanes: u8) -> bool {
        self.everything
            || usize::try_from(base)
                .ok()
                .and_then(|t| self.lanes.get(t))
                .is_none_or(|l| l & lanes != 0)
    }

    /// The table entries of `a`'s temps when they are all inside it.
    fn range(&self, a: Access) -> Option<&[u8]> {
        let base = usize::try_from(a.base).ok()?;
        self.lanes.get(base..base + a.count as usize)
    }

    fn range_mut(&mut self, a: Access) -> Option<&mut [u8]> {
        let base = usize::try_from(a.base).ok()?;
        self.lanes.get_mut(base..base + a.count as usize)
    }

    fn read(&mut self, a: Access) {
        if a.count == 0 || a.lanes == 0 {
            return;
        }
        if a.count == 1 {
            // One temp, the usual access: no range loop.
            self.read_one(a.base, a.lanes);
            return;
        }
        // A range inside the table (matrix columns, uniform loads): one bounds check.
        if let Some(r) = self.range_mut(a) {
            for l in r {
                *l |= a.lanes;
            }
            return;
        }
        for k in 0..a.count as i32 {
            let t = a.base as i32 + k;
            match usize::try_from(t).ok().and_then(|t| self.lanes.get_mut(t)) {
                Some(l) => *l |= a.lanes,
                None => self.everything = true,
            }
        }
    }

    fn is_read(&self, w: Access) -> bool {
        if self.everything {
            return true;
        }
        if w.count == 1 {
            return self.is_read_one(w.base, w.lanes);
        }
        if let Some(r) = self.range(w) {
            return r.iter().any(|l| l & w.lanes != 0);
        }
        for k in 0..w.count as i32 {
            let t = w.base as i32 + k;
            match usize::try_from(t).ok().and_then(|t| self.lanes.get(t)) {
                Some(l) if l & w.lanes == 0 => {}
                _ => return true,
            }
        }
        false
    }
}

/// Replaces pure instructions whose results are never read with NOP.
pub fn optimize(m: &mut Module) {
    let _ = optimize_recording(m, None);
}

/// [`optimize`]; with `fx`, also fills it with [`effects`] of every instruction of the result
/// (its last pass computed them) and returns true, unless the module has a loop (`fx` is then
/// left empty: `loopopt` changes the module after that pass).
pub(crate) fn optimize_recording(
    m: &mut Module,
    mut fx: Option<&mut heapless::Vec<Effects, { crate::limits::IR_CAP }>>,
) -> bool {
    if let Some(fx) = fx.as_deref_mut() {
        crate::ir::refill(fx, m.insts.len(), Effects::NONE);
    }
    let mut live = Live {
        lanes: [0; TEMP_MAX],
        everything: false,
    };
    // The first pass without loop handling up to the last LOOP or ENDLOOP: every profile-1
    // module and most profile-2 ones have none, and are done then.
    let slots: &mut [Effects] = match fx.as_deref_mut() {
        Some(fx) => fx,
        None => &mut [],
    };
    let Err((mut upto, mut changed)) = straight_pass(&mut m.insts, slots, &mut live) else {
        return fx.is_some();
    };
    // Whether the module has a LOOP (seen by the first pass; a LOOP is never removed).
    let mut looped = false;
    loop {
        // The recorded effects as a plain slice (empty without `fx`), taken once per pass.
        let slots: &mut [Effects] = match fx.as_deref_mut() {
            Some(fx) => fx,
            None => &mut [],
        };
        for i in (0..=upto).rev() {
            let Some(&cur) = m.insts.get(i) else { continue };
            looped |= cur.op == Op::Loop;
            if cur.op == Op::EndLoop {
                // The reads of the whole body (up to the matching LOOP) are live in it.
                let mut depth = 0usize;
                for j in (0..i).rev() {
                    let Some(b) = m.insts.get(j) else { break };
                    match b.op {
                        Op::EndLoop => depth += 1,
                        Op::Loop if depth == 0 => break,
                        Op::Loop => depth -= 1,
                        Op::Nop => continue,
                        _ => {}
                    }
                    for r in effects(b).reads {
                        live.read(r);
                    }
                }
            }
            let Some(inst) = m.insts.get_mut(i) else {
                continue;
            };
            if inst.op == Op::Nop {
                continue;
            }
            let e = effects(inst);
            if inst.op.is_pure() && !live.is_read(e.write) {
                *inst = Inst::new(Op::Nop);
                changed = true;
                continue;
            }
            if let Some(slot) = slots.get_mut(i) {
                *slot = e;
            }
            for r in e.reads {
                live.read(r);
            }
        }
        // Without a loop one backward pass is the fixed point: an instruction's liveness is
        // the reads of the later instructions kept, all decided before it, so a second pass
        // would find the same. A loop body's reads count before its instructions are decided
        // (see above), so with a loop the pass repeats until nothing changes.
        if !changed || !looped || m.insts.is_empty() {
            break;
        }
        if let Some(fx) = fx.as_deref_mut() {
            crate::ir::refill(fx, m.insts.len(), Effects::NONE);
        }
        changed = false;
        live = Live {
            lanes: [0; TEMP_MAX],
            everything: false,
        };
        upto = m.insts.len() - 1;
    }
    // Profile 2's loops: structured liveness, dead code and copy coalescing (no-op without a
    // LOOP, so profile 1 never changes).
    if looped {
        crate::ir::loopopt::optimize_loops(m);
    }
    match fx {
        Some(fx) if looped => {
            fx.clear();
            false
        }
        Some(_) => true,
        None => false,
    }
}

/// The first pass of [`optimize_recording`] (backwards) while it meets no LOOP or ENDLOOP:
/// the general pass without its loop handling. `slots` (empty, or one per instruction, all
/// [`Effects::NONE`]) receives the effects of every instruction kept. At a LOOP or ENDLOOP it
/// stops before that instruction and returns its index and whether it removed anything.
/// Out of line: inlined into `optimize_recording`, it ran about 6% more instructions.
#[inline(never)]
fn straight_pass(
    insts: &mut [Inst],
    slots: &mut [Effects],
    live: &mut Live,
) -> Result<(), (usize, bool)> {
    let mut changed = false;
    for (i, inst) in insts.iter_mut().enumerate().rev() {
        let op = inst.op;
        if op == Op::Nop {
            continue;
        }
        if matches!(op, Op::Loop | Op::EndLoop) {
            return Err((i, changed));
        }
        // The usual instruction: one temp written, single temps read, all in registers.
        if let Some(s) = simple(inst) {
            let read = if s.w == 0 {
                live.everything
            } else {
                live.is_read_one(inst.dst, s.w)
            };
            // Most results are read: the purity test (a jump table) comes second.
            if !read && op.is_pure() {
                *inst = Inst::new(Op::Nop);
                changed = true;
                continue;
            }
            if let Some(slot) = slots.get_mut(i) {
                *slot = s.effects(inst);
            }
            if s.a != 0 {
                live.read_one(inst.a, s.a);
            }
            if s.b != 0 {
                live.read_one(inst.b, s.b);
            }
            continue;
        }
        let e = range_effects(inst);
        if op.is_pure() && !live.is_read(e.write) {
            *inst = Inst::new(Op::Nop);
            changed = true;
            continue;
        }
        if let Some(slot) = slots.get_mut(i) {
            *slot = e;
        }
        live.read(e.reads[0]);
        live.read(e.reads[1]);
    }
    Ok(())
}

/// The coordinate lanes a texture op reads (xy; xyz for cube directions and 2D shadow
/// coordinates with their reference; xyzw for a cube shadow coordinate).
fn coord_lanes(op: Op) -> u8 {
    match op {
        Op::CubeLod
        | Op::CubeBias
        | Op::CubeGrad
        | Op::ShadowLod
        | Op::ShadowBias
        | Op::ShadowGrad
        | Op::ArrLod
        | Op::ArrBias
        | Op::ArrGrad
        | Op::ArrFetch => 7,
        Op::ShadowCube => 15,
        _ => 3,
    }
}
