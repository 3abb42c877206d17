//! Loops in the compiled form (issue 14): LOOP / BREAK (plain and decode's fused conditional
//! forms) / CONTINUE / ENDLOOP with the interpreter's masks and budget, and the few encodings
//! they need (jumps, frame counters, VPTEST, broadcast immediates).
//!
//! The masks are the interpreter's (`Executable::run_body`), kept in frame slots per loop
//! level ([`loop_slot`]): `CUR` the current mask at the LOOP (restored at its end, AND the
//! live lanes), `RUNNING` the lanes that have not left by BREAK, `LM` the lanes still in this
//! iteration (BREAK and CONTINUE clear theirs; ENDIF ANDs it in, as the interpreter's ENDIF
//! does with its `lm`), and `COUNT` the iterations left before the bound (one dword, counted
//! down). Every lane runs every instruction of the body under the current mask [`YM`] (writes
//! blend, as inside an IF); the one branch is ENDLOOP's: a backward jump while a lane of
//! `RUNNING` (and alive) is left and the bound is not reached, tested with VPTEST (a `jnz` to
//! the head when the mask itself is the test, else `jz` out and a `jmp` back). A budgeted loop spends, per lane, one of
//! the invocation's [`P2_LOOP_BUDGET`] iterations at the LOOP and at each ENDLOOP that goes
//! round again, exactly where the interpreter's `spend_budget` does (a per-lane counter in the
//! [`MASK_SPENT`] slot, zeroed per call); lanes without budget leave as if by BREAK.
//!
//! Registers across the back edge: at the LOOP and at the ENDLOOP every value still to be read
//! (the allocator's `next_read`, which counts a read anywhere in an enclosing loop's body as a
//! read at its ENDLOOP) is stored to its frame slot and no YMM holds a value, so the loop head
//! and the exit are entered with one allocator state from every edge. Temps the interpreter
//! zeroes are stored as zeros at the first LOOP (a zero materialised inside the body would be
//! re-zeroed by each iteration).
use super::enc::{Arg, Base, Enc, EncError, Ps, Y};
use super::{mask_slot, val, Gen, JitError, DEAD, LOOP_SLOTS, MASK_ALIVE, MASK_SPENT, V_ONE, YM};
use crate::back::exec::{DInst, BREAK_CMP, BREAK_ICMP, BREAK_IF, BREAK_UCMP};
use crate::ir::Op;
use crate::limits::{LOOP_DEPTH_MAX, P2_LOOP_BUDGET};

/// Condition codes of the jumps (the second byte of `0F 8x rel32`).
#[derive(Clone, Copy)]
pub enum Cc {
    /// Below (CF set; VPTEST: every bit of the second operand set in the first).
    B = 0x82,
    /// Unsigned above or equal.
    Ae = 0x83,
    /// Zero (VPTEST: no bit set).
    Z = 0x84,
    /// Not zero (VPTEST: some bit set).
    Nz = 0x85,
    /// Unsigned below or equal (CF or ZF set).
    Be = 0x86,
}

/// Values kept in YMMs across an innermost loop (the others stay for the body's ops, none of
/// which needs more than 8 at once).
pub(super) const RESIDENT_MAX: usize = 7;

/// Slot kinds of one loop level (see the module header).
const CUR: usize = 0;
const RUNNING: usize = 1;
const LM: usize = 2;
const COUNT: usize = 3;
/// Frame slots per loop level.
pub const PER_LOOP: usize = 4;

/// Frame offset of slot `kind` of loop level `level`.
pub(super) const fn loop_slot(level: usize, kind: usize) -> usize {
    mask_slot(LOOP_SLOTS + (level % (LOOP_DEPTH_MAX + 1)) * PER_LOOP + kind)
}

/// One open loop while lowering: where its body starts and the LOOP's forward jump (taken
/// when no lane enters) to patch at its exit.
#[derive(Clone, Copy, Default)]
pub(super) struct OpenLoop {
    /// The LOOP's instruction index and the IFs open there.
    at: usize,
    ifs: usize,
    head: usize,
    skip: usize,
    /// The body has an ENDIF, which reads `LM` (else `LM` is not kept).
    lm: bool,
    /// `RUNNING` is kept in its slot: the body has an ENDIF or a CONTINUE (else `RUNNING` is
    /// the current mask at every BREAK and at the ENDLOOP).
    tracked: bool,
    /// Iterations spend the per-lane budget ([`per_lane_budget`]; else the budget is a bound).
    spends: bool,
}

