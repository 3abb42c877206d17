//! The software executor: runs a verified [`Module`](crate::ir::Module) over
//! [`LANES`] vertices or fragments at a time, in structure-of-arrays registers
//! (`[[f32; LANES]; 4]` per temp), with per-lane masks for IF/ELSE/ENDIF and DISCARD.
//!
//! Its parts, each depending only on those listed before it: `lanes` (the lane count, the
//! register and mask types, lane-wise sqrt), `math` (pow, sin/cos and the float floor, scalar
//! and lane forms), `texel` (the SIMD texel blends and packing), `texture` (sampler state and
//! sampling), this module (registers, the [`Executable`] and its interpreter), `decode` (module
//! to [`Executable`]), and `selftest` (every SIMD path against its scalar reference).
//!
//! A module is decoded once into an [`Executable`] (after `verify`): lane counts resolved, IF and
//! ELSE given their jump targets, fragment varying slots remapped to vertex-output slots, and the
//! list of temps that some instruction may read before anything wrote them (those are zeroed at
//! the start of each dispatch, which keeps the IR's "temps start at zero" meaning without
//! clearing the whole register file for every 8 pixels). Top-level CONSTs are banked: their
//! values sit in registers above the temps (loaded once per executable switch, not per
//! dispatch), operands read them there, and a CONST whose every read was redirected is dropped.
//! Top-level LOAD_UNIs are banked the same way (broadcast only when a uniform's value differs
//! from what its bank register holds, so once per draw), and a splat SWZ feeding an
//! ADD/SUB/MUL is fused into it (see `decode::fuse_splat`).
//!
//! Numerics (chosen to match Mesa llvmpipe, which follows the GPU rather than C):
//! IEEE f32 everywhere, no fused multiply-add; DIV is true division and RCP is 1/x, so
//! `1.0/0.0 = inf`; RSQ is 1/sqrt(x) (RSQ(0) = inf, RSQ(negative) = NaN, so `normalize` of a zero
//! vector is NaN); SQRT is the correctly rounded IEEE square root (the bits of libm's, four
//! lanes per SQRTPS on x86_64), TRUNC comes from libm, SIN/COS reduce by pi/2 and evaluate
//! minimax polynomials (within 2 ulp of libm, see [`math::sin`]); POW is exp2(y * log2 x) as
//! llvmpipe computes it (so pow(x < 0, y) and pow(0, 0) are NaN, see [`math::pow`]);
//! MIN/MAX return the non-NaN operand when one is NaN (IEEE minNum/maxNum, as llvmpipe's NIR
//! lowering does), so clamp(NaN, lo, hi) = lo; CMP compares IEEE-style (NaN != x is true, every
//! other comparison with NaN is false).
//!
//! Lanes that are not active (outside the triangle, discarded) may hold anything; a write is
//! masked only when control flow has switched off some live lanes.
//!
//! It must never: run an unverified module (construction verifies), panic, index out of bounds
//! (temps are addressed through a 128-entry file with a 7-bit mask; every other table access is
//! checked), or allocate.
// Lane loops index several arrays in lockstep on purpose (that is the form that vectorizes),
// and negated float comparisons send NaN down the rejecting path.
#![allow(
    clippy::needless_range_loop,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::excessive_precision
)]

pub(crate) mod array;
pub mod cube;
pub(crate) mod decode;
mod indirect;
pub mod ints;
pub mod itex;
pub mod jit;
pub mod lanes;
pub mod math;
pub(crate) mod mip;
pub mod quad;
pub(crate) mod selftest;
pub mod simd;
pub(crate) mod texel;
pub mod texture;

use self::lanes::{Lanes, Mask, Vec4x, ALL_LANES, LANES};
use self::math::{pow_lanes, trig_lanes};
use self::simd::{Isa, Simd};
use self::texture::TextureRef;
use crate::ir::{CmpCode, Op, Stage};
use crate::limits::{
    CLIP_DISTANCE_MAX, IF_DEPTH_MAX, IMM_CAP, IR_CAP, LOOP_DEPTH_MAX, TEMP_MAX, VARYING_CAP,
};

/// Register file size: a power of two above TEMP_MAX so a masked index can never be out of range.
const REG_FILE: usize = 128;
const REG_MASK: usize = REG_FILE - 1;
const _: () = assert!(REG_FILE >= TEMP_MAX);
/// First register of the constant bank: above every temp an instruction can write (MULMM and
/// LOAD_UNI write up to dst + 3).
const BANK_BASE: usize = TEMP_MAX + 4;
/// Distinct constants an executable keeps in bank registers (the rest stay CONST instructions).
const BANK_MAX: usize = REG_FILE - BANK_BASE;
const _: () = assert!(BANK_BASE < REG_FILE && BANK_MAX <= u8::MAX as usize);
/// `Executable::bank_uni` of a bank register holding a constant.
const NOT_UNIFORM: u16 = u16::MAX;
/// Decode-time alias marks: temp t is recorded as t + ALIAS_BIAS, above every bank register.
const ALIAS_BIAS: usize = REG_FILE;
const _: () = assert!(ALIAS_BIAS + TEMP_MAX <= u8::MAX as usize + 1);
// Varying slots are read with a mask: the slot count must be a power of two.
const _: () = assert!(VARYING_CAP.is_power_of_two());

/// The SoA register file; keep one per thread and reuse it across dispatches.
#[derive(Clone)]
pub struct Regs {
    t: [Vec4x; REG_FILE],
    /// The bits each bank register holds in every lane (a constant's or a uniform's), so an
    /// executable whose bank values are already there does not broadcast them again: a
    /// uniform is broadcast once per draw (or when another draw changed it), not per dispatch.
    bank: [[u32; 4]; BANK_MAX],
    /// The instruction set the lane loops run on: detected at the first dispatch (None until
    /// then), or chosen with [`Regs::set_isa`].
    simd: Option<Simd>,
    /// gl_FrontFacing of the next dispatches (LOAD_FACE): 1.0 front, 0.0 back. The rasterizer
    /// sets it per triangle (a dispatch holds blocks of one triangle only).
    face: f32,
}

impl Default for Regs {
    fn default() -> Self {
        Regs::new()
    }
}

impl Regs {
    pub const fn new() -> Regs {
        Regs {
            t: [[[0.0; LANES]; 4]; REG_FILE],
            bank: [[0; 4]; BANK_MAX],
            simd: None,
            face: 1.0,
        }
    }

    /// Sets gl_FrontFacing for later dispatches (true when a register file is made).
    pub fn set_front_facing(&mut self, front: bool) {
        self.face = if front { 1.0 } else { 0.0 };
    }

    /// Runs later dispatches (and draws through a `Scratch` holding these registers) on `isa`;
    /// false, and no change, when this machine cannot run it. Every instruction set gives the
    /// same bits.
    pub fn set_isa(&mut self, isa: Isa) -> bool {
        match Simd::with(isa) {
            Some(s) => {
                self.simd = Some(s);
                true
            }
            None => false,
        }
    }

