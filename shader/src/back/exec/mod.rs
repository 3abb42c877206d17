//! The software executor: runs a verified [`Module`] over [`LANES`] vertices or fragments at a
//! time, in structure-of-arrays registers (`[[f32; LANES]; 4]` per temp), with per-lane masks for
//! IF/ELSE/ENDIF and DISCARD. It also owns texture sampling (texel format, sampler state).
//!
//! A module is decoded once into an [`Executable`] (after `verify`): lane counts resolved, IF and
//! ELSE given their jump targets, fragment varying slots remapped to vertex-output slots, and the
//! list of temps that some instruction may read before anything wrote them (those are zeroed at
//! the start of each dispatch, which keeps the IR's "temps start at zero" meaning without
//! clearing the whole register file for every 8 pixels). Top-level CONSTs are banked: their
//! values sit in registers above the temps (loaded once per executable switch, not per
//! dispatch), operands read them there, and a CONST whose every read was redirected is dropped.
//!
//! Numerics (chosen to match Mesa llvmpipe, which follows the GPU rather than C):
//! IEEE f32 everywhere, no fused multiply-add; DIV is true division and RCP is 1/x, so
//! `1.0/0.0 = inf`; RSQ is 1/sqrt(x) (RSQ(0) = inf, RSQ(negative) = NaN, so `normalize` of a zero
//! vector is NaN); SQRT is the correctly rounded IEEE square root (the bits of libm's, four
//! lanes per SQRTPS on x86_64), TRUNC comes from libm, SIN/COS reduce by pi/2 and evaluate
//! minimax polynomials (within 2 ulp of libm, see [`sin`]); POW is exp2(y * log2 x) as
//! llvmpipe computes it (so pow(x < 0, y) and pow(0, 0) are NaN, see [`pow`]);
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

pub(crate) mod lanes;
pub(crate) mod texel;

use crate::ir::opt::effects;
use crate::ir::verify::{verify, VerifyError};
use crate::ir::{CmpCode, Module, Op, Stage};
use crate::limits::{
    IF_DEPTH_MAX, IMM_MAX, IR_MAX, SAMPLER_MAX, TEMP_MAX, UNIFORM_FLOATS, VARYING_MAX,
};

/// Invocations per dispatch: the rasterizer fills a dispatch with several 4x2 pixel blocks of
/// one triangle (see `raster`), the vertex stage with that many vertices. Wider dispatches
/// spread the per-instruction decode and dispatch over more lanes; the lane loops stay
/// straight-line SIMD code. 8 lanes (one block) cost about twice as much per fragment on
/// shaders with many instructions.
pub const LANES: usize = 32;
/// One component of a temp across all lanes.
pub type Lanes = [f32; LANES];
/// A 4-component value across all lanes (structure of arrays).
pub type Vec4x = [Lanes; 4];
/// One bit per lane.
pub type Mask = u32;
/// Bit mask with every lane set.
pub const ALL_LANES: Mask = (u64::MAX >> (64 - LANES)) as Mask;
const _: () = assert!(LANES <= Mask::BITS as usize && LANES.is_multiple_of(8));

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
/// Decode-time alias marks: temp t is recorded as t + ALIAS_BIAS, above every bank register.
const ALIAS_BIAS: usize = REG_FILE;
const _: () = assert!(ALIAS_BIAS + TEMP_MAX <= u8::MAX as usize + 1);

/// Texture minification/magnification filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    #[default]
    Nearest,
    Linear,
}

/// Texture coordinate wrap mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wrap {
    #[default]
    Repeat,
    ClampToEdge,
}

/// Per-unit sampler state; the default is GL's (nearest here, repeat).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SamplerState {
    pub filter: Filter,
    pub wrap: Wrap,
}

/// A texture bound to a unit: `width * height` texels `0xAARRGGBB`, row 0 (v = 0) first.
#[derive(Clone, Copy, Debug)]
pub struct TextureRef<'a> {
    pub width: u32,
    pub height: u32,
    pub texels: &'a [u32],
    pub sampler: SamplerState,
}

/// Largest texture edge accepted (keeps texel arithmetic far from overflow).
pub const TEXTURE_MAX: u32 = 16384;

/// Why a texture cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureError {
    /// Width or height is 0 or above [`TEXTURE_MAX`].
    BadSize { width: u32, height: u32 },
    /// Fewer texels than width * height.
    TooFewTexels { needed: usize, found: usize },
}

impl core::fmt::Display for TextureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            TextureError::BadSize { width, height } => {
                write!(
                    f,
                    "texture size {}x{} is invalid (each edge must be 1..={})",
                    width, height, TEXTURE_MAX
                )
            }
            TextureError::TooFewTexels { needed, found } => {
                write!(f, "texture has {} texels, its size needs {}", found, needed)
            }
        }
    }
}

