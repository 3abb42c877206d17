//! Decoding a verified module into an [`Executable`] (once, after `verify`): lane counts,
//! IF/ELSE jump targets, the fragment varying remap, the zeroed-before-read temps, the constant
//! bank, copy propagation, dead code, components actually read, and the fused texture-sample
//! colour.
use super::{
    DInst, Executable, ALIAS_BIAS, BANK_BASE, BANK_MAX, BREAK_CMP, BREAK_ICMP, BREAK_IF,
    BREAK_UCMP, DNOP, NOT_UNIFORM,
};
use crate::ir::opt::effects;
use crate::ir::regalloc::renumber;
use crate::ir::verify::{verify, VerifyError};
use crate::ir::{Inst, Module, Op, Stage};
use crate::limits::CLIP_DISTANCE_MAX;
use crate::limits::{IF_DEPTH_MAX, IMM_CAP, IR_CAP, LOOP_DEPTH_MAX, TEMP_MAX, VARYING_CAP};

fn narrow(v: i16) -> u8 {
    v.clamp(0, 255) as u8
}

impl Executable {
    /// Verifies and decodes `m`. For a fragment module, `remap[fs_slot]` gives the vertex-output
    /// slot LOAD_VAR reads (None: identity).
    pub fn new(m: &Module, remap: Option<&[i8]>) -> Result<Executable, VerifyError> {
        verify(m)?;
        let internal = |message| VerifyError {
            inst: None,
            message,
        };
        // More temps than registers (profile 2 allows 1024): renumber them by live range, so
        // the module runs whenever at most TEMP_MAX of them are live at once. Modules that fit
        // (every profile-1 module) are decoded exactly as they are.
        let ren = if m.temps as usize > TEMP_MAX {
            Some(renumber(m, TEMP_MAX).map_err(|p| VerifyError {
                inst: Some(p.inst),
                message: "the software executor holds at most 96 temporaries live at once; \
                          this shader keeps more live here",
            })?)
        } else {
            None
        };
        let fetch = |i: usize| -> Option<Inst> {
            let inst = m.insts.get(i)?;
            Some(match &ren {
                Some(r) => r.apply(inst),
                None => *inst,
            })
        };
        let mut e = Executable {
            stage: m.stage,
            code: [DNOP; IR_CAP],
            len: 0,
            imms: [0.0; IMM_CAP],
            zero: [0; TEMP_MAX],
            nzero: 0,
            varying_mask: 0,
            bank: [[0; 4]; BANK_MAX],
            bank_uni: [NOT_UNIFORM; BANK_MAX],
            nbank: 0,
            reads_fragcoord: false,
            writes_depth: false,
            clip_mask: 0,
            reads_sysvals: false,
            derivatives: false,
            has_flow: false,
            color_always: false,
            sample_color: false,
            sample_opaque: false,
            varying_lanes: [0; VARYING_CAP],
        };
        // Constant banking: a top-level CONST fills all four components of its temp in every
        // live lane, so a read of that temp before its next write may name a bank register
        // holding the same value instead. When every such read could be redirected (one
        // register per operand) and the value is then fully overwritten at top level (or never
        // again read), the CONST itself is dropped. This saves a dispatch step per constant.
        // kreg[t]: bank register holding temp t's current value (0: none); kdef[t]: output
        // index of that CONST; drop[i]: output instruction i is a CONST no longer needed.
        //
        // Copy propagation works the same way: a top-level MOV writing all four components makes
        // its temp an alias of the source register until either is written again, so reads
        // name the source and the MOV is dropped when every read could be redirected.
        let mut kreg = [0u8; TEMP_MAX];
        let mut kdef = [0usize; TEMP_MAX];
        let mut drop = [false; IR_CAP];
        // Per output instruction: its module instruction, and whether it runs under IF.
        let mut origin = [0u16; IR_CAP];
        let mut nested = [true; IR_CAP];
        for (d, s) in e.imms.iter_mut().zip(m.imms.iter()) {
            *d = *s;
        }
        let mut stack = [0usize; IF_DEPTH_MAX + 1];
        let mut depth = 0usize;
        // Open LOOPs (their output indexes): a loop body counts as nested like an IF part.
        let mut lstack = [0usize; LOOP_DEPTH_MAX + 1];
        let mut ldepth = 0usize;
        let mut defined = [0u8; TEMP_MAX];
        let mut needs_zero = [false; TEMP_MAX];
        let mut out = 0usize;
        for i in 0..m.insts.len() {
            let Some(inst) = fetch(i) else { break };
            let inst = &inst;
            // Temps read before being fully written at top level must start at zero.
            let eff = effects(inst);
            for r in eff.reads {
                for k in 0..r.count as usize {
                    let t = r.base as usize + k;
                    if let (Some(d), Some(z)) = (defined.get(t), needs_zero.get_mut(t)) {
                        if d & r.lanes != r.lanes {
                            *z = true;
                        }
                    }
                }
            }
            if (depth | ldepth) == 0 {
                for k in 0..eff.write.count as usize {
                    if let Some(d) = defined.get_mut(eff.write.base as usize + k) {
                        *d |= eff.write.lanes;
                    }
                }
            }
            let lanes_or = |zero_means: u8| {
                if inst.lanes == 0 {
                    zero_means
                } else {
                    inst.lanes.min(4)
                }
            };
            let n = match inst.op {
                Op::Const | Op::Swz => inst.lanes.min(4),
                Op::Mov | Op::Abs | Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div => {
                    lanes_or(4)
                }
                Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt | Op::Pow => {
                    lanes_or(1)
                }
                Op::Floor
                | Op::Ceil
                | Op::Fract
                | Op::RoundEven
                | Op::Exp2
                | Op::Log2
                | Op::Sign
                | Op::CmpV
                | Op::Ddx
                | Op::Ddy => lanes_or(1),
                crate::ir::int_ops!() => lanes_or(1),
                Op::Dot => match inst.aux {
                    0 => 3,
                    v => narrow(v),
                },
                Op::MulMV => match inst.aux {
                    0 => 4,
                    v => narrow(v),
                },
                Op::MulMM => narrow(inst.aux),
                Op::LoadUni => narrow(inst.aux2),
                // SAMPLE_BIAS: 1 when b holds a bias.
                Op::SampleBias | Op::CubeBias | Op::ShadowBias | Op::ShadowCube | Op::ArrBias => {
                    (inst.b >= 0) as u8
                }
                _ => 0,
            };
            let mut x = narrow(inst.aux);
            if inst.op == Op::LoadVar {
                if let Some(map) = remap {
                    let to = map.get(x as usize).copied().unwrap_or(-1);
                    if !(0..VARYING_CAP as i8).contains(&to) {
                        return Err(internal(
                            "fragment varying has no vertex-output slot in the link remap",
                        ));
                    }
                    x = to as u8;
                }
                e.varying_mask |= 1 << (x & 15);
            }
            e.reads_fragcoord |= inst.op == Op::LoadFcoord;
            e.writes_depth |= inst.op == Op::StoreDepth;
            if inst.op == Op::StoreClip && (inst.aux as usize) < CLIP_DISTANCE_MAX {
                e.clip_mask |= 1 << inst.aux;
            }
            e.reads_sysvals |= inst.op == Op::LoadSysval;
            e.derivatives |= matches!(inst.op, Op::Ddx | Op::Ddy);
            e.has_flow |= matches!(inst.op, Op::If | Op::Loop);
            if inst.op == Op::StoreVar {
                e.varying_mask |= 1 << (x & 15);
            }
            let mut d = DInst {
                op: inst.op,
                n,
                dst: narrow(inst.dst),
                a: narrow(inst.a),
                b: narrow(inst.b),
                x,
                // Arithmetic keeps y for a fused splat operand (see `fuse_splat`).
                y: if matches!(inst.op, Op::Add | Op::Sub | Op::Mul) {
                    0
                } else {
                    narrow(inst.aux2)
                },
                jump: 0,
            };
            if inst.op.is_indirect() {
                indirect_operands(inst, &mut d).ok_or(internal(
                    "an indirect range is too wide for the software executor",
                ))?;
            }
            if inst.op != Op::Nop {
                for (k, r) in eff.reads.iter().enumerate() {
                    for j in 0..r.count as usize {
                        let t = (r.base as usize).wrapping_add(j);
                        let Some(&kv) = kreg.get(t).filter(|&&b| b != 0) else {
                            continue;
                        };
                        let bank = if kv as usize >= ALIAS_BIAS {
                            (kv as usize - ALIAS_BIAS) as u8
                        } else {
                            kv
                        };
                        match (r.count, k) {
                            (1, 0) => d.a = bank,
                            (1, _) => d.b = bank,
                            _ if !inst.op.is_indirect() && banked_run(&kreg, r.base, r.count) => {
                                // A matrix in consecutive bank registers (a banked LOAD_UNI):
                                // the operand names the first of them.
                                if j == 0 {
                                    if k == 0 {
                                        d.a = bank;
                                    } else {
                                        d.b = bank;
                                    }
                                }
                            }
                            _ => {
                                if let Some(f) = kdef.get(t).and_then(|&i| drop.get_mut(i)) {
                                    *f = false;
                                }
                            }
                        }
                    }
                }
                let w = eff.write;
                for j in 0..w.count as usize {
                    let t = (w.base as usize).wrapping_add(j);
                    // Temps aliasing t (by a dropped MOV) must now hold their own copy.
                    for (u, kr) in kreg.iter_mut().enumerate() {
                        if *kr != 0 && *kr as usize == t + ALIAS_BIAS {
                            *kr = 0;
                            if let Some(f) = kdef.get(u).and_then(|&i| drop.get_mut(i)) {
                                *f = false;
                            }
                        }
                    }
                    if let Some(kr) = kreg.get_mut(t).filter(|b| **b != 0) {
                        *kr = 0;
                        // A partial or masked write leaves some of the constant in place.
                        if (depth | ldepth) > 0 || w.lanes != 15 {
                            if let Some(f) = kdef.get(t).and_then(|&i| drop.get_mut(i)) {
                                *f = false;
                            }
                        }
                    }
                }
                let src = d.a as usize;
                let t = d.dst as usize;
                if inst.op == Op::Mov
                    && (depth | ldepth) == 0
                    && w.count == 1
                    && w.lanes == 15
                    && src != t
                    && src < TEMP_MAX
                {
                    if let (Some(kr), Some(kd), Some(f)) =
                        (kreg.get_mut(t), kdef.get_mut(t), drop.get_mut(out))
                    {
                        *kr = (src + ALIAS_BIAS) as u8;
                        *kd = out;
                        *f = true;
                    }
                } else if inst.op == Op::Mov
                    && (depth | ldepth) == 0
                    && w.count == 1
                    && w.lanes == 15
                {
                    // A copy of a bank register (or of itself) names the same value.
                    if src >= BANK_BASE {
                        if let (Some(kr), Some(kd), Some(f)) =
                            (kreg.get_mut(t), kdef.get_mut(t), drop.get_mut(out))
                        {
                            *kr = src as u8;
                            *kd = out;
                            *f = true;
                        }
                    }
                }
                if inst.op == Op::Const && (depth | ldepth) == 0 {
                    let mut v = [0u32; 4];
                    for (c, vc) in v.iter_mut().enumerate().take(d.n as usize) {
                        *vc = e
                            .imms
                            .get(d.x as usize + c)
                            .copied()
                            .unwrap_or(0.0)
                            .to_bits();
                    }
                    let nb = e.nbank as usize;
                    let slot = match e
                        .bank
                        .iter()
                        .zip(e.bank_uni.iter())
                        .take(nb)
                        .position(|(b, u)| *b == v && *u == NOT_UNIFORM)
                    {
                        Some(p) => Some(p),
                        None if nb < BANK_MAX => {
                            e.bank[nb] = v;
                            e.nbank += 1;
                            Some(nb)
                        }
                        None => None,
                    };
                    let t = d.dst as usize;
                    if let (Some(p), Some(kr), Some(kd), Some(f)) =
                        (slot, kreg.get_mut(t), kdef.get_mut(t), drop.get_mut(out))
                    {
                        *kr = (BANK_BASE + p) as u8;
                        *kd = out;
                        *f = true;
                    }
                }
                if inst.op == Op::LoadUni && (depth | ldepth) == 0 && d.n > 0 {
                    // Uniforms are the same for every lane of a draw: slots x..x+n go to
                    // consecutive bank registers, broadcast when their values change (see
                    // `run_body`), and reads name those registers as they do constants'.
                    let n = (d.n as usize).min(4);
                    let nb = e.nbank as usize;
                    let held = |p: usize| {
                        (0..n)
                            .all(|k| e.bank_uni.get(p + k).copied() == Some(d.x as u16 + k as u16))
                    };
                    let slot = match (0..nb).find(|&p| held(p)) {
                        Some(p) => Some(p),
                        None if nb + n <= BANK_MAX => {
                            for k in 0..n {
                                if let Some(u) = e.bank_uni.get_mut(nb + k) {
                                    *u = d.x as u16 + k as u16;
                                }
                            }
                            e.nbank += n as u8;
                            Some(nb)
                        }
                        None => None,
                    };
                    if let Some(p) = slot {
                        let base = d.dst as usize;
                        for k in 0..n {
                            if let (Some(kr), Some(kd)) =
                                (kreg.get_mut(base + k), kdef.get_mut(base + k))
                            {
                                *kr = (BANK_BASE + p + k) as u8;
                                *kd = out;
                            }
                        }
                        if let Some(f) = drop.get_mut(out) {
                            *f = base + n <= TEMP_MAX;
                        }
                    }
                }
            }
            match inst.op {
                Op::Nop => continue,
                Op::If => {
                    *stack.get_mut(depth).ok_or(internal("IF nesting"))? = out;
                    depth += 1;
                }
                Op::Else => {
                    let top = stack
                        .get_mut(depth.wrapping_sub(1))
                        .ok_or(internal("ELSE"))?;
                    e.code.get_mut(*top).ok_or(internal("ELSE"))?.jump = out as u16;
                    *top = out;
                }
                Op::Endif => {
                    depth = depth.checked_sub(1).ok_or(internal("ENDIF"))?;
                    let open = *stack.get(depth).ok_or(internal("ENDIF"))?;
                    e.code.get_mut(open).ok_or(internal("ENDIF"))?.jump = out as u16;
                }
                Op::Loop => {
                    // Values from before the loop may be rewritten in its body and read again
                    // in the next iteration: no constant or copy alias survives into a loop.
                    for (t, kr) in kreg.iter_mut().enumerate() {
                        if *kr != 0 {
                            *kr = 0;
                            if let Some(f) = kdef.get(t).and_then(|&i| drop.get_mut(i)) {
                                *f = false;
                            }
                        }
                    }
                    *lstack.get_mut(ldepth).ok_or(internal("LOOP nesting"))? = out;
                    ldepth += 1;
                    // The bound, little-endian in dst, a, b, x (see `Executable::run_body`).
                    let bound = crate::ir::loop_bound(inst).to_le_bytes();
                    d.dst = bound[0];
                    d.a = bound[1];
                    d.b = bound[2];
                    d.x = bound[3];
                    d.y = crate::ir::loop_budgeted(inst) as u8;
                }
                Op::EndLoop => {
                    ldepth = ldepth.checked_sub(1).ok_or(internal("ENDLOOP"))?;
                    let open = *lstack.get(ldepth).ok_or(internal("ENDLOOP"))?;
                    e.code.get_mut(open).ok_or(internal("ENDLOOP"))?.jump = out as u16;
                    d.jump = open as u16;
                }
                _ => {}
            }
            if let (Some(o), Some(n)) = (origin.get_mut(out), nested.get_mut(out)) {
                *o = i as u16;
                *n = (depth | ldepth) > 0
                    || matches!(
                        inst.op,
                        Op::If | Op::Else | Op::Endif | Op::Loop | Op::EndLoop
                    );
            }
            *e.code
                .get_mut(out)
                .ok_or(internal("too many instructions"))? = d;
            out += 1;
        }
        e.len = out as u16;
        // Dead code: walking backwards with the live components of each temp, an instruction
        // without side effects whose written components are never read afterwards is dropped.
        // Only top-level writes end a value's life (a write under IF may not happen).
        // A loop body runs again after its ENDLOOP: reaching one, every read in the body is
        // live before anything in it is looked at.
        let mut live = [0u8; TEMP_MAX];
        for j in (0..out).rev() {
            if drop.get(j).copied().unwrap_or(true) {
                continue;
            }
            if let Some(d) = e.code.get(j).filter(|d| d.op == Op::EndLoop) {
                let start = d.jump as usize;
                for k in start..j {
                    if drop.get(k).copied().unwrap_or(true) {
                        continue;
                    }
                    if let (Some(d), Some(inst)) = (
                        e.code.get(k).copied(),
                        origin.get(k).and_then(|&i| fetch(i as usize)),
                    ) {
                        mark(&d, &inst, &mut live);
                    }
                }
            }
            let (Some(d), Some(inst)) = (
                e.code.get(j).copied(),
                origin.get(j).and_then(|&i| fetch(i as usize)),
            ) else {
                continue;
            };
            let eff = effects(&inst);
            let w = eff.write;
            let pure = !no_register_result(d.op);
            let top = !nested.get(j).copied().unwrap_or(true);
            if pure && w.count > 0 && w.base >= 0 {
                let mut used = false;
                for k in 0..w.count as usize {
                    let t = w.base as usize + k;
                    // Registers outside the temps are never tracked: always live.
                    used |= live.get(t).is_none_or(|l| l & w.lanes != 0);
                }
                if !used {
                    if let Some(f) = drop.get_mut(j) {
                        *f = true;
                    }
                    continue;
                }
                if d.op == Op::Sample {
                    // The components the compiled seam writes (`jit::sample`); the
                    // interpreter writes all four.
                    let read = live.get(w.base as usize).copied().unwrap_or(15) & w.lanes;
                    if let Some(c) = e.code.get_mut(j) {
                        c.n = read;
                    }
                }
                if matches!(d.op, Op::LoadVar | Op::LoadAttr) {
                    let read = live.get(w.base as usize).copied().unwrap_or(15) & w.lanes;
                    if d.op == Op::LoadVar {
                        if let Some(v) = e.varying_lanes.get_mut(d.x as usize & (VARYING_CAP - 1)) {
                            *v |= read;
                        }
                    }
                    // Only the components some later instruction reads are copied.
                    if let Some(c) = e.code.get_mut(j) {
                        c.n = read;
                    }
                }
                if top {
                    for k in 0..w.count as usize {
                        if let Some(l) = live.get_mut(w.base as usize + k) {
                            *l &= !w.lanes;
                        }
                    }
                    // `live` now holds what is read after j of values written before it.
                    fuse_splat(&mut e.code, &mut drop, &nested, &mut live, j);
                }
            }
            mark(&d, &inst, &mut live);
        }
        // Remove the dropped CONSTs; IF/ELSE jump to ELSE/ENDIF, which are never dropped.
        let mut map = [0u16; IR_CAP];
        let mut kept = 0usize;
        for (i, m) in map.iter_mut().enumerate().take(out) {
            *m = kept as u16;
            if !drop.get(i).copied().unwrap_or(false) {
                kept += 1;
            }
        }
        let mut w = 0usize;
        for i in 0..out {
            if drop.get(i).copied().unwrap_or(false) {
                continue;
            }
            let Some(mut d) = e.code.get(i).copied() else {
                continue;
            };
            if matches!(d.op, Op::If | Op::Else | Op::Loop | Op::EndLoop) {
                d.jump = map.get(d.jump as usize).copied().unwrap_or(0);
            }
            if let Some(slot) = e.code.get_mut(w) {
                *slot = d;
            }
            w += 1;
        }
        e.len = w as u16;
        for (t, z) in needs_zero.iter().enumerate() {
            if *z {
                if let Some(slot) = e.zero.get_mut(e.nzero as usize) {
                    *slot = t as u8;
                    e.nzero += 1;
                }
            }
        }
        e.fuse_break_if();
        e.color_always = !e.has_flow && m.insts.iter().any(|i| i.op == Op::StoreColor);
        e.fuse_sample_color();
        Ok(e)
    }