impl Enc<'_> {
    /// `jcc rel32` to a place not yet emitted: returns where the jump ends (for [`Self::land`]).
    pub fn jcc_fwd(&mut self, cc: Cc) -> Result<usize, EncError> {
        self.bytes(&[0x0F, cc as u8, 0, 0, 0, 0])?;
        Ok(self.len)
    }

    /// `jmp rel32` to a place not yet emitted: returns where the jump ends (for
    /// [`Self::land`]).
    pub fn jmp_fwd(&mut self) -> Result<usize, EncError> {
        self.bytes(&[0xE9, 0, 0, 0, 0])?;
        Ok(self.len)
    }

    /// `jmp rel32` back to `target` (an earlier instruction boundary).
    pub fn jmp_back(&mut self, target: usize) -> Result<(), EncError> {
        let rel = target as i64 - (self.len as i64 + 5);
        let rel = i32::try_from(rel).map_err(|_| EncError::Full)?;
        self.byte(0xE9)?;
        self.bytes(&rel.to_le_bytes())
    }

    /// Points the jump that ends at `at` ([`Self::jcc_fwd`]) here.
    pub fn land(&mut self, at: usize) -> Result<(), EncError> {
        let rel = self.len.checked_sub(at).ok_or(EncError::Full)?;
        let rel = i32::try_from(rel).map_err(|_| EncError::Full)?;
        let field = at
            .checked_sub(4)
            .and_then(|s| self.buf.get_mut(s..at))
            .ok_or(EncError::Full)?;
        field.copy_from_slice(&rel.to_le_bytes());
        Ok(())
    }

    /// `vptest a, b` (ZF: no bit of `a & b` set; VEX.256.66.0F38 17 /r).
    ///
    /// The 16-lane form: `vptestmd k1, a, b`, and for `a != b` `vptestmd k2, b, b;
    /// ktestw k1, k2` (ZF: k1 = 0; CF: every lane of `b` not zero has `a & b` not zero, which
    /// is VPTEST's CF where `a` and `b` are lane masks, all ones or zero per lane, the only
    /// use of CF here), else `kortestw k1, k1`.
    pub fn ptest(&mut self, a: Y, b: Y) -> Result<(), EncError> {
        if self.wide {
            self.test_mask(1, a, b)?;
            if a == b {
                return self.kortest(1);
            }
            self.test_mask(2, b, b)?;
            // ktestw k1, k2 (VEX.L0.0F.W0 99 /r)
            return self.bytes(&[0xC5, 0xF8, 0x99, 0xCA]);
        }
        self.vex(a.0, 0, b.0, 2, 1)?;
        self.byte(0x17)?;
        self.modrm_reg(a.0, b.0)
    }

    /// `vptest a, [frame + konst(k)]` (ZF: no bit of `a & K` set; CF: every bit of `K` set
    /// in `a`).
    ///
    /// The 16-lane form: `vptestmd k1, a, [frame + konst(k)]; kortestw k1, k1` (ZF: no lane
    /// of `a & K` set; CF: every lane of `a & K` not zero, which is VPTEST's CF for the
    /// constants used here: a single bit per lane, or all ones with a lane mask `a`).
    pub fn ptest_k(&mut self, a: Y, k: usize) -> Result<(), EncError> {
        if self.wide {
            self.evex(1, a.0, 0, 2, 1, 0)?;
            self.byte(0x27)?;
            self.mem(1, Base::Frame, super::konst(k), 64)?;
            return self.kortest(1);
        }
        self.vex(a.0, 0, 0, 2, 1)?;
        self.byte(0x17)?;
        self.mem(a.0, Base::Frame, super::konst(k), 32)
    }

    /// A frame dword the code may store to (checked like [`Enc::store`]).
    pub(super) fn frame_word(&self, off: usize) -> Result<(), EncError> {
        if off
            .checked_add(4)
            .is_none_or(|e| e > self.store_end[Base::Frame as usize])
        {
            return Err(EncError::OutOfFrame);
        }
        Ok(())
    }

    /// `mov dword [frame + off], imm`
    pub fn word_set(&mut self, off: usize, imm: u32) -> Result<(), EncError> {
        self.frame_word(off)?;
        self.byte(0xC7)?;
        self.mem(0, Base::Frame, off, 4)?;
        self.bytes(&imm.to_le_bytes())
    }

    /// `sub dword [frame + off], 1` (CF: it was 0; ZF: it is 0 now)
    pub fn word_dec(&mut self, off: usize) -> Result<(), EncError> {
        self.frame_word(off)?;
        self.byte(0x83)?;
        self.mem(5, Base::Frame, off, 4)?;
        self.byte(1)
    }

    /// `jcc rel32` back to `target` (an earlier instruction boundary).
    pub fn jcc_back(&mut self, cc: Cc, target: usize) -> Result<(), EncError> {
        let rel = target as i64 - (self.len as i64 + 6);
        let rel = i32::try_from(rel).map_err(|_| EncError::Full)?;
        self.bytes(&[0x0F, cc as u8])?;
        self.bytes(&rel.to_le_bytes())
    }

    /// Every lane of `y` = `bits`: `mov eax, bits; vmovd xmm, eax; vpbroadcastd ymm, xmm`.
    pub fn splat(&mut self, y: Y, bits: u32) -> Result<(), EncError> {
        self.byte(0xB8)?;
        self.bytes(&bits.to_le_bytes())?;
        self.vex_l(y.0, 0, 0, 1, 1, false)?;
        self.byte(0x6E)?;
        self.modrm_reg(y.0, 0)?;
        self.vex(y.0, 0, y.0, 2, 1)?;
        self.byte(0x58)?;
        self.modrm_reg(y.0, y.0)
    }

    /// `vandnps d, s, t`: d = !s & t.
    pub fn andn(&mut self, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        self.vex(d.0, s.0, t.0, 1, 0)?;
        self.byte(0x55)?;
        self.modrm_reg(d.0, t.0)
    }
}

