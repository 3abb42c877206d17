//! The software executor: runs a verified [`Module`] over [`LANES`] vertices or fragments at a
//! time, in structure-of-arrays registers (`[[f32; LANES]; 4]` per temp), with per-lane masks for
//! IF/ELSE/ENDIF and DISCARD. It also owns texture sampling (texel format, sampler state).
//!
//! A module is decoded once into an [`Executable`] (after `verify`): lane counts resolved, IF and
//! ELSE given their jump targets, fragment varying slots remapped to vertex-output slots, and the
//! list of temps that some instruction may read before anything wrote them (those are zeroed at
//! the start of each dispatch, which keeps the IR's "temps start at zero" meaning without
//! clearing the whole register file for every 8 pixels).
//!
//! Numerics (chosen to match Mesa llvmpipe, which follows the GPU rather than C):
//! IEEE f32 everywhere, no fused multiply-add; DIV is true division and RCP is 1/x, so
//! `1.0/0.0 = inf`; RSQ is 1/sqrt(x) (RSQ(0) = inf, RSQ(negative) = NaN, so `normalize` of a zero
//! vector is NaN); SIN/COS/SQRT/TRUNC come from libm; POW is pow(x, y) for x > 0, 0 or inf for
//! x = 0 (y > 0 / y < 0), NaN for pow(0, 0) and for x < 0 (llvmpipe computes exp2(y * log2 x));
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
use crate::ir::{CmpCode, Module, Op, Stage};
use crate::limits::{
    IF_DEPTH_MAX, IMM_MAX, IR_MAX, SAMPLER_MAX, TEMP_MAX, UNIFORM_FLOATS, VARYING_MAX,
};
use crate::opt::effects;
use crate::verify::{verify, VerifyError};

/// Invocations per dispatch.
pub const LANES: usize = 8;
/// One component of a temp across all lanes.
pub type Lanes = [f32; LANES];
/// A 4-component value across all lanes (structure of arrays).
pub type Vec4x = [Lanes; 4];
/// Bit mask with every lane set.
pub const ALL_LANES: u8 = 0xFF;

/// Register file size: a power of two above TEMP_MAX so a masked index can never be out of range.
const REG_FILE: usize = 128;
const REG_MASK: usize = REG_FILE - 1;
const _: () = assert!(REG_FILE >= TEMP_MAX && LANES == 8);

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

    fn wrap(&self, i: i64, size: u32) -> usize {
        let size = size.max(1) as i64;
        match self.sampler.wrap {
            Wrap::Repeat => i.rem_euclid(size) as usize,
            Wrap::ClampToEdge => i.clamp(0, size - 1) as usize,
        }
    }

    fn texel(&self, x: usize, y: usize) -> [f32; 4] {
        let t = self
            .texels
            .get(y * self.width as usize + x)
            .copied()
            .unwrap_or(0);
        let ch = |s: u32| ((t >> s) & 0xFF) as f32 * (1.0 / 255.0);
        [ch(16), ch(8), ch(0), ch(24)]
    }

    /// The filtered (r, g, b, a) at (u, v); texel i covers [i/width, (i+1)/width).
    pub fn sample(&self, u: f32, v: f32) -> [f32; 4] {
        let (w, h) = (self.width as f32, self.height as f32);
        match self.sampler.filter {
            Filter::Nearest => {
                // `as i64` saturates and maps NaN to 0: no overflow on any input.
                let x = self.wrap(libm::floorf(u * w) as i64, self.width);
                let y = self.wrap(libm::floorf(v * h) as i64, self.height);
                self.texel(x, y)
            }
            Filter::Linear => {
                let fx = u * w - 0.5;
                let fy = v * h - 0.5;
                let (x0f, y0f) = (libm::floorf(fx), libm::floorf(fy));
                let (ax, ay) = (fx - x0f, fy - y0f);
                let (x0, y0) = (x0f as i64, y0f as i64);
                let x0w = self.wrap(x0, self.width);
                let x1w = self.wrap(x0.saturating_add(1), self.width);
                let y0w = self.wrap(y0, self.height);
                let y1w = self.wrap(y0.saturating_add(1), self.height);
                let t00 = self.texel(x0w, y0w);
                let t10 = self.texel(x1w, y0w);
                let t01 = self.texel(x0w, y1w);
                let t11 = self.texel(x1w, y1w);
                let mut out = [0.0; 4];
                for c in 0..4 {
                    let top = t00[c] + (t10[c] - t00[c]) * ax;
                    let bot = t01[c] + (t11[c] - t01[c]) * ax;
                    out[c] = top + (bot - top) * ay;
                }
                out
            }
        }
    }
}