    /// A loop's exit test `IF c; BREAK; ENDIF` (every `while`/`for` condition and every
    /// `if (..) break;`) becomes one conditional BREAK: `y` = [`BREAK_IF`], `a` = c. When the
    /// instruction before it is a one-component CMP, ICMP or UCMP writing c, that is folded in
    /// too (`y` = [`BREAK_CMP`], [`BREAK_ICMP`] or [`BREAK_UCMP`], with the compare's `dst`, `a`,
    /// `b`, `x`, `n`): it still writes c, under the same mask. One dispatch instead of three or
    /// four, with the same lanes leaving (see the executor's BREAK). Runs after the dead-code
    /// compaction; IF/ELSE/LOOP/ENDLOOP jumps are remapped (nothing else jumps to the removed
    /// IF, BREAK and ENDIF but the IF itself).
    fn fuse_break_if(&mut self) {
        let len = (self.len as usize).min(IR_CAP);
        // No loop (every profile-1 module): nothing to do.
        if !self.code.iter().take(len).any(|d| d.op == Op::Break) {
            return;
        }
        let mut map = [0u16; IR_CAP];
        let mut w = 0usize;
        let mut i = 0usize;
        // Reads run ahead of the write index (w <= i), so the code is rewritten in place.
        let at = |code: &[DInst; IR_CAP], i: usize| code.get(i).copied().unwrap_or(DNOP);
        let exit = |code: &[DInst; IR_CAP], k: usize| {
            let (f, b, e) = (at(code, k), at(code, k + 1), at(code, k + 2));
            k + 2 < len
                && f.op == Op::If
                && b.op == Op::Break
                && b.y == 0
                && e.op == Op::Endif
                && f.jump as usize == k + 2
        };
        while i < len {
            let d = at(&self.code, i);
            let kind = match d.op {
                Op::Cmp => BREAK_CMP,
                Op::ICmp if d.n == 1 => BREAK_ICMP,
                Op::UCmp if d.n == 1 => BREAK_UCMP,
                _ => 0,
            };
            let (fused, take) =
                if kind != 0 && exit(&self.code, i + 1) && at(&self.code, i + 1).a == d.dst {
                    (
                        DInst {
                            op: Op::Break,
                            y: kind,
                            n: 1,
                            jump: 0,
                            ..d
                        },
                        4,
                    )
                } else if exit(&self.code, i) {
                    (
                        DInst {
                            op: Op::Break,
                            y: BREAK_IF,
                            a: d.a,
                            ..DNOP
                        },
                        3,
                    )
                } else {
                    (d, 1)
                };
            for m in map.iter_mut().skip(i).take(take) {
                *m = w as u16;
            }
            if let Some(slot) = self.code.get_mut(w) {
                *slot = fused;
            }
            w += 1;
            i += take;
        }
        for d in self.code.iter_mut().take(w) {
            if matches!(d.op, Op::If | Op::Else | Op::Loop | Op::EndLoop) {
                d.jump = map.get(d.jump as usize).copied().unwrap_or(0);
            }
        }
        for d in self.code.iter_mut().skip(w).take(len - w) {
            *d = DNOP;
        }
        self.len = w as u16;
    }