impl Gen<'_, '_> {
    /// The allocator state of a loop edge: every value still to be read in its frame slot, no
    /// YMM holding one.
    pub(super) fn sync(&mut self) -> Result<(), JitError> {
        for y in 0..self.ny {
            if self.resident & (1 << y) != 0 {
                continue;
            }
            if let Some(v) = self.holder[y] {
                if self.dirty[y] && v < V_ONE && self.next_read(v, false) != DEAD {
                    self.e.store(Base::Frame, super::home(v), Y(y as u8))?;
                }
                self.loc[v] = super::NONE;
            }
            self.holder[y] = None;
            self.dirty[y] = false;
        }
        self.fresh = 0;
        self.pinned = 0;
        Ok(())
    }

    /// Zeroed temps still to be read get their zeros stored (see the module header).
    fn store_zeros(&mut self) -> Result<(), JitError> {
        let mut z: Option<Y> = None;
        for v in 0..V_ONE {
            if self.zero[v] && self.next_read(v, false) != DEAD {
                let y = match z {
                    Some(y) => y,
                    None => {
                        let y = self.alloc()?;
                        self.e.op_reg(Ps::Xor, y, y, y)?;
                        z = Some(y);
                        y
                    }
                };
                self.e.store(Base::Frame, super::home(v), y)?;
                self.zero[v] = false;
            }
        }
        self.pinned = 0;
        Ok(())
    }

    /// A budgeted iteration starts for the lanes of `m` (see `spend_budget`): the lanes that
    /// still have budget, in a fresh YMM; each spends one.
    fn spend(&mut self, m: Y) -> Result<Y, JitError> {
        let (s, k, go) = (self.alloc()?, self.alloc()?, self.alloc()?);
        let e = &mut self.e;
        let at = mask_slot(MASK_SPENT);
        e.load(s, Base::Frame, at)?;
        e.load(k, Base::Frame, super::konst(super::K_BUDGET))?;
        e.int0f(0x66, k, k, s)?; // vpcmpgtd: budget > spent
        e.op_reg(Ps::And, go, k, m)?;
        e.int0f(0xFA, s, s, go)?; // vpsubd: spent += 1 where going
        e.store(Base::Frame, at, s)?;
        Ok(go)
    }