    /// The instruction set dispatches run on (detecting it on first use).
    #[inline]
    pub fn simd(&mut self) -> Simd {
        match self.simd {
            Some(s) => s,
            None => self.detect_simd(),
        }
    }

    /// [`Self::simd`]'s first use: out of line (CPUID), so the per-dispatch read inlines.
    #[cold]
    #[inline(never)]
    fn detect_simd(&mut self) -> Simd {
        let s = Simd::detect();
        self.simd = Some(s);
        s
    }
}

/// Inputs of one dispatch.
pub struct Invocation<'a, 'b> {
    /// This stage's 32 vec4 uniform slots.
    pub uniforms: &'a [f32],
    pub textures: &'a [Option<TextureRef<'b>>],
    /// Vertex stage: attributes by location. Fragment stage: interpolated varyings by
    /// vertex-output slot (the executable applies the link remap).
    pub inputs: &'a [Vec4x; VARYING_CAP],
    /// Fragment stage: gl_FragCoord per lane. Vertex stage: component 0 is gl_VertexID and
    /// component 1 gl_InstanceID per lane, as floats (read only when
    /// [`Executable::reads_sysvals`]).
    pub fragcoord: &'a Vec4x,
}

/// Outputs of one dispatch (only the active, not discarded lanes are meaningful).
#[derive(Clone)]
pub struct Outputs {
    pub position: Vec4x,
    pub varyings: [Vec4x; VARYING_CAP],
    pub color: Vec4x,
    /// [`Executable::run_packed`]: the colour as 0xAARRGGBB pixels (`color` is not written).
    pub packed: [u32; LANES],
    /// Fragment stage: gl_FragDepth per lane, as written (STORE_DEPTH; see
    /// [`Executable::writes_depth`]); unclamped.
    pub depth: Lanes,
    /// Vertex stage: gl_ClipDistance[k] per lane for the written k (STORE_CLIP; see
    /// [`Executable::clip_mask`]).
    pub clip: [Lanes; CLIP_DISTANCE_MAX],
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs::new()
    }
}

impl Outputs {
    pub const fn new() -> Outputs {
        Outputs {
            position: [[0.0; LANES]; 4],
            varyings: [[[0.0; LANES]; 4]; VARYING_CAP],
            color: [[0.0; LANES]; 4],
            packed: [0; LANES],
            depth: [0.0; LANES],
            clip: [[0.0; LANES]; CLIP_DISTANCE_MAX],
        }
    }
}

/// One open loop of `run_body`.
#[derive(Clone, Copy)]
struct LoopFrame {
    /// The running lanes and the enclosing loop's `lm` at the LOOP, restored at its end.
    cur: Mask,
    lm: Mask,
    /// Lanes that have not left the loop (by BREAK).
    running: Mask,
    /// Iterations finished, and the bound.
    count: u32,
    bound: u32,
    /// Whether each iteration spends the invocation budget (`LOOP_BUDGETED`).
    budgeted: bool,
}

impl LoopFrame {
    const EMPTY: LoopFrame = LoopFrame {
        cur: 0,
        lm: 0,
        running: 0,
        count: 0,
        bound: 0,
        budgeted: false,
    };
}

/// One decoded instruction: operands narrowed to bytes, lane counts resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct DInst {
    op: Op,
    /// Lanes, matrix columns, DOT size or LOAD_UNI count; LOAD_VAR/LOAD_ATTR and SAMPLE: the
    /// components (bit c) that some later instruction reads (SAMPLE: 0 when not known, all).
    n: u8,
    dst: u8,
    a: u8,
    b: u8,
    /// aux: immediate base, selectors, lane, CMP code, unit, location, slot.
    x: u8,
    /// aux2: SETLANE source lane; SAMPLE: 1 when it also is the colour output (see
    /// `fuse_sample_color`); BREAK: a fused conditional break ([`BREAK_IF`] and after).
    y: u8,
    /// IF: index of its ELSE or ENDIF; ELSE: index of its ENDIF; LOOP: index of its ENDLOOP;
    /// ENDLOOP: index of its LOOP. (A LOOP keeps its iteration bound little-endian in `dst`,
    /// `a`, `b`, `x`, and in `y` 1 when it spends the invocation budget.)
    jump: u16,
}

/// BREAK's `y`: a plain BREAK (0), or one fused with the `IF c` and `ENDIF` around it (see
/// `decode`'s `fuse_break_if`): the lanes of the current mask where c (`a`) is not 0 break.
const BREAK_IF: u8 = 1;
/// BREAK's `y`: [`BREAK_IF`] with the compare that computes c folded in: `dst = a CMP b` (code
/// `x`), written as CMP writes it, then the lanes where it is true break.
const BREAK_CMP: u8 = 2;
/// [`BREAK_CMP`] with ICMP (`ints::compare_lanes`, one component).
const BREAK_ICMP: u8 = 3;
/// [`BREAK_CMP`] with UCMP (`ints::compare_lanes`, one component).
const BREAK_UCMP: u8 = 4;

const DNOP: DInst = DInst {
    op: Op::Nop,
    n: 0,
    dst: 0,
    a: 0,
    b: 0,
    x: 0,
    y: 0,
    jump: 0,
};

/// A verified, decoded module ready to run.
#[derive(Clone)]
pub struct Executable {
    stage: Stage,
    code: [DInst; IR_CAP],
    len: u16,
    imms: [f32; IMM_CAP],
    /// Temps that may be read before being written: zeroed per dispatch.
    zero: [u8; TEMP_MAX],
    nzero: u8,
    /// Varying slots (vertex-output numbering) this stage stores (VS) or reads (FS).
    varying_mask: u16,
    /// Values (bits) of the bank registers BANK_BASE.. that operands may name instead of a
    /// temp written by a top-level CONST (see `new`).
    bank: [[u32; 4]; BANK_MAX],
    /// Per bank register: the uniform slot it holds (a banked top-level LOAD_UNI), or
    /// [`NOT_UNIFORM`] for a constant (its bits in `bank`).
    bank_uni: [u16; BANK_MAX],
    nbank: u8,
    /// Per varying slot (vertex-output numbering): the components some instruction reads.
    varying_lanes: [u8; VARYING_CAP],
    /// Some instruction reads gl_FragCoord (otherwise the rasterizer need not fill it).
    reads_fragcoord: bool,
    /// Some instruction writes gl_FragDepth (STORE_DEPTH): the depth test runs after shading.
    writes_depth: bool,
    /// Vertex stage: bit k set when gl_ClipDistance[k] is written (STORE_CLIP aux k).
    clip_mask: u8,
    /// Some instruction reads gl_VertexID or gl_InstanceID (LOAD_SYSVAL).
    reads_sysvals: bool,
    /// Some instruction takes a derivative (DDX/DDY): the rasterizer must shade whole 2x2
    /// quads, helper lanes included (see [`Executable::derivatives`]).
    derivatives: bool,
    /// The code has IF: without it every write may cover all lanes (see `run`).
    has_flow: bool,
    /// Every lane that finishes has run a top-level STORE_COLOR (no IF, some STORE_COLOR), so
    /// the colour output need not be cleared first.
    color_always: bool,
    /// The colour output is a texture sample as it is (see `fuse_sample_color`).
    sample_color: bool,
    /// ... with alpha 1.0 (`vec4(texture(..).rgb, 1.0)`, the fused SAMPLE's `y` = 2).
    sample_opaque: bool,
}

