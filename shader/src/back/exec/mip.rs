//! Level of detail and mip levels of the executor's textures (GL 3.3 §3.8.11, as llvmpipe
//! computes it): lambda from the scaled derivative lengths (log2 of the larger one), the
//! sampler's bias and min/max clamp, magnification below 0, the level choice of the
//! `*_MIPMAP_*` filters (nearest level, or two levels blended with an 8-bit weight as llvmpipe
//! blends 8-bit texels), and the integer-coordinate fetch and level sizes of `texelFetch` and
//! `textureSize`.
//!
//! It must never: panic on any coordinate, level or texel slice (a missing or short level reads
//! as an absent one), or change what a texture without mip levels and one filter samples.
// Lane loops index several arrays in lockstep on purpose.
#![allow(clippy::needless_range_loop)]

use super::lanes::{Lanes, Vec4x, LANES};
use super::math::{floor_i32, floor_small};
use super::texture::{lerp_texel, unpack, wrap_index, Filter, MipFilter, TextureRef};
use super::{DInst, REG_MASK};
use crate::ir::{Op, Stage};

/// A constant texel offset (`textureOffset` & co.) as IR instructions carry it in `aux2`: x in
/// bits 0..4, y in bits 4..8, each 4-bit two's complement (GLSL's range -8..=7); 0 is none.
pub fn offset_code(x: i32, y: i32) -> i16 {
    ((x & 15) | (y & 15) << 4) as i16
}

/// The (x, y) texel offset of an `aux2` offset code.
pub fn offset_of(code: u8) -> (i32, i32) {
    let f = |v: u8| ((v & 15) as i32 ^ 8) - 8;
    (f(code), f(code >> 4))
}