    /// A fragment stage whose colour is a texture sample as it is (SAMPLE R; ...; STORE_COLOR
    /// R with nothing else reading R, no IF) gets the two fused: the SAMPLE stores the colour
    /// output itself and the STORE_COLOR becomes a NOP. [`Self::run_packed`] then hands the
    /// filtered texels out as pixels without the float round trip, which is exact: every
    /// 8-bit channel c gives c again through `c as f32 * (1 / 255)` and the pixel packing
    /// (tested exhaustively). Textured quads, sprites and blits are this shape. So is
    /// `vec4(texture(..).rgb, 1.0)` (CONST C = (.., .., .., 1); MOV C.xyz = R; STORE_COLOR C,
    /// with R and C read by nothing else): the CONST and MOV become NOPs too, and the fused
    /// SAMPLE (`y` = 2) sets alpha to 1.0 (255 packed) itself.
    fn fuse_sample_color(&mut self) {
        if self.stage != Stage::Fragment || self.has_flow {
            return;
        }
        if self
            .code
            .iter()
            .take(self.len as usize)
            .any(|d| d.op.is_indirect())
        {
            // Indirect writes name no register statically: keep the colour path plain.
            return;
        }
        let code = self.code.get(..self.len as usize).unwrap_or(&[]);
        let mut stores = code
            .iter()
            .enumerate()
            .filter(|(_, d)| d.op == Op::StoreColor);
        let (Some((sc, store)), None) = (stores.next(), stores.next()) else {
            return;
        };
        let reg = store.a;
        // The last writer of register `r` before instruction `before`.
        let writes = |d: &DInst| -> (u8, u8) {
            match d.op {
                op if no_register_result(op) => (0, 0),
                Op::MulMM | Op::LoadUni => (d.dst, d.n.max(1)),
                _ => (d.dst, 1),
            }
        };
        let hits = |r: u8, base: u8, count: u8| (base..base.saturating_add(count)).contains(&r);
        let last_writer = |r: u8, before: usize| {
            (0..before).rev().find(|&i| {
                code.get(i).is_some_and(|d| {
                    let (b, n) = writes(d);
                    hits(r, b, n)
                })
            })
        };
        // Whether `d` may read register `r`: exact for the ops that read no register or one
        // (CONST, LOAD_VAR/LOAD_ATTR, MOV, STORE_COLOR), generous for the others (a and b with up to four
        // registers each).
        let reads = |d: &DInst, r: u8| match d.op {
            Op::Nop | Op::Discard | Op::Const | Op::LoadVar | Op::LoadAttr => false,
            Op::Mov | Op::StoreColor => d.a == r,
            _ => hits(r, d.a, 4) || hits(r, d.b, 4),
        };
        // Nothing after instruction `from` but those at `skip` reads register `r`.
        let unread = |r: u8, from: usize, skip: &[usize]| {
            code.iter()
                .enumerate()
                .skip(from + 1)
                .all(|(i, d)| skip.contains(&i) || !reads(d, r))
        };
        let sample_at = |i: usize, r: u8| {
            code.get(i)
                .is_some_and(|d| d.op == Op::Sample && d.dst == r)
        };
        let Some(ss) = last_writer(reg, sc) else {
            return;
        };
        // (the SAMPLE, the instructions it replaces, its `y`).
        let fused = if sample_at(ss, reg) && unread(reg, ss, &[sc]) {
            Some((ss, [sc; 3], 1))
        } else {
            // `vec4(texture(..).rgb, 1.0)`: CONST C = (.., .., .., 1.0), MOV C.xyz = R,
            // STORE_COLOR C, R a SAMPLE read by nothing else, C by nothing else.
            let mv = ss;
            let src = code
                .get(mv)
                .filter(|d| d.op == Op::Mov && d.n == 3 && d.a != reg)
                .map(|d| d.a);
            let alpha_one = |i: usize| {
                code.get(i).is_some_and(|d| {
                    d.op == Op::Const
                        && d.n == 4
                        && d.dst == reg
                        && self.imms.get(d.x as usize + 3).map(|w| w.to_bits())
                            == Some(1.0f32.to_bits())
                })
            };
            match src.map(|r| (r, last_writer(r, mv), last_writer(reg, mv))) {
                Some((r, Some(s), Some(k)))
                    if sample_at(s, r)
                        && alpha_one(k)
                        && unread(r, s, &[mv])
                        && unread(reg, k, &[mv, sc]) =>
                {
                    Some((s, [k, mv, sc], 2))
                }
                _ => None,
            }
        };
        let Some((s, nops, y)) = fused else {
            return;
        };
        if let Some(d) = self.code.get_mut(s) {
            d.y = y;
        }
        for i in nops {
            if let Some(d) = self.code.get_mut(i) {
                d.op = Op::Nop;
            }
        }
        self.sample_opaque = y == 2;
        self.sample_color = true;
    }
}