impl TextureRef<'_> {
    pub fn validate(&self) -> Result<(), TextureError> {
        if self.width == 0
            || self.height == 0
            || self.width > TEXTURE_MAX
            || self.height > TEXTURE_MAX
        {
            return Err(TextureError::BadSize {
                width: self.width,
                height: self.height,
            });
        }
        let needed = self.width as usize * self.height as usize;
        if self.texels.len() < needed {
            return Err(TextureError::TooFewTexels {
                needed,
                found: self.texels.len(),
            });
        }
        Ok(())
    }

    #[inline(always)]
    fn wrap(&self, i: i32, size: u32) -> usize {
        let size = size.clamp(1, TEXTURE_MAX) as i32;
        match self.sampler.wrap {
            // Power-of-two sizes wrap with a mask (two's complement makes it exact for negatives).
            Wrap::Repeat if size & (size - 1) == 0 => (i & (size - 1)) as usize,
            Wrap::Repeat => i.rem_euclid(size) as usize,
            Wrap::ClampToEdge => i.clamp(0, size - 1) as usize,
        }
    }

    /// The filtered (r, g, b, a) at (u, v); texel i covers [i/width, (i+1)/width).
    #[inline(always)]
    pub fn sample(&self, u: f32, v: f32) -> [f32; 4] {
        unpack(self.sample_texel(u, v))
    }

    /// [`Self::sample`] before the conversion to floats: the filtered 0xAARRGGBB value (the
    /// bilinear blend works on the 8-bit channels).
    #[inline(always)]
    pub fn sample_texel(&self, u: f32, v: f32) -> u32 {
        let (w, h) = (self.width as f32, self.height as f32);
        match self.sampler.filter {
            Filter::Nearest => {
                let x = self.wrap(floor_i32(u * w), self.width);
                let y = self.wrap(floor_i32(v * h), self.height);
                self.raw(x, y)
            }
            Filter::Linear => {
                let fx = u * w - 0.5;
                let fy = v * h - 0.5;
                let (x0, y0) = (floor_i32(fx), floor_i32(fy));
                // 8-bit fixed-point weights, as llvmpipe filters 8-bit texels; NaN/huge
                // coordinates give some valid texel.
                let ax = ((fx - x0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
                let ay = ((fy - y0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
                let x0w = self.wrap(x0, self.width);
                let x1w = self.wrap(x0.saturating_add(1), self.width);
                let y0w = self.wrap(y0, self.height);
                let y1w = self.wrap(y0.saturating_add(1), self.height);
                let top = lerp_texel(self.raw(x0w, y0w), self.raw(x1w, y0w), ax);
                let bot = lerp_texel(self.raw(x0w, y1w), self.raw(x1w, y1w), ax);
                lerp_texel(top, bot, ay)
            }
        }
    }

    /// [`Self::sample`] for every lane at once (lanes not running may sample anywhere: the
    /// result is a valid texel for any coordinate).
    #[inline(always)]
    fn sample_lanes(&self, u: &Lanes, v: &Lanes, out: &mut Vec4x) {
        crate::back::exec::texel::unpack_lanes(&self.texel_lanes(u, v), out);
    }

    /// [`Self::sample_texel`] for every lane at once. Power-of-two repeating textures take a
    /// branch-free path whose coordinate arithmetic vectorizes; it gives the same texels and
    /// weights as the per-lane path.
    #[inline(always)]
    pub(crate) fn texel_lanes(&self, u: &Lanes, v: &Lanes) -> [u32; LANES] {
        let pow2 = self.width.is_power_of_two() && self.height.is_power_of_two();
        if !(pow2 && self.sampler.wrap == Wrap::Repeat) {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = self.sample_texel(u[l], v[l]);
            }
            return out;
        }
        let (w, h) = (self.width as f32, self.height as f32);
        let (mx, my) = (self.width as i32 - 1, self.height as i32 - 1);
        // Row offset by shift (no 32-bit vector multiply on baseline x86_64).
        let shift = self.width.trailing_zeros().min(31);
        let linear = self.sampler.filter == Filter::Linear;
        let bias = if linear { 0.5 } else { 0.0 };
        let fx = crate::back::exec::texel::scale_lanes(u, w, bias);
        let fy = crate::back::exec::texel::scale_lanes(v, h, bias);
        // NaN fails too.
        let small = crate::back::exec::texel::all_below(&fx, &fy, FLOOR_SMALL_MAX);
        if !small {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = self.sample_texel(u[l], v[l]);
            }
            return out;
        }
        // Exactly width * height texels (a power of two), so a masked index is in range and
        // the compiler drops the per-fetch bounds check.
        let hshift = self.height.trailing_zeros().min(31);
        let n = 1usize << (shift + hshift).min(62);
        let Some(t) = self.texels.get(..n) else {
            let mut out = [0u32; LANES];
            for l in 0..LANES {
                out[l] = self.sample_texel(u[l], v[l]);
            }
            return out;
        };
        let at = |i: i32| t.get(i as usize & (n - 1)).copied().unwrap_or(0);
        if linear {
            let mut i0 = [0u32; LANES];
            let mut i1 = [0u32; LANES];
            let mut wx = [0.0f32; LANES];
            let mut wy = [0.0f32; LANES];
            // Some lane's right texel wraps to the start of its row (always when width is 1).
            let mut edge = false;
            for l in 0..LANES {
                let (x, y) = (floor_small(fx[l]), floor_small(fy[l]));
                // In [0.5, 256]: the clamp of `sample` (its truncation is below).
                wx[l] = ((fx[l] - x as f32) * 256.0 + 0.5).min(256.0);
                wy[l] = ((fy[l] - y as f32) * 256.0 + 0.5).min(256.0);
                let x0 = x & mx;
                edge |= x0 == mx;
                i0[l] = (((y & my) << shift) + x0) as u32;
                i1[l] = ((((y + 1) & my) << shift) + x0) as u32;
            }
            let (ax, ay) = (
                crate::back::exec::texel::weight_floor(&wx),
                crate::back::exec::texel::weight_floor(&wy),
            );
            // Each lane's left and right texel of a row, as `left | right << 32`.
            if !edge {
                // Right = left + 1 in memory (x0 < mx): one 64-bit load. Left and right texels
                // are read through two views of equal length n - 1, so one bounds check (which
                // always passes: x0 < mx keeps the masked index below n - 1) covers both.
                let (left, right) = (t.get(..n - 1).unwrap_or(&[]), t.get(1..).unwrap_or(&[]));
                let pair = |i: u32| {
                    let i = i as usize & (n - 1);
                    match (left.get(i), right.get(i)) {
                        (Some(&a), Some(&b)) => a as u64 | (b as u64) << 32,
                        _ => 0,
                    }
                };
                return crate::back::exec::texel::bilerp(pair, &i0, &i1, &ax, &ay);
            } else {
                // Row start of i, plus the next column wrapped.
                let right = |i: u32| (i & !(mx as u32)) | (i.wrapping_add(1) & mx as u32);
                let pair = |i: u32| at(i as i32) as u64 | (at(right(i) as i32) as u64) << 32;
                return crate::back::exec::texel::bilerp(pair, &i0, &i1, &ax, &ay);
            }
        }
        // Nearest: each lane's texel.
        let mut texel = [0u32; LANES];
        let mut idx = [0i32; LANES];
        for l in 0..LANES {
            idx[l] = ((floor_small(fy[l]) & my) << shift) + (floor_small(fx[l]) & mx);
        }
        for l in 0..LANES {
            texel[l] = at(idx[l]);
        }
        texel
    }

    #[inline(always)]
    fn raw(&self, x: usize, y: usize) -> u32 {
        self.texels
            .get(y * self.width as usize + x)
            .copied()
            .unwrap_or(0)
    }
}

/// (r, g, b, a) in [0, 1] of a 0xAARRGGBB texel.
#[inline(always)]
fn unpack(t: u32) -> [f32; 4] {
    let ch = |s: u32| ((t >> s) & 0xFF) as f32 * (1.0 / 255.0);
    [ch(16), ch(8), ch(0), ch(24)]
}

/// Per-channel a + (b - a) * w / 256 with rounding, two channels per 32-bit half at a time
/// (each 16-bit field holds at most 255 * 256 + 128: no carries between fields).
#[inline(always)]
fn lerp_texel(a: u32, b: u32, w: u32) -> u32 {
    let iw = 256 - w;
    let lo = ((a & 0x00FF_00FF) * iw + (b & 0x00FF_00FF) * w + 0x0080_0080) >> 8;
    let hi = (((a >> 8) & 0x00FF_00FF) * iw + ((b >> 8) & 0x00FF_00FF) * w + 0x0080_0080) >> 8;
    (lo & 0x00FF_00FF) | ((hi & 0x00FF_00FF) << 8)
}

/// Magnitude below which [`floor_small`] is exact.
const FLOOR_SMALL_MAX: f32 = 4_194_304.0;

/// floor(x) for |x| < 2^22 (= [`floor_i32`] there) with float adds and a bit cast only, so
/// lane loops using it vectorize: x + 1.5 * 2^23 rounds to an integer held in the mantissa.
#[inline(always)]
fn floor_small(x: f32) -> i32 {
    const MAGIC: f32 = 12_582_912.0;
    let r = x + MAGIC;
    let n = (r.to_bits() as i32).wrapping_sub(0x4B40_0000);
    n - ((r - MAGIC > x) as i32)
}

/// floor(x) as i32, saturating (NaN -> 0): no overflow on any input.
#[inline(always)]
fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The SoA register file; keep one per thread and reuse it across dispatches.
#[derive(Clone)]
pub struct Regs {
    t: [Vec4x; REG_FILE],
    /// The constant bank (bits) last loaded into the bank registers, so an executable whose
    /// bank is already there does not reload it.
    bank: [[u32; 4]; BANK_MAX],
    nbank: u8,
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
            nbank: 0,
        }
    }
}