/// The filtered 8-bit texel of one level (no further levels) at (u, v) moved by `off` texels:
/// `TextureRef::sample_texel`'s texel choice and weights, with the offset added to the integer
/// texel coordinates (as GL and llvmpipe apply it).
fn texel_level(t: &TextureRef, f: Filter, u: f32, v: f32, off: (i32, i32)) -> u32 {
    let (w, h) = (t.width as f32, t.height as f32);
    let (ws, wt) = (t.sampler.wrap, t.sampler.wrap_t());
    let raw = |x: usize, y: usize| t.texels.get(y * t.width as usize + x).copied().unwrap_or(0);
    match f {
        Filter::Nearest => {
            let x = wrap_index(ws, floor_i32(u * w).saturating_add(off.0), t.width);
            let y = wrap_index(wt, floor_i32(v * h).saturating_add(off.1), t.height);
            raw(x, y)
        }
        Filter::Linear => {
            let fx = u * w - 0.5;
            let fy = v * h - 0.5;
            let (x0, y0) = (floor_i32(fx), floor_i32(fy));
            let ax = ((fx - x0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
            let ay = ((fy - y0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
            let (x0, y0) = (x0.saturating_add(off.0), y0.saturating_add(off.1));
            let x0w = wrap_index(ws, x0, t.width);
            let x1w = wrap_index(ws, x0.saturating_add(1), t.width);
            let y0w = wrap_index(wt, y0, t.height);
            let y1w = wrap_index(wt, y0.saturating_add(1), t.height);
            let top = lerp_texel(raw(x0w, y0w), raw(x1w, y0w), ax);
            let bot = lerp_texel(raw(x0w, y1w), raw(x1w, y1w), ax);
            lerp_texel(top, bot, ay)
        }
    }
}

/// Lambda when the derivatives are all zero or not numbers: the most magnified.
const LAMBDA_MIN: f32 = -1000.0;

impl<'a> TextureRef<'a> {
    /// Whether a sample depends on the level of detail (otherwise every lambda gives the
    /// same result and the derivatives need not be computed).
    #[inline(always)]
    pub fn needs_lod(&self) -> bool {
        let s = &self.sampler;
        s.min() != s.filter
            || (s.mip != MipFilter::None && (!self.mips.is_empty() || self.rgba_chain()))
    }

    /// Whether this is a float colour texture whose `rgba` holds levels below level 0.
    #[inline(always)]
    fn rgba_chain(&self) -> bool {
        match (self.depth, self.rgba) {
            (None, Some(c)) => c.len() > self.width as usize * self.height as usize,
            _ => false,
        }
    }

    /// Levels of a float colour texture's `rgba` (level 0, then levels 1, 2, ... back to
    /// back, each max(1, size >> i)): (levels held, start of level `want`, if held).
    fn rgba_levels(&self, len: usize, want: usize) -> (usize, Option<usize>) {
        let (mut w, mut h) = (self.width.max(1) as usize, self.height.max(1) as usize);
        let (mut n, mut at, mut found) = (0usize, 0usize, None);
        loop {
            let need = w * h;
            if at + need > len {
                break;
            }
            if n == want {
                found = Some(at);
            }
            at += need;
            n += 1;
            if w == 1 && h == 1 {
                break;
            }
            w = (w / 2).max(1);
            h = (h / 2).max(1);
        }
        (n.max(1), found)
    }

    /// Levels held (1 for depth and integer textures, which have no mip levels; a float colour
    /// texture: the levels its `rgba` holds).
    #[inline(always)]
    pub fn level_count(&self) -> usize {
        match (self.depth, self.rgba, self.ints) {
            (None, Some(c), _) => self.rgba_levels(c.len(), usize::MAX).0,
            (None, None, None) => 1 + self.mips.len(),
            _ => 1,
        }
    }

    /// The size of level `lod`, None outside 0..level_count().
    pub fn level_size(&self, lod: i32) -> Option<(u32, u32)> {
        if lod < 0 || lod as usize >= self.level_count() {
            return None;
        }
        let s = lod as u32;
        Some(((self.width >> s).max(1), (self.height >> s).max(1)))
    }

    /// Level `i` as a texture of its own (no further levels), None when it is absent or has
    /// fewer texels than its size needs.
    pub fn level(&self, i: usize) -> Option<TextureRef<'a>> {
        if let (None, Some(c)) = (self.depth, self.rgba) {
            let (w, h) = self.level_size(i.min(i32::MAX as usize) as i32)?;
            let at = self.rgba_levels(c.len(), i).1?;
            let level = c.get(at..at + w as usize * h as usize)?;
            return Some(TextureRef {
                faces: &[],
                mips: &[],
                width: w,
                height: h,
                rgba: Some(level),
                ..*self
            });
        }
        if i == 0 {
            return Some(TextureRef { mips: &[], ..*self });
        }
        let (w, h) = self.level_size(i.min(i32::MAX as usize) as i32)?;
        let texels = *self.mips.get(i - 1)?;
        if texels.len() < w as usize * h as usize {
            return None;
        }
        Some(TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            width: w,
            height: h,
            texels,
            depth: None,
            rgba: None,
            ints: None,
            sampler: self.sampler,
        })
    }

    /// Level `i` of an 8-bit texture in the form of [`TextureRef::pow2_repeat`] (the level
    /// [`Self::level`] gives, without building it), None when it is absent or not that form.
    #[inline(always)]
    pub(crate) fn pow2_level(&self, i: usize) -> Option<super::texture::Pow2<'a>> {
        if self.rgba.is_some() && self.depth.is_none() {
            return None;
        }
        if i == 0 {
            return self.pow2_repeat();
        }
        let (w, h) = self.level_size(i.min(i32::MAX as usize) as i32)?;
        TextureRef {
            width: w,
            height: h,
            texels: self.mips.get(i - 1)?,
            depth: None,
            rgba: None,
            ints: None,
            ..*self
        }
        .pow2_repeat()
    }

    /// Lambda of a sample from the derivatives of (u, v) along x and y: log2 of the larger of
    /// the two scaled derivative lengths (level 0's size scales them).
    pub fn lambda(&self, dudx: f32, dvdx: f32, dudy: f32, dvdy: f32) -> f32 {
        let (w, h) = (self.width as f32, self.height as f32);
        let (ax, bx, ay, by) = (dudx * w, dvdx * h, dudy * w, dvdy * h);
        let rho2 = (ax * ax + bx * bx).max(ay * ay + by * by);
        // log2(sqrt(rho2)) = log2(rho2) / 2, with llvmpipe's fast log2 (exponent plus the
        // mantissa's fraction, exact at powers of two and linear between them): the level
        // and weights llvmpipe's sampler takes.
        let l = 0.5 * fast_log2(rho2);
        if l >= LAMBDA_MIN {
            l
        } else {
            LAMBDA_MIN
        }
    }

    /// The sampler's bias and clamp applied to `lambda` (which already holds any shader bias).
    #[inline]
    fn lod(&self, lambda: f32) -> f32 {
        let s = &self.sampler;
        let l = lambda + s.lod_bias;
        let l = if l <= s.max_lod { l } else { s.max_lod };
        if l >= s.min_lod {
            l
        } else {
            s.min_lod
        }
    }

    /// The filtered (r, g, b, a) at (u, v) for a given lambda (before the sampler's bias and
    /// clamp): magnified at lambda <= 0, else minified through the mip filter.
    pub fn sample_lambda(&self, u: f32, v: f32, lambda: f32) -> [f32; 4] {
        self.sample_lambda_offset(u, v, lambda, (0, 0))
    }

    /// [`Self::sample_lambda`] with a texel offset.
    pub fn sample_lambda_offset(&self, u: f32, v: f32, lambda: f32, off: (i32, i32)) -> [f32; 4] {
        if self.rgba_chain() && self.sampler.mip != MipFilter::None {
            return self.rgba_lambda(u, v, lambda, off);
        }
        if self.is_float() {
            let (u, v) = (
                u + off.0 as f32 / self.width as f32,
                v + off.1 as f32 / self.height as f32,
            );
            let l = self.lod(lambda);
            let f = if l > 0.0 {
                self.sampler.min()
            } else {
                self.sampler.filter
            };
            let mut t = *self;
            t.sampler.filter = f;
            return t.sample(u, v);
        }
        unpack(self.texel_lambda(u, v, lambda, off))
    }

    /// [`Self::sample_lambda_offset`] of a float colour texture with mip levels: the level
    /// choice of [`Self::texel_lambda`], float weights between levels (unclamped results).
    fn rgba_lambda(&self, u: f32, v: f32, lambda: f32, off: (i32, i32)) -> [f32; 4] {
        let s = self.sampler;
        let l = self.lod(lambda);
        let at = |level: usize, f: Filter| match self.level(level) {
            Some(mut t) => {
                t.sampler.filter = f;
                t.sample(
                    u + off.0 as f32 / t.width as f32,
                    v + off.1 as f32 / t.height as f32,
                )
            }
            None => [0.0, 0.0, 0.0, 1.0],
        };
        if !(l > 0.0) {
            return at(0, s.filter);
        }
        let f = s.min();
        let q = (self.level_count() - 1) as f32;
        match s.mip {
            MipFilter::None => at(0, f),
            MipFilter::Nearest => at(nearest_level(l, q), f),
            MipFilter::Linear => {
                if l >= q {
                    return at(q as usize, f);
                }
                let d = libm::floorf(l);
                let w = l - d;
                let (a, b) = (at(d as usize, f), at(d as usize + 1, f));
                core::array::from_fn(|k| a[k] + (b[k] - a[k]) * w)
            }
        }
    }

    /// [`Self::sample_lambda_offset`] of an 8-bit texture before the conversion to floats.
    pub fn texel_lambda(&self, u: f32, v: f32, lambda: f32, off: (i32, i32)) -> u32 {
        let s = self.sampler;
        let l = self.lod(lambda);
        let at = |level: usize, f: Filter| match self.level(level) {
            Some(t) => texel_level(&t, f, u, v, off),
            None => 0xFF00_0000,
        };
        if !(l > 0.0) {
            return at(0, s.filter);
        }
        let f = s.min();
        let q = (self.level_count() - 1) as f32;
        match s.mip {
            MipFilter::None => at(0, f),
            MipFilter::Nearest => at(nearest_level(l, q), f),
            MipFilter::Linear => {
                if l >= q {
                    return at(q as usize, f);
                }
                let d = libm::floorf(l);
                let w = ((l - d) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
                let (a, b) = (at(d as usize, f), at(d as usize + 1, f));
                lerp_texel(a, b, w)
            }
        }
    }

    /// `texelFetch`: the texel (x, y) of level `lod` unfiltered; outside the level (or a level
    /// that does not exist) (0, 0, 0, 0), as llvmpipe returns.
    pub fn fetch(&self, x: i32, y: i32, lod: i32) -> [f32; 4] {
        // Offsets come added (texelFetchOffset); nothing wraps.
        let Some((w, h)) = self.level_size(lod) else {
            return [0.0; 4];
        };
        if x < 0 || y < 0 || x as u32 >= w || y as u32 >= h {
            return [0.0; 4];
        }
        let i = y as usize * w as usize + x as usize;
        if let Some(d) = self.depth {
            let z = d.get(i).copied().unwrap_or(0.0);
            return [z, z, z, 1.0];
        }
        if let Some(c) = self.rgba {
            let at = self.rgba_levels(c.len(), lod as usize).1.unwrap_or(0);
            return c.get(at + i).copied().unwrap_or([0.0; 4]);
        }
        match self.level(lod as usize) {
            Some(t) => unpack(t.texels.get(i).copied().unwrap_or(0)),
            None => [0.0; 4],
        }
    }
}

/// log2(x) approximated as llvmpipe's `lp_build_fast_log2` does: the unbiased exponent plus
/// the mantissa's fraction (m - 1 for x = 2^e * m, 1 <= m < 2). Zero, denormals and NaN give
/// [`LAMBDA_MIN`] or less (most magnified), infinity a huge value.
pub fn fast_log2(x: f32) -> f32 {
    if !(x >= f32::MIN_POSITIVE) {
        return 2.0 * LAMBDA_MIN;
    }
    let b = x.to_bits();
    let e = ((b >> 23) & 0xFF) as i32 - 127;
    let m = f32::from_bits((b & 0x007F_FFFF) | 0x3F80_0000);
    e as f32 + (m - 1.0)
}

/// The level a `*_MIPMAP_NEAREST` filter reads at a minifying `lod` (> 0, after the sampler's
/// bias and clamp) of a chain whose last level is `q`: `lod` rounded to the nearest integer,
/// ties to even, as llvmpipe does (`lp_build_iround`, `cvtps2dq` in the default rounding
/// mode), then clamped to the chain. GL's ceil(lod + 1/2) - 1 rounds every tie down; the two
/// differ at 1.5, 3.5, 5.5, ... (llvmpipe reads the level above), the project follows Mesa.
#[inline]
fn nearest_level(lod: f32, q: f32) -> usize {
    libm::roundevenf(lod).min(q) as usize
}

/// Per lane: the implicit lambda of a fragment-stage sample at (u, v), from the quad
/// derivatives. Coarse, as llvmpipe's per-quad level of detail: every lane of a quad takes the
/// derivatives at the quad's lower-left pixel (the x difference of the lower row, the y
/// difference of the left column). Inline: the interpreter's AVX2 copy gets the VEX forms.
#[inline(always)]
pub(super) fn quad_lambda(tex: &TextureRef, u: &Lanes, v: &Lanes) -> Lanes {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        quad_lambda_sse2(tex, u, v)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        quad_lambda_scalar(tex, u, v)
    }
}

/// [`quad_lambda`] quad by quad through [`TextureRef::lambda`].
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn quad_lambda_scalar(tex: &TextureRef, u: &Lanes, v: &Lanes) -> Lanes {
    let mut lambda = [0.0f32; LANES];
    // One lambda per quad (the differences `quad::ddx` and `quad::ddy` take at that lane),
    // given to its four lanes: a quarter of the work of a lambda per lane, the same values.
    for b in (0..LANES).step_by(8) {
        for c in [0, 2] {
            // The quad's lower-left lane: row 0 of the block, the quad's left column.
            let ll = b + c;
            let (dux, dvx) = (u[ll + 1] - u[ll], v[ll + 1] - v[ll]);
            let (duy, dvy) = (u[ll] - u[ll + 4], v[ll] - v[ll + 4]);
            let q = tex.lambda(dux, dvx, duy, dvy);
            for l in [ll, ll + 1, ll + 4, ll + 5] {
                lambda[l] = q;
            }
        }
    }
    lambda
}

/// [`quad_lambda`] in SSE2, the bits of [`TextureRef::lambda`]: a block of 8 lanes (two
/// quads, rows of 4) at a time, each quad's lambda in both of its lanes of a row, stored as
/// whole vectors (the sampler reads them back as vectors: no scalar stores to forward).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn quad_lambda_sse2(tex: &TextureRef, u: &Lanes, v: &Lanes) -> Lanes {
    use super::lanes::{quad, set_quad};
    use safe_arch::*;
    const _: () = assert!(LANES.is_multiple_of(8));
    let (w, h) = (
        set_splat_m128(tex.width as f32),
        set_splat_m128(tex.height as f32),
    );
    let mut lambda = [0.0f32; LANES];
    for k in (0..LANES / 4).step_by(2) {
        // Per row-0 lane: its quad's x and y differences (lanes 0, 1 the first quad's).
        let diffs = |x: &Lanes| {
            let (r0, r1) = (m128::from(quad(x, k)), m128::from(quad(x, k + 1)));
            let left = shuffle_abi_f32_all_m128::<0b10_10_00_00>(r0, r0);
            let right = shuffle_abi_f32_all_m128::<0b11_11_01_01>(r0, r0);
            let down = shuffle_abi_f32_all_m128::<0b10_10_00_00>(r1, r1);
            (sub_m128(right, left), sub_m128(left, down))
        };
        let ((dux, duy), (dvx, dvy)) = (diffs(u), diffs(v));
        let (ax, bx, ay, by) = (
            mul_m128(dux, w),
            mul_m128(dvx, h),
            mul_m128(duy, w),
            mul_m128(dvy, h),
        );
        let rx = add_m128(mul_m128(ax, ax), mul_m128(bx, bx));
        let ry = add_m128(mul_m128(ay, ay), mul_m128(by, by));
        // f32::max: MAXPS, except that a NaN second operand gives the first.
        let m = max_m128(rx, ry);
        let ry_nan = cmp_unord_mask_m128(ry, ry);
        let rho2 = bitor_m128(bitand_m128(ry_nan, rx), bitandnot_m128(ry_nan, m));
        let l = mul_m128(set_splat_m128(0.5), fast_log2_m128(rho2));
        // l >= LAMBDA_MIN ? l : LAMBDA_MIN.
        let keep = cmp_ge_mask_m128(l, set_splat_m128(LAMBDA_MIN));
        let q = bitor_m128(
            bitand_m128(keep, l),
            bitandnot_m128(keep, set_splat_m128(LAMBDA_MIN)),
        );
        let q: [f32; 4] = q.into();
        set_quad(&mut lambda, k, q);
        set_quad(&mut lambda, k + 1, q);
    }
    lambda
}