    /// The lanes of `gone` leave the innermost loop: cleared from its RUNNING and LM.
    fn leave(&mut self, gone: Y, running: bool) -> Result<(), JitError> {
        let l = self.loops.checked_sub(1).ok_or(JitError::Flow)?;
        let t = self.alloc()?;
        let (lm, tracked) = self.open.get(l).map_or((true, true), |o| (o.lm, o.tracked));
        for kind in [RUNNING, LM] {
            if kind == RUNNING && !(running && tracked) || kind == LM && !lm {
                continue;
            }
            let off = loop_slot(l, kind);
            self.e.load(t, Base::Frame, off)?;
            self.e.andn(t, gone, t)?;
            self.e.store(Base::Frame, off, t)?;
        }
        Ok(())
    }

    /// Lowers LOOP, BREAK, CONTINUE and ENDLOOP.
    pub(super) fn flow_inst(&mut self, d: &DInst) -> Result<(), JitError> {
        match d.op {
            Op::Loop => {
                let l = self.loops;
                if l > LOOP_DEPTH_MAX {
                    return Err(JitError::Flow);
                }
                let budgeted = d.y != 0;
                let spends = budgeted && per_lane_budget(self.code);
                let mut bound = u32::from_le_bytes([d.dst, d.a, d.b, d.x]);
                if budgeted && !spends {
                    // Every lane enters with nothing spent and spends one per iteration
                    // started: the lanes still running at the ENDLOOP after iteration c have
                    // spent c, and go on while c < the budget.
                    bound = bound.min(P2_LOOP_BUDGET);
                }
                self.sync()?;
                self.store_zeros()?;
                self.keep_resident(d)?;
                self.e.store(Base::Frame, loop_slot(l, CUR), YM)?;
                let run = if spends { self.spend(YM)? } else { YM };
                self.e.ptest(run, run)?;
                let skip = self.e.jcc_fwd(Cc::Z)?;
                let end = (d.jump as usize).min(self.code.len());
                let body = self.code.get(self.pc..end).unwrap_or(&[]);
                let lm = body.iter().any(|d| d.op == Op::Endif);
                let tracked = lm || body.iter().any(|d| d.op == Op::Continue);
                if tracked {
                    self.e.store(Base::Frame, loop_slot(l, RUNNING), run)?;
                }
                if lm {
                    self.e.store(Base::Frame, loop_slot(l, LM), run)?;
                }
                if run != YM {
                    self.e.mov(YM, run)?;
                }
                // The iterations left: ENDLOOP counts down and leaves at 0 (a bound of 0
                // leaves after the first, as `count >= bound` does).
                self.e.word_set(loop_slot(l, COUNT), bound)?;
                let open = self.open.get_mut(l).ok_or(JitError::Flow)?;
                *open = OpenLoop {
                    at: self.pc,
                    ifs: self.depth,
                    head: self.e.len(),
                    skip,
                    lm,
                    tracked,
                    spends,
                };
                self.loops = l + 1;
            }
            Op::EndLoop => {
                let l = self.loops.checked_sub(1).ok_or(JitError::Flow)?;
                let open = *self.open.get(l).ok_or(JitError::Flow)?;
                self.sync()?;
                self.e.word_dec(loop_slot(l, COUNT))?;
                let at_bound = self.e.jcc_fwd(Cc::Be)?;
                // RUNNING & alive (the current mask when RUNNING is not kept: it is inside
                // the live lanes).
                let running = if open.tracked {
                    let t = self.alloc()?;
                    self.e.load(t, Base::Frame, loop_slot(l, RUNNING))?;
                    if self.discards {
                        self.e
                            .op_mem(Ps::And, t, t, Base::Frame, mask_slot(MASK_ALIVE))?;
                    }
                    t
                } else {
                    YM
                };
                let next = if open.spends {
                    let go = self.spend(running)?;
                    if open.tracked {
                        self.e.store(Base::Frame, loop_slot(l, RUNNING), go)?;
                    }
                    go
                } else {
                    running
                };
                self.e.ptest(next, next)?;
                if next == YM && !open.lm {
                    // Round again while a lane is left: one backward jump.
                    self.e.jcc_back(Cc::Nz, open.head)?;
                    for at in [open.skip, at_bound] {
                        self.e.land(at)?;
                    }
                } else {
                    let done = self.e.jcc_fwd(Cc::Z)?;
                    if next != YM {
                        self.e.mov(YM, next)?;
                    }
                    if open.lm {
                        self.e.store(Base::Frame, loop_slot(l, LM), next)?;
                    }
                    self.e.jmp_back(open.head)?;
                    for at in [open.skip, at_bound, done] {
                        self.e.land(at)?;
                    }
                }
                self.e.load(YM, Base::Frame, loop_slot(l, CUR))?;
                if self.discards {
                    self.e
                        .op_mem(Ps::And, YM, YM, Base::Frame, mask_slot(MASK_ALIVE))?;
                }
                // The resident values stay where they are, dirty (the body may have written
                // them).
                for y in 0..self.ny {
                    if self.resident & (1 << y) != 0 {
                        self.dirty[y] = true;
                    }
                }
                self.resident = 0;
                self.loops = l;
            }
            Op::Continue => {
                self.leave(YM, false)?;
                self.e.op_reg(Ps::Xor, YM, YM, YM)?;
            }
            Op::Break if d.y == 0 => {
                self.leave(YM, true)?;
                self.e.op_reg(Ps::Xor, YM, YM, YM)?;
            }
            Op::Break if d.y != BREAK_IF && self.dead_after(d.dst) => {
                // The compare's value is not read: its lane mask is the exit test.
                let (sa, sb) = (
                    self.side(val(d.a as usize, 0)),
                    self.side(val(d.b as usize, 0)),
                );
                // CMP reads b from its frame slot where it is not in a YMM.
                let (x, arg) = self.operands(false, sa, sb)?;
                let y = match arg {
                    Arg::Y(y) => y,
                    _ if d.y == BREAK_CMP => x,
                    _ => self.get(val(d.b as usize, 0))?,
                };
                let (m, t) = (self.alloc()?, self.alloc()?);
                let e = &mut self.e;
                let not = match d.y {
                    BREAK_CMP => {
                        e.cmp_arg(m, x, arg, super::cmp_pred(d.x))?;
                        false
                    }
                    BREAK_ICMP => e.icmp_mask(d.x, m, x, y)?,
                    _ => {
                        e.int_k(0xEF, m, x, super::K_SIGN)?;
                        e.int_k(0xEF, t, y, super::K_SIGN)?;
                        e.icmp_mask(d.x, m, m, t)?
                    }
                };
                let l = self.loops.checked_sub(1).ok_or(JitError::Flow)?;
                let open = self.open.get(l).copied().unwrap_or_default();
                if !open.tracked && !open.lm {
                    // Only the mask keeps the lanes: it loses the true ones (keeps the
                    // false ones when the compare gave the complement).
                    if not {
                        e.op_reg(Ps::And, YM, m, YM)?;
                    } else {
                        e.andn(YM, m, YM)?;
                    }
                } else {
                    if not {
                        e.andn(m, m, YM)?;
                    } else {
                        e.op_reg(Ps::And, m, m, YM)?;
                    }
                    self.leave(m, true)?;
                    self.e.andn(YM, m, YM)?;
                }
            }
            Op::Break => {
                // `[c = a CMP b;] IF c; BREAK; ENDIF`: the compare is written as its op writes
                // it, then the current lanes where c != 0 (NaN included) leave.
                let c = match d.y {
                    BREAK_IF => d.a,
                    BREAK_CMP | BREAK_ICMP | BREAK_UCMP => {
                        let op = match d.y {
                            BREAK_CMP => Op::Cmp,
                            BREAK_ICMP => Op::ICmp,
                            _ => Op::UCmp,
                        };
                        let cmp = DInst {
                            op,
                            y: 0,
                            n: 1,
                            ..*d
                        };
                        self.inst(&cmp)?;
                        d.dst
                    }
                    _ => return Err(JitError::Unsupported(d.op)),
                };
                let cy = self.get(val(c as usize, 0))?;
                let (z, gone) = (self.alloc()?, self.alloc()?);
                self.e.op_reg(Ps::Xor, z, z, z)?;
                self.e.cmp_reg(gone, cy, z, 0x04)?; // NEQ_UQ
                self.e.op_reg(Ps::And, gone, gone, YM)?;
                self.leave(gone, true)?;
                self.e.andn(YM, gone, YM)?;
            }
            op => return Err(JitError::Unsupported(op)),
        }
        Ok(())
    }