/// Marks the temps decoded instruction `d` (module instruction `inst`) reads as live.
fn mark(d: &DInst, inst: &Inst, live: &mut [u8; TEMP_MAX]) {
    for (k, r) in effects(inst).reads.iter().enumerate() {
        if r.count == 0 || r.base < 0 {
            continue;
        }
        if r.count == 1 {
            // Operand k names reads[k] (see the renaming above), maybe redirected.
            let reg = if k == 0 { d.a } else { d.b } as usize;
            if let Some(l) = live.get_mut(reg) {
                *l |= r.lanes;
            }
            continue;
        }
        for c in 0..r.count as usize {
            if let Some(l) = live.get_mut(r.base as usize + c) {
                *l |= r.lanes;
            }
        }
    }
}

/// Splat fusion (called in the dead-code walk, `live` holding what is read after `j` of the
/// values written before it): a
/// top-level ADD/SUB/MUL at `j` reading, as one operand, a temp the SWZ just before it filled
/// with one component of a register (`%t = swz %s.xxx`), with `%t` dead afterwards, reads
/// that component itself (y = 2: operand b, y = 3: operand a; x = the component) and the
/// SWZ is dropped. The values and their order in each operation are the same, so are the bits.
fn fuse_splat(
    code: &mut [DInst; IR_CAP],
    drop: &mut [bool; IR_CAP],
    nested: &[bool; IR_CAP],
    live: &mut [u8; TEMP_MAX],
    j: usize,
) {
    let Some(i) = j.checked_sub(1) else { return };
    let (Some(&op), Some(&sw)) = (code.get(j), code.get(i)) else {
        return;
    };
    if !matches!(op.op, Op::Add | Op::Sub | Op::Mul)
        || sw.op != Op::Swz
        || drop.get(i).copied().unwrap_or(true)
        || nested.get(i).copied().unwrap_or(true)
        || sw.n == 0
        || op.n > sw.n
        || op.a == op.b
    {
        return;
    }
    let sel = |k: u8| (sw.x >> (2 * k)) & 3;
    let comp = sel(0);
    if (1..sw.n.min(4)).any(|k| sel(k) != comp) {
        return;
    }
    let t = sw.dst;
    if live.get(t as usize).is_none_or(|l| *l != 0) {
        return;
    }
    let side = if op.b == t {
        2
    } else if op.a == t {
        3
    } else {
        return;
    };
    if let (Some(d), Some(f)) = (code.get_mut(j), drop.get_mut(i)) {
        if side == 2 {
            d.b = sw.a;
        } else {
            d.a = sw.a;
        }
        d.y = side;
        d.x = comp;
        *f = true;
    }
    // The dropped SWZ's read is now this instruction's.
    if let Some(l) = live.get_mut(sw.a as usize) {
        *l |= 1 << comp;
    }
}