/// [`fast_log2`] of four lanes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn fast_log2_m128(x: safe_arch::m128) -> safe_arch::m128 {
    use safe_arch::*;
    let b = cast_to_m128i_from_m128(x);
    let e = sub_i32_m128i(
        bitand_m128i(shr_imm_u32_m128i::<23>(b), set_splat_i32_m128i(0xFF)),
        set_splat_i32_m128i(127),
    );
    let m = cast_to_m128_from_m128i(bitor_m128i(
        bitand_m128i(b, set_splat_i32_m128i(0x007F_FFFF)),
        set_splat_i32_m128i(0x3F80_0000),
    ));
    let r = add_m128(
        convert_to_m128_from_i32_m128i(e),
        sub_m128(m, set_splat_m128(1.0)),
    );
    // Not a normal positive number (zero, denormal, negative, NaN): 2 * LAMBDA_MIN.
    let ok = cmp_ge_mask_m128(x, set_splat_m128(f32::MIN_POSITIVE));
    bitor_m128(
        bitand_m128(ok, r),
        bitandnot_m128(ok, set_splat_m128(2.0 * LAMBDA_MIN)),
    )
}

/// Most distinct (level, filter) sources [`texel_lambda_lanes`] samples all lanes of; a lane
/// group that needs more (lambda varying wildly within 32 fragments) samples lane by lane.
const SOURCES_MAX: usize = 6;

/// A lane's texel source: mip level `k >> 1`, filtered linear when `k & 1`.
#[inline(always)]
fn source_key(level: u32, f: Filter) -> u32 {
    (level << 1) | (f == Filter::Linear) as u32
}

/// Every lane's (u, v).
type Uv<'t> = (&'t Lanes, &'t Lanes);

