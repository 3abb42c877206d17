//! The compiled form of a decoded [`Executable`] (issue 17): x86-64 AVX machine code generated
//! from the IR into a caller-provided byte buffer, by safe code (no heap).
//!
//! The generated function has the System V signature
//! `extern "sysv64" fn(frame: *mut Frame, inputs: *const f32, fcoord: *const f32, out: *mut f32)`
//! and runs the whole shader for [`JIT_LANES`] = 8 lanes (one 8-lane group `g` of a 32-lane
//! dispatch), one YMM per scalar component. `inputs`, `fcoord` and `out` point `g * 32` bytes
//! into the caller's [`Invocation::inputs`], [`Invocation::fragcoord`] and [`Outputs`], so the
//! code reads the rasterizer's inputs and writes its outputs where they are (no copies). A
//! module without texture ops and DISCARD loops over the groups itself ([`groups`]): one call
//! per dispatch with group 0's pointers, advanced by the code from group to group. Every
//! memory access is `[base + d]` with `d + width` inside that base's region ([`limits`]: the
//! frame, or the input / output struct less the last group's offset), and stores go only to the
//! frame's spill slots and bail word and the outputs: the encoder ([`enc`]) refuses any other.
//! Its only calls are to [`Helper`] functions (safe Rust in this crate). Running it needs
//! executable memory, the one `unsafe` step, which is not here: the host crate `jitmem` owns it
//! (mmap RW, copy, mprotect RX) and calls it with exactly those pointers.
//!
//! The [`Frame`] persists across the dispatches of a draw: [`Executable::prepare_frame`] fills
//! the uniforms, immediates and bank registers once, [`Executable::run_compiled`] only sets the
//! outputs' defaults (as the interpreter does) and calls the code per 8-lane group (once, for
//! looped code). The frame
//! also holds the spill slots of the register allocator: IR values live in ymm0..ymm15 (a
//! linear scan over the straight-line code that evicts the value whose next read is farthest,
//! dead values first and clean ones before dirty ones), the bank registers (uniforms and
//! constants the decoder folded) are broadcast into their own slots per draw, uniforms and
//! immediates read by LOAD_UNI / CONST are broadcast when loaded, constants
//! ([`Frame::consts`], 8 lanes each) are loaded or taken as an op's memory operand, an operand
//! not in a YMM (a bank register, a stored value) is read in its slot as the op's memory
//! operand, and a value is stored only to an output or when it is evicted while still live.
//!
//! IF/ELSE/ENDIF and DISCARD run without branches: [`YM`] (ymm15, then not allocated) holds the
//! current lane mask, every block runs, and a write inside an IF blends the new value into the
//! old under the mask (VBLENDVPS; for the allocator such a write is also a read of the old
//! value), which is what the interpreter's masked writes leave in the live lanes (it skips an
//! empty block; lanes are independent, so running it under an empty mask changes no live
//! lane). The masks before each IF and its ELSE mask are kept in [`Frame::masks`]; DISCARD
//! clears the current lanes from the live-lane slot there, which [`Executable::run_compiled`]
//! reads back as the lanes it returns.
//!
//! Loops ([`flow`]) run the same way with the interpreter's loop masks and budget in frame
//! slots and one backward jump per loop; integers, rounding ops and LOAD_IDX / LOAD_LANE are
//! in [`ints`].
//!
//! Coverage: IF/ELSE/ENDIF, DISCARD, loops, the integer ops (IDIV family by call-out), FLOOR,
//! CEIL, TRUNC, ROUND_EVEN, FRACT, LOAD_IDX (up to 7 elements), LOAD_LANE, CONST, MOV, SWZ, SETLANE,
//! ADD/SUB/MUL (fused splats included), DIV, MIN, MAX, SQRT, RSQ, RCP, ABS, DOT, CMP, MULMV,
//! MULMM (column by column; a destination overlapping an operand is refused),
//! SIN/COS (inline; an active lane outside their f32 range sets [`Frame::bail`] and the
//! dispatch goes to the interpreter), POW (inline, `pow`: the interpreter's core op for op,
//! and a cold path in line calling [`Helper::Pow`], the interpreter's own lane function, for
//! the lanes outside it), the texture ops but the fused colour sample (at seams: the code is cut
//! there into segments and the op runs in Rust over the 32 lanes between them, see
//! [`sample`]), LOAD_VAR/LOAD_ATTR, LOAD_UNI, LOAD_FCOORD, STORE_COLOR/STORE_POS/STORE_VAR.
//! [`compile`] refuses any other module ([`JitError::Unsupported`]) and the caller runs the
//! interpreter, which stays the reference. The rasterizer reaches compiled code through the
//! host's [`Jit`] (`raster::Scratch::set_jit`).
//!
//! The 16-lane form ([`Form::Zmm`], [`compile_form`]; session 18): the same lowering with the
//! encoder in its EVEX mode ([`Enc::zmm`]): one ZMM per scalar component, 16 lanes per group,
//! 2 groups per dispatch in the group loop ([`groups`]: 64-byte steps, the group word shifted
//! by 16). Every instruction above has an EVEX.512 form but the compares into a vector, the
//! blend, VPTEST and VMOVMSKPS, which go through opmask k1 / k2 (see [`enc`]); no FMA and no
//! approximation instruction, so the same bits. The [`Frame`]'s slots are 16 lanes wide for
//! both forms (the 8-lane form uses the first 8 of each). It takes every module the 8-lane
//! form takes: code called per group (DISCARD) is called for 2 groups at 64-byte offsets, and
//! a module with seams runs each segment for 2 groups on frames 0 and 1 ([`sample`]); the
//! caller runs it through [`Executable::run_compiled_in`], and only where
//! `simd::zmm_available` holds.
//!
//! Numerics are the interpreter's (see the header of `exec`): every op is the same IEEE single
//! operation in the same order (DOT starts from +0.0 and adds the products in component order,
//! no FMA), CMP gives 1.0 / +0.0 with the same NaN rules (ordered LT/LE/GT/GE/EQ, unordered NE).

mod copy;
pub mod enc;
mod flow;
mod fold;
pub mod groups;
mod ints;
mod pow;
pub mod sample;
mod trig;

use self::enc::{Arg, Base, Enc, EncError, Ps, Y};
use self::sample::{SEAMS_MAX, SEGMENTS_MAX};
use super::lanes::{Mask, Vec4x, ALL_LANES, LANES};
use super::simd::Simd;
use super::{
    DInst, Executable, Invocation, Outputs, BANK_BASE, BANK_MAX, BREAK_CMP, BREAK_IF, BREAK_UCMP,
    NOT_UNIFORM, REG_FILE, REG_MASK,
};
use crate::ir::{CmpCode, Op, Stage};
use crate::limits::{IF_DEPTH_MAX, IMM_CAP, LOOP_DEPTH_MAX, VARYING_CAP};
use core::mem::{offset_of, size_of};

/// Lanes one call of generated code runs (one YMM of f32).
pub const JIT_LANES: usize = 8;
/// 8-lane groups in one dispatch of [`LANES`].
pub const GROUPS: usize = LANES / JIT_LANES;
const _: () = assert!(LANES.is_multiple_of(JIT_LANES));
/// Bytes from one group's lanes to the next in a [`Vec4x`] component.
pub const GROUP_BYTES: usize = JIT_LANES * 4;

/// One component of 8 lanes.
pub type Lanes8 = [f32; JIT_LANES];
/// Lanes one call of the 16-lane form runs (one ZMM of f32, [`Form::Zmm`]).
pub const ZMM_LANES: usize = 16;
/// Lanes of a frame slot: room for either form (the 8-lane form uses the first 8).
pub const SLOT_LANES: usize = ZMM_LANES;
/// Bytes of a frame slot (one cache line).
pub const SLOT_BYTES: usize = SLOT_LANES * 4;
/// One frame slot: a component of 16 lanes (8 used by the 8-lane form).
pub type Slot = [f32; SLOT_LANES];
/// A frame slot of lane masks or integer constants.
pub type SlotU = [u32; SLOT_LANES];
/// A vec4 register's slots.
pub type Vec4xS = [Slot; 4];

/// The two forms of compiled code: the same generator, 8 lanes per YMM (VEX, AVX2) or 16 per
/// ZMM (EVEX, AVX-512F/DQ, `simd::zmm_available`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    Ymm,
    Zmm,
}

impl Form {
    /// Lanes one group (one call, one loop iteration) runs.
    pub const fn lanes(self) -> usize {
        match self {
            Form::Ymm => JIT_LANES,
            Form::Zmm => ZMM_LANES,
        }
    }
    /// Groups in one dispatch of [`LANES`].
    pub const fn groups(self) -> usize {
        LANES / self.lanes()
    }
    /// Bytes from one group's lanes to the next in a [`Vec4x`] component.
    pub const fn group_bytes(self) -> usize {
        self.lanes() * 4
    }
}
/// The inputs of a dispatch, as [`super::Invocation::inputs`] holds them.
pub type Inputs = [Vec4x; VARYING_CAP];

/// Uniform floats a frame holds (32 vec4 slots, as [`super::Invocation::uniforms`] has).
pub const FRAME_UNIFORMS: usize = 32 * 4;