/// Inputs of one dispatch.
pub struct Invocation<'a, 'b> {
    /// This stage's 32 vec4 uniform slots.
    pub uniforms: &'a [f32; UNIFORM_FLOATS],
    pub textures: &'a [Option<TextureRef<'b>>; SAMPLER_MAX],
    /// Vertex stage: attributes by location. Fragment stage: interpolated varyings by
    /// vertex-output slot (the executable applies the link remap).
    pub inputs: &'a [Vec4x; VARYING_MAX],
    /// Fragment stage: gl_FragCoord per lane.
    pub fragcoord: &'a Vec4x,
}

/// Outputs of one dispatch (only the active, not discarded lanes are meaningful).
#[derive(Clone)]
pub struct Outputs {
    pub position: Vec4x,
    pub varyings: [Vec4x; VARYING_MAX],
    pub color: Vec4x,
    /// [`Executable::run_packed`]: the colour as 0xAARRGGBB pixels (`color` is not written).
    pub packed: [u32; LANES],
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
            varyings: [[[0.0; LANES]; 4]; VARYING_MAX],
            color: [[0.0; LANES]; 4],
            packed: [0; LANES],
        }
    }
}

/// One decoded instruction: operands narrowed to bytes, lane counts resolved.
#[derive(Clone, Copy, Debug)]
struct DInst {
    op: Op,
    /// Lanes, matrix columns, DOT size or LOAD_UNI count; LOAD_VAR/LOAD_ATTR: the components
    /// (bit c) that some later instruction reads.
    n: u8,
    dst: u8,
    a: u8,
    b: u8,
    /// aux: immediate base, selectors, lane, CMP code, unit, location, slot.
    x: u8,
    /// aux2: SETLANE source lane; SAMPLE: 1 when it also is the colour output (see
    /// `fuse_sample_color`).
    y: u8,
    /// IF: index of its ELSE or ENDIF; ELSE: index of its ENDIF.
    jump: u16,
}

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
    code: [DInst; IR_MAX],
    len: u16,
    imms: [f32; IMM_MAX],
    /// Temps that may be read before being written: zeroed per dispatch.
    zero: [u8; TEMP_MAX],
    nzero: u8,
    /// Varying slots (vertex-output numbering) this stage stores (VS) or reads (FS).
    varying_mask: u8,
    /// Values (bits) of the bank registers BANK_BASE.. that operands may name instead of a
    /// temp written by a top-level CONST (see `new`).
    bank: [[u32; 4]; BANK_MAX],
    nbank: u8,
    /// Per varying slot (vertex-output numbering): the components some instruction reads.
    varying_lanes: [u8; VARYING_MAX],
    /// Some instruction reads gl_FragCoord (otherwise the rasterizer need not fill it).
    reads_fragcoord: bool,
    /// The code has IF: without it every write may cover all lanes (see `run`).
    has_flow: bool,
    /// Every lane that finishes has run a top-level STORE_COLOR (no IF, some STORE_COLOR), so
    /// the colour output need not be cleared first.
    color_always: bool,
    /// The colour output is a texture sample as it is (see `fuse_sample_color`).
    sample_color: bool,
}

fn narrow(v: i16) -> u8 {
    v.clamp(0, 255) as u8
}