/// Every lane's texel of source `key` (lanes that do not use it get some texel too).
#[inline(always)]
fn source_lanes(tex: &TextureRef, key: u32, (u, v): Uv, wide: bool) -> [u32; LANES] {
    let (level, filter) = ((key >> 1) as usize, key_filter(key));
    // A power-of-two repeating level without building its `TextureRef`.
    if let Some(t) = tex
        .pow2_level(level)
        .and_then(|p| p.texel_lanes(filter, u, v, wide))
    {
        return t;
    }
    match tex.level(level) {
        Some(mut t) => {
            t.sampler.filter = filter;
            t.texel_lanes_in(u, v, wide)
        }
        None => [0xFF00_0000; LANES],
    }
}

/// The filter of source `key`.
#[inline(always)]
fn key_filter(key: u32) -> Filter {
    if key & 1 == 1 {
        Filter::Linear
    } else {
        Filter::Nearest
    }
}

/// [`TextureRef::texel_lambda`] (no offset) of an 8-bit texture for every lane at once, the
/// same bits lane by lane: each lane's level choice (one or two (level, filter) sources and
/// the 8-bit weight between them, an unblended lane as its source twice at weight 0, which
/// `lerp_texel` returns unchanged), then each distinct source sampled for all lanes through
/// the SIMD `texel_lanes` (the group's lanes mostly share one or two levels), each lane
/// picking its two texels, and one blend of all lanes. Inline: inside the interpreter's AVX2
/// trampoline (see `simd`) its lane loops and `texel_lanes` become 8 lanes per instruction.
#[inline(always)]
pub(super) fn texel_lambda_lanes(
    tex: &TextureRef,
    u: &Lanes,
    v: &Lanes,
    lambda: &Lanes,
) -> [u32; LANES] {
    // Keys up to 2 * 31 + 1 fit the 64-bit set of used sources of `texel_sources`.
    if tex.level_count() > 32 {
        return texel_per_lane(tex, u, v, lambda);
    }
    let (ka, kb, w) = level_choice(tex, lambda);
    texel_sources(tex, (u, v), lambda, &ka, &kb, &w, false)
}

/// Quads per lane group: a block of 8 lanes is two rows of 4, two quads.
const QUADS: usize = LANES / 4;

/// The lower-left lane of quad `j` (row 0 of its block of 8, the quad's left column), where
/// [`quad_lambda`] takes the derivatives.
#[inline(always)]
const fn quad_lane(j: usize) -> usize {
    (j / 2) * 8 + (j % 2) * 2
}

/// Each lane's copy of its quad's value.
#[inline(always)]
fn spread(q: &[u32; QUADS]) -> [u32; LANES] {
    core::array::from_fn(|l| q[(l / 8) * 2 + (l % 4) / 2])
}

/// [`texel_lambda_lanes`] for a lambda shared by the four lanes of each quad (that of
/// [`quad_lambda`]): the level choice is a function of lambda alone, so it is made once per
/// quad (a quarter of the lanes) and spread, the same bits as lane by lane. `wide`: the
/// caller runs in the AVX2 trampoline (the blends' 8-lane form, see `texel::bilerp`).
#[inline(always)]
pub(super) fn texel_quad_lanes(
    tex: &TextureRef,
    u: &Lanes,
    v: &Lanes,
    lambda: &Lanes,
    wide: bool,
) -> [u32; LANES] {
    if tex.level_count() > 32 {
        return texel_per_lane(tex, u, v, lambda);
    }
    let lq: [f32; QUADS] = core::array::from_fn(|j| lambda[quad_lane(j)]);
    let (ka, kb, w) = level_choice(tex, &lq);
    if let Some((k0, k1)) = one_pair(&ka, &kb) {
        return texel_pair(tex, (u, v), k0, k1, &spread(&w), wide);
    }
    let (ka, kb, w) = (spread(&ka), spread(&kb), spread(&w));
    texel_sources(tex, (u, v), lambda, &ka, &kb, &w, wide)
}

/// Lane by lane through [`TextureRef::texel_lambda`].
#[inline(always)]
fn texel_per_lane(tex: &TextureRef, u: &Lanes, v: &Lanes, lambda: &Lanes) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    for l in 0..LANES {
        out[l] = tex.texel_lambda(u[l], v[l], lambda[l], (0, 0));
    }
    out
}

/// Per lambda (of a texture of at most 32 levels): its two source keys and the weight
/// between them, branch-free (the loops vectorize): magnified at lod <= 0 (or NaN), else per
/// the mip filter.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn level_choice<const N: usize>(
    tex: &TextureRef,
    lambda: &[f32; N],
) -> ([u32; N], [u32; N], [u32; N]) {
    let s = tex.sampler;
    let levels = tex.level_count();
    let q = (levels - 1) as f32;
    let f = s.min();
    let qi = levels as u32 - 1;
    let (k_mag, lin) = (source_key(0, s.filter), (f == Filter::Linear) as u32);
    let mut ka = [0u32; N];
    let mut kb = [0u32; N];
    let mut w = [0u32; N];
    match s.mip {
        MipFilter::Linear => {
            for l in 0..N {
                let lod = tex.lod(lambda[l]);
                let mag = !(lod > 0.0);
                let top = lod >= q;
                let inner = !(mag | top);
                // 0 < lod < q <= 31 when inner: `floor_small` is floor there.
                let lc = if inner { lod } else { 0.0 };
                let d = floor_small(lc) as u32;
                // In [0.5, 256.5): the clamp to [0, 256] is a min, the truncation a floor.
                let wl = floor_small(((lc - d as f32) * 256.0 + 0.5).min(256.0)) as u32;
                let d = if top { qi } else { d };
                let e = if top { qi } else { d + 1 };
                ka[l] = if mag { k_mag } else { (d << 1) | lin };
                kb[l] = if mag { k_mag } else { (e << 1) | lin };
                w[l] = if inner { wl } else { 0 };
            }
        }
        MipFilter::Nearest => {
            for l in 0..N {
                let lod = tex.lod(lambda[l]);
                let mag = !(lod > 0.0);
                // roundeven(min(lod, q)) = min(roundeven(lod), q) (q is whole): 0 < x <= 31,
                // where adding 1.5 * 2^23 rounds to nearest even (see `nearest_level`).
                let x = if mag { 0.0 } else { lod.min(q) };
                let n = ((x + 12_582_912.0).to_bits() as i32).wrapping_sub(0x4B40_0000) as u32;
                let k = if mag { k_mag } else { (n << 1) | lin };
                ka[l] = k;
                kb[l] = k;
            }
        }
        MipFilter::None => {
            for l in 0..N {
                let mag = !(tex.lod(lambda[l]) > 0.0);
                let k = if mag { k_mag } else { lin };
                ka[l] = k;
                kb[l] = k;
            }
        }
    }
    (ka, kb, w)
}

/// The pair of sources every entry of `ka`, `kb` shares, if they do.
#[inline(always)]
fn one_pair<const N: usize>(ka: &[u32; N], kb: &[u32; N]) -> Option<(u32, u32)> {
    let (k0, k1) = (ka[0], kb[0]);
    let mut differ = 0u32;
    for l in 0..N {
        differ |= (ka[l] ^ k0) | (kb[l] ^ k1);
    }
    (differ == 0).then_some((k0, k1))
}