impl Executable {
    /// Whether [`Self::run_packed`] applies: the colour is a texture sample as it is.
    pub fn sample_color(&self) -> bool {
        self.sample_color
    }

    /// Whether the fused colour is a sample's rgb with alpha 1.0 (see `fuse_sample_color`):
    /// the float colour it stands for is then `texel::unpack_one` of the packed pixel.
    pub fn sample_opaque(&self) -> bool {
        self.sample_opaque
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Varying slots (vertex-output numbering) stored by this vertex stage or read by this
    /// fragment stage, as a bit mask.
    pub fn varying_mask(&self) -> u16 {
        self.varying_mask
    }

    /// Fragment stage: the components (bit c) of varying `slot` (vertex-output numbering) that
    /// the code reads; the others may hold anything.
    pub fn varying_lanes(&self, slot: usize) -> u8 {
        self.varying_lanes.get(slot).copied().unwrap_or(0)
    }

    /// Vertex stage: the user clip planes, bit k for gl_ClipDistance[k] (those the shader
    /// writes; `Outputs::clip`).
    pub fn clip_mask(&self) -> u8 {
        self.clip_mask
    }

    /// Whether this fragment stage writes gl_FragDepth (`Outputs::depth`): the rasterizer must
    /// test and write depth after shading (no early depth test).
    pub fn writes_depth(&self) -> bool {
        self.writes_depth
    }

    /// Whether this stage reads gl_FragCoord (`Invocation::fragcoord`).
    pub fn reads_fragcoord(&self) -> bool {
        self.reads_fragcoord
    }

    /// Whether some instruction takes a derivative (DDX/DDY): the fragment stage then needs
    /// every lane of each 2x2 quad that has a covered lane (helper lanes), with quads aligned
    /// to even window coordinates. The compiler sets it per program; shaders without
    /// derivatives shade only covered lanes.
    pub fn derivatives(&self) -> bool {
        self.derivatives
    }

    /// Whether this vertex stage reads gl_VertexID or gl_InstanceID (carried in
    /// `Invocation::fragcoord`).
    pub fn reads_sysvals(&self) -> bool {
        self.reads_sysvals
    }

    /// Runs the lanes in `active` (bit l = lane l). Returns the lanes that finished without
    /// DISCARD. Outputs of inactive or discarded lanes are unspecified.
    pub fn run(&self, regs: &mut Regs, inv: &Invocation, out: &mut Outputs, active: Mask) -> Mask {
        if self.has_flow {
            self.run_impl::<false, false>(regs, inv, out, active)
        } else {
            self.run_impl::<true, false>(regs, inv, out, active)
        }
    }

    /// [`Self::run`] for a stage with [`Self::sample_color`]: the colour goes to
    /// `out.packed` as 0xAARRGGBB pixels, the same bits packing `out.color` would give.
    /// Other stages run as [`Self::run`] does.
    pub fn run_packed(
        &self,
        regs: &mut Regs,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Mask {
        if self.sample_color {
            self.run_impl::<true, true>(regs, inv, out, active)
        } else {
            self.run(regs, inv, out, active)
        }
    }

    /// `STRAIGHT`: the code has no IF, so the current lanes are always the live ones, every
    /// write may cover all lanes, and the first DISCARD (which kills every live lane) returns:
    /// the loop needs no control-flow bookkeeping.
    ///
    /// `PACKED`: a fused SAMPLE (see `fuse_sample_color`) writes `out.packed`, not `out.color`.
    fn run_impl<const STRAIGHT: bool, const PACKED: bool>(
        &self,
        regs: &mut Regs,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Mask {
        let simd = regs.simd();
        simd.run(
            #[inline(always)]
            || self.run_body::<STRAIGHT, PACKED>(regs, inv, out, active),
        )
    }

    /// The interpreter loop, compiled once per instruction set (see `simd`).
    #[inline(always)]
    fn run_body<const STRAIGHT: bool, const PACKED: bool>(
        &self,
        regs: &mut Regs,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Mask {
        let nb = (self.nbank as usize).min(BANK_MAX);
        for k in 0..nb {
            let want = match self.bank_uni[k] {
                NOT_UNIFORM => self.bank[k],
                slot => {
                    let mut v = [0u32; 4];
                    for (c, v) in v.iter_mut().enumerate() {
                        *v = inv
                            .uniforms
                            .get(slot as usize * 4 + c)
                            .copied()
                            .unwrap_or(0.0)
                            .to_bits();
                    }
                    v
                }
            };
            if regs.bank[k] != want {
                if let Some(reg) = regs.t.get_mut(BANK_BASE + k) {
                    for c in 0..4 {
                        reg[c] = [f32::from_bits(want[c]); LANES];
                    }
                }
                regs.bank[k] = want;
            }
        }
        let face = regs.face;
        let simd = regs.simd();
        let r = &mut regs.t;
        for &t in self.zero.iter().take(self.nzero as usize) {
            r[t as usize & REG_MASK] = [[0.0; LANES]; 4];
        }
        match self.stage {
            Stage::Vertex => {
                out.position = [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]];
                for (s, v) in out.varyings.iter_mut().enumerate() {
                    if self.varying_mask & (1 << s) != 0 {
                        *v = [[0.0; LANES]; 4];
                    }
                }
            }
            Stage::Fragment if !self.color_always => out.color = [[0.0; LANES]; 4],
            Stage::Fragment => {}
        }
        let mut alive = active & ALL_LANES;
        let mut cur = alive;
        // Writes may clobber every lane when no live lane is switched off.
        let mut full = true;
        let mut stack = [(0 as Mask, 0 as Mask); IF_DEPTH_MAX + 1];
        let mut depth = 0usize;
        // Loops: `lm` holds the lanes still running this iteration of the innermost loop (all
        // lanes outside loops); IF parts only ever narrow it.
        let mut lm: Mask = ALL_LANES;
        let mut loops = [LoopFrame::EMPTY; LOOP_DEPTH_MAX + 1];
        // Iterations of budgeted loops each lane (invocation) has started (`P2_LOOP_BUDGET`).
        let mut spent = [0u32; LANES];
        let mut ldepth = 0usize;
        let code = self.code.get(..self.len as usize).unwrap_or(&[]);
        let mut pc = 0usize;
        while let Some(d) = code.get(pc) {
            pc += 1;
            let (dst, a, b) = operands(d);
            // Skipped when no lane runs, except control flow (one test, no second jump table).
            if !STRAIGHT && cur == 0 && !is_flow(d.op) {
                continue;
            }
            let m = if STRAIGHT || full { ALL_LANES } else { cur };
            match d.op {
                Op::If if !STRAIGHT => {
                    let mut cond: Mask = 0;
                    for (l, v) in r[a][0].iter().enumerate() {
                        if *v != 0.0 {
                            cond |= 1 << l;
                        }
                    }
                    if let Some(s) = stack.get_mut(depth) {
                        *s = (cur, cond);
                    }
                    depth += 1;
                    cur &= cond;
                    full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    if cur == 0 {
                        pc = d.jump as usize;
                    }
                    continue;
                }
                Op::Else if !STRAIGHT => {
                    let (saved, cond) = stack.get(depth.wrapping_sub(1)).copied().unwrap_or((0, 0));
                    cur = saved & !cond & alive & lm;
                    full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    if cur == 0 {
                        pc = d.jump as usize;
                    }
                    continue;
                }
                Op::Endif if !STRAIGHT => {
                    depth = depth.saturating_sub(1);
                    let (saved, _) = stack.get(depth).copied().unwrap_or((0, 0));
                    cur = saved & alive & lm;
                    full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    continue;
                }
                Op::Loop if !STRAIGHT => {
                    let budgeted = d.y != 0;
                    let run = if budgeted {
                        spend_budget(&mut spent, cur)
                    } else {
                        cur
                    };
                    if run == 0 {
                        pc = d.jump as usize + 1;
                        continue;
                    }
                    if let Some(f) = loops.get_mut(ldepth) {
                        *f = LoopFrame {
                            cur,
                            lm,
                            running: run,
                            count: 0,
                            bound: u32::from_le_bytes([d.dst, d.a, d.b, d.x]),
                            budgeted,
                        };
                    }
                    ldepth += 1;
                    lm = run;
                    if run != cur {
                        cur = run;
                        full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    }
                    continue;
                }
                Op::Break if !STRAIGHT && d.y != 0 => {
                    // `[c = a CMP b;] IF c; BREAK; ENDIF` in one step: the same lanes
                    // leave, and the mask after it is the one ENDIF restored.
                    let mut gone: Mask = 0;
                    if cur != 0 {
                        let m = if full { ALL_LANES } else { cur };
                        let c = match d.y {
                            BREAK_CMP => {
                                let v = cmp_lanes(&r[a][0], &r[b][0], d.x);
                                put(&mut r[dst][0], &v, m);
                                dst
                            }
                            BREAK_ICMP | BREAK_UCMP => {
                                let signed = d.y == BREAK_ICMP;
                                let (x, y) = (&r[a][0], &r[b][0]);
                                let v = ints::compare_lanes(signed, d.x as i16, x, y);
                                put(&mut r[dst][0], &v, m);
                                dst
                            }
                            _ => a,
                        };
                        for (l, v) in r[c][0].iter().enumerate() {
                            if *v != 0.0 {
                                gone |= 1 << l;
                            }
                        }
                        gone &= cur;
                    }
                    if gone != 0 {
                        if let Some(f) = ldepth.checked_sub(1).and_then(|k| loops.get_mut(k)) {
                            f.running &= !gone;
                        }
                        lm &= !gone;
                    }
                    cur &= alive & lm;
                    full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    continue;
                }
                Op::Break if !STRAIGHT => {
                    if let Some(f) = ldepth.checked_sub(1).and_then(|k| loops.get_mut(k)) {
                        f.running &= !cur;
                    }
                    lm &= !cur;
                    cur = 0;
                    full = false;
                    continue;
                }
                Op::Continue if !STRAIGHT => {
                    lm &= !cur;
                    cur = 0;
                    full = false;
                    continue;
                }
                Op::EndLoop if !STRAIGHT => {
                    let Some(f) = ldepth.checked_sub(1).and_then(|k| loops.get_mut(k)) else {
                        continue;
                    };
                    f.count += 1;
                    let mut next = f.running & alive;
                    if f.budgeted && next != 0 && f.count < f.bound {
                        // Lanes whose budget is spent leave the loop as if by BREAK.
                        next = spend_budget(&mut spent, next);
                        f.running = next;
                    }
                    if next == 0 || f.count >= f.bound {
                        // Done, or at the bound: the loop ends as if every lane broke.
                        cur = f.cur & alive;
                        lm = f.lm;
                        ldepth -= 1;
                    } else {
                        cur = next;
                        lm = next;
                        pc = d.jump as usize + 1;
                    }
                    full = (cur | !alive) & ALL_LANES == ALL_LANES;
                    continue;
                }
                Op::Nop | Op::If | Op::Else | Op::Endif => {}
                Op::Loop | Op::Break | Op::Continue | Op::EndLoop => {}
                Op::Const => {
                    // All four components are written; those past the count are 0.
                    for c in 0..4 {
                        let k = if c < d.n as usize {
                            self.imms.get(d.x as usize + c).copied().unwrap_or(0.0)
                        } else {
                            0.0
                        };
                        fill(&mut r[dst][c], k, m);
                    }
                }
                Op::Mov => {
                    if let Some((src, to)) = src_dst(r, a, dst) {
                        for c in 0..(d.n as usize).min(4) {
                            put(&mut to[c], &src[c], m);
                        }
                    }
                }
                Op::Swz => {
                    // All four components are written; those past the count are 0.
                    let sel = |k: usize| (d.x as usize >> (2 * k)) & 3;
                    let n = (d.n as usize).min(4);
                    if let Some((src, to)) = src_dst(r, a, dst) {
                        for k in 0..4 {
                            if k < n {
                                put(&mut to[k], &src[sel(k)], m);
                            } else {
                                fill(&mut to[k], 0.0, m);
                            }
                        }
                    } else {
                        let src = r[a];
                        for k in 0..4 {
                            if k < n {
                                put(&mut r[dst][k], &src[sel(k)], m);
                            } else {
                                fill(&mut r[dst][k], 0.0, m);
                            }
                        }
                    }
                }
                Op::SetLane => {
                    let src = r[a][d.y as usize & 3];
                    put(&mut r[dst][d.x as usize & 3], &src, m);
                }
                Op::Add if d.y == 2 => binary_splat::<true>(r, d, m, |x, y| x + y),
                Op::Add if d.y == 3 => binary_splat::<false>(r, d, m, |x, y| x + y),
                Op::Sub if d.y == 2 => binary_splat::<true>(r, d, m, |x, y| x - y),
                Op::Sub if d.y == 3 => binary_splat::<false>(r, d, m, |x, y| x - y),
                Op::Mul if d.y == 2 => binary_splat::<true>(r, d, m, |x, y| x * y),
                Op::Mul if d.y == 3 => binary_splat::<false>(r, d, m, |x, y| x * y),
                Op::Add => binary(r, d, m, |x, y| x + y),
                Op::Sub => binary(r, d, m, |x, y| x - y),
                Op::Mul => binary(r, d, m, |x, y| x * y),
                Op::Div => binary(r, d, m, |x, y| x / y),
                Op::Max => binary(r, d, m, f32::max),
                Op::Min => binary(r, d, m, f32::min),
                Op::Pow => binary_lanes(
                    r,
                    d,
                    m,
                    #[inline(always)]
                    |x, y| pow_lanes(x, y),
                ),
                Op::Abs => unary(r, d, m, f32::abs),
                Op::Rsq => unary_lanes(
                    r,
                    d,
                    m,
                    #[inline(always)]
                    |x| {
                        let mut v = self::lanes::sqrt(x);
                        for v in v.iter_mut() {
                            *v = 1.0 / *v;
                        }
                        v
                    },
                ),
                Op::Rcp => unary(r, d, m, |x| 1.0 / x),
                Op::Sin => unary_lanes(
                    r,
                    d,
                    m,
                    #[inline(always)]
                    |x| trig_lanes(x, 0),
                ),
                Op::Cos => unary_lanes(
                    r,
                    d,
                    m,
                    #[inline(always)]
                    |x| trig_lanes(x, 1),
                ),
                Op::Trunc => unary(r, d, m, libm::truncf),
                Op::Floor => unary(r, d, m, math::floor_f32),
                Op::Ddx => unary_lanes(r, d, m, self::quad::ddx),
                Op::Ddy => unary_lanes(r, d, m, self::quad::ddy),
                Op::Ceil => unary(r, d, m, libm::ceilf),
                Op::Fract => unary(r, d, m, |x| x - math::floor_f32(x)),
                Op::RoundEven => unary(r, d, m, libm::rintf),
                Op::Exp2 => unary(r, d, m, libm::exp2f),
                Op::Log2 => unary(r, d, m, libm::log2f),
                Op::Sign => unary(r, d, m, |x| {
                    if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                }),
                Op::CmpV => {
                    for c in 0..(d.n as usize).min(4) {
                        let v = cmp_lanes(&r[a][c], &r[b][c], d.x);
                        put(&mut r[dst][c], &v, m);
                    }
                }
                // The commonest integer op (loop counters), one component: inline, without
                // the call and the second instruction-set trampoline of `ints::run`.
                Op::IAdd if d.n == 1 => ints::iadd1(r, d, m),
                crate::ir::int_ops!() => ints::run(simd, r, d, m),
                Op::Sqrt => unary_lanes(
                    r,
                    d,
                    m,
                    #[inline(always)]
                    |x| self::lanes::sqrt(x),
                ),
                Op::Dot => {
                    let mut s = [0.0; LANES];
                    for c in 0..(d.n as usize).min(4) {
                        let (x, y) = (&r[a][c], &r[b][c]);
                        for l in 0..LANES {
                            s[l] += x[l] * y[l];
                        }
                    }
                    put(&mut r[dst][0], &s, m);
                }
                Op::Cmp => {
                    let v = cmp_lanes(&r[a][0], &r[b][0], d.x);
                    put(&mut r[dst][0], &v, m);
                }
                Op::MulMV => {
                    let n = (d.n as usize).min(4);
                    let v = mat_times(r, a, n, &r[b]);
                    put4(&mut r[dst], &v, m);
                }
                Op::Sample if d.y != 0 => {
                    // Fused with the colour output (only in straight code: every lane runs).
                    // Inside the AVX2 trampoline the sampler's blends take their 8-lane form.
                    let wide = simd.isa() == Isa::Avx2;
                    // An array texture under a 2D sample is incomplete, as below.
                    let tex = inv
                        .textures
                        .get(d.x as usize)
                        .and_then(|t| t.as_ref())
                        .filter(|t| t.layers.is_empty());
                    match tex {
                        // Mipmapped or two filters: the level of detail from the quad.
                        Some(tex) if tex.needs_lod() => {
                            let (u, v) = (&r[a][0], &r[a][1]);
                            let lambda = self::mip::quad_lambda(tex, u, v);
                            if PACKED && !tex.is_float() {
                                out.packed = self::mip::texel_quad_lanes(tex, u, v, &lambda, wide);
                            } else {
                                let mut c = [[0.0; LANES]; 4];
                                self::mip::sample_lambda_lanes(tex, u, v, &lambda, (0, 0), &mut c);
                                if PACKED {
                                    for l in 0..LANES {
                                        out.packed[l] = self::texel::pack_one([
                                            c[0][l], c[1][l], c[2][l], c[3][l],
                                        ]);
                                    }
                                } else {
                                    out.color = c;
                                }
                            }
                        }
                        // A depth texture's float colour, unquantized, when not packed.
                        Some(tex) if !PACKED && tex.is_float() => {
                            tex.sample_lanes(&r[a][0], &r[a][1], &mut out.color)
                        }
                        _ => {
                            let texels = match tex {
                                Some(tex) => tex.texel_lanes_in(&r[a][0], &r[a][1], wide),
                                // GL reads an unbound (incomplete) texture as opaque black.
                                None => [0xFF00_0000; LANES],
                            };
                            if PACKED {
                                out.packed = texels;
                            } else {
                                self::texel::unpack_lanes(&texels, &mut out.color);
                            }
                        }
                    }
                    if d.y == 2 {
                        // `vec4(...rgb, 1.0)`: alpha 1.0, which packs to 255.
                        if PACKED {
                            for p in out.packed.iter_mut() {
                                *p |= 0xFF00_0000;
                            }
                        } else {
                            out.color[3] = [1.0; LANES];
                        }
                    }
                }
                Op::Sample
                | Op::CubeLod
                | Op::CubeBias
                | Op::CubeGrad
                | Op::ShadowLod
                | Op::ShadowBias
                | Op::ShadowCube
                | Op::ShadowGrad
                | Op::ArrLod
                | Op::ArrBias
                | Op::ArrGrad
                | Op::ArrFetch
                | Op::ArrSize
                | Op::SampleLod
                | Op::SampleBias
                | Op::SampleGrad
                | Op::TexFetch
                | Op::TexSize
                | Op::MulMM
                | Op::LoadUni => self.run_cold(simd, r, inv, d, m),
                Op::LoadAttr | Op::LoadVar => {
                    // `n`: the components read later (see `new`).
                    let src = &inv.inputs[d.x as usize & (VARYING_CAP - 1)];
                    for c in 0..4 {
                        if d.n & (1 << c) != 0 {
                            put(&mut r[dst][c], &src[c], m);
                        }
                    }
                }
                Op::LoadFcoord => put4(&mut r[dst], inv.fragcoord, m),
                Op::LoadFace => {
                    for c in 0..4 {
                        fill(&mut r[dst][c], face, m);
                    }
                }
                Op::LoadSysval => {
                    // Vertex stage: `fragcoord` carries (gl_VertexID, gl_InstanceID, 0, 0).
                    let v = &inv.fragcoord[d.x as usize & 1];
                    for c in 0..4 {
                        put(&mut r[dst][c], v, m);
                    }
                }
                Op::StorePos => put4(&mut out.position, &r[a], m),
                Op::StoreVar => put4(
                    &mut out.varyings[d.x as usize & (VARYING_CAP - 1)],
                    &r[a],
                    m,
                ),
                Op::StoreColor => put4(&mut out.color, &r[a], m),
                Op::StoreDepth => put(&mut out.depth, &r[a][0], m),
                Op::StoreClip => {
                    if let Some(c) = out.clip.get_mut(d.x as usize) {
                        put(c, &r[a][0], m)
                    }
                }
                Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx | Op::LoadLane | Op::StoreLane => {
                    indirect::run(r, d, m, inv.uniforms)
                }
                Op::Discard => {
                    alive &= !cur;
                    cur = 0;
                    full = false;
                    if alive == 0 {
                        return 0;
                    }
                }
            }
        }
        alive
    }

    /// The heavy, rarer ops (texture sampling but the fused colour sample, MULMM, a LOAD_UNI
    /// left unbanked), out of the
    /// interpreter loop: their code and its register pressure stay out of the one hot
    /// function, whose dispatch head then keeps more in registers. They cost thousands of
    /// instructions per 32 lanes, so the call and its instruction-set trampoline (compiled for
    /// the same instruction set as the loop: the same bits) cost little.
    #[inline(never)]
    fn run_cold(
        &self,
        simd: Simd,
        r: &mut [Vec4x; REG_FILE],
        inv: &Invocation,
        d: &DInst,
        m: Mask,
    ) {
        simd.run(
            #[inline(always)]
            || {
                let (dst, a, b) = operands(d);
                match d.op {
                    Op::MulMM => {
                        let n = (d.n as usize).min(4);
                        let mut res = [[[0.0; LANES]; 4]; 4];
                        for (j, col) in res.iter_mut().enumerate().take(n) {
                            *col = mat_times(r, a, n, &r[(b + j) & REG_MASK]);
                        }
                        for (j, col) in res.iter().enumerate().take(n) {
                            put4(&mut r[(dst + j) & REG_MASK], col, m);
                        }
                    }
                    Op::Sample => {
                        // Borrowed, not copied: a stack copy read back at lane offsets stalls on
                        // store forwarding.
                        let tex = sample_2d(inv.textures, d);
                        match (tex, src_dst(r, a, dst)) {
                            // Straight into the destination (sample_lanes writes all four).
                            (Some(tex), Some((coord, to)))
                                if m == ALL_LANES && !tex.needs_lod() =>
                            {
                                tex.sample_lanes(&coord[0], &coord[1], to)
                            }
                            _ => {
                                let mut c = [[0.0; LANES]; 4];
                                self.texture_lanes(d, inv.textures, r, a, b, &mut c);
                                put4(&mut r[dst], &c, m);
                            }
                        }
                    }
                    // The other texture ops (explicit level, bias, gradients, fetch, size;
                    // cube, shadow, array).
                    op if op.is_texture() => {
                        let mut c = [[0.0; LANES]; 4];
                        self.texture_lanes(d, inv.textures, r, a, b, &mut c);
                        put4(&mut r[dst], &c, m);
                    }
                    Op::LoadUni => {
                        for k in 0..(d.n as usize).min(4) {
                            for c in 0..4 {
                                let w = inv
                                    .uniforms
                                    .get((d.x as usize + k) * 4 + c)
                                    .copied()
                                    .unwrap_or(0.0);
                                fill(&mut r[(dst + k) & REG_MASK][c], w, m);
                            }
                        }
                    }
                    _ => {}
                }
            },
        )
    }

    /// A texture op (not the fused colour sample) on all [`LANES`] lanes: `out` (all zeros
    /// on entry) gets every lane's result, computed from registers `a`, `b` and `b + 1` of `r`
    /// (a register file or a slice of copies). The interpreter writes it to the destination
    /// under its mask; the compiled form (`jit::sample`) calls it between segments. Inlined
    /// into each caller's instruction-set closure (see `simd`).
    #[inline(always)]
    fn texture_lanes(
        &self,
        d: &DInst,
        textures: &[Option<TextureRef>],
        r: &[Vec4x],
        a: usize,
        b: usize,
        out: &mut Vec4x,
    ) {
        let tex = textures.get(d.x as usize).and_then(|t| t.as_ref());
        match d.op {
            Op::Sample => match (sample_2d(textures, d), r.get(a & REG_MASK)) {
                // Mipmapped or two filters: the level of detail from the quad (the vertex
                // stage has none: level 0's).
                (Some(tex), Some(ra)) if tex.needs_lod() => {
                    let (u, v) = (&ra[0], &ra[1]);
                    let lambda = if self.stage == Stage::Fragment {
                        self::mip::quad_lambda(tex, u, v)
                    } else {
                        [0.0; LANES]
                    };
                    self::mip::sample_lambda_lanes(tex, u, v, &lambda, (0, 0), out);
                }
                (Some(tex), Some(ra)) => tex.sample_lanes(&ra[0], &ra[1], out),
                // GL reads an unbound (incomplete) texture as opaque black.
                _ => *out = [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]],
            },
            Op::CubeLod
            | Op::CubeBias
            | Op::CubeGrad
            | Op::ShadowLod
            | Op::ShadowBias
            | Op::ShadowCube
            | Op::ShadowGrad => self::cube::cube_op(d, self.stage, tex, r, a, b, out),
            Op::ArrLod | Op::ArrBias | Op::ArrGrad | Op::ArrFetch | Op::ArrSize => {
                self::array::array_op(d, self.stage, tex, r, a, b, out)
            }
            Op::SampleLod | Op::SampleBias | Op::SampleGrad | Op::TexFetch | Op::TexSize => {
                self::mip::texture_op(d, self.stage, tex, r, a, b, out)
            }
            _ => {}
        }
    }
}

/// SAMPLE's texture: an array texture under a 2D sample is incomplete (None, as unbound).
#[inline(always)]
fn sample_2d<'t, 'b>(
    textures: &'t [Option<TextureRef<'b>>],
    d: &DInst,
) -> Option<&'t TextureRef<'b>> {
    textures
        .get(d.x as usize)
        .and_then(|t| t.as_ref())
        .filter(|t| t.layers.is_empty())
}

/// IF, ELSE, ENDIF, LOOP, BREAK, CONTINUE, ENDLOOP: the ops that run when no lane does.
#[inline(always)]
fn is_flow(op: Op) -> bool {
    matches!(
        op,
        Op::If | Op::Else | Op::Endif | Op::Loop | Op::Break | Op::Continue | Op::EndLoop
    )
}

/// `dst`, `a` and `b` of `d` as register indices (masked into the register file).
#[inline(always)]
fn operands(d: &DInst) -> (usize, usize, usize) {
    (
        d.dst as usize & REG_MASK,
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
    )
}

/// CMP's result per lane (1.0 or +0.0) for code `code` (a [`CmpCode`]).
#[inline(always)]
fn cmp_lanes(x: &Lanes, y: &Lanes, code: u8) -> Lanes {
    let code = CmpCode::from_i16(code as i16).unwrap_or(CmpCode::Eq);
    let mut v = [0.0; LANES];
    for l in 0..LANES {
        let t = match code {
            CmpCode::Lt => x[l] < y[l],
            CmpCode::Gt => x[l] > y[l],
            CmpCode::Le => x[l] <= y[l],
            CmpCode::Ge => x[l] >= y[l],
            CmpCode::Eq => x[l] == y[l],
            CmpCode::Ne => x[l] != y[l],
        };
        v[l] = if t { 1.0 } else { 0.0 };
    }
    v
}

/// Bit `l` of a lane mask, per lane: the branch-free masked loops below test `m & LANE_BIT[l]`
/// for every lane at once (a broadcast, an AND and a compare per 4 or 8 lanes), so LLVM turns
/// them into SIMD blends rather than one branch per lane.
const LANE_BIT: [Mask; LANES] = {
    let mut b = [0 as Mask; LANES];
    let mut l = 0;
    while l < LANES {
        b[l] = 1 << l;
        l += 1;
    }
    b
};

/// A budgeted loop iteration starts for the lanes of `m`: each spends one of its invocation's
/// [`P2_LOOP_BUDGET`](crate::limits::P2_LOOP_BUDGET) iterations; the lanes that have none left
/// are not in the result (they leave the loop as if by BREAK). Branch-free over all lanes.
#[inline(always)]
fn spend_budget(spent: &mut [u32; LANES], m: Mask) -> Mask {
    let mut out: Mask = 0;
    for l in 0..LANES {
        let go = m & LANE_BIT[l] != 0 && spent[l] < crate::limits::P2_LOOP_BUDGET;
        spent[l] += go as u32;
        out |= if go { LANE_BIT[l] } else { 0 };
    }
    out
}

/// `dst = v` on the lanes of `m`: a whole-register copy when every lane is on, else a blend
/// (select per lane, no branches: 4 lanes per instruction on SSE2, 8 on AVX2).
#[inline(always)]
fn put(dst: &mut Lanes, v: &Lanes, m: Mask) {
    if m == ALL_LANES {
        *dst = *v;
    } else {
        // On the bits, with an all-ones or zero word per lane: a float select here became
        // one tested branch and a scalar store per lane (and the 32 lane tests, hoisted out
        // of the component loop, were spilled to the stack before every op, even a full one).
        for l in 0..LANES {
            let keep = lane_word(m, l);
            dst[l] = f32::from_bits((v[l].to_bits() & keep) | (dst[l].to_bits() & !keep));
        }
    }
}

/// All ones when lane `l` is in `m`, else zero (a compare per 4 or 8 lanes, see `LANE_BIT`).
#[inline(always)]
fn lane_word(m: Mask, l: usize) -> u32 {
    0u32.wrapping_sub((m & LANE_BIT[l] != 0) as u32)
}

#[inline(always)]
fn put4(dst: &mut Vec4x, v: &Vec4x, m: Mask) {
    // Component by component: a whole-register copy would be a library memcpy call.
    for c in 0..4 {
        put(&mut dst[c], &v[c], m);
    }
}

#[inline(always)]
fn fill(dst: &mut Lanes, k: f32, m: Mask) {
    if m == ALL_LANES {
        *dst = [k; LANES];
    } else {
        let k = k.to_bits();
        for l in 0..LANES {
            let keep = lane_word(m, l);
            dst[l] = f32::from_bits((k & keep) | (dst[l].to_bits() & !keep));
        }
    }
}

/// Register `src` to read and register `dst` to write at once, when they differ.
#[inline(always)]
fn src_dst(r: &mut [Vec4x; REG_FILE], src: usize, dst: usize) -> Option<(&Vec4x, &mut Vec4x)> {
    use core::cmp::Ordering;
    match src.cmp(&dst) {
        Ordering::Less => {
            let (lo, hi) = r.split_at_mut_checked(dst)?;
            Some((lo.get(src)?, hi.first_mut()?))
        }
        Ordering::Greater => {
            let (lo, hi) = r.split_at_mut_checked(src)?;
            Some((hi.first()?, lo.get_mut(dst)?))
        }
        Ordering::Equal => None,
    }
}

#[inline(always)]
fn binary(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask, f: impl Fn(f32, f32) -> f32) {
    let (dst, a, b) = operands(d);
    for c in 0..(d.n as usize).min(4) {
        let (x, y) = (&r[a][c], &r[b][c]);
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = f(x[l], y[l]);
        }
        put(&mut r[dst][c], &v, m);
    }
}