impl Executable {
    /// Verifies and decodes `m`. For a fragment module, `remap[fs_slot]` gives the vertex-output
    /// slot LOAD_VAR reads (None: identity).
    pub fn new(m: &Module, remap: Option<&[i8; VARYING_MAX]>) -> Result<Executable, VerifyError> {
        verify(m)?;
        let internal = |message| VerifyError {
            inst: None,
            message,
        };
        let mut e = Executable {
            stage: m.stage,
            code: [DNOP; IR_MAX],
            len: 0,
            imms: [0.0; IMM_MAX],
            zero: [0; TEMP_MAX],
            nzero: 0,
            varying_mask: 0,
            bank: [[0; 4]; BANK_MAX],
            nbank: 0,
            reads_fragcoord: false,
            has_flow: false,
            color_always: false,
            sample_color: false,
            varying_lanes: [0; VARYING_MAX],
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
        let mut drop = [false; IR_MAX];
        // Per output instruction: its module instruction, and whether it runs under IF.
        let mut origin = [0u16; IR_MAX];
        let mut nested = [true; IR_MAX];
        for (d, s) in e.imms.iter_mut().zip(m.imms.iter()) {
            *d = *s;
        }
        let mut stack = [0usize; IF_DEPTH_MAX + 1];
        let mut depth = 0usize;
        let mut defined = [0u8; TEMP_MAX];
        let mut needs_zero = [false; TEMP_MAX];
        let mut out = 0usize;
        for (i, inst) in m.insts.iter().enumerate() {
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
            if depth == 0 {
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
                _ => 0,
            };
            let mut x = narrow(inst.aux);
            if inst.op == Op::LoadVar {
                if let Some(map) = remap {
                    let to = map.get(x as usize).copied().unwrap_or(-1);
                    if !(0..VARYING_MAX as i8).contains(&to) {
                        return Err(internal(
                            "fragment varying has no vertex-output slot in the link remap",
                        ));
                    }
                    x = to as u8;
                }
                e.varying_mask |= 1 << (x & 7);
            }
            e.reads_fragcoord |= inst.op == Op::LoadFcoord;
            e.has_flow |= inst.op == Op::If;
            if inst.op == Op::StoreVar {
                e.varying_mask |= 1 << (x & 7);
            }
            let mut d = DInst {
                op: inst.op,
                n,
                dst: narrow(inst.dst),
                a: narrow(inst.a),
                b: narrow(inst.b),
                x,
                y: narrow(inst.aux2),
                jump: 0,
            };
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
                        if depth > 0 || w.lanes != 15 {
                            if let Some(f) = kdef.get(t).and_then(|&i| drop.get_mut(i)) {
                                *f = false;
                            }
                        }
                    }
                }
                let src = d.a as usize;
                let t = d.dst as usize;
                if inst.op == Op::Mov
                    && depth == 0
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
                } else if inst.op == Op::Mov && depth == 0 && w.count == 1 && w.lanes == 15 {
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
                if inst.op == Op::Const && depth == 0 {
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
                    let slot = match e.bank.iter().take(nb).position(|b| *b == v) {
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
                _ => {}
            }
            if let (Some(o), Some(n)) = (origin.get_mut(out), nested.get_mut(out)) {
                *o = i as u16;
                *n = depth > 0 || matches!(inst.op, Op::If | Op::Else | Op::Endif);
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
        let mut live = [0u8; TEMP_MAX];
        for j in (0..out).rev() {
            if drop.get(j).copied().unwrap_or(true) {
                continue;
            }
            let (Some(d), Some(inst)) = (
                e.code.get(j).copied(),
                origin.get(j).and_then(|&i| m.insts.get(i as usize)),
            ) else {
                continue;
            };
            let eff = effects(inst);
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
                if matches!(d.op, Op::LoadVar | Op::LoadAttr) {
                    let read = live.get(w.base as usize).copied().unwrap_or(15) & w.lanes;
                    if d.op == Op::LoadVar {
                        if let Some(v) = e.varying_lanes.get_mut(d.x as usize & 7) {
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
                }
            }
            for (k, r) in eff.reads.iter().enumerate() {
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
        // Remove the dropped CONSTs; IF/ELSE jump to ELSE/ENDIF, which are never dropped.
        let mut map = [0u16; IR_MAX];
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
            if matches!(d.op, Op::If | Op::Else) {
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
        e.color_always = !e.has_flow && m.insts.iter().any(|i| i.op == Op::StoreColor);
        e.fuse_sample_color();
        Ok(e)
    }

    /// A fragment stage whose colour is a texture sample as it is (SAMPLE R; ...; STORE_COLOR
    /// R with nothing else reading R, no IF) gets the two fused: the SAMPLE stores the colour
    /// output itself and the STORE_COLOR becomes a NOP. [`Self::run_packed`] then hands the
    /// filtered texels out as pixels without the float round trip, which is exact: every
    /// 8-bit channel c gives c again through `c as f32 * (1 / 255)` and the pixel packing
    /// (tested exhaustively). Textured quads, sprites and blits are this shape.
    fn fuse_sample_color(&mut self) {
        if self.stage != Stage::Fragment || self.has_flow {
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
        // The last writer of `reg` before the store, and nothing else reading it after that
        // writer (read ranges counted generously: a and b with up to four registers each).
        let writes = |d: &DInst| -> (u8, u8) {
            match d.op {
                op if no_register_result(op) => (0, 0),
                Op::MulMM | Op::LoadUni => (d.dst, d.n.max(1)),
                _ => (d.dst, 1),
            }
        };
        let hits = |base: u8, count: u8| (base..base.saturating_add(count)).contains(&reg);
        let Some(ss) = (0..sc).rev().find(|&i| {
            code.get(i).is_some_and(|d| {
                let (b, n) = writes(d);
                hits(b, n)
            })
        }) else {
            return;
        };
        let fusable = code
            .get(ss)
            .is_some_and(|d| d.op == Op::Sample && d.dst == reg)
            && code.iter().enumerate().skip(ss + 1).all(|(i, d)| {
                i == sc || matches!(d.op, Op::Nop | Op::Discard) || !(hits(d.a, 4) || hits(d.b, 4))
            });
        if !fusable {
            return;
        }
        if let Some(d) = self.code.get_mut(ss) {
            d.y = 1;
        }
        if let Some(d) = self.code.get_mut(sc) {
            d.op = Op::Nop;
        }
        self.sample_color = true;
    }

    /// Whether [`Self::run_packed`] applies: the colour is a texture sample as it is.
    pub fn sample_color(&self) -> bool {
        self.sample_color
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Varying slots (vertex-output numbering) stored by this vertex stage or read by this
    /// fragment stage, as a bit mask.
    pub fn varying_mask(&self) -> u8 {
        self.varying_mask
    }

    /// Fragment stage: the components (bit c) of varying `slot` (vertex-output numbering) that
    /// the code reads; the others may hold anything.
    pub fn varying_lanes(&self, slot: usize) -> u8 {
        self.varying_lanes.get(slot).copied().unwrap_or(0)
    }

    /// Whether this stage reads gl_FragCoord (`Invocation::fragcoord`).
    pub fn reads_fragcoord(&self) -> bool {
        self.reads_fragcoord
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
        let nb = (self.nbank as usize).min(BANK_MAX);
        if regs.nbank != self.nbank || regs.bank.get(..nb) != self.bank.get(..nb) {
            for (k, b) in self.bank.iter().enumerate().take(nb) {
                if let Some(reg) = regs.t.get_mut(BANK_BASE + k) {
                    for c in 0..4 {
                        reg[c] = [f32::from_bits(b[c]); LANES];
                    }
                }
            }
            regs.bank = self.bank;
            regs.nbank = self.nbank;
        }
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
        let code = self.code.get(..self.len as usize).unwrap_or(&[]);
        let mut pc = 0usize;
        while let Some(d) = code.get(pc) {
            pc += 1;
            let (dst, a, b) = (
                d.dst as usize & REG_MASK,
                d.a as usize & REG_MASK,
                d.b as usize & REG_MASK,
            );
            if !STRAIGHT {
                match d.op {
                    Op::If => {
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
                    Op::Else => {
                        let (saved, cond) =
                            stack.get(depth.wrapping_sub(1)).copied().unwrap_or((0, 0));
                        cur = saved & !cond & alive;
                        full = (cur | !alive) & ALL_LANES == ALL_LANES;
                        if cur == 0 {
                            pc = d.jump as usize;
                        }
                        continue;
                    }
                    Op::Endif => {
                        depth = depth.saturating_sub(1);
                        let (saved, _) = stack.get(depth).copied().unwrap_or((0, 0));
                        cur = saved & alive;
                        full = (cur | !alive) & ALL_LANES == ALL_LANES;
                        continue;
                    }
                    _ => {}
                }
                if cur == 0 {
                    continue;
                }
            }
            let m = if STRAIGHT || full { ALL_LANES } else { cur };
            match d.op {
                Op::Nop | Op::If | Op::Else | Op::Endif => {}
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
                Op::Add => binary(r, d, m, |x, y| x + y),
                Op::Sub => binary(r, d, m, |x, y| x - y),
                Op::Mul => binary(r, d, m, |x, y| x * y),
                Op::Div => binary(r, d, m, |x, y| x / y),
                Op::Max => binary(r, d, m, f32::max),
                Op::Min => binary(r, d, m, f32::min),
                Op::Pow => binary_lanes(r, d, m, pow_lanes),
                Op::Abs => unary(r, d, m, f32::abs),
                Op::Rsq => unary_lanes(r, d, m, |x| {
                    let mut v = crate::back::exec::lanes::sqrt(x);
                    for v in v.iter_mut() {
                        *v = 1.0 / *v;
                    }
                    v
                }),
                Op::Rcp => unary(r, d, m, |x| 1.0 / x),
                Op::Sin => unary_lanes(r, d, m, |x| trig_lanes(x, 0)),
                Op::Cos => unary_lanes(r, d, m, |x| trig_lanes(x, 1)),
                Op::Trunc => unary(r, d, m, libm::truncf),
                Op::Sqrt => unary_lanes(r, d, m, crate::back::exec::lanes::sqrt),
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
                    let (x, y) = (&r[a][0], &r[b][0]);
                    let code = CmpCode::from_i16(d.x as i16).unwrap_or(CmpCode::Eq);
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
                    put(&mut r[dst][0], &v, m);
                }
                Op::MulMV => {
                    let n = (d.n as usize).min(4);
                    let v = mat_times(r, a, n, &r[b]);
                    put4(&mut r[dst], &v, m);
                }
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
                Op::Sample if d.y == 1 => {
                    // Fused with the colour output (only in straight code: every lane runs).
                    let tex = inv.textures.get(d.x as usize).and_then(|t| t.as_ref());
                    let texels = match tex {
                        Some(tex) => tex.texel_lanes(&r[a][0], &r[a][1]),
                        // GL reads an unbound (incomplete) texture as opaque black.
                        None => [0xFF00_0000; LANES],
                    };
                    if PACKED {
                        out.packed = texels;
                    } else {
                        crate::back::exec::texel::unpack_lanes(&texels, &mut out.color);
                    }
                }
                Op::Sample => {
                    // Borrowed, not copied: a stack copy read back at lane offsets stalls on
                    // store forwarding.
                    let tex = inv.textures.get(d.x as usize).and_then(|t| t.as_ref());
                    match (tex, src_dst(r, a, dst)) {
                        // Straight into the destination (sample_lanes writes all four).
                        (Some(tex), Some((coord, to))) if m == ALL_LANES => {
                            tex.sample_lanes(&coord[0], &coord[1], to)
                        }
                        (Some(tex), _) => {
                            let coord = &r[a];
                            let mut v = [[0.0; LANES]; 4];
                            tex.sample_lanes(&coord[0], &coord[1], &mut v);
                            put4(&mut r[dst], &v, m);
                        }
                        // GL reads an unbound (incomplete) texture as opaque black.
                        (None, _) => {
                            for c in 0..4 {
                                fill(&mut r[dst][c], if c == 3 { 1.0 } else { 0.0 }, m);
                            }
                        }
                    }
                }
                Op::LoadAttr | Op::LoadVar => {
                    // `n`: the components read later (see `new`).
                    let src = &inv.inputs[d.x as usize & 7];
                    for c in 0..4 {
                        if d.n & (1 << c) != 0 {
                            put(&mut r[dst][c], &src[c], m);
                        }
                    }
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
                Op::LoadFcoord => put4(&mut r[dst], inv.fragcoord, m),
                Op::StorePos => put4(&mut out.position, &r[a], m),
                Op::StoreVar => put4(&mut out.varyings[d.x as usize & 7], &r[a], m),
                Op::StoreColor => put4(&mut out.color, &r[a], m),
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
            | Op::StorePos
            | Op::StoreVar
            | Op::StoreColor
            | Op::Discard
    )
}

#[inline(always)]
fn put(dst: &mut Lanes, v: &Lanes, m: Mask) {
    if m == ALL_LANES {
        *dst = *v;
    } else {
        for l in 0..LANES {
            if m & (1 << l) != 0 {
                dst[l] = v[l];
            }
        }
    }
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
        for l in 0..LANES {
            if m & (1 << l) != 0 {
                dst[l] = k;
            }
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
    let (a, b, dst) = (
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
        d.dst as usize & REG_MASK,
    );
    for c in 0..(d.n as usize).min(4) {
        let (x, y) = (&r[a][c], &r[b][c]);
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = f(x[l], y[l]);
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
    let (a, b, dst) = (
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
        d.dst as usize & REG_MASK,
    );
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

/// GLSL pow as llvmpipe evaluates it: exp2(y * log2(x)). For finite normal x > 0 with a normal
/// result this is an f32 evaluation (relative error below 1.2e-7 * (|y log2 x| + 2), like
/// llvmpipe's own approximations, and vectorizable); otherwise it is evaluated in f64. Edge
/// cases follow from the formula: x < 0 or NaN -> NaN; pow(0, y) = 0 (y > 0), inf (y < 0),
/// NaN (y = 0); pow(inf, y) = inf (y > 0), 0 (y < 0), NaN (y = 0).
pub fn pow(x: f32, y: f32) -> f32 {
    let (z, v) = pow_f32(x, y);
    if pow_fast_ok(x, z) {
        v
    } else {
        exp2_f64(y as f64 * log2_f64(x as f64)) as f32
    }
}

/// Lane-wise [`pow`]: the branch-free core for every lane (vectorizable), then the general
/// path for the rare lanes outside its domain. Same results as [`pow`] lane by lane.
#[inline(always)]
pub(crate) fn pow_lanes(x: &Lanes, y: &Lanes) -> Lanes {
    let mut out = [0.0; LANES];
    let mut slow = [false; LANES];
    let mut any = false;
    for l in 0..LANES {
        let (z, v) = pow_f32(x[l], y[l]);
        let zero = pow_is_zero(x[l], y[l], z);
        out[l] = if zero { 0.0 } else { v };
        slow[l] = !(pow_fast_ok(x[l], z) || zero);
        any |= slow[l];
    }
    if any {
        for l in 0..LANES {
            if slow[l] {
                out[l] = exp2_f64(y[l] as f64 * log2_f64(x[l] as f64)) as f32;
            }
        }
    }
    out
}

/// Lanes whose general-path result is +0 without computing it: pow(+-0, y > 0), and a normal
/// x whose y log2 x (from [`pow_f32`], relative error ~1e-7) is below -151, where the true
/// result is below 2^-150 and rounds to +0 in f32. Specular terms hit both all the time.
#[inline(always)]
fn pow_is_zero(x: f32, y: f32, z: f32) -> bool {
    (x == 0.0 && y > 0.0) | ((f32::MIN_POSITIVE..f32::INFINITY).contains(&x) & (z < -151.0))
}

#[inline(always)]
fn pow_fast_ok(x: f32, z: f32) -> bool {
    (f32::MIN_POSITIVE..f32::INFINITY).contains(&x) && (-125.0..=125.0).contains(&z)
}

/// exp2(y * log2(x)) in f32 for normal finite x > 0 and |y log2 x| <= 125 (other inputs give
/// values `pow_fast_ok` rejects), without branches. Returns (y log2 x, result).
#[inline(always)]
fn pow_f32(x: f32, y: f32) -> (f32, f32) {
    let bits = x.to_bits() as i32;
    let e0 = ((bits >> 23) & 0xff) - 127;
    let m0 = f32::from_bits(((bits & 0x007f_ffff) | 0x3f80_0000) as u32);
    let big = m0 > core::f32::consts::SQRT_2;
    let m = if big { m0 * 0.5 } else { m0 };
    let e = if big { e0 + 1 } else { e0 };
    // ln(m) = 2 atanh(t), |t| <= 0.172: terms to t^9 leave < 4e-10.
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let ln = 2.0 * t * (1.0 + t2 * (1.0 / 3.0 + t2 * (0.2 + t2 * (1.0 / 7.0 + t2 * (1.0 / 9.0)))));
    let z = y * (e as f32 + ln * core::f32::consts::LOG2_E);
    let zc = z.clamp(-125.0, 125.0);
    // zc + 128.5 is in [3.5, 253.5], where floor is truncation; `floor_small` keeps the lane
    // loop free of float-to-int saturation (a NaN z gives some n, and the lane is then
    // recomputed on the general path).
    let n = floor_small(zc + 128.5) - 128;
    let g = (zc - n as f32) * core::f32::consts::LN_2;
    // e^g, |g| <= 0.347: Taylor to g^7 leaves < 2e-8.
    let p = 1.0
        + g * (1.0
            + g * (0.5
                + g * (1.0 / 6.0
                    + g * (1.0 / 24.0 + g * (1.0 / 120.0 + g * (1.0 / 720.0 + g / 5040.0))))));
    let scale = f32::from_bits((((n + 127) & 0xff) as u32) << 23);
    (z, p * scale)
}

/// 1/k! for k = 0..=17.
const INV_FACT: [f64; 18] = {
    let mut t = [1.0f64; 18];
    let mut k = 1;
    while k < 18 {
        t[k] = t[k - 1] / k as f64;
        k += 1;
    }
    t
};

/// Arguments at or above this magnitude (and inf/NaN) go to libm.
const TRIG_FAST_MAX: f32 = 1e5;

/// Below this magnitude sin/cos run the f32 path (Cody-Waite reduction exact for |k| < 2^13).
const TRIG_F32_MAX: f32 = 8192.0;

/// GLSL sin: for |x| < 8192 an f32 Cody-Waite reduction by pi/2 and minimax polynomials on
/// [-pi/4, pi/4] (within 2 ulp, or 2e-7 absolute near zeros, of libm); up to 1e5 the same in
/// f64; beyond (and inf/NaN) libm.
pub fn sin(x: f32) -> f32 {
    if x.abs() < TRIG_F32_MAX {
        trig_f32(x, 0)
    } else if x.abs() < TRIG_FAST_MAX {
        trig_core(x, 0)
    } else {
        libm::sinf(x)
    }
}

/// GLSL cos, as [`sin`].
pub fn cos(x: f32) -> f32 {
    if x.abs() < TRIG_F32_MAX {
        trig_f32(x, 1)
    } else if x.abs() < TRIG_FAST_MAX {
        trig_core(x, 1)
    } else {
        libm::cosf(x)
    }
}

/// Lane-wise sin (`quarter` 0) or cos (`quarter` 1), same results as [`sin`]/[`cos`]. Neighbour
/// lanes usually share the quadrant parity, and then only one of the two polynomials is
/// evaluated.
#[inline(always)]
pub(crate) fn trig_lanes(x: &Lanes, quarter: i32) -> Lanes {
    let mut red = [0.0; LANES];
    let mut quad = [0u32; LANES];
    let mut slow = false;
    let (mut any, mut all) = (0u32, 1u32);
    for l in 0..LANES {
        let ok = x[l].abs() < TRIG_F32_MAX;
        slow |= !ok;
        let (r, k) = trig_reduce(if ok { x[l] } else { 0.0 }, quarter);
        red[l] = r;
        quad[l] = k;
        any |= k;
        all &= k;
    }
    let mut out = [0.0; LANES];
    if any & 1 == 0 {
        for l in 0..LANES {
            out[l] = trig_sign(sin_r(red[l]), quad[l]);
        }
    } else if all & 1 == 1 {
        for l in 0..LANES {
            out[l] = trig_sign(cos_r(red[l]), quad[l]);
        }
    } else {
        for l in 0..LANES {
            out[l] = trig_pick(sin_r(red[l]), cos_r(red[l]), quad[l]);
        }
    }
    if slow {
        for l in 0..LANES {
            if !(x[l].abs() < TRIG_F32_MAX) {
                out[l] = if quarter == 0 { sin(x[l]) } else { cos(x[l]) };
            }
        }
    }
    out
}

/// sin(x + quarter * pi/2) for |x| < 8192 in f32, branch-free (vectorizes across lanes).
#[inline(always)]
fn trig_f32(x: f32, quarter: i32) -> f32 {
    let (r, k) = trig_reduce(x, quarter);
    trig_pick(sin_r(r), cos_r(r), k)
}

/// x + quarter * pi/2 = k * pi/2 + r with |r| <= pi/4 (Cody-Waite, f32): returns (r, k).
#[inline(always)]
fn trig_reduce(x: f32, quarter: i32) -> (f32, u32) {
    // pi/2 = P1 + P2 + P3, P1 and P2 short enough that k * P1 and k * P2 are exact.
    const P1: f32 = 1.570_312_5;
    const P2: f32 = 4.837_513e-4;
    const P3: f32 = 7.549_789_9e-8;
    let q = x * core::f32::consts::FRAC_2_PI;
    // Round to nearest: floor(q + 0.5), with the bias added in f32 as 16384.5 so the rounding
    // of that sum is part of the definition. `floor_small` keeps this free of float-to-int
    // saturation checks, and the selections are bit masks rather than branches, so the lane
    // loops around this vectorize.
    let k = floor_small(q + 16384.5) - 16384;
    let kf = k as f32;
    let r = ((x - kf * P1) - kf * P2) - kf * P3;
    (r, k.wrapping_add(quarter) as u32)
}

/// Minimax sin on [-pi/4, pi/4].
#[inline(always)]
fn sin_r(r: f32) -> f32 {
    let z = r * r;
    ((-1.951_529_6e-4 * z + 8.332_160_9e-3) * z - 1.666_665_5e-1) * z * r + r
}

/// Minimax cos on [-pi/4, pi/4].
#[inline(always)]
fn cos_r(r: f32) -> f32 {
    let z = r * r;
    ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0
}

/// Quadrants 2 and 3 flip the sign.
#[inline(always)]
fn trig_sign(v: f32, k: u32) -> f32 {
    f32::from_bits(v.to_bits() ^ ((k & 2) << 30))
}

/// Odd quadrants take the cosine.
#[inline(always)]
fn trig_pick(s: f32, c: f32, k: u32) -> f32 {
    let odd = (k & 1).wrapping_neg();
    trig_sign(
        f32::from_bits((s.to_bits() & !odd) | (c.to_bits() & odd)),
        k,
    )
}

/// sin(x + quarter * pi/2) for |x| < 1e5, branch-free: x = k pi/2 + r with |r| <= pi/4 (pi/2
/// split in a 33-bit head and a tail, exact for |k| < 2^20), then the quadrant picks +-sin(r) or
/// +-cos(r).
#[inline(always)]
fn trig_core(x: f32, quarter: i32) -> f32 {
    const PIO2_HI: f64 = 1.570_796_326_734_125_614_17;
    const PIO2_LO: f64 = 6.077_100_506_506_192_249_32e-11;
    let xd = x as f64;
    let q = xd * core::f64::consts::FRAC_2_PI + 0.5;
    let k0 = q as i32;
    let (k, kf) = if k0 as f64 > q {
        (k0 - 1, k0 as f64 - 1.0)
    } else {
        (k0, k0 as f64)
    };
    let r = (xd - kf * PIO2_HI) - kf * PIO2_LO;
    let (s, c) = (sin_poly(r), cos_poly(r));
    let k = k + quarter;
    let v = if k & 1 == 0 { s } else { c };
    let v = if k & 2 == 0 { v } else { -v };
    v as f32
}

#[inline(always)]
fn sin_poly(r: f64) -> f64 {
    let r2 = r * r;
    // r - r^3/3! + r^5/5! - ... - r^15/15!
    let mut p = -INV_FACT[15];
    p = p * r2 + INV_FACT[13];
    p = p * r2 - INV_FACT[11];
    p = p * r2 + INV_FACT[9];
    p = p * r2 - INV_FACT[7];
    p = p * r2 + INV_FACT[5];
    p = p * r2 - INV_FACT[3];
    r + r * r2 * p
}

#[inline(always)]
fn cos_poly(r: f64) -> f64 {
    let r2 = r * r;
    let mut p = INV_FACT[16];
    p = p * r2 - INV_FACT[14];
    p = p * r2 + INV_FACT[12];
    p = p * r2 - INV_FACT[10];
    p = p * r2 + INV_FACT[8];
    p = p * r2 - INV_FACT[6];
    p = p * r2 + INV_FACT[4];
    p = p * r2 - INV_FACT[2];
    1.0 + r2 * p
}

fn log2_f64(x: f64) -> f64 {
    if !(x > 0.0) {
        return if x == 0.0 {
            f64::NEG_INFINITY
        } else {
            f64::NAN
        };
    }
    if x == f64::INFINITY {
        return x;
    }
    // Every f32 (denormals included) is a normal f64.
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    // ln(m) = 2 atanh(t), |t| <= 0.172: the series to t^13 is exact to ~1e-12.
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let s = 1.0
        + t2 * (1.0 / 3.0
            + t2 * (1.0 / 5.0
                + t2 * (1.0 / 7.0 + t2 * (1.0 / 9.0 + t2 * (1.0 / 11.0 + t2 / 13.0)))));
    e as f64 + 2.0 * t * s * core::f64::consts::LOG2_E
}

fn exp2_f64(z: f64) -> f64 {
    if z.is_nan() {
        return z;
    }
    if z > 1024.0 {
        return f64::INFINITY;
    }
    if z < -1100.0 {
        return 0.0;
    }
    let r = z + 0.5;
    let mut n = r as i64;
    if (n as f64) > r {
        n -= 1;
    }
    // f in [-0.5, 0.5]; e^(f ln 2) by its Taylor series to degree 11 (error < 1e-14).
    let g = (z - n as f64) * core::f64::consts::LN_2;
    let mut p = INV_FACT[11];
    for c in INV_FACT[..11].iter().rev() {
        p = p * g + c;
    }
    let scale = |e: i64| f64::from_bits(((e + 1023) as u64) << 52);
    if n > 1023 {
        p * scale(1023) * scale(n - 1023)
    } else if n < -1022 {
        p * scale(-1022) * scale((n + 1022).max(-1022))
    } else {
        p * scale(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let lanes: u8 = (0..VARYING_MAX)
            .map(|s| e.varying_lanes(s))
            .fold(0, |a, b| a | b);
        assert_eq!(lanes, 0b0101, "only x and z of v_a are read");
    }

    /// The all-lanes sampling path gives exactly the per-lane `sample` result, including
    /// negative, huge, NaN and infinite coordinates and texel-boundary weights.
    /// `sample_lanes` gives every lane the bits of the per-lane `sample`.
    fn lanes_match_sample(tex: &TextureRef, u: &Lanes, v: &Lanes) {
        let mut out = [[0.0; LANES]; 4];
        tex.sample_lanes(u, v, &mut out);
        for l in 0..LANES {
            let want = tex.sample(u[l], v[l]);
            for c in 0..4 {
                assert_eq!(
                    out[c][l].to_bits(),
                    want[c].to_bits(),
                    "{}x{} {:?} at ({}, {}) channel {}",
                    tex.width,
                    tex.height,
                    tex.sampler,
                    u[l],
                    v[l],
                    c
                );
            }
        }
    }

    #[test]
    fn sample_lanes_matches_sample() {
        let mut texels = [0u32; 16 * 8];
        let mut s = 0x1234_5678u32;
        for t in texels.iter_mut() {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            *t = s;
        }
        let coords = [
            0.0,
            0.03125,
            0.5,
            0.999,
            1.0,
            -0.3,
            -1.75,
            2.5,
            7.3e5,
            -9.9e6,
            3e9,
            -3e9,
            1e30,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0625,
            0.1875,
            -0.0,
        ];
        for (w, h) in [(16u32, 8u32), (12, 8), (1, 1)] {
            for filter in [Filter::Nearest, Filter::Linear] {
                for wrap in [Wrap::Repeat, Wrap::ClampToEdge] {
                    let tex = TextureRef {
                        width: w,
                        height: h,
                        texels: &texels,
                        sampler: SamplerState { filter, wrap },
                    };
                    for (i, &u0) in coords.iter().enumerate() {
                        let mut u = [0.0; LANES];
                        let mut v = [0.0; LANES];
                        for l in 0..LANES {
                            u[l] = u0 + l as f32 * 0.0371;
                            v[l] = coords[(i + l) % coords.len()] * 0.75;
                        }
                        lanes_match_sample(&tex, &u, &v);
                    }
                }
            }
        }
    }

    /// The power-of-two repeating path (the SIMD blend) against per-lane `sample` on many
    /// pseudo-random coordinates, plus negative, huge, NaN and exact texel-boundary ones, on
    /// sizes down to 1x1 and one-texel-high or -wide strips.
    #[test]
    fn sample_lanes_matches_sample_random_pow2() {
        let mut texels = [0u32; 64 * 64];
        let mut s = 0x9E37_79B9u32;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for t in texels.iter_mut() {
            *t = next();
        }
        for (w, h) in [(1u32, 1u32), (2, 8), (64, 64), (256, 1), (1, 16)] {
            for filter in [Filter::Nearest, Filter::Linear] {
                let tex = TextureRef {
                    width: w,
                    height: h,
                    texels: &texels,
                    sampler: SamplerState {
                        filter,
                        wrap: Wrap::Repeat,
                    },
                };
                let special = [
                    f32::NAN,
                    -1e7,
                    5e6,
                    -0.0,
                    // Texel centres and edges: weights 0, 128 and 256.
                    0.5 / w as f32,
                    1.0 / w as f32,
                    -1.5 / w as f32,
                    3.0 / h as f32,
                ];
                for round in 0..4000u32 {
                    let mut u = [0.0; LANES];
                    let mut v = [0.0; LANES];
                    for l in 0..LANES {
                        let r = next();
                        // Mostly within a few repeats, some far out, in multiples of 1/64
                        // texel sometimes so weights land exactly on boundaries.
                        let f = |r: u32| match r % 4 {
                            0 => (r >> 8) as i32 as f32 * (1.0 / 64.0) / 4096.0,
                            1 => (r >> 2) as i32 as f32 * 1e-6,
                            _ => ((r >> 3) as f32 * (1.0 / 65536.0) - 4.0) * 1.7,
                        };
                        u[l] = f(r);
                        v[l] = f(r.rotate_left(16));
                        if round % 16 == 0 {
                            u[l] = special[(l + round as usize / 16) % special.len()];
                        }
                        if round % 16 == 1 {
                            v[l] = special[(l * 3 + round as usize / 16) % special.len()];
                        }
                    }
                    lanes_match_sample(&tex, &u, &v);
                }
            }
        }
    }

    /// The lane form of pow gives the scalar reference's bits everywhere, in particular on the
    /// shortcuts to +0 (zero base, results below 2^-150) and around their edges.
    #[test]
    fn pow_lanes_matches_pow() {
        let xs = [
            0.0f32,
            -0.0,
            1e-45,
            1e-40,
            f32::MIN_POSITIVE,
            1e-30,
            1e-10,
            0.001,
            0.0015,
            0.3,
            0.999,
            1.0,
            2.0,
            1e10,
            f32::MAX,
            f32::INFINITY,
            -1.0,
            -0.5,
            f32::NAN,
        ];
        let ys = [
            0.0f32,
            -0.0,
            1e-8,
            0.5,
            1.0,
            2.0,
            8.0,
            15.0,
            15.1,
            16.0,
            17.0,
            30.0,
            64.0,
            128.0,
            -1.0,
            -16.0,
            1e30,
            -1e30,
            f32::INFINITY,
            f32::NAN,
        ];
        extern crate std;
        let mut pairs: std::vec::Vec<(f32, f32)> = std::vec::Vec::new();
        for &x in &xs {
            for &y in &ys {
                pairs.push((x, y));
            }
        }
        // z = y log2 x from -153 to -145 (results 0, then the smallest subnormals), for a few
        // y (x stays normal).
        for y in [16.0f32, 2.0, 7.0] {
            for k in 0..400 {
                let z = -153.0 + k as f32 * 0.02;
                pairs.push((libm::exp2f(z / y), y));
            }
        }
        for chunk in pairs.chunks(LANES) {
            let (mut x, mut y) = ([1.0f32; LANES], [1.0f32; LANES]);
            for (l, &(a, b)) in chunk.iter().enumerate() {
                x[l] = a;
                y[l] = b;
            }
            let got = pow_lanes(&x, &y);
            for l in 0..LANES {
                let want = pow(x[l], y[l]);
                assert!(
                    got[l].to_bits() == want.to_bits() || (got[l].is_nan() && want.is_nan()),
                    "pow({:e}, {:e}) = {:e}, lanes gave {:e}",
                    x[l],
                    y[l],
                    want,
                    got[l]
                );
            }
        }
    }

    #[test]
    fn floor_small_matches_floor() {
        let edge = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.999_999_9,
            -0.999_999_9,
            4_194_303.5,
            -4_194_303.5,
            4_194_303.75,
            -4_194_303.75,
            2_097_151.5,
            -2_097_152.25,
        ];
        for x in edge {
            assert_eq!(floor_small(x), floor_i32(x), "{}", x);
        }
        for i in -20_000..20_000 {
            for x in [i as f32 * 0.37, i as f32 * 209.71, i as f32 * 0.001_3] {
                assert_eq!(floor_small(x), floor_i32(x), "{}", x);
            }
        }
    }
}