/// What generated code reads and writes besides the inputs and outputs: filled once per draw
/// ([`Executable::prepare_frame`]), then reused by every dispatch.
#[repr(C, align(64))]
#[derive(Clone)]
pub struct Frame {
    /// Spill slots: the home of each IR register, 8 lanes per component; the bank registers'
    /// hold their value in every lane (filled per draw, never stored by the code).
    pub regs: [Vec4xS; REG_FILE],
    /// Lane masks (all ones / all zeros per lane) of IF/ELSE/ENDIF and DISCARD: per IF depth
    /// the mask before the IF and its ELSE mask, then [`MASK_SAVE`] (the current mask across
    /// a call-out) and [`MASK_ALIVE`] (the lanes not discarded: in a module with DISCARD, all
    /// ones before each call, read back by [`Executable::run_compiled`]).
    pub masks: [SlotU; MASK_SLOTS],
    /// Lanes (bits, OR-ed by the code) whose SIN/COS operand is outside the inline form's
    /// range (`|x| >= 8192` or NaN): [`Executable::run_compiled`] then gives the dispatch to
    /// the interpreter.
    pub bail: [u32; 16],
    /// Inline POW's cold path (`pow`): every YMM saved around the call of [`Helper::Pow`],
    /// and that helper's x, y and result.
    pub pow_save: [SlotU; 16],
    pub pow_io: [Slot; 3],
    /// Constants the code reads (1.0, CMP's true; the ABS mask; SIN/COS's and POW's), each
    /// already broadcast to 8 lanes (32 bytes, aligned) so an op takes it as its memory
    /// operand (`vmulps y, y, [frame + konst(k)]`) instead of a broadcast and a register op.
    pub consts: [SlotU; K_COUNT],
    pub uniforms: [f32; FRAME_UNIFORMS],
    pub imms: [f32; IMM_CAP],
    /// The instruction set the call-out helpers' lane loops run on ([`Frame::set_simd`]);
    /// generated code never stores here (its frame stores end at [`REGS_END`]).
    simd: Simd,
    /// The prepared executable has DISCARD: [`Executable::run_compiled`] sets and reads back
    /// the live-lane slot only then.
    discards: bool,
    /// The prepared executable has SIN/COS, whose code may set the bail bits: a module with
    /// seams tests them only then.
    trig: bool,
    /// The prepared executable's code runs every group in one call ([`groups`]).
    looped: bool,
    /// The prepared executable has IF or DISCARD: a seam's result is written under the mask
    /// the code saved ([`sample`]).
    masked: bool,
    /// The instructions of the prepared executable's seams (texture ops, [`sample`]), in
    /// order: [`Executable::run_compiled`] runs them between its segments.
    seams: [u16; SEAMS_MAX],
    nseams: usize,
}

/// Where the spill slots end: generated code stores to the frame only below this offset
/// (the encoder refuses any other frame store).
pub const REGS_END: usize = offset_of!(Frame, pow_io) + size_of::<[Slot; 3]>();
const _: () = assert!(
    offset_of!(Frame, bail) == size_of::<[Vec4xS; REG_FILE]>() + size_of::<[SlotU; MASK_SLOTS]>()
);

/// [`Frame::masks`]: two per IF depth, four per loop level (`flow`), then the lanes' spent
/// loop budget, the saved current mask and the live lanes.
pub const MASK_SLOTS: usize = LOOP_SLOTS + flow::PER_LOOP * (LOOP_DEPTH_MAX + 1) + 3;
/// The first loop slot.
const LOOP_SLOTS: usize = 2 * (IF_DEPTH_MAX + 1);
const MASK_SPENT: usize = MASK_SLOTS - 3;
const MASK_SAVE: usize = MASK_SLOTS - 2;
const MASK_ALIVE: usize = MASK_SLOTS - 1;
/// The YMM holding the current lane mask in a module with IF or DISCARD (never allocated).
const YM: Y = Y(15);
const fn mask_slot(k: usize) -> usize {
    offset_of!(Frame, masks) + (k % MASK_SLOTS) * SLOT_BYTES
}
const _: () = assert!(offset_of!(Frame, regs) == 0);
const _: () = assert!(offset_of!(Frame, consts).is_multiple_of(SLOT_BYTES));

/// Bytes generated code may touch from the frame pointer.
pub const FRAME_BYTES: usize = size_of::<Frame>();

/// The length of each [`Base`]'s region as the encoder checks it: the frame, and for the
/// group-offset pointers their struct less the last group's offset.
pub const fn limits() -> [usize; 4] {
    form_limits(Form::Ymm)
}

/// [`limits`] for `form`'s groups (the last group's offset is `(groups - 1) * group_bytes`).
pub const fn form_limits(form: Form) -> [usize; 4] {
    let back = (form.groups() - 1) * form.group_bytes();
    [
        FRAME_BYTES,
        size_of::<Inputs>() - back,
        size_of::<Vec4x>() - back,
        size_of::<Outputs>() - back,
    ]
}

const K_ONE: usize = 0;
const K_ABS: usize = 1;
// SIN/COS inline (`math::trig_reduce`, `sin_r`, `cos_r`, `trig_pick`): the same constants.
const K_2PI: usize = 2;
const K_BIAS: usize = 3;
const K_I16384: usize = 4;
const K_P1: usize = 5;
const K_P2: usize = 6;
const K_P3: usize = 7;
const K_S0: usize = 8;
const K_S1: usize = 9;
const K_S2: usize = 10;
const K_C0: usize = 11;
const K_C1: usize = 12;
const K_C2: usize = 13;
const K_HALF: usize = 14;
const K_I1: usize = 15;
const K_I2: usize = 16;
const K_TMAX: usize = 17;
/// The per-invocation loop budget (an integer), for `flow`'s spending.
const K_BUDGET: usize = 18;
/// The sign bit (unsigned compares flip it).
const K_SIGN: usize = 19;
// POW inline (`pow`): K_SIGN + 1 ..
/// +0.0, where DOT's and MULMV's sums start.
const K_ZERO: usize = pow::POW_BASE + pow::POW_COUNT;
/// Every bit set (POW's test that every lane took its inline core).
const K_ALL: usize = K_ZERO + 1;
const K_COUNT: usize = K_ALL + 1;
const _: () = assert!(pow::POW_BASE == K_SIGN + 1);

impl Default for Frame {
    fn default() -> Self {
        Frame::new()
    }
}

impl Frame {
    pub const fn new() -> Frame {
        let mut one = [0u32; K_COUNT];
        one[K_ONE] = 0x3F80_0000;
        one[K_ABS] = 0x7FFF_FFFF;
        one[K_ALL] = u32::MAX;
        let t = super::math::TRIG_CONSTS;
        let mut i = 0;
        while i < t.len() {
            one[K_2PI + i] = t[i].to_bits();
            i += 1;
        }
        one[K_I16384] = 16384;
        one[K_TMAX] = super::math::TRIG_MAX.to_bits();
        one[K_I1] = 1;
        one[K_I2] = 2;
        one[K_BUDGET] = crate::limits::P2_LOOP_BUDGET;
        one[K_SIGN] = 0x8000_0000;
        let mut i = 0;
        while i < pow::POW_COUNT {
            one[pow::POW_BASE + i] = pow::POW_CONSTS[i];
            i += 1;
        }
        let mut consts = [[0u32; SLOT_LANES]; K_COUNT];
        let mut i = 0;
        while i < K_COUNT {
            consts[i] = [one[i]; SLOT_LANES];
            i += 1;
        }
        Frame {
            regs: [[[0.0; SLOT_LANES]; 4]; REG_FILE],
            masks: [[0; SLOT_LANES]; MASK_SLOTS],
            bail: [0; 16],
            pow_save: [[0; SLOT_LANES]; 16],
            pow_io: [[0.0; SLOT_LANES]; 3],
            uniforms: [0.0; FRAME_UNIFORMS],
            imms: [0.0; IMM_CAP],
            consts,
            simd: Simd::BASE,
            discards: false,
            trig: false,
            looped: false,
            masked: false,
            seams: [0; SEAMS_MAX],
            nseams: 0,
        }
    }

    /// Runs the call-out helpers' lane loops (POW's cold path, integer division) on `simd` (the base set until
    /// then; the results are the same bits on every set).
    pub fn set_simd(&mut self, simd: Simd) {
        self.simd = simd;
    }
}

/// Why a module was not compiled (the interpreter runs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JitError {
    /// An op (or a form of one) this round does not compile.
    Unsupported(Op),
    /// An IF or loop nest the decoder would not make (unbalanced, too deep).
    Flow,
    /// The code buffer is too small.
    Full,
    /// An operand would address outside its region (never for a decoded executable).
    OutOfFrame,
}

impl From<EncError> for JitError {
    fn from(e: EncError) -> Self {
        match e {
            EncError::Full => JitError::Full,
            EncError::OutOfFrame => JitError::OutOfFrame,
        }
    }
}

/// A compiled executable's facts the caller needs besides its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// Bytes of code written at the start of the buffer.
    pub len: usize,
    /// Where each segment's function starts (one more segment than the module has texture
    /// ops, [`sample`]; the first at 0): only `entries[..segments]` are entries.
    pub entries: [u32; SEGMENTS_MAX],
    pub segments: usize,
    /// The code runs every group of a dispatch in one call ([`groups`]: entered with group
    /// 0's pointers only).
    pub looped: bool,
    /// A module with seams: each segment runs every group in one call, group g on frame g of
    /// [`GROUPS`] consecutive frames (`groups::Enc::seam_head`; entered with the first
    /// frame and group 0's pointers only).
    pub frames_looped: bool,
    /// Values stored to their frame slot because they were evicted while live.
    pub spills: usize,
    /// The form of the code: how many lanes a group has (the caller's offsets per group).
    pub form: Form,
}

const fn home(v: usize) -> usize {
    offset_of!(Frame, regs) + (v % (REG_FILE * 4)) * SLOT_BYTES
}
const fn input(s: usize, c: usize) -> usize {
    ((s & (VARYING_CAP - 1)) * 4 + (c & 3)) * LANES * 4
}
const fn out_comp(field: usize, c: usize) -> usize {
    field + (c & 3) * LANES * 4
}
const fn varying(s: usize, c: usize) -> usize {
    offset_of!(Outputs, varyings) + ((s & (VARYING_CAP - 1)) * 4 + (c & 3)) * LANES * 4
}
/// Constant `k`'s 8 lanes in the frame (a memory operand; its first lane for a broadcast).
const fn konst(k: usize) -> usize {
    offset_of!(Frame, consts) + k * SLOT_BYTES
}