/// Every lane on sources `k0` and `k1` at its weight: one or two passes and no per-lane
/// choice. One source needs no blend: `lerp_texel(a, a, w)` is a for every weight. Two
/// bilinear power-of-two repeating levels (the trilinear floor) blend in one pass
/// (`texel::trilerp`), the bits of the two passes and `lerp_lanes`.
#[inline(always)]
fn texel_pair(
    tex: &TextureRef,
    (u, v): Uv,
    k0: u32,
    k1: u32,
    w: &[u32; LANES],
    wide: bool,
) -> [u32; LANES] {
    use super::{texel::trilerp, texture::Bilinear};
    if k0 == k1 {
        return source_lanes(tex, k0, (u, v), wide);
    }
    // A function, not a closure: LLVM left the closure out of line, outside the trampoline.
    #[inline(always)]
    fn bilinear<'a>(
        tex: &TextureRef<'a>,
        k: u32,
        (u, v): (&Lanes, &Lanes),
        wide: bool,
    ) -> Option<Bilinear<'a>> {
        let level = tex.pow2_level((k >> 1) as usize)?;
        if k & 1 == 1 {
            level.bilinear(u, v, wide)
        } else {
            None
        }
    }
    let (a, b) = (
        bilinear(tex, k0, (u, v), wide),
        bilinear(tex, k1, (u, v), wide),
    );
    if let (Some(a), Some(b)) = (a, b) {
        let (ta, tb) = (&a.taps, &b.taps);
        return match (a.edge, b.edge) {
            (false, false) if wide => trilerp(a.pair_masked(), ta, b.pair_masked(), tb, w, true),
            (false, false) => trilerp(a.pair_next(), ta, b.pair_next(), tb, w, false),
            (false, true) => trilerp(a.pair_next(), ta, b.pair_wrapped(), tb, w, wide),
            (true, false) => trilerp(a.pair_wrapped(), ta, b.pair_next(), tb, w, wide),
            (true, true) => trilerp(a.pair_wrapped(), ta, b.pair_wrapped(), tb, w, wide),
        };
    }
    super::texel::lerp_lanes(
        &source_lanes(tex, k0, (u, v), wide),
        &source_lanes(tex, k1, (u, v), wide),
        w,
    )
}

/// The lanes' texels from their sources `ka`, `kb` at weights `w` (keys below 64).
#[inline(always)]
fn texel_sources(
    tex: &TextureRef,
    (u, v): Uv,
    lambda: &Lanes,
    ka: &[u32; LANES],
    kb: &[u32; LANES],
    w: &[u32; LANES],
    wide: bool,
) -> [u32; LANES] {
    // Every lane on the same pair of sources (most groups: magnified, or one level pair).
    if let Some((k0, k1)) = one_pair(ka, kb) {
        return texel_pair(tex, (u, v), k0, k1, w, wide);
    }
    // The distinct sources, as a set of keys.
    let mut used = 0u64;
    for l in 0..LANES {
        used |= (1u64 << (ka[l] & 63)) | (1u64 << (kb[l] & 63));
    }
    if used.count_ones() as usize > SOURCES_MAX {
        return texel_per_lane(tex, u, v, lambda);
    }
    let (mut a, mut b) = ([0u32; LANES], [0u32; LANES]);
    while used != 0 {
        let k = used.trailing_zeros();
        used &= used - 1;
        let t = source_lanes(tex, k, (u, v), wide);
        for l in 0..LANES {
            a[l] = if ka[l] == k { t[l] } else { a[l] };
            b[l] = if kb[l] == k { t[l] } else { b[l] };
        }
    }
    super::texel::lerp_lanes(&a, &b, w)
}

/// Samples every lane at its own lambda, moved by `off` texels.
pub(super) fn sample_lambda_lanes(
    tex: &TextureRef,
    u: &Lanes,
    v: &Lanes,
    lambda: &Lanes,
    off: (i32, i32),
    out: &mut Vec4x,
) {
    if off == (0, 0) && !tex.is_float() {
        super::texel::unpack_lanes(&texel_lambda_lanes(tex, u, v, lambda), out);
        return;
    }
    for l in 0..LANES {
        let c = tex.sample_lambda_offset(u[l], v[l], lambda[l], off);
        for k in 0..4 {
            out[k][l] = c[k];
        }
    }
}

