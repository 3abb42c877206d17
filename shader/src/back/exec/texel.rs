//! The SIMD lane helpers of the executor's texture sampling (`TextureRef::sample_lanes`):
//! coordinate scaling and range check, weight truncation, and above all the bilinear blend of
//! 8-bit `0xAARRGGBB` texels for all [`LANES`] at once, bit-identical to the per-lane
//! `lerp_texel` of the executor: per channel `(a * (256 - w) + b * w + 128) >> 8` with 8-bit
//! weights in [0, 256], first along x (both rows), then along y.
//!
//! On x86_64 everything is explicit SSE2 (baseline there, and the kernel target keeps it),
//! through `safe_arch`'s safe wrappers: left to itself LLVM scalarizes the per-lane arrays and
//! re-vectorizes them in other groupings (channel by channel, or a lane's u with its v), with
//! scalar loads and shuffles, which was slower than the scalar code. Elsewhere portable scalar
//! code computes the same values.
//!
//! It must never: fetch texels itself (the caller's `pair` closure does, with its own wrapping
//! and bounds), or depend on the lane count being a particular number (only a multiple of 4).
use super::lanes::LANES;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::lanes::{quad, set_quad};

/// Every lane's bilinear taps: `[i0, i1, ax, ay]`, the texel indexes of its top and bottom
/// row pairs and its 8-bit weights along x and y (see [`bilerp`]).
pub(crate) type Taps = [[u32; LANES]; 4];

/// Per lane: lerp(lerp(t00, t01, ax), lerp(t10, t11, ax), ay) on the four channels of the
/// texels, with weights ax, ay in [0, 256], as a `0xAARRGGBB` texel. `pair(i)` gives the row
/// pair `left | right << 32` at texel index i; lane l's top pair is at `i0[l]`, its bottom
/// pair at `i1[l]` (the gather happens next to its use so the pairs stay in registers).
/// Larger weights are the caller's bug; they give some 8-bit-per-channel value (no panic).
#[inline(always)]
pub(crate) fn bilerp(pair: impl Fn(u32) -> u64, taps: &Taps, wide: bool) -> [u32; LANES] {
    if wide {
        return swar::bilerp(pair, taps);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::bilerp(pair, taps)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::bilerp(pair, taps)
    }
}

/// Per lane: `lerp_lanes(bilerp(pa, ta), bilerp(pb, tb), w)`, the trilinear blend of two mip
/// levels' bilinear texels, in one pass: the two bilinear results stay in 16-bit fields (they
/// are at most 255, so packing them to bytes and widening them again changes nothing) and are
/// packed once.
#[inline(always)]
pub(crate) fn trilerp(
    pa: impl Fn(u32) -> u64,
    ta: &Taps,
    pb: impl Fn(u32) -> u64,
    tb: &Taps,
    w: &[u32; LANES],
    wide: bool,
) -> [u32; LANES] {
    if wide {
        return swar::trilerp(pa, ta, pb, tb, w);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::trilerp(pa, ta, pb, tb, w)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::lerp_lanes(&portable::bilerp(pa, ta), &portable::bilerp(pb, tb), w)
    }
}

/// Per lane: `lerp(a, b, w)` on the four channels, `(a * (256 - w) + b * w + 128) >> 8` with
/// an 8-bit weight w in [0, 256] (the executor's `lerp_texel`, the blend between two mip
/// levels); w = 0 gives a unchanged. Larger weights are the caller's bug; they give some
/// 8-bit-per-channel value (no panic).
#[inline(always)]
pub(crate) fn lerp_lanes(a: &[u32; LANES], b: &[u32; LANES], w: &[u32; LANES]) -> [u32; LANES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::lerp_lanes(a, b, w)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::lerp_lanes(a, b, w)
    }
}

/// Each lane's texel as (r, g, b, a) in [0, 1]: `channel as f32 * (1.0 / 255.0)`, the
/// executor's `unpack` lane by lane.
#[inline(always)]
pub(crate) fn unpack_lanes(t: &[u32; LANES], out: &mut [[f32; LANES]; 4]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let byte = set_splat_i32_m128i(0xFF);
        let scale = set_splat_m128(1.0 / 255.0);
        for k in 0..LANES / 4 {
            let f = m128i::from(quad(t, k));
            for (o, s) in out.iter_mut().zip(SHIFTS) {
                let ch = bitand_m128i(shr_all_u32_m128i(f, m128i::from([s as u64, 0])), byte);
                sse2::store_f32(o, k, mul_m128(convert_to_m128_from_i32_m128i(ch), scale));
            }
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        *out = unpack(t);
    }
}