    /// At an innermost LOOP (after [`Self::sync`]): the values its body reads most that are
    /// carried round the loop or never written in it (up to [`RESIDENT_MAX`]) are loaded into
    /// YMMs that hold them until the ENDLOOP ([`Gen::resident`]). Not for bodies with a
    /// call-out (it clobbers every YMM) or an op that needs many YMMs.
    fn keep_resident(&mut self, d: &DInst) -> Result<(), JitError> {
        let end = (d.jump as usize).min(self.code.len());
        let body = self.code.get(self.pc + 1..end).unwrap_or(&[]);
        let heavy = |d: &DInst| {
            matches!(
                d.op,
                Op::Loop
                    | Op::Pow
                    | Op::Sin
                    | Op::Cos
                    | Op::MulMV
                    | Op::LoadIdx
                    | Op::LoadLane
                    | Op::IDiv
                    | Op::UDiv
                    | Op::IMod
                    | Op::UMod
            )
        };
        if body.iter().any(heavy) {
            return Ok(());
        }
        // (reads in the body, value), the most read first.
        let mut best = [(0usize, 0usize); RESIDENT_MAX];
        for v in 0..super::NVALS {
            let reads = body
                .iter()
                .filter(|d| super::touch(d, v) == super::Touch::Read)
                .count();
            if reads == 0 || written_first(body, v) {
                continue;
            }
            if let Some(k) = best.iter().position(|b| b.0 < reads) {
                best.copy_within(k..RESIDENT_MAX - 1, k + 1);
                best[k] = (reads, v);
            }
        }
        for &(reads, v) in best.iter().take(self.resident_max) {
            if reads > 0 {
                let y = self.get(v)?;
                self.resident |= 1 << y.0;
            }
        }
        self.pinned = 0;
        Ok(())
    }