/// [`binary`] with one operand a splat: component `d.x` of register b (`SPLAT_B`) or a, for
/// every component (a fused SWZ, see `decode::fuse_splat`).
#[inline(always)]
fn binary_splat<const SPLAT_B: bool>(
    r: &mut [Vec4x; REG_FILE],
    d: &DInst,
    m: Mask,
    f: impl Fn(f32, f32) -> f32,
) {
    let (dst, a, b) = operands(d);
    // Copied first: the destination may be the splat's register.
    let s = if SPLAT_B {
        r[b][d.x as usize & 3]
    } else {
        r[a][d.x as usize & 3]
    };
    for c in 0..(d.n as usize).min(4) {
        let o = if SPLAT_B { &r[a][c] } else { &r[b][c] };
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = if SPLAT_B {
                f(o[l], s[l])
            } else {
                f(s[l], o[l])
            };
        }
        put(&mut r[dst][c], &v, m);
    }
}

#[inline(always)]
fn unary(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask, f: impl Fn(f32) -> f32) {
    let (a, dst) = (d.a as usize & REG_MASK, d.dst as usize & REG_MASK);
    for c in 0..(d.n as usize).min(4) {
        let x = &r[a][c];
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = f(x[l]);
        }
        put(&mut r[dst][c], &v, m);
    }
}