/// Channel `c` (0: r, 1: g, 2: b, 3: a) of each of `N` texels in [0, 1], the values of
/// [`unpack_lanes`], as a plain lane loop: in the AVX2 trampoline LLVM runs it 8 lanes per
/// instruction (the compiled seam unpacks one 8-lane group's channel at a time).
#[inline(always)]
pub(crate) fn unpack_channel<const N: usize>(t: &[u32; N], c: usize) -> [f32; N] {
    let s = SHIFTS[c & 3];
    let mut o = [0.0; N];
    for l in 0..N {
        o[l] = ((t[l] >> s) & 0xFF) as f32 * (1.0 / 255.0);
    }
    o
}

/// One texel's (r, g, b, a) in [0, 1], as [`unpack_lanes`] gives each lane.
#[inline(always)]
pub(crate) fn unpack_one(t: u32) -> [f32; 4] {
    super::texture::unpack(t)
}

/// `x * scale - bias` for every lane (IEEE single multiply, then subtract: the same values
/// as the scalar expression). Explicit SIMD on x86_64: LLVM otherwise pairs the u and v
/// coordinates of one lane, with a scalar load per coordinate.
#[inline(always)]
pub(crate) fn scale_lanes(x: &[f32; LANES], scale: f32, bias: f32) -> [f32; LANES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let mut r = [0.0f32; LANES];
        for k in 0..LANES / 4 {
            let v = mul_m128(sse2::load_f32(x, k), set_splat_m128(scale));
            sse2::store_f32(&mut r, k, sub_m128(v, set_splat_m128(bias)));
        }
        r
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut r = [0.0f32; LANES];
        for l in 0..LANES {
            r[l] = x[l] * scale - bias;
        }
        r
    }
}

/// Whether |a| < max and |b| < max in every lane (NaN is not).
#[inline(always)]
pub(crate) fn all_below(a: &[f32; LANES], b: &[f32; LANES], max: f32) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let abs = cast_to_m128_from_m128i(set_splat_i32_m128i(0x7FFF_FFFF));
        let max = set_splat_m128(max);
        let mut all = true;
        for k in 0..LANES / 4 {
            let below =
                |x: &[f32; LANES]| cmp_lt_mask_m128(bitand_m128(sse2::load_f32(x, k), abs), max);
            all &= move_mask_m128(bitand_m128(below(a), below(b))) == 0b1111;
        }
        all
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut all = true;
        for l in 0..LANES {
            all &= (a[l].abs() < max) & (b[l].abs() < max);
        }
        all
    }
}

/// The integer part of each lane's weight `w`, for weights in [0, 2^31) (the bilinear
/// weights are in [0.5, 256]): truncation, which is floor there, in one SSE2 instruction per
/// four lanes instead of a saturating conversion. Other values give some number (no panic).
#[inline(always)]
pub(crate) fn weight_floor(w: &[f32; LANES]) -> [u32; LANES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let mut r = [0u32; LANES];
        for k in 0..LANES / 4 {
            set_quad(
                &mut r,
                k,
                truncate_m128_to_m128i(sse2::load_f32(w, k)).into(),
            );
        }
        r
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let mut r = [0u32; LANES];
        for l in 0..LANES {
            r[l] = w[l] as u32;
        }
        r
    }
}

/// Each lane's colour (r, g, b, a) as a `0xAARRGGBB` pixel: every channel clamped to [0, 1]
/// (NaN -> 0) and rounded to nearest even, the same bits as `raster::pack` lane by lane.
/// SSE2: min(255, c * 255) keeps NaN (MINPS returns its second operand then), the conversion
/// rounds to nearest even (the default MXCSR mode), and NaN, negative and out-of-range results
/// saturate to 0 in the integer packs; then a byte transpose gives B, G, R, A order.
#[inline(always)]
pub(crate) fn pack_lanes(c: &[[f32; LANES]; 4], out: &mut [u32; LANES]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        let (k255, max) = (set_splat_m128(255.0), set_splat_m128(255.0));
        for k in 0..LANES / 4 {
            let q = |ch: usize| {
                let x = mul_m128(sse2::load_f32(&c[ch % 4], k), k255);
                convert_to_i32_m128i_from_m128(min_m128(max, x))
            };
            let br = pack_i32_to_i16_m128i(q(2), q(0));
            let ga = pack_i32_to_i16_m128i(q(1), q(3));
            // Bytes b0..b3 r0..r3 g0..g3 a0..a3.
            let x = pack_i16_to_u8_m128i(br, ga);
            // b0 g0 b1 g1 .. b3 g3 r0 a0 .. r3 a3.
            let y = unpack_low_i8_m128i(x, byte_shr_imm_u128_m128i::<8>(x));
            // b0 g0 r0 a0, b1 g1 r1 a1, ...
            let z = unpack_low_i16_m128i(y, byte_shr_imm_u128_m128i::<8>(y));
            set_quad(out, k, z.into());
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        for l in 0..LANES {
            out[l] = pack_one([c[0][l], c[1][l], c[2][l], c[3][l]]);
        }
    }
}