/// The texture opcodes (SAMPLE_LOD .. TEXSIZE) for every lane into `out`; registers `a`, `b`
/// are the decoded operands. An unbound unit reads as GL's incomplete texture: opaque black
/// samples and fetches, size 0.
pub(super) fn texture_op(
    d: &DInst,
    stage: Stage,
    tex: Option<&TextureRef>,
    r: &[Vec4x],
    a: usize,
    b: usize,
    out: &mut Vec4x,
) {
    let reg = |i: usize| r.get(i & REG_MASK);
    let (Some(ra), Some(rb)) = (reg(a), reg(b)) else {
        return;
    };
    // A cube under a 2D op (except textureSize) samples as incomplete, an array too.
    let Some(tex) = tex.filter(|t| (!t.is_cube() || d.op == Op::TexSize) && t.layers.is_empty())
    else {
        if d.op != Op::TexSize {
            out[3] = [1.0; LANES];
        }
        return;
    };
    if let (Some(ints), false) = (tex.int_texels(), d.op == Op::TexSize) {
        super::itex::int_texture_op(d, tex, ints, r, a, b, out);
        return;
    }
    let off = offset_of(d.y);
    let (u, v) = (&ra[0], &ra[1]);
    match d.op {
        Op::TexSize => {
            for l in 0..LANES {
                let (w, h) = tex.level_size(ra[0][l] as i32).unwrap_or((0, 0));
                out[0][l] = w as f32;
                out[1][l] = h as f32;
            }
        }
        Op::TexFetch => {
            for l in 0..LANES {
                let x = (u[l] as i32).saturating_add(off.0);
                let y = (v[l] as i32).saturating_add(off.1);
                let c = tex.fetch(x, y, rb[0][l] as i32);
                for k in 0..4 {
                    out[k][l] = c[k];
                }
            }
        }
        Op::SampleLod => sample_lambda_lanes(tex, u, v, &rb[0], off, out),
        Op::SampleGrad => {
            let Some(ry) = reg(b + 1) else { return };
            let mut lambda = [0.0f32; LANES];
            for l in 0..LANES {
                lambda[l] = tex.lambda(rb[0][l], rb[1][l], ry[0][l], ry[1][l]);
            }
            sample_lambda_lanes(tex, u, v, &lambda, off, out)
        }
        _ => {
            // SAMPLE_BIAS: the implicit level of detail (level 0's in the vertex stage).
            let mut lambda = if stage == Stage::Fragment && tex.needs_lod() {
                quad_lambda(tex, u, v)
            } else {
                [0.0; LANES]
            };
            if d.n == 1 {
                for l in 0..LANES {
                    lambda[l] += rb[0][l];
                }
            }
            sample_lambda_lanes(tex, u, v, &lambda, off, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::texture::{SamplerState, Wrap};
    use super::*;

    const L0: [u32; 16] = [0xFF00_0010; 16];
    const L1: [u32; 4] = [0xFF00_0020; 4];
    const L2: [u32; 1] = [0xFF00_0040; 1];
    const MIPS: [&[u32]; 2] = [&L1, &L2];

    fn tex(sampler: SamplerState) -> TextureRef<'static> {
        TextureRef {
            layers: &[],
            faces: &[],
            mips: &MIPS,
            width: 4,
            height: 4,
            texels: &L0,
            sampler,
            depth: None,
            rgba: None,
            ints: None,
        }
    }

    fn mip(mip: MipFilter) -> SamplerState {
        SamplerState {
            mip,
            ..SamplerState::new(Filter::Nearest, Wrap::Repeat)
        }
    }

    /// A xorshift32 generator of test inputs.
    fn xorshift(mut s: u32) -> impl FnMut() -> u32 {
        move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        }
    }

    #[test]
    fn lambda_is_log2_of_the_longer_scaled_derivative() {
        let t = tex(mip(MipFilter::Nearest));
        // 4 texels across: a derivative of 1/4 is one texel per pixel.
        assert_eq!(t.lambda(0.25, 0.0, 0.0, 0.25), 0.0);
        assert_eq!(t.lambda(0.5, 0.0, 0.0, 0.25), 1.0);
        // The y derivative's length sqrt(3^2 + 4^2) = 5 texels wins over x's 1: llvmpipe's
        // fast log2 of 25 is 4 + (25/16 - 1) = 4.5625, halved.
        assert_eq!(t.lambda(0.25, 0.0, 0.75, 1.0), 0.5 * 4.5625);
        // No derivative at all: the most magnified.
        assert_eq!(t.lambda(0.0, 0.0, 0.0, 0.0), LAMBDA_MIN);
        assert_eq!(t.lambda(f32::NAN, 0.0, 0.0, 0.0), LAMBDA_MIN);
        assert_eq!(fast_log2(3.0), 1.5);
        assert_eq!(fast_log2(0.25), -2.0);
    }

    #[test]
    fn nearest_mip_level_choice() {
        let t = tex(mip(MipFilter::Nearest));
        for (lambda, want) in [
            (-1.0, 0x10),
            (0.4, 0x10),
            (0.5, 0x10),
            (0.6, 0x20),
            (1.49, 0x20),
            (1.5, 0x40),
            (1.51, 0x40),
            (9.0, 0x40),
        ] {
            assert_eq!(
                t.texel_lambda(0.3, 0.6, lambda, (0, 0)),
                0xFF00_0000 | want,
                "{lambda}"
            );
        }
    }

    #[test]
    fn nearest_mip_ties_round_to_even_like_llvmpipe() {
        // A 16x16 chain of five flat levels, level k holding 0x10 + k.
        static L0: [u32; 256] = [0xFF00_0010; 256];
        static L1: [u32; 64] = [0xFF00_0011; 64];
        static L2: [u32; 16] = [0xFF00_0012; 16];
        static L3: [u32; 4] = [0xFF00_0013; 4];
        static L4: [u32; 1] = [0xFF00_0014; 1];
        static MIPS: [&[u32]; 4] = [&L1, &L2, &L3, &L4];
        let t = TextureRef {
            mips: &MIPS,
            width: 16,
            height: 16,
            texels: &L0,
            ..tex(mip(MipFilter::Nearest))
        };
        // Ties go to the even level (GL's ceil(lod + 1/2) - 1 would give 0, 1, 2, 3).
        for (lod, level) in [
            (0.5, 0),
            (1.5, 2),
            (2.5, 2),
            (3.5, 4),
            (0.5001, 1),
            (1.4999, 1),
            (2.5001, 3),
            (3.4999, 3),
            (4.5, 4),
        ] {
            let want = 0xFF00_0010 + level;
            assert_eq!(t.texel_lambda(0.3, 0.6, lod, (0, 0)), want, "lod {lod}");
            let mut lanes = [0.0f32; LANES];
            lanes[LANES - 1] = lod;
            let got = texel_lambda_lanes(&t, &[0.3; LANES], &[0.6; LANES], &lanes);
            assert_eq!(got[LANES - 1], want, "lanes, lod {lod}");
        }
        // A float chain (4x4, 2x2, 1x1, level k holding k + 1) rounds the same way.
        let mut chain = [[1.0f32, 0.0, 0.0, 1.0]; 21];
        for (i, texel) in chain.iter_mut().enumerate().skip(16) {
            texel[0] = if i < 20 { 2.0 } else { 3.0 };
        }
        let f = TextureRef {
            mips: &[],
            width: 4,
            height: 4,
            texels: &[],
            rgba: Some(&chain),
            ..tex(mip(MipFilter::Nearest))
        };
        assert_eq!(f.level_count(), 3);
        for (lod, red) in [(0.5, 1.0), (1.4999, 2.0), (1.5, 3.0), (2.5, 3.0)] {
            assert_eq!(f.sample_lambda(0.3, 0.6, lod)[0], red, "float, lod {lod}");
        }
    }

    #[test]
    fn linear_mip_blend_weights_and_lod_clamps() {
        let t = tex(mip(MipFilter::Linear));
        // Levels 1 and 2 at weight 64/256: (32 * 192 + 64 * 64 + 128) >> 8 = 40.
        assert_eq!(t.texel_lambda(0.3, 0.6, 1.25, (0, 0)), 0xFF00_0028);
        assert_eq!(t.texel_lambda(0.3, 0.6, 2.0, (0, 0)), 0xFF00_0040);
        assert_eq!(t.texel_lambda(0.3, 0.6, -0.5, (0, 0)), 0xFF00_0010);
        let mut s = mip(MipFilter::Linear);
        s.lod_bias = 1.0;
        assert_eq!(tex(s).texel_lambda(0.3, 0.6, 0.0, (0, 0)), 0xFF00_0020);
        let mut s = mip(MipFilter::Linear);
        s.max_lod = 0.5;
        // Levels 0 and 1 at weight 128: (16 * 128 + 32 * 128 + 128) >> 8 = 24.
        assert_eq!(tex(s).texel_lambda(0.3, 0.6, 3.0, (0, 0)), 0xFF00_0018);
        let mut s = mip(MipFilter::Linear);
        s.min_lod = 2.0;
        assert_eq!(tex(s).texel_lambda(0.3, 0.6, -5.0, (0, 0)), 0xFF00_0040);
        // MipFilter::None: level 0 only, whatever lambda.
        assert_eq!(
            tex(mip(MipFilter::None)).texel_lambda(0.3, 0.6, 5.0, (0, 0)),
            0xFF00_0010
        );
    }

    #[test]
    fn magnification_and_minification_filters_switch_at_zero() {
        let texels = [0xFF00_0000u32, 0xFF00_00FF];
        let t = TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            width: 2,
            height: 1,
            texels: &texels,
            sampler: SamplerState {
                min_filter: Some(Filter::Linear),
                ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
            },
            depth: None,
            rgba: None,
            ints: None,
        };
        assert!(t.needs_lod());
        // u = 0.5 is the boundary of the two texels: nearest takes the right one, linear
        // blends them at weight 128: (255 * 128 + 128) >> 8 = 128.
        assert_eq!(t.texel_lambda(0.5, 0.5, 0.0, (0, 0)), 0xFF00_00FF);
        assert_eq!(t.texel_lambda(0.5, 0.5, 0.01, (0, 0)), 0xFF00_0080);
        // One filter and no levels: the level of detail does not matter.
        let plain = TextureRef {
            layers: &[],
            sampler: SamplerState::new(Filter::Linear, Wrap::Repeat),
            ..t
        };
        assert!(!plain.needs_lod());
    }

    #[test]
    fn a_float_chain_is_sampled_through_the_mip_filter() {
        // 2x2 level 0 then the 1x1 level 1, back to back (a float target's chain).
        let chain: [[f32; 4]; 5] = [
            [1.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [5.0, 2.0, -1.0, 1.0],
        ];
        let t = TextureRef {
            mips: &[],
            width: 2,
            height: 2,
            texels: &[],
            rgba: Some(&chain),
            ..tex(mip(MipFilter::Nearest))
        };
        assert_eq!(t.level_count(), 2);
        assert!(t.needs_lod());
        assert_eq!(t.sample_lambda(0.5, 0.5, 0.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(t.sample_lambda(0.5, 0.5, 1.0), [5.0, 2.0, -1.0, 1.0]);
        assert_eq!(t.fetch(0, 0, 1), [5.0, 2.0, -1.0, 1.0]);
        assert_eq!(t.level_size(1), Some((1, 1)));
        // Linear between the levels, float weights.
        let lin = TextureRef {
            sampler: mip(MipFilter::Linear),
            ..t
        };
        assert_eq!(lin.sample_lambda(0.5, 0.5, 0.5), [3.0, 1.0, -0.5, 1.0]);
        // Level 0 alone (no chain): one level, the mip filter changes nothing.
        let one = TextureRef {
            rgba: chain.get(..4),
            ..t
        };
        assert_eq!(one.level_count(), 1);
        assert_eq!(one.sample_lambda(0.5, 0.5, 1.0), [1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn wrap_modes_on_integer_texel_indexes() {
        let w = |m, i, n| wrap_index(m, i, n);
        for (i, want) in [
            (-1, 0),
            (0, 0),
            (3, 3),
            (4, 3),
            (5, 2),
            (7, 0),
            (8, 0),
            (-5, 3),
        ] {
            assert_eq!(w(Wrap::MirroredRepeat, i, 4), want, "mirror {i}");
        }
        assert_eq!(w(Wrap::ClampToEdge, -3, 4), 0);
        assert_eq!(w(Wrap::ClampToEdge, 9, 4), 3);
        assert_eq!(w(Wrap::Repeat, -1, 3), 2);
        assert_eq!(w(Wrap::Repeat, -1, 4), 3);
        assert_eq!(
            w(Wrap::MirroredRepeat, i32::MIN, 4),
            w(Wrap::MirroredRepeat, 0, 4)
        );
    }

    #[test]
    fn fetch_sizes_and_offsets() {
        let t = tex(mip(MipFilter::Linear));
        assert_eq!(t.level_size(0), Some((4, 4)));
        assert_eq!(t.level_size(2), Some((1, 1)));
        assert_eq!(t.level_size(3), None);
        assert_eq!(t.level_size(-1), None);
        assert_eq!(t.fetch(1, 1, 1), unpack(0xFF00_0020));
        assert_eq!(t.fetch(2, 0, 1), [0.0; 4]);
        assert_eq!(t.fetch(0, 0, 7), [0.0; 4]);
        assert_eq!(t.fetch(-1, 0, 0), [0.0; 4]);
        // A 5x3 texture's level 1 is 2x1, level 2 1x1.
        let odd = TextureRef {
            layers: &[],
            width: 5,
            height: 3,
            mips: &[&[1, 2], &[3]],
            texels: &[0; 15],
            ..t
        };
        assert_eq!(odd.level_size(1), Some((2, 1)));
        assert_eq!(odd.level_size(2), Some((1, 1)));
        // A short level reads as absent (opaque black), never out of bounds.
        let short = TextureRef {
            layers: &[],
            faces: &[],
            mips: &[&[1]],
            ..odd
        };
        assert!(short.level(1).is_none());
        assert_eq!(short.texel_lambda(0.5, 0.5, 1.0, (0, 0)), 0xFF00_0000);
        for x in -8..=7 {
            for y in -8..=7 {
                assert_eq!(offset_of(offset_code(x, y) as u8), (x, y));
            }
        }
        assert_eq!(offset_code(0, 0), 0);
    }

    #[test]
    fn offsets_move_by_whole_texels() {
        let texels: [u32; 4] = [1, 2, 3, 4];
        let t = TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            width: 4,
            height: 1,
            texels: &texels,
            sampler: SamplerState::new(Filter::Nearest, Wrap::Repeat),
            depth: None,
            rgba: None,
            ints: None,
        };
        let at = |u: f32, off: i32| texel_level(&t, Filter::Nearest, u, 0.5, (off, 0));
        assert_eq!(at(0.1, 0), 1);
        assert_eq!(at(0.1, 1), 2);
        assert_eq!(at(0.1, -1), 4);
        assert_eq!(at(0.9, 7), 4 - 1);
    }

    /// `texel_lambda_lanes` gives every lane the bits of the per-lane `texel_lambda`: full and
    /// short chains, power-of-two and other sizes, every filter, mip filter and wrap mode,
    /// bias and clamps, one lambda for the whole group (every lane on the same one or two
    /// sources), lambdas shared by a few levels (the grouped path) or scattered over all of
    /// them (the lane-by-lane fallback), and NaN, infinite and huge values.
    #[test]
    fn texel_lambda_lanes_matches_texel_lambda() {
        let mut next = xorshift(0x2545_F491u32);
        let mut store = [0u32; 64 * 64 * 2];
        for t in store.iter_mut() {
            *t = next();
        }
        // Level i of a w x h chain starts at offset i * 4096 (room for every level).
        let chain = |w: u32, h: u32, store: &'static [u32]| {
            let mut levels: std::vec::Vec<&'static [u32]> = std::vec::Vec::new();
            let (mut lw, mut lh, mut at) = (w, h, 0usize);
            while lw > 1 || lh > 1 {
                lw = (lw / 2).max(1);
                lh = (lh / 2).max(1);
                at += 97;
                levels.push(&store[at..at + (lw * lh) as usize]);
            }
            levels
        };
        let store: &'static [u32] = std::boxed::Box::leak(std::boxed::Box::new(store));
        let specials = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            0.5,
            1.0,
            2.0,
            1.5,
            LAMBDA_MIN,
            1e30,
            -1e30,
        ];
        for (w, h) in [(64u32, 64u32), (16, 4), (12, 8), (1, 1), (5, 3)] {
            let full: &'static [&'static [u32]] = std::vec::Vec::leak(chain(w, h, store));
            // A chain missing its last levels, and one whose level 1 is short (absent).
            let cut = &full[..full.len() / 2];
            let short: &'static [&'static [u32]] = std::vec::Vec::leak(
                [&store[..1]]
                    .into_iter()
                    .chain(full.iter().copied().skip(1))
                    .collect(),
            );
            for mips in [full, cut, short] {
                for (mag, min) in [
                    (Filter::Linear, Filter::Linear),
                    (Filter::Nearest, Filter::Linear),
                    (Filter::Linear, Filter::Nearest),
                    (Filter::Nearest, Filter::Nearest),
                ] {
                    for mipf in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear] {
                        for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat] {
                            let mut sampler = SamplerState {
                                min_filter: Some(min),
                                mip: mipf,
                                ..SamplerState::new(mag, wrap)
                            };
                            match next() % 4 {
                                0 => sampler.lod_bias = 0.75,
                                1 => sampler.max_lod = 1.25,
                                2 => sampler.min_lod = 0.5,
                                _ => {}
                            }
                            let t = TextureRef {
                                mips,
                                width: w,
                                height: h,
                                texels: store,
                                sampler,
                                ..tex(sampler)
                            };
                            for round in 0..24u32 {
                                let mut u = [0.0f32; LANES];
                                let mut v = [0.0f32; LANES];
                                let mut lambda = [0.0f32; LANES];
                                let base = (next() % 1200) as f32 / 100.0 - 2.0;
                                for l in 0..LANES {
                                    let r = next();
                                    u[l] = ((r & 0xFFFF) as f32 / 8192.0) - 3.0;
                                    v[l] = ((r >> 16) as f32 / 16384.0) - 1.0;
                                    lambda[l] = match round % 3 {
                                        // Near one value: one or two levels for the group.
                                        0 => base + (l / 4) as f32 * 0.01,
                                        // Scattered over every level: the fallback.
                                        1 => (next() % 1400) as f32 / 100.0 - 2.0,
                                        _ => specials[(l + round as usize) % specials.len()],
                                    };
                                    if round % 8 == 7 {
                                        // One lambda for the group: one or two sources
                                        // for every lane (the uniform path).
                                        lambda[l] = base;
                                    }
                                    if round % 5 == 4 {
                                        u[l] = specials[(l * 7) % specials.len()];
                                    }
                                }
                                let got = texel_lambda_lanes(&t, &u, &v, &lambda);
                                for l in 0..LANES {
                                    let want = t.texel_lambda(u[l], v[l], lambda[l], (0, 0));
                                    assert_eq!(
                                        got[l], want,
                                        "{w}x{h} {} levels {sampler:?} lane {l} at ({}, {}) lambda {}",
                                        mips.len(),
                                        u[l],
                                        v[l],
                                        lambda[l]
                                    );
                                }
                                let mut c = [[0.0f32; LANES]; 4];
                                sample_lambda_lanes(&t, &u, &v, &lambda, (0, 0), &mut c);
                                for l in 0..LANES {
                                    let want = t.sample_lambda(u[l], v[l], lambda[l]);
                                    for k in 0..4 {
                                        assert_eq!(c[k][l].to_bits(), want[k].to_bits());
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The SSE2 `quad_lambda` gives the scalar one's bits: random coordinates at every scale,
    /// and NaN, infinite, zero, denormal and equal values (a zero or NaN derivative).
    #[test]
    fn quad_lambda_matches_the_scalar_lambda() {
        let mut next = xorshift(0x9E37_79B9u32);
        let specials = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1e-40,
            1e30,
            -1e30,
            0.5,
        ];
        for (w, h) in [(4u32, 4u32), (64, 16), (1, 1), (5, 3), (16384, 16384)] {
            let t = TextureRef {
                width: w,
                height: h,
                ..tex(mip(MipFilter::Linear))
            };
            for round in 0..400u32 {
                let mut u = [0.0f32; LANES];
                let mut v = [0.0f32; LANES];
                let scale = f32::from_bits(0x3000_0000 + (next() % 0x1400_0000));
                for l in 0..LANES {
                    u[l] = (next() as f32 / u32::MAX as f32 - 0.5) * scale;
                    v[l] = (next() as f32 / u32::MAX as f32 - 0.5) * scale;
                    match round % 4 {
                        // Flat in u, or in both: zero derivatives.
                        1 => u[l] = 0.25,
                        2 => (u[l], v[l]) = (0.5, 0.5),
                        3 if next() % 3 == 0 => u[l] = specials[next() as usize % specials.len()],
                        _ => {}
                    }
                }
                let (got, want) = (quad_lambda(&t, &u, &v), quad_lambda_scalar(&t, &u, &v));
                for l in 0..LANES {
                    assert_eq!(
                        got[l].to_bits(),
                        want[l].to_bits(),
                        "{w}x{h} lane {l}: {u:?} {v:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn quad_lambda_is_per_quad() {
        let t = tex(mip(MipFilter::Linear));
        let mut u = [0.0f32; LANES];
        let mut v = [0.0f32; LANES];
        for l in 0..LANES {
            // 2 texels per pixel along x (u step 1/2 of a 4-texel texture), one along y.
            u[l] = (l & 3) as f32 * 0.5;
            v[l] = (l >> 2 & 1) as f32 * 0.25;
        }
        let lambda = quad_lambda(&t, &u, &v);
        for l in 0..LANES {
            assert_eq!(lambda[l], 1.0, "lane {l}");
        }
    }

    /// `texel_quad_lanes` (the level choice per quad) gives `texel_lambda_lanes`' bits (per
    /// lane) for the lambdas of `quad_lambda`, whose quads `quad_lane` and `spread` index.
    #[test]
    fn texel_quad_lanes_matches_texel_lambda_lanes() {
        let mut next = xorshift(0x2545_F491u32);
        for m in [MipFilter::Linear, MipFilter::Nearest, MipFilter::None] {
            let t = tex(mip(m));
            for round in 0..300u32 {
                let scale = 0.01 + (round % 30) as f32 * 0.3;
                let mut u = [0.0f32; LANES];
                let mut v = [0.0f32; LANES];
                for l in 0..LANES {
                    u[l] = (next() as f32 / u32::MAX as f32) * scale;
                    v[l] = (next() as f32 / u32::MAX as f32) * scale;
                }
                let lambda = quad_lambda(&t, &u, &v);
                let lq: [u32; QUADS] = core::array::from_fn(|j| lambda[quad_lane(j)].to_bits());
                assert_eq!(spread(&lq), lambda.map(f32::to_bits));
                let want = texel_lambda_lanes(&t, &u, &v, &lambda);
                for wide in [false, true] {
                    let got = texel_quad_lanes(&t, &u, &v, &lambda, wide);
                    assert_eq!(got, want, "{m:?} round {round} wide {wide}");
                }
            }
        }
    }
}