#[inline(always)]
fn unary_lanes(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask, f: impl Fn(&Lanes) -> Lanes) {
    let (a, dst) = (d.a as usize & REG_MASK, d.dst as usize & REG_MASK);
    for c in 0..(d.n as usize).min(4) {
        let v = f(&r[a][c]);
        put(&mut r[dst][c], &v, m);
    }
}

#[inline(always)]
fn binary_lanes(
    r: &mut [Vec4x; REG_FILE],
    d: &DInst,
    m: Mask,
    f: impl Fn(&Lanes, &Lanes) -> Lanes,
) {
    let (dst, a, b) = operands(d);
    for c in 0..(d.n as usize).min(4) {
        let v = f(&r[a][c], &r[b][c]);
        put(&mut r[dst][c], &v, m);
    }
}

/// Columns `a..a+n` times `vec` (first n lanes); result lanes >= n are 0.
#[inline(always)]
fn mat_times(r: &[Vec4x; REG_FILE], a: usize, n: usize, vec: &Vec4x) -> Vec4x {
    let mut v = [[0.0; LANES]; 4];
    for k in 0..n {
        let col = &r[(a + k) & REG_MASK];
        for (c, vc) in v.iter_mut().enumerate().take(n) {
            for l in 0..LANES {
                vc[l] += col[c][l] * vec[k][l];
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free masked writes and budget accounting give what a lane-by-lane branch
    /// gives, for full, empty and partial masks, under each instruction set.
    #[test]
    fn masked_writes_and_budget_match_lane_by_lane() {
        let mut seed = 0x9e37_79b9u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        };
        for isa in [Isa::Base, Isa::Avx2] {
            let Some(simd) = Simd::with(isa) else {
                continue;
            };
            for round in 0..200 {
                let m: Mask = match round {
                    0 => ALL_LANES,
                    1 => 0,
                    2 => 1,
                    3 => 1 << (LANES - 1),
                    _ => rnd(),
                };
                let mut dst = [0.0f32; LANES];
                let mut v = [0.0f32; LANES];
                for l in 0..LANES {
                    dst[l] = f32::from_bits(rnd());
                    v[l] = f32::from_bits(rnd());
                }
                let k = f32::from_bits(rnd());
                let (mut p, mut f) = (dst, dst);
                simd.run(|| {
                    put(&mut p, &v, m);
                    fill(&mut f, k, m);
                });
                let mut spent = [0u32; LANES];
                for s in spent.iter_mut() {
                    *s = crate::limits::P2_LOOP_BUDGET - (rnd() % 3);
                }
                let before = spent;
                let got = simd.run(|| spend_budget(&mut spent, m));
                for l in 0..LANES {
                    let on = m & (1 << l) != 0;
                    let want = if on { v[l] } else { dst[l] };
                    assert_eq!(
                        p[l].to_bits(),
                        want.to_bits(),
                        "put lane {} on {:?}",
                        l,
                        isa
                    );
                    let want = if on { k } else { dst[l] };
                    assert_eq!(
                        f[l].to_bits(),
                        want.to_bits(),
                        "fill lane {} on {:?}",
                        l,
                        isa
                    );
                    let go = on && before[l] < crate::limits::P2_LOOP_BUDGET;
                    assert_eq!(got & (1 << l) != 0, go, "budget lane {} on {:?}", l, isa);
                    assert_eq!(spent[l], before[l] + go as u32, "spent lane {}", l);
                }
            }
        }
    }

    /// Decode-time liveness tells the rasterizer exactly which varying components are read
    /// (`v_b` feeds only dead code).
    #[test]
    fn varying_lanes_are_the_read_components() {
        let src = b"#version 330\nin vec4 v_a;\nin vec4 v_b;\nout vec4 frag;\n\
            void main() { vec4 d = v_b * 2.0; frag = vec4(v_a.xz, 0.0, 1.0); }\n";
        let sh = match crate::program::compile::compile(1, src, "t") {
            Ok(s) => s,
            Err(_) => panic!("test shader must compile"),
        };
        let e = match Executable::new(&sh.module, None) {
            Ok(e) => e,
            Err(err) => panic!("decode: {}", err.message),
        };
        let lanes: u8 = (0..VARYING_CAP)
            .map(|s| e.varying_lanes(s))
            .fold(0, |a, b| a | b);
        assert_eq!(lanes, 0b0101, "only x and z of v_a are read");
    }

    /// Uniforms are banked: the decoded code has no LOAD_UNI left (a vec4 and a mat4, the
    /// matrix read as four consecutive bank registers), and the bank follows the uniform
    /// values from dispatch to dispatch through the same registers.
    #[test]
    fn uniforms_are_banked_and_follow_their_values() {
        let src = b"#version 330\nuniform mat4 u_m;\nuniform vec4 u_c;\nout vec4 frag;\n\
            void main() { frag = u_m * vec4(1.0, 2.0, 3.0, 4.0) + u_c; }\n";
        let sh = match crate::program::compile::compile(1, src, "t") {
            Ok(s) => s,
            Err(_) => panic!("test shader must compile"),
        };
        let e = match Executable::new(&sh.module, None) {
            Ok(e) => e,
            Err(err) => panic!("decode: {}", err.message),
        };
        let code = e.code.get(..e.len as usize).unwrap_or(&[]);
        assert!(
            code.iter().all(|d| d.op != Op::LoadUni),
            "every LOAD_UNI is banked: {:?}",
            code
        );
        let slot = |name: &str| {
            sh.module
                .iface
                .uniforms
                .iter()
                .find(|u| u.name.as_str() == name)
                .map(|u| u.slot as usize)
                .unwrap_or_else(|| panic!("uniform {}", name))
        };
        let (m, c) = (slot("u_m"), slot("u_c"));
        let mut regs = Regs::new();
        let mut out = Outputs::new();
        let inputs = [[[0.0; LANES]; 4]; VARYING_CAP];
        let fc = [[0.0; LANES]; 4];
        for round in 0..3 {
            let mut uni = [0.0f32; 32 * 4];
            for k in 0..4 {
                for r in 0..4 {
                    uni[(m + k) * 4 + r] = (round * 16 + k * 4 + r) as f32;
                }
            }
            for r in 0..4 {
                uni[c * 4 + r] = (100 * round + r) as f32;
            }
            let inv = Invocation {
                uniforms: &uni,
                textures: &[],
                inputs: &inputs,
                fragcoord: &fc,
            };
            e.run(&mut regs, &inv, &mut out, ALL_LANES);
            for r in 0..4 {
                let mut want = 0.0f32;
                for k in 0..4 {
                    want += uni[(m + k) * 4 + r] * (k + 1) as f32;
                }
                want += uni[c * 4 + r];
                assert_eq!(
                    out.color[r], [want; LANES],
                    "round {} component {}",
                    round, r
                );
            }
        }
    }
}