/// [`pack_lanes`] eight lanes at a time (the same operations as the SSE2 form, so the same
/// bits): the packs work within each 128-bit half, which then holds b0..b3 r0..r3 g0..g3
/// a0..a3 of its four lanes, and one byte shuffle per half puts each lane's B, G, R, A
/// together. Safe to call only where AVX2 is known to be usable: `Simd::pack_lanes` calls it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) fn pack_lanes_avx2(c: &[[f32; LANES]; 4], out: &mut [u32; LANES]) {
    use core::arch::x86_64::*;
    use safe_arch::{m256, m256i};
    let (k255, max) = (_mm256_set1_ps(255.0), _mm256_set1_ps(255.0));
    let order = _mm256_setr_epi8(
        0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15, //
        0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15,
    );
    for (k, o) in out.chunks_exact_mut(8).enumerate() {
        let q = |ch: &[f32; LANES]| {
            let mut v = [0.0f32; 8];
            v.copy_from_slice(&ch[k * 8..k * 8 + 8]);
            let x = _mm256_mul_ps(m256::from(v).0, k255);
            _mm256_cvtps_epi32(_mm256_min_ps(max, x))
        };
        let br = _mm256_packs_epi32(q(&c[2]), q(&c[0]));
        let ga = _mm256_packs_epi32(q(&c[1]), q(&c[3]));
        let x = _mm256_shuffle_epi8(_mm256_packus_epi16(br, ga), order);
        let px: [i32; 8] = m256i(x).into();
        for (d, s) in o.iter_mut().zip(px) {
            *d = s as u32;
        }
    }
}

/// One colour as `0xAARRGGBB` (see [`pack_lanes`]).
#[inline(always)]
pub(crate) fn pack_one(c: [f32; 4]) -> u32 {
    let q = |v: f32| -> u32 {
        let v = if v >= 0.0 { v.min(1.0) } else { 0.0 };
        // Adding 2^23 rounds to nearest even (IEEE default) for 0 <= x < 2^23 and leaves the
        // integer in the low mantissa bits (a bit cast, so lane loops vectorize).
        (v * 255.0 + 8_388_608.0)
            .to_bits()
            .wrapping_sub(0x4B00_0000)
    };
    (q(c[3]) << 24) | (q(c[0]) << 16) | (q(c[1]) << 8) | q(c[2])
}

/// Bit shift of the (r, g, b, a) channels in a `0xAARRGGBB` texel.
const SHIFTS: [u32; 4] = [16, 8, 0, 24];

/// (r, g, b, a) in [0, 1] of each lane's texel.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn unpack(t: &[u32; LANES]) -> [[f32; LANES]; 4] {
    let mut out = [[0.0; LANES]; 4];
    for (o, s) in out.iter_mut().zip(SHIFTS) {
        for l in 0..LANES {
            o[l] = ((t[l] >> s) & 0xFF) as f32 * (1.0 / 255.0);
        }
    }
    out
}

/// Any target: each lane's four channels in 16-bit fields of a u64.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    use super::LANES;

    #[inline(always)]
    fn spread(t: u32) -> u64 {
        (t & 0x00FF_00FF) as u64 | (((t & 0xFF00_FF00) as u64) << 24)
    }

    /// a * (256 - w) + b * w + 128 <= 65408 per field: no carry into the next field.
    #[inline(always)]
    fn lerp(a: u64, b: u64, w: u32) -> u64 {
        let (w, iw) = (w as u64, 256u64.wrapping_sub(w as u64));
        (a.wrapping_mul(iw)
            .wrapping_add(b.wrapping_mul(w))
            .wrapping_add(0x0080_0080_0080_0080)
            >> 8)
            & 0x00FF_00FF_00FF_00FF
    }

    #[inline(always)]
    pub(super) fn lerp_lanes(a: &[u32; LANES], b: &[u32; LANES], w: &[u32; LANES]) -> [u32; LANES] {
        let mut r = [0u32; LANES];
        for l in 0..LANES {
            let f = lerp(spread(a[l]), spread(b[l]), w[l] & 0x1FF);
            r[l] = (f as u32 & 0x00FF_00FF) | ((f >> 24) as u32 & 0xFF00_FF00);
        }
        r
    }

    #[inline(always)]
    pub(super) fn bilerp(pair: impl Fn(u32) -> u64, taps: &super::Taps) -> [u32; LANES] {
        let [i0, i1, ax, ay] = taps;
        let mut r = [0u32; LANES];
        for l in 0..LANES {
            let (wx, wy) = (ax[l] & 0x1FF, ay[l] & 0x1FF);
            let row = |p: u64, w: u32| lerp(spread(p as u32), spread((p >> 32) as u32), w);
            let (top, bot) = (row(pair(i0[l]), wx), row(pair(i1[l]), wx));
            let f = lerp(top, bot, wy);
            r[l] = (f as u32 & 0x00FF_00FF) | ((f >> 24) as u32 & 0xFF00_FF00);
        }
        r
    }
}