/// Whether temps base..base+count all name consecutive bank registers (kreg[base] + j).
fn banked_run(kreg: &[u8; TEMP_MAX], base: i16, count: u16) -> bool {
    if base < 0 {
        return false;
    }
    let Some(&first) = kreg.get(base as usize) else {
        return false;
    };
    (first as usize) >= BANK_BASE
        && (first as usize) < ALIAS_BIAS
        && (0..count as usize)
            .all(|j| kreg.get(base as usize + j).copied() == Some(first.wrapping_add(j as u8)))
}

/// Control flow, stores and DISCARD: the instructions that write no register (and have an
/// effect besides, so they are never dead code).
fn no_register_result(op: Op) -> bool {
    matches!(
        op,
        Op::Nop
            | Op::If
            | Op::Else
            | Op::Endif
            | Op::Loop
            | Op::Break
            | Op::Continue
            | Op::EndLoop
            | Op::StorePos
            | Op::StoreVar
            | Op::StoreColor
            | Op::StoreDepth
            | Op::StoreClip
            | Op::Discard
            | Op::StoreIdx
            | Op::StoreLane
    )
}

/// The decoded operands of an indirect op (see `indirect`); None when a field does not fit.
fn indirect_operands(inst: &Inst, d: &mut DInst) -> Option<()> {
    let byte = |v: i32| u8::try_from(v).ok();
    match inst.op {
        Op::LoadIdx | Op::StoreIdx => {
            let base = if inst.op == Op::LoadIdx {
                inst.b
            } else {
                inst.dst
            } as i32;
            let first = byte(base + inst.c as i32)?;
            if inst.op == Op::LoadIdx {
                d.b = first;
            } else {
                d.dst = first;
                d.n = inst.lanes.min(4);
            }
            d.x = byte(inst.aux as i32 - 1)?;
            d.y = byte(inst.aux2 as i32)?;
        }
        Op::LoadUniIdx => {
            let max = u16::try_from(inst.aux2 as i32 - 1).ok()?;
            d.jump = u16::try_from(inst.aux).ok()?;
            d.x = max as u8;
            d.y = (max >> 8) as u8;
            d.n = byte(inst.c as i32)?;
        }
        _ => d.x = byte(inst.aux as i32 - 1)?,
    }
    Some(())
}