    /// [`Gen::set`] of a resident value: the new value (`y`) lands in its YMM, blended under
    /// [`YM`] when `blend`. False when `v` is not resident.
    pub(super) fn set_resident(
        &mut self,
        v: super::Val,
        y: Y,
        blend: bool,
    ) -> Result<bool, JitError> {
        let Some(&at) = self.loc.get(v) else {
            return Ok(false);
        };
        if at == super::NONE || self.resident & (1 << at) == 0 {
            return Ok(false);
        }
        let r = Y(at);
        if blend {
            self.e.blendv(r, r, y, YM)?;
        } else if r != y {
            self.e.mov(r, y)?;
        }
        self.dirty[at as usize] = true;
        self.zero[v] = false;
        self.fresh |= 1 << at;
        Ok(true)
    }

    /// A copy `dst = src` without an instruction: when `src` is in a YMM (not a resident one),
    /// nothing reads it after the current instruction, and the write of `dst` needs no blend,
    /// that YMM becomes `dst`'s. False (nothing done) otherwise.
    pub(super) fn rename(&mut self, dst: super::Val, src: super::Val) -> bool {
        let Some(&at) = self.loc.get(src) else {
            return false;
        };
        let held = |g: &Self, v: super::Val| {
            g.loc
                .get(v)
                .is_some_and(|&y| y != super::NONE && g.resident & (1 << y) != 0)
        };
        if dst == src
            || src >= V_ONE
            || dst >= V_ONE
            || at == super::NONE
            || held(self, src)
            || held(self, dst)
            || self.masked() && !self.iteration_local(dst)
            || self.next_read(src, true) != DEAD
        {
            return false;
        }
        self.unalias(dst);
        if let Some(&old) = self.loc.get(dst) {
            if let Some(h) = self.holder.get_mut(old as usize) {
                *h = None;
            }
        }
        self.loc[src] = super::NONE;
        self.loc[dst] = at;
        self.holder[at as usize] = Some(dst);
        self.dirty[at as usize] = true;
        self.zero[dst] = false;
        self.fresh |= 1 << at;
        true
    }