/// The blends as plain lane loops on u32 lanes, two channels per lane in 16-bit fields (the
/// `lerp_texel` layout), for the AVX2 trampoline (`wide`), where LLVM vectorizes them 8 lanes
/// per instruction (the explicit SSE2 forms stay 128 bits wide there). Per field,
/// `a * 256 + (b - a) * w + 128` lies in [0, 65408] for a, b <= 255 and w <= 256, so computing
/// the two fields' sum modulo 2^32 (with a negative b - a borrowing across the fields) gives
/// both exactly: one multiply per two channels, the SSE2 form's values.
mod swar {
    use super::{Taps, LANES};

    const M: u32 = 0x00FF_00FF;

    /// Per field: `(a * (256 - w) + b * w + 128) >> 8` of the fields of `a` and `b` (each <= 255).
    #[inline(always)]
    fn lerp(a: u32, b: u32, w: u32) -> u32 {
        let r = (a << 8)
            .wrapping_add(b.wrapping_sub(a).wrapping_mul(w))
            .wrapping_add(0x0080_0080);
        (r >> 8) & M
    }

    /// Every lane's row pairs, gathered (scalar loads) before the lane loops: the left and
    /// right texels of the top rows, then of the bottom rows (u32 arrays, so that the lane
    /// loops run 8 lanes per instruction).
    #[inline(always)]
    fn gather(pair: &impl Fn(u32) -> u64, taps: &Taps, rows: &mut [[u32; LANES]; 4]) {
        for l in 0..LANES {
            let (p, q) = (pair(taps[0][l]), pair(taps[1][l]));
            rows[0][l] = p as u32;
            rows[1][l] = (p >> 32) as u32;
            rows[2][l] = q as u32;
            rows[3][l] = (q >> 32) as u32;
        }
    }

    /// Lane `l`'s bilinear texel from its gathered `rows`, field half `h` (0: the (r, b)
    /// channels, 8: (a, g)), each field <= 255.
    #[inline(always)]
    fn bilerp1(rows: &[[u32; LANES]; 4], taps: &Taps, l: usize, h: u32) -> u32 {
        let (wx, wy) = (taps[2][l] & 0x1FF, taps[3][l] & 0x1FF);
        let f = |r: usize| (rows[r][l] >> h) & M;
        lerp(lerp(f(0), f(1), wx), lerp(f(2), f(3), wx), wy)
    }

    #[inline(always)]
    pub(super) fn bilerp(pair: impl Fn(u32) -> u64, taps: &Taps) -> [u32; LANES] {
        let mut rows = [[0u32; LANES]; 4];
        gather(&pair, taps, &mut rows);
        let mut out = [0u32; LANES];
        for l in 0..LANES {
            out[l] = bilerp1(&rows, taps, l, 0) | (bilerp1(&rows, taps, l, 8) << 8);
        }
        out
    }

    #[inline(always)]
    pub(super) fn trilerp(
        pa: impl Fn(u32) -> u64,
        ta: &Taps,
        pb: impl Fn(u32) -> u64,
        tb: &Taps,
        w: &[u32; LANES],
    ) -> [u32; LANES] {
        let (mut ra, mut rb) = ([[0u32; LANES]; 4], [[0u32; LANES]; 4]);
        gather(&pa, ta, &mut ra);
        gather(&pb, tb, &mut rb);
        let mut out = [0u32; LANES];
        for l in 0..LANES {
            let wl = w[l] & 0x1FF;
            let lo = lerp(bilerp1(&ra, ta, l, 0), bilerp1(&rb, tb, l, 0), wl);
            let hi = lerp(bilerp1(&ra, ta, l, 8), bilerp1(&rb, tb, l, 8), wl);
            out[l] = lo | (hi << 8);
        }
        out
    }
}