/// An allocator value: component `c` of register `t` is `t * 4 + c`; then the constants.
type Val = usize;
const fn val(t: usize, c: usize) -> Val {
    (t & REG_MASK) * 4 + (c & 3)
}
const V_ONE: Val = REG_FILE * 4;
const V_ABS: Val = REG_FILE * 4 + 1;
const NVALS: usize = REG_FILE * 4 + 2;
const NONE: u8 = u8::MAX;
/// YMM registers the allocator hands out.
const NY: usize = 16;
/// How far ahead the eviction choice looks for a value's next read.
const LOOKAHEAD: usize = 256;
/// Next-read distances: not read again (no spill needed), and read beyond the lookahead.
const DEAD: usize = usize::MAX;
const FAR: usize = usize::MAX - 1;

/// An operand the lowering has chosen a place for ([`Gen::side`]).
#[derive(Clone, Copy)]
enum Side {
    /// In this YMM (pinned).
    Y(Y),
    /// Bank value `.0`, read at frame offset `.1`.
    M(Val, usize),
    /// Value `.0`, to be read through a YMM.
    V(Val),
}

/// How one instruction touches a value (a read wins over a write: it happens first).
#[derive(PartialEq, Eq)]
enum Touch {
    No,
    Read,
    Write,
}

/// How `d` touches value `v` (conservative: any read the lowering makes is a read).
fn touch(d: &DInst, v: Val) -> Touch {
    if sample::is_seam(d) {
        return sample::touch(d, v);
    }
    let n = (d.n as usize).min(4);
    let (a, b) = (d.a as usize & REG_MASK, d.b as usize & REG_MASK);
    let (t, c) = (v / 4, v % 4);
    let is = |r: usize, lo: usize, hi: usize| v < V_ONE && t == r && c >= lo && c < hi;
    let read = match d.op {
        Op::Mov | Op::Sqrt | Op::Rsq | Op::Rcp | Op::Abs => is(a, 0, n),
        Op::Swz => (0..n).any(|k| v == val(a, (d.x as usize >> (2 * k)) & 3)),
        Op::SetLane => v == val(a, d.y as usize),
        Op::Add | Op::Sub | Op::Mul | Op::Div => match d.y {
            2 => is(a, 0, n) || v == val(b, d.x as usize),
            3 => v == val(a, d.x as usize) || is(b, 0, n),
            _ => is(a, 0, n) || is(b, 0, n),
        },
        Op::Min | Op::Max | Op::Dot | Op::Pow => is(a, 0, n) || is(b, 0, n),
        Op::Sin | Op::Cos => is(a, 0, n),
        // Columns a..a+n (components 0..n) and the vector b (components 0..n).
        Op::MulMV => v < V_ONE && c < n && (t.wrapping_sub(a) & REG_MASK) < n || is(b, 0, n),
        // Columns a..a+n and b..b+n (components 0..n).
        Op::MulMM => {
            v < V_ONE
                && c < n
                && ((t.wrapping_sub(a) & REG_MASK) < n || (t.wrapping_sub(b) & REG_MASK) < n)
        }
        Op::Cmp => v == val(a, 0) || v == val(b, 0),
        Op::StoreColor | Op::StorePos | Op::StoreVar => is(a, 0, 4),
        Op::If => v == val(a, 0),
        Op::Break => match d.y {
            0 => false,
            BREAK_IF => v == val(a, 0),
            _ => v == val(a, 0) || v == val(b, 0),
        },
        Op::LoadIdx => v == val(a, 0) || v < V_ONE && ints::idx_reads(d, t),
        Op::LoadLane => v == val(a, 0) || is(b, 0, d.x as usize + 1),
        _ => match ints::shape(d) {
            Some((ra, rb)) => ra && is(a, 0, n) || rb && is(b, 0, n),
            None => false,
        },
    } || match v {
        // (CMP, ICMP and UCMP AND with 1.0 as a memory operand from `Frame::consts`.)
        V_ONE => matches!(d.op, Op::Rsq | Op::Rcp),
        V_ABS => d.op == Op::Abs,
        _ => false,
    };
    if read {
        return Touch::Read;
    }
    if writes(d, v) {
        Touch::Write
    } else {
        Touch::No
    }
}

/// Whether `d` writes value `v` (the write half of [`touch`], where a read hides it).
fn writes(d: &DInst, v: Val) -> bool {
    if sample::is_seam(d) {
        return v < V_ONE && v / 4 == d.dst as usize & REG_MASK;
    }
    let n = (d.n as usize).min(4);
    let dst = d.dst as usize & REG_MASK;
    let (t, c) = (v / 4, v % 4);
    let is = |r: usize, lo: usize, hi: usize| v < V_ONE && t == r && c >= lo && c < hi;
    match d.op {
        Op::Const | Op::Swz | Op::LoadFcoord => is(dst, 0, 4),
        Op::Mov | Op::Add | Op::Sub | Op::Mul | Op::Div => is(dst, 0, n),
        Op::Sqrt | Op::Rsq | Op::Rcp | Op::Abs | Op::Min | Op::Max => is(dst, 0, n),
        Op::Pow | Op::Sin | Op::Cos => is(dst, 0, n),
        Op::MulMV => is(dst, 0, 4),
        Op::MulMM => v < V_ONE && (t.wrapping_sub(dst) & REG_MASK) < n,
        Op::SetLane => v == val(dst, d.x as usize),
        Op::Dot | Op::Cmp => v == val(dst, 0),
        Op::LoadAttr | Op::LoadVar => is(dst, 0, 4) && d.n & (1 << c) != 0,
        Op::LoadUni => (0..n).any(|k| v < V_ONE && t == (dst + k) & REG_MASK),
        Op::Break => d.y >= BREAK_CMP && v == val(dst, 0),
        Op::LoadIdx => is(dst, 0, 4),
        Op::LoadLane => v == val(dst, 0),
        _ => ints::shape(d).is_some() && is(dst, 0, n),
    }
}

/// The register allocator's state and the encoder (see the module header).
struct Gen<'c, 'b> {
    e: Enc<'b>,
    /// The executable (its constant bank registers: `fold`).
    exe: &'c Executable,
    code: &'c [DInst],
    /// The instruction being lowered (next-read distances count from it).
    pc: usize,
    /// The value each YMM holds.
    holder: [Option<Val>; NY],
    /// The YMM where each value is (NONE: in its frame slot, or zero).
    loc: [u8; NVALS],
    /// The YMM's value differs from its frame slot.
    dirty: [bool; NY],
    /// The value is +0.0 and not in a YMM (a temp the interpreter zeroes per dispatch).
    zero: [bool; NVALS],
    /// YMMs the current instruction still needs: never evicted.
    pinned: u16,
    /// YMMs holding a value the current instruction wrote.
    fresh: u16,
    spills: usize,
    /// YMMs the allocator hands out ([`NY`], one less when [`YM`] holds the lane mask).
    ny: usize,
    /// The module has IF or DISCARD: [`YM`] holds the current lane mask.
    flow: bool,
    /// The module has DISCARD (ENDIF keeps only the live lanes).
    discards: bool,
    /// Open IFs at the current instruction (writes blend under [`YM`] when this or `loops`
    /// is not 0).
    depth: usize,
    /// Open loops at the current instruction, and their heads (`flow`).
    loops: usize,
    open: [flow::OpenLoop; LOOP_DEPTH_MAX + 1],
    /// YMMs holding a value for the whole of the current (innermost) loop (`flow`): never
    /// evicted, and the value's writes land in them.
    resident: u16,
    resident_max: usize,
    /// Where each segment starts ([`sample`]), and how many there are so far.
    entries: [u32; SEGMENTS_MAX],
    segments: usize,
    /// Copies may become aliases (`copy`: the module has no loop), and those live now.
    copies: bool,
    aliases: [copy::Alias; copy::ALIASES_MAX],
    naliases: usize,
    /// The open segment loop of a module with seams (`groups::Enc::seam_head`).
    seam_head: Option<groups::Head>,
}

impl<'c, 'b> Gen<'c, 'b> {
    /// Instructions from the current one to the next that reads `v` (`fresh`: `v` was written
    /// by the current instruction, so its own touches are past).
    /// Reads of an alias of `v` (`copy`) count as reads of `v`.
    fn next_read(&self, v: Val, fresh: bool) -> usize {
        let start = self.pc + fresh as usize;
        let own = self.read_from(start, self.depth + self.loops, v);
        match self.alias_read(v, start) {
            Some(r) => own.min(r),
            None => own,
        }
    }