    /// Whether component 0 of register `r`, written by the current instruction, is not read.
    fn dead_after(&self, r: u8) -> bool {
        self.read_from(self.pc + 1, self.depth + self.loops, val(r as usize, 0)) == DEAD
    }

    /// Whether a write must blend under [`YM`]: inside an IF or a loop.
    pub(super) fn masked(&self) -> bool {
        self.depth + self.loops > 0
    }

    /// ENDIF inside a loop: the lanes that left this iteration stay off.
    pub(super) fn endif_mask(&mut self) -> Result<(), JitError> {
        if let Some(l) = self.loops.checked_sub(1) {
            self.e
                .op_mem(Ps::And, YM, YM, Base::Frame, loop_slot(l, LM))?;
        }
        Ok(())
    }

    /// A budgeted loop's lanes start the call with no iteration spent.
    pub(super) fn reset_budget(&mut self) -> Result<(), JitError> {
        let y = self.alloc()?;
        self.e.op_reg(Ps::Xor, y, y, y)?;
        self.e.store(Base::Frame, mask_slot(MASK_SPENT), y)?;
        self.pinned = 0;
        Ok(())
    }
}

/// Whether the budgeted loops of `code` need the per-lane counts of iterations spent: more
/// than one budgeted loop, or one inside another loop (else every lane enters the one
/// budgeted loop with nothing spent, and the budget is a bound on its iterations).
pub(super) fn per_lane_budget(code: &[DInst]) -> bool {
    let (mut depth, mut budgeted, mut nested) = (0usize, 0usize, false);
    for d in code {
        match d.op {
            Op::Loop => {
                if d.y != 0 {
                    budgeted += 1;
                    nested |= depth > 0;
                }
                depth += 1;
            }
            Op::EndLoop => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    budgeted > 1 || nested
}

/// Whether ENDLOOP at `end` closes a loop the scan from `start` began inside, and the body
/// before `start` may read `v` before writing it (so the next iteration reads it).
pub(super) fn read_round(code: &[DInst], end: &DInst, start: usize, v: super::Val) -> bool {
    let head = end.jump as usize;
    head < start && !written_first(code.get(head + 1..start).unwrap_or(&[]), v)
}

/// Whether the first instruction of `body` (a loop body from its start) that touches `v`
/// writes all of it outside any IF or inner loop of the body, reading none of it: then no
/// lane reads, in that iteration, a value `v` had before it. False when none touches it.
fn written_first(body: &[DInst], v: super::Val) -> bool {
    let mut depth = 0usize;
    for d in body {
        match super::touch(d, v) {
            super::Touch::No => {}
            t => return t == super::Touch::Write && depth == 0,
        }
        match d.op {
            Op::If | Op::Loop => depth += 1,
            Op::Endif | Op::EndLoop => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

impl Gen<'_, '_> {
    /// Whether a write of `v` here may skip the blend under [`YM`]: it is in the innermost
    /// loop's body outside any IF of it, the body writes `v` before any read of it
    /// ([`written_first`]), and nothing after the loop reads `v` before writing it. The lanes
    /// off the mask are then lanes that left this iteration (by BREAK or CONTINUE, or never
    /// entered the loop): they read `v` again only after the next iteration's write, or not
    /// at all.
    pub(super) fn iteration_local(&self, v: super::Val) -> bool {
        let Some(l) = self.loops.checked_sub(1) else {
            return false;
        };
        let Some(open) = self.open.get(l) else {
            return false;
        };
        if self.depth != open.ifs || v >= V_ONE {
            return false;
        }
        let end = match self.code.get(open.at) {
            Some(d) => d.jump as usize,
            None => return false,
        };
        written_first(self.code.get(open.at + 1..end).unwrap_or(&[]), v)
            && self.read_from(end + 1, open.ifs + l, v) == DEAD
    }
}