/// The SoA register file; keep one per thread and reuse it across dispatches.
#[derive(Clone)]
pub struct Regs {
    t: [Vec4x; REG_FILE],
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
        }
    }
}

/// One decoded instruction: operands narrowed to bytes, lane counts resolved.
#[derive(Clone, Copy, Debug)]
struct DInst {
    op: Op,
    /// Lanes, matrix columns, DOT size or LOAD_UNI count.
    n: u8,
    dst: u8,
    a: u8,
    b: u8,
    /// aux: immediate base, selectors, lane, CMP code, unit, location, slot.
    x: u8,
    /// aux2: SETLANE source lane.
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
        };
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
            if inst.op == Op::StoreVar {
                e.varying_mask |= 1 << (x & 7);
            }
            let d = DInst {
                op: inst.op,
                n,
                dst: narrow(inst.dst),
                a: narrow(inst.a),
                b: narrow(inst.b),
                x,
                y: narrow(inst.aux2),
                jump: 0,
            };
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
            let _ = i;
            *e.code
                .get_mut(out)
                .ok_or(internal("too many instructions"))? = d;
            out += 1;
        }
        e.len = out as u16;
        for (t, z) in needs_zero.iter().enumerate() {
            if *z {
                if let Some(slot) = e.zero.get_mut(e.nzero as usize) {
                    *slot = t as u8;
                    e.nzero += 1;
                }
            }
        }
        Ok(e)
    }

    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Varying slots (vertex-output numbering) stored by this vertex stage or read by this
    /// fragment stage, as a bit mask.
    pub fn varying_mask(&self) -> u8 {
        self.varying_mask
    }

    /// Runs the lanes in `active` (bit l = lane l). Returns the lanes that finished without
    /// DISCARD. Outputs of inactive or discarded lanes are unspecified.
    pub fn run(&self, regs: &mut Regs, inv: &Invocation, out: &mut Outputs, active: u8) -> u8 {
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
            Stage::Fragment => out.color = [[0.0; LANES]; 4],
        }
        let mut alive = active;
        let mut cur = active;
        // Writes may clobber every lane when no live lane is switched off.
        let mut full = true;
        let mut stack = [(0u8, 0u8); IF_DEPTH_MAX + 1];
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
            match d.op {
                Op::If => {
                    let mut cond = 0u8;
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
                    full = (cur | !alive) == ALL_LANES;
                    if cur == 0 {
                        pc = d.jump as usize;
                    }
                    continue;
                }
                Op::Else => {
                    let (saved, cond) = stack.get(depth.wrapping_sub(1)).copied().unwrap_or((0, 0));
                    cur = saved & !cond & alive;
                    full = (cur | !alive) == ALL_LANES;
                    if cur == 0 {
                        pc = d.jump as usize;
                    }
                    continue;
                }
                Op::Endif => {
                    depth = depth.saturating_sub(1);
                    let (saved, _) = stack.get(depth).copied().unwrap_or((0, 0));
                    cur = saved & alive;
                    full = (cur | !alive) == ALL_LANES;
                    continue;
                }
                _ => {}
            }
            if cur == 0 {
                continue;
            }
            let m = if full { ALL_LANES } else { cur };
            match d.op {
                Op::Nop | Op::If | Op::Else | Op::Endif => {}
                Op::Const => {
                    let mut v = [[0.0; LANES]; 4];
                    for c in 0..(d.n as usize).min(4) {
                        let k = self.imms.get(d.x as usize + c).copied().unwrap_or(0.0);
                        v[c] = [k; LANES];
                    }
                    put4(&mut r[dst], &v, m);
                }
                Op::Mov => {
                    let src = r[a];
                    for c in 0..(d.n as usize).min(4) {
                        put(&mut r[dst][c], &src[c], m);
                    }
                }
                Op::Swz => {
                    let src = r[a];
                    let mut v = [[0.0; LANES]; 4];
                    for (k, vk) in v.iter_mut().enumerate().take(d.n as usize) {
                        *vk = src[(d.x as usize >> (2 * k)) & 3];
                    }
                    put4(&mut r[dst], &v, m);
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
                Op::Pow => binary(r, d, m, pow),
                Op::Abs => unary(r, d, m, f32::abs),
                Op::Rsq => unary(r, d, m, |x| 1.0 / libm::sqrtf(x)),
                Op::Rcp => unary(r, d, m, |x| 1.0 / x),
                Op::Sin => unary(r, d, m, libm::sinf),
                Op::Cos => unary(r, d, m, libm::cosf),
                Op::Trunc => unary(r, d, m, libm::truncf),
                Op::Sqrt => unary(r, d, m, libm::sqrtf),
                Op::Dot => {
                    let (x, y) = (r[a], r[b]);
                    let mut s = [0.0; LANES];
                    for c in 0..(d.n as usize).min(4) {
                        for l in 0..LANES {
                            s[l] += x[c][l] * y[c][l];
                        }
                    }
                    put(&mut r[dst][0], &s, m);
                }
                Op::Cmp => {
                    let (x, y) = (r[a][0], r[b][0]);
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
                    let vec = r[b];
                    let v = mat_times(r, a, n, &vec);
                    put4(&mut r[dst], &v, m);
                }
                Op::MulMM => {
                    let n = (d.n as usize).min(4);
                    let mut res = [[[0.0; LANES]; 4]; 4];
                    for (j, col) in res.iter_mut().enumerate().take(n) {
                        let bj = r[(b + j) & REG_MASK];
                        *col = mat_times(r, a, n, &bj);
                    }
                    for (j, col) in res.iter().enumerate().take(n) {
                        put4(&mut r[(dst + j) & REG_MASK], col, m);
                    }
                }
                Op::Sample => {
                    let coord = r[a];
                    let mut v = [[0.0; LANES]; 4];
                    match inv.textures.get(d.x as usize).and_then(|t| t.as_ref()) {
                        Some(tex) => {
                            for l in 0..LANES {
                                if m & (1 << l) != 0 {
                                    let t = tex.sample(coord[0][l], coord[1][l]);
                                    for c in 0..4 {
                                        v[c][l] = t[c];
                                    }
                                }
                            }
                        }
                        // GL reads an unbound (incomplete) texture as opaque black.
                        None => v[3] = [1.0; LANES],
                    }
                    put4(&mut r[dst], &v, m);
                }
                Op::LoadAttr | Op::LoadVar => {
                    let src = inv.inputs[d.x as usize & 7];
                    put4(&mut r[dst], &src, m);
                }
                Op::LoadUni => {
                    for k in 0..(d.n as usize).min(4) {
                        let mut v = [[0.0; LANES]; 4];
                        for (c, vc) in v.iter_mut().enumerate() {
                            let w = inv
                                .uniforms
                                .get((d.x as usize + k) * 4 + c)
                                .copied()
                                .unwrap_or(0.0);
                            *vc = [w; LANES];
                        }
                        put4(&mut r[(dst + k) & REG_MASK], &v, m);
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

#[inline(always)]
fn put(dst: &mut Lanes, v: &Lanes, m: u8) {
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
fn put4(dst: &mut Vec4x, v: &Vec4x, m: u8) {
    if m == ALL_LANES {
        *dst = *v;
    } else {
        for c in 0..4 {
            put(&mut dst[c], &v[c], m);
        }
    }
}

#[inline(always)]
fn binary(r: &mut [Vec4x; REG_FILE], d: &DInst, m: u8, f: impl Fn(f32, f32) -> f32) {
    let (x, y) = (r[d.a as usize & REG_MASK], r[d.b as usize & REG_MASK]);
    let dst = &mut r[d.dst as usize & REG_MASK];
    for c in 0..(d.n as usize).min(4) {
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = f(x[c][l], y[c][l]);
        }
        put(&mut dst[c], &v, m);
    }
}

#[inline(always)]
fn unary(r: &mut [Vec4x; REG_FILE], d: &DInst, m: u8, f: impl Fn(f32) -> f32) {
    let x = r[d.a as usize & REG_MASK];
    let dst = &mut r[d.dst as usize & REG_MASK];
    for c in 0..(d.n as usize).min(4) {
        let mut v = [0.0; LANES];
        for l in 0..LANES {
            v[l] = f(x[c][l]);
        }
        put(&mut dst[c], &v, m);
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

/// GLSL pow as llvmpipe evaluates it (exp2(y * log2(x))), with libm's accuracy for x > 0.
pub fn pow(x: f32, y: f32) -> f32 {
    if x > 0.0 {
        libm::powf(x, y)
    } else if x == 0.0 {
        if y > 0.0 {
            0.0
        } else if y < 0.0 {
            f32::INFINITY
        } else {
            f32::NAN
        }
    } else {
        f32::NAN
    }
}