/// x86_64: four lanes per step, two lanes' channels widened to eight u16 per register.
/// `safe_arch` wraps the SSE2 intrinsics safely (they exist whenever this module is compiled).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{quad, set_quad, LANES};
    use safe_arch::*;

    const _: () = assert!(LANES.is_multiple_of(4));

    /// Lanes 4k..4k + 4 of x.
    #[inline(always)]
    pub(super) fn load_f32(x: &[f32; LANES], k: usize) -> m128 {
        m128::from(quad(x, k))
    }

    /// Sets lanes 4k..4k + 4 of x.
    #[inline(always)]
    pub(super) fn store_f32(x: &mut [f32; LANES], k: usize, v: m128) {
        set_quad(x, k, v.into());
    }

    /// a + (b - a) * w / 256 rounded, per u16 field: equal to `(a * (256 - w) + b * w + 128) >> 8`
    /// for a, b <= 255 and w <= 256, because the true value of `a * 256 + (b - a) * w + 128`
    /// lies in [0, 65408], so computing it modulo 2^16 gives it exactly, with one multiply.
    #[inline(always)]
    fn lerp(a: m128i, b: m128i, w: m128i) -> m128i {
        let d = mul_i16_keep_low_m128i(sub_i16_m128i(b, a), w);
        let a8 = bitor_m128i(shl_imm_u16_m128i::<8>(a), set_splat_i16_m128i(128));
        shr_imm_u16_m128i::<8>(add_i16_m128i(a8, d))
    }

    /// Each weight in both u16 halves of its lane (weights masked to 9 bits).
    #[inline(always)]
    fn dup(w: m128i) -> m128i {
        let w = bitand_m128i(w, set_splat_i32_m128i(0x1FF));
        bitor_m128i(w, shl_imm_u32_m128i::<16>(w))
    }

    #[inline(always)]
    pub(super) fn lerp_lanes(a: &[u32; LANES], b: &[u32; LANES], w: &[u32; LANES]) -> [u32; LANES] {
        let zero = zeroed_m128i();
        let mut out = [0u32; LANES];
        for k in 0..LANES / 4 {
            let v = |x: &[u32; LANES]| m128i::from(quad(x, k));
            let wd = dup(v(w));
            // Lanes 0, 1 of the quad in the low half, 2, 3 in the high half: their four
            // channels as u16 fields, each lane's weight in its four fields.
            let (w_lo, w_hi) = (unpack_low_i32_m128i(wd, wd), unpack_high_i32_m128i(wd, wd));
            let (a4, b4) = (v(a), v(b));
            let lo = lerp(
                unpack_low_i8_m128i(a4, zero),
                unpack_low_i8_m128i(b4, zero),
                w_lo,
            );
            let hi = lerp(
                unpack_high_i8_m128i(a4, zero),
                unpack_high_i8_m128i(b4, zero),
                w_hi,
            );
            set_quad(&mut out, k, pack_i16_to_u8_m128i(lo, hi).into());
        }
        out
    }

    /// Lanes 4k..4k + 4 of [`super::bilerp`] before the final pack: lanes 0, 1 of the quad
    /// in the first register, 2, 3 in the second, each channel in a u16 field (<= 255).
    #[inline(always)]
    fn bilerp4(pair: &impl Fn(u32) -> u64, taps: &super::Taps, k: usize) -> (m128i, m128i) {
        let zero = zeroed_m128i();
        let [i0, i1, ax, ay] = taps;
        let v = |x: &[u32; LANES]| m128i::from(quad(x, k));
        // Each weight in the four fields of its texel.
        let (wx, wy) = (dup(v(ax)), dup(v(ay)));
        let (wx_lo, wx_hi) = (unpack_low_i32_m128i(wx, wx), unpack_high_i32_m128i(wx, wx));
        let (wy_lo, wy_hi) = (unpack_low_i32_m128i(wy, wy), unpack_high_i32_m128i(wy, wy));
        // Two lanes' row pairs [p.lo, p.hi, q.lo, q.hi] reordered to [p.lo, q.lo, p.hi, q.hi]:
        // the low half widens to the left texels of both lanes, the high half to the right.
        // (Functions, not closures: LLVM left the closures out of line, a call per row.)
        #[inline(always)]
        fn rows(
            pair: &impl Fn(u32) -> u64,
            x: &[u32; LANES],
            i: usize,
            zero: m128i,
        ) -> (m128i, m128i) {
            let p = [pair(x[i % LANES]), pair(x[(i + 1) % LANES])];
            let q = shuffle_ai_f32_all_m128i::<0b11_01_10_00>(m128i::from(p));
            (unpack_low_i8_m128i(q, zero), unpack_high_i8_m128i(q, zero))
        }
        #[inline(always)]
        fn row(
            pair: &impl Fn(u32) -> u64,
            x: &[u32; LANES],
            k: usize,
            w: (m128i, m128i),
            zero: m128i,
        ) -> (m128i, m128i) {
            let (l0, r0) = rows(pair, x, 4 * k, zero);
            let (l1, r1) = rows(pair, x, 4 * k + 2, zero);
            (lerp(l0, r0, w.0), lerp(l1, r1, w.1))
        }
        let (top_lo, top_hi) = row(pair, i0, k, (wx_lo, wx_hi), zero);
        let (bot_lo, bot_hi) = row(pair, i1, k, (wx_lo, wx_hi), zero);
        (lerp(top_lo, bot_lo, wy_lo), lerp(top_hi, bot_hi, wy_hi))
    }

    #[inline(always)]
    pub(super) fn bilerp(pair: impl Fn(u32) -> u64, taps: &super::Taps) -> [u32; LANES] {
        let mut out = [0u32; LANES];
        for k in 0..LANES / 4 {
            let (f_lo, f_hi) = bilerp4(&pair, taps, k);
            // Every field is <= 255, so the saturating pack is exact.
            set_quad(&mut out, k, pack_i16_to_u8_m128i(f_lo, f_hi).into());
        }
        out
    }

    #[inline(always)]
    pub(super) fn trilerp(
        pa: impl Fn(u32) -> u64,
        ta: &super::Taps,
        pb: impl Fn(u32) -> u64,
        tb: &super::Taps,
        w: &[u32; LANES],
    ) -> [u32; LANES] {
        let mut out = [0u32; LANES];
        for k in 0..LANES / 4 {
            let (a_lo, a_hi) = bilerp4(&pa, ta, k);
            let (b_lo, b_hi) = bilerp4(&pb, tb, k);
            let wd = dup(m128i::from(quad(w, k)));
            let (w_lo, w_hi) = (unpack_low_i32_m128i(wd, wd), unpack_high_i32_m128i(wd, wd));
            let (lo, hi) = (lerp(a_lo, b_lo, w_lo), lerp(a_hi, b_hi, w_hi));
            set_quad(&mut out, k, pack_i16_to_u8_m128i(lo, hi).into());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::simd::{Isa, Simd};
    use super::*;

    /// The lane packer gives the per-pixel packer's bits on edge values (NaN, infinities,
    /// negative zero, out of range, exact and near half steps) and a dense sweep of [-0.5, 1.5].
    #[test]
    fn pack_lanes_matches_pack_one() {
        let mut vals: [f32; 24] = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            0.0,
            1.0,
            1.000_000_1,
            0.999_999_94,
            -1e-30,
            1e30,
            -1e30,
            0.5 / 255.0,
            1.5 / 255.0,
            2.5 / 255.0,
            254.5 / 255.0,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            0.5,
            3e9,
            -3e9,
            0.25,
            0.75,
        ];
        let check = |vals: &[f32]| {
            let mut c = [[0.0f32; LANES]; 4];
            for l in 0..LANES {
                for ch in 0..4 {
                    c[ch][l] = vals[(l * 7 + ch * 5) % vals.len()];
                }
            }
            // The target's form, then each instruction set's (AVX2 where the machine has it).
            let isas = [Isa::Base, Isa::Avx2].into_iter().filter_map(Simd::with);
            let packs = core::iter::once(None).chain(isas.map(Some));
            for simd in packs {
                let mut got = [0u32; LANES];
                match simd {
                    None => pack_lanes(&c, &mut got),
                    Some(s) => s.pack_lanes(&c, &mut got),
                }
                for l in 0..LANES {
                    let want = pack_one([c[0][l], c[1][l], c[2][l], c[3][l]]);
                    assert_eq!(
                        got[l],
                        want,
                        "{simd:?} lane {l}: {:?}",
                        [c[0][l], c[1][l], c[2][l], c[3][l]]
                    );
                }
            }
        };
        check(&vals);
        for step in 0..4096u32 {
            for (i, v) in vals.iter_mut().enumerate() {
                *v = -0.5 + (step * 24 + i as u32) as f32 / (4096.0 * 24.0 / 2.0);
            }
            check(&vals);
        }
    }

    /// Unpacking a texel to floats and packing the floats gives the texel back, for every
    /// channel value: what lets a colour that is a plain texture sample skip the round trip.
    #[test]
    fn unpack_then_pack_is_identity() {
        let mut t = [0u32; LANES];
        for base in (0..256u32).step_by(LANES) {
            for l in 0..LANES {
                let c = (base + l as u32) & 0xFF;
                // Each channel a different value, all 256 values per channel overall.
                t[l] = c | ((c ^ 0x5A) << 8) | ((c ^ 0xA5) << 16) | ((255 - c) << 24);
            }
            let mut f = [[0.0f32; LANES]; 4];
            unpack_lanes(&t, &mut f);
            let mut back = [0u32; LANES];
            pack_lanes(&f, &mut back);
            assert_eq!(back, t);
            for l in 0..LANES {
                assert_eq!(pack_one([f[0][l], f[1][l], f[2][l], f[3][l]]), t[l]);
            }
        }
    }

    /// The executor's reference formula for one channel.
    fn lerp_ref(a: u32, b: u32, w: u32) -> u32 {
        (a * (256 - w) + b * w + 128) >> 8
    }

    /// Every (a, b, w) in one channel, through both implementations: each lane gets its own
    /// weights and channel values, so a lane or channel mix-up shows too.
    #[test]
    fn bilerp_matches_reference_formula_exhaustively() {
        for a in 0..256u32 {
            for b in 0..256u32 {
                let mut t00 = [0u32; LANES];
                let mut t01 = [0u32; LANES];
                let mut t10 = [0u32; LANES];
                let mut t11 = [0u32; LANES];
                let mut ax = [0u32; LANES];
                let mut ay = [0u32; LANES];
                for w0 in (0..=256u32).step_by(LANES) {
                    for l in 0..LANES {
                        let w = (w0 + l as u32).min(256);
                        let c = |x: u32, s: u32| (x + s * 37 + l as u32 * 11) & 0xFF;
                        let texel =
                            |x: u32| c(x, 0) | (c(x, 1) << 8) | (c(x, 2) << 16) | (c(x, 3) << 24);
                        t00[l] = texel(a);
                        t01[l] = texel(b);
                        t10[l] = texel(b ^ 0x5A);
                        t11[l] = texel(a ^ 0xC3);
                        ax[l] = w;
                        ay[l] = 256 - w;
                    }
                    let mut top = [0u64; LANES];
                    let mut bot = [0u64; LANES];
                    for l in 0..LANES {
                        top[l] = t00[l] as u64 | (t01[l] as u64) << 32;
                        bot[l] = t10[l] as u64 | (t11[l] as u64) << 32;
                    }
                    let mut i0 = [0u32; LANES];
                    let mut i1 = [0u32; LANES];
                    for l in 0..LANES {
                        // Lanes read their pairs in a shuffled order.
                        i0[l] = ((l * 3 + 1) % LANES) as u32;
                        i1[l] = (LANES + (l * 5 + 2) % LANES) as u32;
                    }
                    let pairs = |i: u32| {
                        let i = i as usize;
                        if i < LANES {
                            top[i]
                        } else {
                            bot[i % LANES]
                        }
                    };
                    let texels = bilerp(pairs, &[i0, i1, ax, ay], false);
                    let mut got = [[0.0; LANES]; 4];
                    unpack_lanes(&texels, &mut got);
                    let port = portable::bilerp(pairs, &[i0, i1, ax, ay]);
                    let mut want_all = [0u32; LANES];
                    for l in 0..LANES {
                        let mut want = 0;
                        let (p, q) = (pairs(i0[l]), pairs(i1[l]));
                        for s in [0, 8, 16, 24] {
                            let ch = |t: u64| (t >> s) as u32 & 0xFF;
                            let top = lerp_ref(ch(p), ch(p >> 32), ax[l]);
                            let bot = lerp_ref(ch(q), ch(q >> 32), ax[l]);
                            want |= lerp_ref(top, bot, ay[l]) << s;
                        }
                        assert_eq!(
                            port[l], want,
                            "portable lane {} a {} b {} w {}",
                            l, a, b, ax[l]
                        );
                        want_all[l] = want;
                    }
                    assert_eq!(texels, want_all);
                    let want = unpack(&want_all);
                    for c in 0..4 {
                        for l in 0..LANES {
                            assert_eq!(
                                got[c][l].to_bits(),
                                want[c][l].to_bits(),
                                "lane {} a {} b {} w {}",
                                l,
                                a,
                                b,
                                ax[l]
                            );
                        }
                    }
                }
            }
        }
    }

    /// Every (a, b, w) of one channel through `lerp_lanes` (and its portable form) against
    /// the reference formula, each lane and channel with its own values.
    #[test]
    fn lerp_lanes_matches_reference_formula_exhaustively() {
        let (mut a, mut b, mut w) = ([0u32; LANES], [0u32; LANES], [0u32; LANES]);
        for x in 0..256u32 {
            for y in 0..256u32 {
                for w0 in (0..=256u32).step_by(LANES) {
                    for l in 0..LANES {
                        let c = |x: u32, s: u32| (x + s * 59 + l as u32 * 13) & 0xFF;
                        let texel = |x: u32| c(x, 0) | c(x, 1) << 8 | c(x, 2) << 16 | c(x, 3) << 24;
                        a[l] = texel(x);
                        b[l] = texel(y);
                        w[l] = (w0 + l as u32).min(256);
                    }
                    let got = lerp_lanes(&a, &b, &w);
                    let port = portable::lerp_lanes(&a, &b, &w);
                    for l in 0..LANES {
                        let mut want = 0;
                        for s in [0, 8, 16, 24] {
                            let ch = |t: u32| (t >> s) & 0xFF;
                            want |= lerp_ref(ch(a[l]), ch(b[l]), w[l]) << s;
                        }
                        assert_eq!(got[l], want, "lane {l} a {x} b {y} w {}", w[l]);
                        assert_eq!(port[l], want, "portable lane {l} a {x} b {y} w {}", w[l]);
                    }
                }
            }
        }
    }

    /// The `wide` blends (two channels per u32 lane) give the bits of the SSE2/portable
    /// forms: every channel pair (a, b) at the edge weights and random ones, and random
    /// bilinear and trilinear lanes, each lane with its own texels and weights.
    #[test]
    fn wide_blends_match_the_narrow_forms() {
        let mut s = 0x9E37_79B9u32;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for x in 0..256u32 {
            for y in (0..256u32).step_by(3) {
                let (mut a, mut b, mut w) = ([0u32; LANES], [0u32; LANES], [0u32; LANES]);
                for l in 0..LANES {
                    let c = |x: u32, s: u32| (x + s * 59 + l as u32 * 13) & 0xFF;
                    let texel = |x: u32| c(x, 0) | c(x, 1) << 8 | c(x, 2) << 16 | c(x, 3) << 24;
                    a[l] = texel(x);
                    b[l] = texel(y);
                    w[l] = [0, 1, 128, 255, 256][l % 5].max(next() % 257 * (l >= 5) as u32);
                }
                // Both levels with the same taps: the pairs are the two texels of a lane.
                let pairs =
                    |i: u32| a[i as usize % LANES] as u64 | (b[i as usize % LANES] as u64) << 32;
                let lanes: [u32; LANES] = core::array::from_fn(|l| l as u32);
                let taps = [
                    lanes,
                    lanes.map(|l| (l + 7) % LANES as u32),
                    w,
                    w.map(|w| 256 - w),
                ];
                assert_eq!(bilerp(pairs, &taps, true), bilerp(pairs, &taps, false));
                let other = |i: u32| pairs(i).rotate_left(8 * (x % 8));
                let want = lerp_lanes(
                    &bilerp(pairs, &taps, false),
                    &bilerp(other, &taps, false),
                    &w,
                );
                assert_eq!(
                    trilerp(pairs, &taps, other, &taps, &w, true),
                    want,
                    "a {x} b {y}"
                );
                assert_eq!(
                    trilerp(pairs, &taps, other, &taps, &w, false),
                    want,
                    "a {x} b {y}"
                );
            }
        }
    }

    #[test]
    fn weight_floor_truncates() {
        let edge = [0.5f32, 0.999_999_9, 1.0, 1.5, 127.5, 255.999_98, 256.0, 0.0];
        let mut w = [0.0f32; LANES];
        for (l, w) in w.iter_mut().enumerate() {
            *w = edge[l % edge.len()] + (l / edge.len()) as f32;
        }
        let got = weight_floor(&w);
        for l in 0..LANES {
            assert_eq!(got[l], w[l] as u32, "{}", w[l]);
        }
    }

    #[test]
    fn all_below_rejects_nan_infinity_and_the_bound() {
        let ok = [1.0f32; LANES];
        assert!(all_below(&ok, &ok, 2.0));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 2.0, -2.0, 3.0] {
            for l in 0..LANES {
                let mut a = ok;
                a[l] = bad;
                assert!(!all_below(&a, &ok, 2.0), "{} in lane {} of a", bad, l);
                assert!(!all_below(&ok, &a, 2.0), "{} in lane {} of b", bad, l);
            }
        }
    }

    #[test]
    fn scale_lanes_matches_scalar() {
        let mut x = [0.0f32; LANES];
        for (l, x) in x.iter_mut().enumerate() {
            *x = (l as f32 - 3.3) * 0.731;
        }
        x[0] = f32::NAN;
        x[1] = -0.0;
        let got = scale_lanes(&x, 64.0, 0.5);
        for l in 0..LANES {
            assert_eq!(got[l].to_bits(), (x[l] * 64.0 - 0.5).to_bits(), "{}", x[l]);
        }
    }
}