    /// [`Self::next_read`] from instruction `start` inside `depth` open IFs and loops.
    ///
    /// A write inside an IF or loop (a blend) keeps the old value in the lanes off the mask:
    /// it counts as a read when something may read those lanes later, which is any read
    /// after it but those in its own region (before its IF's ELSE or ENDIF or its loop's
    /// ENDLOOP: only lanes it wrote run there).
    fn read_from(&self, start: usize, depth: usize, v: Val) -> usize {
        let from = self.code.get(start..).unwrap_or(&[]);
        let mut depth = depth;
        // The first blended write, and the depth of the region its lanes cover.
        let mut pending: Option<usize> = None;
        let mut cover: Option<usize> = None;
        for (i, d) in from.iter().take(LOOKAHEAD).enumerate() {
            // A seam reads its operands in every lane of a 2x2 quad (implicit derivatives
            // take the lanes off the mask too), and its masked write reads the old value in
            // Rust: neither is covered by an earlier blended write.
            let seam = sample::is_seam(d);
            match touch(d, v) {
                Touch::Read if cover.is_some() && !seam => {}
                Touch::Read => return pending.unwrap_or(i),
                Touch::Write if depth > 0 && seam => return pending.unwrap_or(i),
                Touch::Write if depth > 0 => {
                    pending = pending.or(Some(i));
                    cover = cover.or(Some(depth));
                }
                Touch::Write => return DEAD,
                Touch::No => {}
            }
            match d.op {
                Op::If | Op::Loop => depth += 1,
                Op::Else if cover == Some(depth) => cover = None,
                Op::Endif => depth = depth.saturating_sub(1),
                Op::EndLoop => {
                    // Leaving a loop the scan began in: the body runs again first.
                    if flow::read_round(self.code, d, start, v) {
                        return pending.unwrap_or(i);
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            if cover.is_some_and(|c| c > depth) {
                cover = None;
            }
        }
        if from.len() > LOOKAHEAD {
            FAR
        } else {
            DEAD
        }
    }

    /// A YMM with no value, pinned: a free one, else the holder whose next read is farthest
    /// (stored to its slot first when dirty and still read later).
    fn alloc(&mut self) -> Result<Y, JitError> {
        let mut best: Option<(usize, bool, usize)> = None;
        for y in 0..self.ny {
            if (self.pinned | self.resident) & (1 << y) != 0 {
                continue;
            }
            let Some(v) = self.holder[y] else {
                best = Some((DEAD, true, y));
                break;
            };
            let key = (
                self.next_read(v, self.fresh & (1 << y) != 0),
                !self.dirty[y],
                y,
            );
            if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
        }
        // No YMM left (Unsupported(Nop): `compile` tries again with fewer held across loops).
        let (dist, _, y) = best.ok_or(JitError::Unsupported(Op::Nop))?;
        if let Some(v) = self.holder[y] {
            if self.dirty[y] && dist != DEAD && v < V_ONE {
                self.e.store(Base::Frame, home(v), Y(y as u8))?;
                self.spills += 1;
            }
            self.loc[v] = NONE;
            self.holder[y] = None;
        }
        self.dirty[y] = false;
        self.fresh &= !(1 << y);
        self.pinned |= 1 << y;
        Ok(Y(y as u8))
    }

    /// Value `v` in a pinned YMM (loaded or zeroed when not in one).
    fn get(&mut self, v: Val) -> Result<Y, JitError> {
        if let Some(&l) = self.loc.get(v) {
            if l != NONE {
                self.pinned |= 1 << l;
                return Ok(Y(l));
            }
        }
        if let Some(src) = self.alias_of(v) {
            return self.get(src);
        }
        let y = self.alloc()?;
        let dirty = match v {
            V_ONE => {
                self.e.load(y, Base::Frame, konst(K_ONE))?;
                false
            }
            V_ABS => {
                self.e.load(y, Base::Frame, konst(K_ABS))?;
                false
            }
            _ if self.zero[v] => {
                self.e.op_reg(Ps::Xor, y, y, y)?;
                self.zero[v] = false;
                true
            }
            _ => {
                self.e.load(y, Base::Frame, home(v))?;
                false
            }
        };
        self.holder[y.0 as usize] = Some(v);
        self.loc[v] = y.0;
        self.dirty[y.0 as usize] = dirty;
        Ok(y)
    }

    /// Makes `y` (from [`Self::alloc`], holding the new value) the place of register value `v`;
    /// inside an IF the lanes off the current mask keep `v`'s old value (as the interpreter's
    /// masked writes do).
    fn set(&mut self, v: Val, y: Y) -> Result<(), JitError> {
        let blend = self.masked() && !self.iteration_local(v);
        if self.set_resident(v, y, blend)? {
            return Ok(());
        }
        if blend {
            let old = self.get(v)?;
            self.e.blendv(y, old, y, YM)?;
        }
        self.place(v, y);
        Ok(())
    }

    /// [`Self::set`] without the blend (`y` already holds every lane's new value).
    fn place(&mut self, v: Val, y: Y) {
        self.unalias(v);
        if let Some(&old) = self.loc.get(v) {
            if old != NONE {
                self.holder[old as usize] = None;
            }
        }
        self.zero[v] = false;
        self.loc[v] = y.0;
        self.holder[y.0 as usize] = Some(v);
        self.dirty[y.0 as usize] = true;
        self.fresh |= 1 << y.0;
    }

    /// How an op may read `v`: from its frame slot as the op's memory operand when it is not
    /// in a YMM (a value out of the YMMs is in its slot, what [`Self::get`] would load: a bank
    /// register, a uniform or constant broadcast there per draw, or a register value stored
    /// when evicted or at a seam), else through a YMM (a zeroed temp too).
    fn side(&self, v: Val) -> Side {
        let s = self.alias_of(v).unwrap_or(v);
        if s < V_ONE && self.loc[s] == NONE && !self.zero[s] {
            Side::M(s, home(s))
        } else {
            Side::V(v)
        }
    }

    /// A splat operand kept across components: a bank register in memory ([`Self::side`]),
    /// else in a pinned YMM (the destination may be the splat's register: a written
    /// component, once evicted, would overwrite the slot).
    fn splat(&mut self, v: Val) -> Result<Side, JitError> {
        match self.side(v) {
            Side::M(s, m) if s / 4 >= BANK_BASE => Ok(Side::M(s, m)),
            s => Ok(Side::Y(self.reg(s)?)),
        }
    }

    fn reg(&mut self, s: Side) -> Result<Y, JitError> {
        match s {
            Side::Y(y) => Ok(y),
            Side::M(v, _) | Side::V(v) => self.get(v),
        }
    }

    /// The operands of `a op b` as the encoder takes them: a YMM and a YMM or memory operand.
    /// `b` is the memory operand where it can be; `a` is where the op `commutes` (ADD, MUL:
    /// the same value but for which NaN an op on two NaNs returns, which is not part of the
    /// contract, see the module header). The YMMs are read in the order a, b.
    fn operands(&mut self, commutes: bool, a: Side, b: Side) -> Result<(Y, Arg), JitError> {
        Ok(match (a, b) {
            (a, Side::M(_, m)) => (self.reg(a)?, Arg::M(m)),
            (Side::M(_, m), b) if commutes => (self.reg(b)?, Arg::M(m)),
            (a, b) => {
                let ya = self.reg(a)?;
                (ya, Arg::Y(self.reg(b)?))
            }
        })
    }

    /// `v = a op b` into a fresh YMM, an operand from the frame where it can be
    /// ([`Self::operands`]).
    fn arith(&mut self, op: Ps, v: Val, a: Side, b: Side) -> Result<(), JitError> {
        let (x, o) = self.operands(matches!(op, Ps::Add | Ps::Mul), a, b)?;
        let r = self.alloc()?;
        self.e.op_arg(op, r, x, o)?;
        self.set(v, r)
    }

    /// A fresh YMM set by `f`, made the place of `v`.
    fn def(
        &mut self,
        v: Val,
        f: impl FnOnce(&mut Enc, Y) -> Result<(), EncError>,
    ) -> Result<(), JitError> {
        // A value nothing reads is not computed.
        if self.read_from(self.pc + 1, self.depth + self.loops, v) == DEAD {
            return Ok(());
        }
        let r = self.alloc()?;
        f(&mut self.e, r)?;
        self.set(v, r)
    }

    /// An instruction the Rust helper of [`Helper`] computes: its operands are stored to
    /// their frame slots, every live value still to be read is stored (the call clobbers every
    /// YMM), and the results are left in the destination's slots.
    fn call_out(&mut self, d: &DInst) -> Result<(), JitError> {
        let (helper, kind) = (Helper::IntDiv, ints::div_kind(d.op));
        let n = (d.n as usize).min(4);
        let (dst, a, b) = (
            d.dst as usize & REG_MASK,
            d.a as usize & REG_MASK,
            d.b as usize & REG_MASK,
        );
        // Operands not yet in their slot (a zeroed temp; a bank register's slot is filled
        // per draw) are made dirty YMM values, so the stores below put them there.
        self.materialize_regs(&[a, b, dst])?;
        for c in 0..n {
            for r in [a, b] {
                let v = val(r, c);
                if self.zero[v] {
                    let y = self.get(v)?;
                    self.dirty[y.0 as usize] = true;
                }
            }
            // Inside an IF the helper keeps the old value off the mask: it must be there
            // (the stores below keep it, a masked write counting as a read).
            let v = val(dst, c);
            if self.masked() && self.zero[v] {
                let y = self.get(v)?;
                self.dirty[y.0 as usize] = true;
            }
        }
        self.flush()?;
        let mut info = dst as u32 | (a as u32) << 8 | (b as u32) << 16 | (n as u32) << 24 | kind;
        if self.masked() {
            info |= INFO_MASKED;
        }
        if self.e.wide {
            info |= INFO_ZMM;
        }
        // The call clobbers the lane mask: the helper reads it from its slot, and it is
        // reloaded after.
        if self.flow {
            self.e.store(Base::Frame, mask_slot(MASK_SAVE), YM)?;
        }
        self.e.call(helper, info)?;
        if self.flow {
            self.e.load(YM, Base::Frame, mask_slot(MASK_SAVE))?;
        }
        for c in 0..n {
            self.zero[val(dst, c)] = false;
        }
        Ok(())
    }

    /// `dst = mat(a .. a + n) * b` as the interpreter's `mat_times`: component c is +0.0 +
    /// col0[c] * v[0] + col1[c] * v[1] + ... in column order (no FMA), components n.. are
    /// +0.0. Every component is computed before any is written (dst may be a column or the
    /// vector); the results stay pinned until then.
    fn mat_vec(&mut self, dst: usize, a: usize, b: usize, n: usize) -> Result<(), JitError> {
        let mut keep = 0u16;
        let mut res = [Y(0); 4];
        for (c, r) in res.iter_mut().enumerate() {
            let terms: [(Val, Val); 4] = core::array::from_fn(|k| (val(a + k, c), val(b, k)));
            let acc = self.sum_products(keep, terms.get(..n).filter(|_| c < n).unwrap_or(&[]))?;
            keep |= 1 << acc.0;
            self.pinned = keep;
            *r = acc;
        }
        for (c, &r) in res.iter().enumerate() {
            self.set(val(dst, c), r)?;
        }
        Ok(())
    }

    /// `+0.0 + a0 * b0 + a1 * b1 + ...` in that order (DOT's and MULMV's sums) into a fresh
    /// YMM, left pinned with `keep`. The first add takes +0.0 from `Frame::consts` as
    /// `a0 * b0 + 0.0` (commuted; +0.0 is never NaN, so the same bits) instead of zeroing
    /// the accumulator first. A square first term (a0 = b0, the same value: `dot(v, v)` of
    /// `length` and `normalize`) skips that add: `a0 * a0` is never -0.0 (it is +0.0, positive,
    /// +inf or a quiet NaN), and +0.0 added to any of those gives its own bits.
    fn sum_products(&mut self, keep: u16, terms: &[(Val, Val)]) -> Result<Y, JitError> {
        let mut acc: Option<Y> = None;
        for &(a, b) in terms {
            let (sa, sb) = (self.side(a), self.side(b));
            let (x, o) = self.operands(true, sa, sb)?;
            let t = self.alloc()?;
            self.e.op_arg(Ps::Mul, t, x, o)?;
            let r = match acc {
                None => {
                    if a != b {
                        self.e.op_k(Ps::Add, t, t, K_ZERO)?;
                    }
                    t
                }
                Some(r) => {
                    self.e.op_reg(Ps::Add, r, r, t)?;
                    r
                }
            };
            acc = Some(r);
            self.pinned = keep | 1 << r.0;
        }
        match acc {
            Some(r) => Ok(r),
            None => {
                let r = self.alloc()?;
                self.e.op_reg(Ps::Xor, r, r, r)?;
                Ok(r)
            }
        }
    }

    /// Leaves no value in a YMM: every dirty one still to be read (from the current
    /// instruction on) is stored to its slot first (before a call or the end of a segment).
    fn flush(&mut self) -> Result<(), JitError> {
        for y in 0..self.ny {
            if let Some(v) = self.holder[y] {
                if self.dirty[y] && v < V_ONE && self.next_read(v, false) != DEAD {
                    self.e.store(Base::Frame, home(v), Y(y as u8))?;
                }
                self.loc[v] = NONE;
            }
            self.holder[y] = None;
            self.dirty[y] = false;
        }
        Ok(())
    }

    /// Lowers one instruction.
    fn inst(&mut self, d: &DInst) -> Result<(), JitError> {
        let (dst, a, b) = (
            d.dst as usize & REG_MASK,
            d.a as usize & REG_MASK,
            d.b as usize & REG_MASK,
        );
        let n = (d.n as usize).min(4);
        // Pins that hold across the components (splat operands, accumulators).
        let mut keep = 0u16;
        match d.op {
            Op::Nop => {}
            Op::Const => {
                for c in 0..4 {
                    let k = d.x as usize + c;
                    let imm = offset_of!(Frame, imms) + k * 4;
                    self.def(val(dst, c), |e, r| {
                        if c < n && k < IMM_CAP {
                            e.broadcast(r, Base::Frame, imm)
                        } else {
                            e.op_reg(Ps::Xor, r, r, r)
                        }
                    })?;
                    self.pinned = keep;
                }
            }
            Op::Mov => {
                if dst != a {
                    for c in 0..n {
                        if !self.rename(val(dst, c), val(a, c))
                            && !self.alias(val(dst, c), val(a, c))
                        {
                            let s = self.get(val(a, c))?;
                            self.def(val(dst, c), |e, r| e.mov(r, s))?;
                        }
                        self.pinned = keep;
                    }
                }
            }
            Op::Swz => {
                let sel = |k: usize| val(a, (d.x as usize >> (2 * k)) & 3);
                // Components that need no code: one component's source YMM may become the
                // destination's, and a copy from another register may become an alias.
                let mut done = [false; 4];
                done[0] = n == 1 && self.rename(val(dst, 0), sel(0));
                if dst != a {
                    for (k, f) in done.iter_mut().enumerate().take(n) {
                        *f = *f || self.alias(val(dst, k), sel(k));
                    }
                }
                // Every source component is read before any is written (dst may be a).
                let mut src = [Y(0); 4];
                for (k, s) in src.iter_mut().enumerate().take(n) {
                    if !done[k] {
                        *s = self.get(sel(k))?;
                    }
                }
                // The sources stay pinned until every component is written.
                for (k, &s) in src.iter().enumerate() {
                    if done[k] {
                        continue;
                    }
                    self.def(val(dst, k), |e, r| {
                        if k < n {
                            e.mov(r, s)
                        } else {
                            e.op_reg(Ps::Xor, r, r, r)
                        }
                    })?;
                }
            }
            Op::SetLane => {
                let (to, from) = (val(dst, d.x as usize), val(a, d.y as usize));
                if !self.rename(to, from) && !self.alias(to, from) {
                    let s = self.get(val(a, d.y as usize))?;
                    self.def(val(dst, d.x as usize), |e, r| e.mov(r, s))?;
                }
            }
            Op::Add | Op::Sub | Op::Mul | Op::Div => {
                let op = match d.op {
                    Op::Add => Ps::Add,
                    Op::Sub => Ps::Sub,
                    Op::Mul => Ps::Mul,
                    _ => Ps::Div,
                };
                // A bank operand not in a YMM is the op's memory operand (`operands`).
                match (d.op, d.y) {
                    (_, 0) => {
                        for c in 0..n {
                            // An identity or an op of constants: no code (`fold`).
                            if self.fold_arith(d.op, val(dst, c), val(a, c), val(b, c)) {
                                continue;
                            }
                            let (sa, sb) = (self.side(val(a, c)), self.side(val(b, c)));
                            self.arith(op, val(dst, c), sa, sb)?;
                            self.pinned = keep;
                        }
                    }
                    (Op::Add | Op::Sub | Op::Mul, 2) => {
                        // f(a[c], b[x]); the splat is read first (dst may be b; a bank
                        // register, read in memory, never is).
                        let sb = self.splat(val(b, d.x as usize))?;
                        keep = self.pinned;
                        for c in 0..n {
                            let sa = self.side(val(a, c));
                            self.arith(op, val(dst, c), sa, sb)?;
                            self.pinned = keep;
                        }
                    }
                    (Op::Add | Op::Sub | Op::Mul, 3) => {
                        // f(a[x], b[c]).
                        let sa = self.splat(val(a, d.x as usize))?;
                        keep = self.pinned;
                        for c in 0..n {
                            let sb = self.side(val(b, c));
                            self.arith(op, val(dst, c), sa, sb)?;
                            self.pinned = keep;
                        }
                    }
                    _ => return Err(JitError::Unsupported(d.op)),
                }
            }
            Op::Sqrt | Op::Rsq | Op::Rcp => {
                // SQRT is VSQRTPS (correctly rounded, as the interpreter's); RSQ = 1 / sqrt(x)
                // and RCP = 1 / x are true divisions, as there.
                let one = if d.op != Op::Sqrt {
                    let y = self.get(V_ONE)?;
                    keep = self.pinned;
                    y
                } else {
                    Y(0)
                };
                for c in 0..n {
                    let s = self.get(val(a, c))?;
                    let op = d.op;
                    self.def(val(dst, c), |e, r| match op {
                        Op::Sqrt => e.op_reg(Ps::Sqrt, r, Y(0), s),
                        Op::Rsq => {
                            e.op_reg(Ps::Sqrt, r, Y(0), s)?;
                            e.op_reg(Ps::Div, r, one, r)
                        }
                        _ => e.op_reg(Ps::Div, r, one, s),
                    })?;
                    self.pinned = keep;
                }
            }
            Op::Min | Op::Max => {
                // f32::min / f32::max as LLVM lowers them on x86 (IEEE minNum / maxNum):
                // t = b OP a ? b : a (VMAXPS b, a returns a when either is NaN), then b where
                // a is NaN. Signed zeros come out as that sequence gives them (a's).
                let op = if d.op == Op::Min { Ps::Min } else { Ps::Max };
                for c in 0..n {
                    // A constant operand: one or two instructions (`fold`).
                    if self.min_max_const(d.op == Op::Max, val(dst, c), val(a, c), val(b, c))? {
                        self.pinned = keep;
                        continue;
                    }
                    let (ya, yb) = (self.get(val(a, c))?, self.get(val(b, c))?);
                    let m = self.alloc()?;
                    self.e.cmp_reg(m, ya, ya, 0x03)?; // UNORD_Q: a is NaN
                    self.def(val(dst, c), |e, r| {
                        e.op_reg(op, r, yb, ya)?;
                        e.blendv(r, r, yb, m)
                    })?;
                    self.pinned = keep;
                }
            }
            Op::Abs => {
                for c in 0..n {
                    let s = self.get(val(a, c))?;
                    self.def(val(dst, c), |e, r| e.op_k(Ps::And, r, s, K_ABS))?;
                    self.pinned = keep;
                }
            }
            Op::Dot => {
                let terms: [(Val, Val); 4] = core::array::from_fn(|c| (val(a, c), val(b, c)));
                let acc = self.sum_products(0, terms.get(..n).unwrap_or(&terms))?;
                self.set(val(dst, 0), acc)?;
            }
            Op::MulMV => self.mat_vec(dst, a, b, n)?,
            Op::MulMM => {
                // Column j of the product is MULMV of column b + j; written column by
                // column, so a destination overlapping either operand is not compiled.
                let inside = |r: usize, base: usize| (r.wrapping_sub(base) & REG_MASK) < n;
                if (0..n)
                    .any(|j| inside((dst + j) & REG_MASK, a) || inside((dst + j) & REG_MASK, b))
                {
                    return Err(JitError::Unsupported(d.op));
                }
                for j in 0..n {
                    self.mat_vec((dst + j) & REG_MASK, a, (b + j) & REG_MASK, n)?;
                    self.pinned = 0;
                }
            }
            Op::Pow => {
                for c in 0..n {
                    self.pow(val(a, c), val(b, c), val(dst, c))?;
                    self.pinned = keep;
                }
            }
            Op::Sin | Op::Cos => {
                for c in 0..n {
                    self.trig(val(a, c), val(dst, c), d.op == Op::Cos)?;
                    self.pinned = keep;
                }
            }
            Op::Cmp => {
                let pred = cmp_pred(d.x);
                let (sa, sb) = (self.side(val(a, 0)), self.side(val(b, 0)));
                let (ya, ob) = self.operands(false, sa, sb)?;
                self.def(val(dst, 0), |e, r| {
                    e.cmp_arg(r, ya, ob, pred)?;
                    e.op_k(Ps::And, r, r, K_ONE)
                })?;
            }
            Op::LoadAttr | Op::LoadVar => {
                for c in 0..4 {
                    if d.n & (1 << c) != 0 {
                        let off = input(d.x as usize, c);
                        self.def(val(dst, c), |e, r| e.load(r, Base::Inputs, off))?;
                        self.pinned = keep;
                    }
                }
            }
            Op::LoadUni => {
                for k in 0..n {
                    for c in 0..4 {
                        let i = (d.x as usize + k) * 4 + c;
                        let off = offset_of!(Frame, uniforms) + i * 4;
                        self.def(val(dst + k, c), |e, r| {
                            if i < FRAME_UNIFORMS {
                                e.broadcast(r, Base::Frame, off)
                            } else {
                                e.op_reg(Ps::Xor, r, r, r)
                            }
                        })?;
                        self.pinned = keep;
                    }
                }
            }
            Op::LoadFcoord => {
                for c in 0..4 {
                    let off = c * LANES * 4;
                    self.def(val(dst, c), |e, r| e.load(r, Base::Fcoord, off))?;
                    self.pinned = keep;
                }
            }
            Op::StoreColor | Op::StorePos | Op::StoreVar => {
                for c in 0..4 {
                    let off = match d.op {
                        Op::StoreColor => out_comp(offset_of!(Outputs, color), c),
                        Op::StorePos => out_comp(offset_of!(Outputs, position), c),
                        _ => varying(d.x as usize, c),
                    };
                    let s = self.get(val(a, c))?;
                    if self.masked() {
                        // The lanes off the mask keep the output's old value.
                        let r = self.alloc()?;
                        self.e.load(r, Base::Out, off)?;
                        self.e.blendv(r, r, s, YM)?;
                        self.e.store(Base::Out, off, r)?;
                    } else {
                        self.e.store(Base::Out, off, s)?;
                    }
                    self.pinned = keep;
                }
            }
            Op::If => {
                // The interpreter's truth: c != 0.0 (NaN is true, -0.0 false), NEQ_UQ.
                let k = self.depth;
                if k > IF_DEPTH_MAX {
                    return Err(JitError::Flow);
                }
                let c = self.get(val(a, 0))?;
                let (t, z) = (self.alloc()?, self.alloc()?);
                let e = &mut self.e;
                e.op_reg(Ps::Xor, z, z, z)?;
                e.cmp_reg(t, c, z, 0x04)?;
                // Then-mask = cur & cond; ELSE's = cur & !cond = cur ^ then-mask.
                e.op_reg(Ps::And, z, YM, t)?;
                e.op_reg(Ps::Xor, t, YM, z)?;
                e.store(Base::Frame, mask_slot(2 * k), YM)?;
                e.store(Base::Frame, mask_slot(2 * k + 1), t)?;
                e.mov(YM, z)?;
                self.depth = k + 1;
            }
            Op::Else => {
                // Lanes discarded in the IF part had cond set: none is in the ELSE mask.
                let k = self.depth.checked_sub(1).ok_or(JitError::Flow)?;
                self.e.load(YM, Base::Frame, mask_slot(2 * k + 1))?;
            }
            Op::Endif => {
                let k = self.depth.checked_sub(1).ok_or(JitError::Flow)?;
                self.e.load(YM, Base::Frame, mask_slot(2 * k))?;
                self.endif_mask()?;
                if self.discards {
                    self.e
                        .op_mem(Ps::And, YM, YM, Base::Frame, mask_slot(MASK_ALIVE))?;
                }
                self.depth = k;
            }
            Op::Discard => {
                // alive &= !cur (cur is inside alive: alive ^ cur), then no lane is current.
                let t = self.alloc()?;
                let e = &mut self.e;
                e.op_mem(Ps::Xor, t, YM, Base::Frame, mask_slot(MASK_ALIVE))?;
                e.store(Base::Frame, mask_slot(MASK_ALIVE), t)?;
                e.op_reg(Ps::Xor, YM, YM, YM)?;
            }
            Op::Loop | Op::Break | Op::Continue | Op::EndLoop => self.flow_inst(d)?,
            _ if ints::lowers(d) => self.int_inst(d)?,
            // A seam returns to the caller between segments: no back edge may cross it.
            _ if sample::is_seam(d) && self.loops > 0 => return Err(JitError::Flow),
            _ if sample::is_seam(d) => self.seam(d)?,
            op => return Err(JitError::Unsupported(op)),
        }
        self.pinned = 0;
        self.fresh = 0;
        Ok(())
    }
}

/// VCMPPS's predicate for CMP code `x` (the interpreter's `cmp_lanes`).
fn cmp_pred(x: u8) -> u8 {
    match CmpCode::from_i16(x as i16).unwrap_or(CmpCode::Eq) {
        CmpCode::Eq => 0x00, // EQ_OQ
        CmpCode::Lt => 0x01, // LT_OS
        CmpCode::Le => 0x02, // LE_OS
        CmpCode::Ne => 0x04, // NEQ_UQ: NaN != x is true
        CmpCode::Ge => 0x0D, // GE_OS
        CmpCode::Gt => 0x0E, // GT_OS
    }
}

/// [`Helper`] info flag: inside an IF, the lanes off the mask in [`MASK_SAVE`] keep the
/// destination's old value.
const INFO_MASKED: u32 = 1 << 30;
/// [`Helper`] info flag: the 16-lane form calls (every lane of each slot is live).
const INFO_ZMM: u32 = 1 << 31;

/// The Rust functions generated code may call (the only calls it makes), for the ops whose
/// numerics live in `math` (bit-identical to the interpreter by construction: the same
/// functions, lane by lane). Each is `extern "sysv64" fn(&mut Frame, info)` with `info` =
/// `dst | a << 8 | b << 16 | n << 24` (register numbers and the component count) and computes
/// `regs[dst][c] = f(regs[a][c], regs[b][c])` for the 8 lanes of components `c < n` in the
/// frame's slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// POW's cold path (`pow::helper_pow`): `pow_io[2] = math::pow_lanes(pow_io[0],
    /// pow_io[1])`, `info` unused.
    Pow,
    /// IDIV / UDIV / IMOD / UMOD (`ints::helper_div`; the op in bits 27..29 of `info`).
    IntDiv,
}

impl Helper {
    /// The function's address (what the call instruction jumps to).
    pub fn addr(self) -> u64 {
        let f: extern "sysv64" fn(&mut Frame, u32) = match self {
            Helper::Pow => pow::helper_pow,
            Helper::IntDiv => ints::helper_div,
        };
        f as usize as u64
    }
}

/// `frame.regs[dst][c] = f(regs[a][c], regs[b][c])` for c < n (see [`Helper`]), the lane
/// loops compiled for the frame's instruction set.
#[inline(always)]
pub(super) fn helper_lanes(frame: &mut Frame, info: u32, f: impl Fn(&Lanes8, &Lanes8) -> Lanes8) {
    let reg = |s: u32| (info >> s) as usize & REG_MASK;
    let (dst, a, b, n) = (reg(0), reg(8), reg(16), ((info >> 24) as usize & 7).min(4));
    let masked = info & INFO_MASKED != 0;
    // The 16-lane form's call: both halves of each slot, else the first.
    let halves = if info & INFO_ZMM != 0 { 2 } else { 1 };
    let simd = frame.simd;
    simd.run(
        #[inline(always)]
        || {
            let m = frame.masks[MASK_SAVE];
            for c in 0..n {
                for h in 0..halves {
                    let (x, y) = (half(&frame.regs[a][c], h), half(&frame.regs[b][c], h));
                    let m = masked.then(|| half(&m, h));
                    let to = half_mut(&mut frame.regs[dst][c], h);
                    put_masked(to, &f(&x, &y), m.as_ref());
                }
            }
        },
    );
}

/// The first `N` lanes of a frame slot (a copy).
#[inline(always)]
pub(super) fn first<T: Copy + Default, const N: usize>(s: &[T; SLOT_LANES]) -> [T; N] {
    s.first_chunk::<N>().copied().unwrap_or([T::default(); N])
}

/// Half `h` (0: lanes 0..8, 1: 8..16) of a frame slot.
#[inline(always)]
pub(super) fn half<T: Copy>(s: &[T; SLOT_LANES], h: usize) -> [T; JIT_LANES] {
    s.as_chunks::<JIT_LANES>().0[h & 1]
}

/// [`half`], writable.
#[inline(always)]
pub(super) fn half_mut<T>(s: &mut [T; SLOT_LANES], h: usize) -> &mut [T; JIT_LANES] {
    &mut s.as_chunks_mut::<JIT_LANES>().0[h & 1]
}

/// `to = from` in the lanes of `mask` (all ones or all zeros per lane; None: every lane), as a
/// whole copy when every lane is in it (the common case; a lane-by-lane loop of 8 stays
/// scalar).
#[inline(always)]
fn put_masked<const N: usize>(to: &mut [f32; N], from: &[f32; N], mask: Option<&[u32; N]>) {
    match mask {
        Some(m) if *m != [!0; N] => {
            for l in 0..N {
                if m[l] != 0 {
                    to[l] = from[l];
                }
            }
        }
        _ => *to = *from,
    }
}

/// Whether the lowering handles `d` (the ops of the module header).
fn lowered(d: &DInst) -> bool {
    match d.op {
        _ if sample::is_seam(d) => true,
        Op::Add | Op::Sub | Op::Mul => matches!(d.y, 0 | 2 | 3),
        Op::If | Op::Else | Op::Endif | Op::Discard => true,
        Op::Loop | Op::Continue | Op::EndLoop => true,
        Op::Break => d.y <= BREAK_UCMP,
        Op::Div => d.y == 0,
        _ if ints::lowers(d) => true,
        op => matches!(
            op,
            Op::Nop
                | Op::Const
                | Op::Mov
                | Op::Swz
                | Op::SetLane
                | Op::Sqrt
                | Op::Rsq
                | Op::Rcp
                | Op::Min
                | Op::Max
                | Op::Abs
                | Op::Dot
                | Op::MulMV
                | Op::MulMM
                | Op::Pow
                | Op::Sin
                | Op::Cos
                | Op::Cmp
                | Op::LoadAttr
                | Op::LoadVar
                | Op::LoadUni
                | Op::LoadFcoord
                | Op::StoreColor
                | Op::StorePos
                | Op::StoreVar
        ),
    }
}

/// Every distinct op of `exe` that [`compile`] refuses (loops included), in order of
/// first appearance: what keeps a module in the interpreter (reports; at most `N`).
pub fn refused_ops<const N: usize>(exe: &Executable) -> heapless::Vec<Op, N> {
    let mut v = heapless::Vec::new();
    for d in exe.code.get(..exe.len as usize).unwrap_or(&[]) {
        if !lowered(d) && !v.contains(&d.op) {
            let _ = v.push(d.op);
        }
    }
    v
}

/// Generates code for `exe` into `buf` (see the module header), or says why not: the 8-lane
/// form ([`Form::Ymm`]).
pub fn compile(exe: &Executable, buf: &mut [u8]) -> Result<Compiled, JitError> {
    compile_form(exe, buf, Form::Ymm)
}

/// [`compile`] in `form` (for [`Form::Zmm`] the caller must have checked
/// `simd::zmm_available` before running the code, and runs it through
/// [`Executable::run_compiled_in`]).
pub fn compile_form(exe: &Executable, buf: &mut [u8], form: Form) -> Result<Compiled, JitError> {
    // Values kept in YMMs across loops leave fewer for the ops: when some op runs out, the
    // module is compiled again without them.
    match compile_with(exe, buf, flow::RESIDENT_MAX, form) {
        Err(JitError::Unsupported(Op::Nop)) => compile_with(exe, buf, 0, form),
        r => r,
    }
}

/// [`compile_form`] keeping at most `resident` values in YMMs across a loop.
fn compile_with(
    exe: &Executable,
    buf: &mut [u8],
    resident: usize,
    form: Form,
) -> Result<Compiled, JitError> {
    let code = exe.code.get(..exe.len as usize).unwrap_or(&[]);
    let flow = code
        .iter()
        .any(|d| matches!(d.op, Op::If | Op::Else | Op::Endif | Op::Discard | Op::Loop));
    // Bank registers are read only (their frame slots are filled once per draw); the decoder
    // never writes them, and a module that did would not be compiled.
    for d in code {
        if (BANK_BASE..REG_FILE).any(|t| (0..4).any(|c| touch(d, val(t, c)) == Touch::Write)) {
            return Err(JitError::Unsupported(d.op));
        }
    }
    let mut g = Gen {
        e: {
            let e = Enc::with_limits(buf, form_limits(form)).limit_stores(Base::Frame, REGS_END);
            match form {
                Form::Ymm => e,
                Form::Zmm => e.zmm(),
            }
        },
        exe,
        code,
        pc: 0,
        holder: [None; NY],
        loc: [NONE; NVALS],
        dirty: [false; NY],
        zero: [false; NVALS],
        pinned: 0,
        fresh: 0,
        spills: 0,
        ny: if flow { NY - 1 } else { NY },
        flow,
        discards: code.iter().any(|d| d.op == Op::Discard),
        depth: 0,
        loops: 0,
        open: [flow::OpenLoop::default(); LOOP_DEPTH_MAX + 1],
        resident: 0,
        resident_max: resident,
        entries: [0; SEGMENTS_MAX],
        segments: 1,
        copies: !code.iter().any(|d| d.op == Op::Loop),
        aliases: [copy::Alias::default(); copy::ALIASES_MAX],
        naliases: 0,
        seam_head: None,
    };
    // Without seams and DISCARD, one call runs every group (`groups`): the body below is
    // the loop's.
    let looped = groups::looped(code);
    let head = if looped {
        Some(g.e.group_head()?)
    } else {
        None
    };
    // With seams, each segment loops over the groups, frame g for group g.
    let seams = code.iter().any(sample::is_seam);
    if seams {
        g.seam_head = Some(g.e.seam_head()?);
    }
    if flow {
        // Every lane starts current (VCMPPS TRUE_UQ: all ones whatever ymm15 holds); the
        // inactive ones hold anything, as in the interpreter.
        g.e.cmp_reg(YM, YM, YM, 0x0F)?;
    }
    if flow::per_lane_budget(code) {
        g.reset_budget()?;
    }
    // Temps that may be read before written start at zero, as in the interpreter.
    for &t in exe.zero.iter().take(exe.nzero as usize) {
        for c in 0..4 {
            if let Some(z) = g.zero.get_mut(val(t as usize, c)) {
                *z = true;
            }
        }
    }
    for (pc, d) in code.iter().enumerate() {
        g.pc = pc;
        g.inst(d)?;
        g.end_aliases(d);
    }
    if g.depth != 0 || g.loops != 0 {
        return Err(JitError::Flow);
    }
    if let Some(head) = head {
        let bail = code.iter().any(|d| matches!(d.op, Op::Sin | Op::Cos));
        g.e.group_tail(head, bail)?;
    }
    if let Some(head) = g.seam_head.take() {
        g.e.seam_tail(head)?;
    }
    g.e.ret()?;
    Ok(Compiled {
        len: g.e.len(),
        entries: g.entries,
        segments: g.segments,
        looped,
        frames_looped: seams,
        spills: g.spills,
        form,
    })
}

/// One stage's compiled code as the host holds it (the `jitmem` crate implements it with its
/// executable mapping): the rasterizer prepares frames for it once per draw on each worker
/// thread ([`Executable::prepare_frames`] on frames from [`Jit::with_frames`]), then runs every
/// dispatch of that stage through it on those frames.
pub trait CompiledStage: Sync {
    /// [`Executable::run`] of one dispatch on `frames` (at least [`GROUPS`] for a module with
    /// seams), prepared for `exe` (an executable with this code: [`Executable::same_code`]);
    /// None: run this dispatch through the interpreter ([`Executable::run_compiled`]). Frames
    /// prepared for something else give wrong values, never an unsafe access.
    fn run(
        &self,
        frames: &mut [Frame],
        exe: &Executable,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Option<Mask>;
}

/// Frames [`Jit::with_frames`] lends: [`GROUPS`] for the vertex stage, then [`GROUPS`] for the
/// fragment stage.
pub const STAGE_FRAMES: usize = 2 * GROUPS;

/// A host's compiler of executables: the rasterizer asks it once per draw and stage
/// (`raster::Scratch::set_jit`).
pub trait Jit: Sync {
    /// The compiled code of `exe`, or None when [`compile`] refused it (the interpreter then
    /// runs the whole module) or the host has none.
    fn stage(&self, exe: &Executable) -> Option<&'static dyn CompiledStage>;
    /// Runs `body` once on the calling thread's frames for compiled stages (at least
    /// [`STAGE_FRAMES`]; they keep what they held between calls), or on None when the host
    /// has none to lend (then every stage runs in the interpreter).
    fn with_frames(&self, body: &mut dyn FnMut(Option<&mut [Frame]>));
}

/// How generated code is called for one group and segment:
/// `(frame, inputs, fragcoord, outputs, group, segment)`.
pub type CallGroup<'f> = dyn FnMut(&mut Frame, &Inputs, &Vec4x, &mut Outputs, usize, usize) + 'f;

impl Executable {
    /// Whether [`compile`] makes the same code for `self` and `other` (the same stage, decoded
    /// instructions and zeroed temps): code compiled from one runs the other, on a frame
    /// prepared for the one it runs. (The stage counts: a host keeps a frame per stage, and
    /// two stages of one draw must never share one.)
    pub fn same_code(&self, other: &Executable) -> bool {
        self.stage == other.stage
            && self.has_flow == other.has_flow
            && self.code.get(..self.len as usize) == other.code.get(..other.len as usize)
            && self.zero.get(..self.nzero as usize) == other.zero.get(..other.nzero as usize)
    }

    /// Hashes what [`Self::same_code`] compares (a host's cache key).
    pub fn hash_code<H: core::hash::Hasher>(&self, h: &mut H) {
        use core::hash::Hash;
        self.stage.hash(h);
        self.has_flow.hash(h);
        self.code.get(..self.len as usize).hash(h);
        self.zero.get(..self.nzero as usize).hash(h);
    }

    /// Fills `frame` for the draws of this executable with these uniforms: the uniforms, the
    /// immediates CONSTs read and the bank registers (as the interpreter loads them). Call it
    /// whenever the executable or the uniforms change; [`Self::run_compiled`] reads it.
    pub fn prepare_frame(&self, frame: &mut Frame, uniforms: &[f32]) {
        let nu = uniforms.len().min(FRAME_UNIFORMS);
        frame.uniforms = [0.0; FRAME_UNIFORMS];
        if let (Some(d), Some(s)) = (frame.uniforms.get_mut(..nu), uniforms.get(..nu)) {
            d.copy_from_slice(s);
        }
        // Only the immediates CONSTs read (the table is IMM_CAP = 4096 floats long).
        let code = self.code.get(..self.len as usize).unwrap_or(&[]);
        frame.discards = code.iter().any(|d| d.op == Op::Discard);
        frame.trig = code.iter().any(|d| matches!(d.op, Op::Sin | Op::Cos));
        frame.looped = groups::looped(code);
        frame.masked = code
            .iter()
            .any(|d| matches!(d.op, Op::If | Op::Else | Op::Endif | Op::Discard | Op::Loop));
        frame.nseams = 0;
        for (pc, d) in code.iter().enumerate() {
            if sample::is_seam(d) {
                if let Some(s) = frame.seams.get_mut(frame.nseams) {
                    *s = pc as u16;
                    frame.nseams += 1;
                }
            }
        }
        let imm_end = code
            .iter()
            .filter(|d| d.op == Op::Const)
            .map(|d| d.x as usize + (d.n as usize).min(4))
            .max()
            .unwrap_or(0)
            .min(IMM_CAP);
        if let (Some(d), Some(s)) = (frame.imms.get_mut(..imm_end), self.imms.get(..imm_end)) {
            d.copy_from_slice(s);
        }
        let nb = (self.nbank as usize).min(BANK_MAX);
        for k in 0..nb {
            let bits = match self.bank_uni.get(k).copied().unwrap_or(NOT_UNIFORM) {
                NOT_UNIFORM => self.bank.get(k).copied().unwrap_or([0; 4]),
                slot => {
                    let mut v = [0u32; 4];
                    for (c, v) in v.iter_mut().enumerate() {
                        *v = uniforms
                            .get(slot as usize * 4 + c)
                            .copied()
                            .unwrap_or(0.0)
                            .to_bits();
                    }
                    v
                }
            };
            // Broadcast to 8 lanes in the register's own slot (never stored by the code):
            // an op reads it there as its memory operand, or loads it like a spilled value.
            if let Some(r) = frame.regs.get_mut(BANK_BASE + k) {
                for (r, b) in r.iter_mut().zip(bits) {
                    *r = [f32::from_bits(b); SLOT_LANES];
                }
            }
        }
    }

    /// Whether [`compile`]'s code for this executable has seams (texture ops, [`sample`]):
    /// it then runs on [`GROUPS`] frames, one per group.
    pub fn has_seams(&self) -> bool {
        self.code
            .get(..self.len as usize)
            .unwrap_or(&[])
            .iter()
            .any(sample::is_seam)
    }

    /// [`Self::prepare_frame`] of every frame [`Self::run_compiled`] will use: the first, or
    /// the first [`GROUPS`] when the code has seams.
    pub fn prepare_frames(&self, frames: &mut [Frame], uniforms: &[f32]) {
        let n = if self.has_seams() { GROUPS } else { 1 };
        for f in frames.iter_mut().take(n) {
            self.prepare_frame(f, uniforms);
        }
    }

    /// [`Self::run`] through code from [`compile`] on frames from [`Self::prepare_frames`]
    /// (this executable, `inv.uniforms`): `call` must run that code's given segment for the
    /// given group (the host's `jitmem` does). Same outputs, bit for bit, as the interpreter
    /// for every module `compile` accepts; the lanes not in `active` may hold anything.
    /// None: an active lane's SIN/COS operand is outside the inline form's range
    /// (`Frame::bail`), or the code has seams and fewer than [`GROUPS`] frames were given, and
    /// the caller must run the dispatch through the interpreter (the outputs hold anything).
    #[inline]
    pub fn run_compiled<F>(
        &self,
        frames: &mut [Frame],
        call: &mut F,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Option<Mask>
    where
        F: FnMut(&mut [Frame], &Inputs, &Vec4x, &mut Outputs, usize, usize) + ?Sized,
    {
        self.run_compiled_in(Form::Ymm, frames, call, inv, out, active)
    }

    /// [`Self::run_compiled`] of code made in `form` (its groups: `call` gets group numbers
    /// below `form.groups()`, and a module with seams runs group g on frame g of the first
    /// `form.groups()`).
    #[inline]
    pub fn run_compiled_in<F>(
        &self,
        form: Form,
        frames: &mut [Frame],
        call: &mut F,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Option<Mask>
    where
        F: FnMut(&mut [Frame], &Inputs, &Vec4x, &mut Outputs, usize, usize) + ?Sized,
    {
        if let Some(frame) = frames.first_mut().filter(|f| f.looped) {
            if !(self.stage == Stage::Fragment && self.color_always) {
                self.default_outputs(out);
            }
            // Every group in one call (`groups`): the active lanes in, the bail bits of the
            // active lanes back.
            let active = active & ALL_LANES;
            frame.bail[0] = 0;
            frame.bail[groups::BAIL_ACC] = 0;
            frame.bail[groups::BAIL_GROUPS] = active;
            let first = frames.get_mut(..1)?;
            call(first, inv.inputs, inv.fragcoord, out, 0, 0);
            // A live lane needs the general SIN/COS path: the interpreter runs the whole
            // dispatch (it rewrites every output).
            return (first[0].bail[groups::BAIL_ACC] == 0).then_some(active);
        }
        match form {
            Form::Ymm => self.run_groups::<JIT_LANES, F>(frames, call, inv, out, active),
            Form::Zmm => self.run_groups::<ZMM_LANES, F>(frames, call, inv, out, active),
        }
    }

    /// The outputs as the interpreter starts them, for what the code does not store (out of
    /// line: a fragment stage that always writes its colour needs none of it).
    #[inline(never)]
    fn default_outputs(&self, out: &mut Outputs) {
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
    }

    /// [`Self::run_compiled`] of code that is called per group (and segment): out of line, so
    /// the looped code's path stays short.
    #[inline(never)]
    fn run_groups<const GL: usize, F>(
        &self,
        frames: &mut [Frame],
        call: &mut F,
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Option<Mask>
    where
        F: FnMut(&mut [Frame], &Inputs, &Vec4x, &mut Outputs, usize, usize) + ?Sized,
    {
        let nseams = frames.first()?.nseams;
        if nseams > 0 && frames.len() < GROUPS {
            return None;
        }
        if !(self.stage == Stage::Fragment && self.color_always) {
            self.default_outputs(out);
        }
        let active = active & ALL_LANES;
        // GL lanes per group (8, or 16 for the 16-lane form).
        let ngroups = LANES / GL;
        let low: Mask = if GL >= 32 { !0 } else { (1 << GL) - 1 };
        if nseams == 0 {
            // One segment on one frame, called per group (a module with DISCARD).
            let first = frames.get_mut(..1)?;
            let discards = first[0].discards;
            let mut alive: Mask = 0;
            for g in 0..ngroups {
                let mut lanes = (active >> (g * GL)) & low;
                if lanes == 0 {
                    continue;
                }
                first[0].bail[0] = 0;
                if discards {
                    first[0].masks[MASK_ALIVE] = [!0; SLOT_LANES];
                }
                call(first, inv.inputs, inv.fragcoord, out, g, 0);
                let frame = &first[0];
                if discards {
                    lanes &= alive_bits::<GL>(&frame.masks[MASK_ALIVE]);
                }
                // A live lane needs the general SIN/COS path: the interpreter runs the
                // whole dispatch (it rewrites every output).
                if frame.bail[0] & lanes != 0 {
                    return None;
                }
                alive |= lanes << (g * GL);
            }
            return Some(alive);
        }
        // The groups with an active lane (bit g), each on its own frame; their bail and
        // live-lane words matter only with SIN/COS or DISCARD.
        let discards = frames.first()?.discards;
        let words = discards || frames.first()?.trig;
        let mut groups = 0u32;
        if words {
            for g in 0..ngroups {
                groups |= (((active >> (g * GL)) & low != 0) as u32) << g;
            }
        }
        let mut left = groups;
        while left != 0 {
            let g = left.trailing_zeros() as usize;
            left &= left - 1;
            let frame = frames.get_mut(g)?;
            frame.bail[0] = 0;
            if discards {
                frame.masks[MASK_ALIVE] = [!0; SLOT_LANES];
            }
        }
        // Segment by segment, each one call running every group with an active lane on its
        // frame (the code's loop, `groups::Enc::seam_head`), with the seams between them.
        frames.first_mut()?.bail[groups::BAIL_GROUPS] = active;
        for seg in 0..=nseams {
            call(frames, inv.inputs, inv.fragcoord, out, 0, seg);
            if seg < nseams {
                if let Some(frames) = frames.first_chunk_mut::<GROUPS>() {
                    let pc = frames[0].seams[seg % SEAMS_MAX] as usize;
                    self.run_seam::<GL>(frames, pc, inv.textures, active);
                }
            }
        }
        // The bail bits accumulate over the segments (the code only ORs into them), so one
        // test of each group's active lanes at the end gives the dispatch back whenever a
        // test after every segment would (a lane whose SIN/COS bailed may have run on; the
        // interpreter rewrites every output then).
        if !words {
            return Some(active);
        }
        let mut alive: Mask = 0;
        let mut left = groups;
        while left != 0 {
            let g = left.trailing_zeros() as usize;
            left &= left - 1;
            let frame = frames.get(g)?;
            let mut lanes = (active >> (g * GL)) & low;
            if frame.bail[0] & lanes != 0 {
                return None;
            }
            if discards {
                lanes &= alive_bits::<GL>(&frame.masks[MASK_ALIVE]);
            }
            alive |= lanes << (g * GL);
        }
        Some(alive)
    }
}

/// The lanes of a group's live-lane slot that are set (bit l: lane l not discarded).
#[inline(always)]
fn alive_bits<const GL: usize>(m: &SlotU) -> Mask {
    let mut bits: Mask = 0;
    for (l, &v) in m.iter().take(GL).enumerate() {
        bits |= ((v != 0) as Mask) << l;
    }
    bits
}
