//! Bilinear blending of 8-bit `0xAARRGGBB` texels for all [`LANES`] at once, bit-identical to
//! the per-lane `lerp_texel` of the executor: per channel `(a * (256 - w) + b * w + 128) >> 8`
//! with 8-bit weights in [0, 256], first along x (both rows), then along y.
//!
//! On x86_64 the channels are widened to 16 bits and blended with SSE2 (baseline there, and the
//! kernel target keeps it): left to itself LLVM scalarizes the per-lane arrays and re-vectorizes
//! them channel by channel, which is slower than the scalar code. Elsewhere a portable scalar
//! version does the same arithmetic.
//!
//! It must never: fetch texels (the caller gathers them, with its own wrapping and bounds), or
//! depend on the lane count being a particular number (only a multiple of 4).
use crate::exec::LANES;

/// Per lane: lerp(lerp(t00, t01, ax), lerp(t10, t11, ax), ay) on the four channels of the
/// texels, with weights ax, ay in [0, 256]. Larger weights are the caller's bug; they give
/// some 8-bit-per-channel value (no panic).
#[inline(always)]
pub(crate) fn bilerp(
    t00: &[u32; LANES],
    t01: &[u32; LANES],
    t10: &[u32; LANES],
    t11: &[u32; LANES],
    ax: &[u32; LANES],
    ay: &[u32; LANES],
) -> [u32; LANES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::bilerp(t00, t01, t10, t11, ax, ay)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::bilerp(t00, t01, t10, t11, ax, ay)
    }
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
    pub(super) fn bilerp(
        t00: &[u32; LANES],
        t01: &[u32; LANES],
        t10: &[u32; LANES],
        t11: &[u32; LANES],
        ax: &[u32; LANES],
        ay: &[u32; LANES],
    ) -> [u32; LANES] {
        let mut r = [0u32; LANES];
        for l in 0..LANES {
            let (wx, wy) = (ax[l] & 0x1FF, ay[l] & 0x1FF);
            let top = lerp(spread(t00[l]), spread(t01[l]), wx);
            let bot = lerp(spread(t10[l]), spread(t11[l]), wx);
            let f = lerp(top, bot, wy);
            r[l] = (f as u32 & 0x00FF_00FF) | ((f >> 24) as u32 & 0xFF00_FF00);
        }
        r
    }
}

/// x86_64: four lanes per step, two lanes' channels widened to eight u16 per register.
/// `safe_arch` wraps the SSE2 intrinsics safely (they exist whenever this module is compiled).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::LANES;
    use safe_arch::*;

    const _: () = assert!(LANES.is_multiple_of(4));

    /// a + (b - a) * w / 256 rounded, per u16 field: equal to `(a * (256 - w) + b * w + 128) >> 8`
    /// for a, b <= 255 and w <= 256, because the true value of `a * 256 + (b - a) * w + 128`
    /// lies in [0, 65408], so computing it modulo 2^16 gives it exactly, with one multiply.
    #[inline(always)]
    fn lerp(a: m128i, b: m128i, w: m128i) -> m128i {
        let d = mul_i16_keep_low_m128i(sub_i16_m128i(b, a), w);
        let a8 = bitor_m128i(shl_imm_u16_m128i::<8>(a), set_splat_i16_m128i(128));
        shr_imm_u16_m128i::<8>(add_i16_m128i(a8, d))
    }

    #[inline(always)]
    pub(super) fn bilerp(
        t00: &[u32; LANES],
        t01: &[u32; LANES],
        t10: &[u32; LANES],
        t11: &[u32; LANES],
        ax: &[u32; LANES],
        ay: &[u32; LANES],
    ) -> [u32; LANES] {
        let mut r = [0u32; LANES];
        let zero = zeroed_m128i();
        let wmask = set_splat_i32_m128i(0x1FF);
        for k in 0..LANES / 4 {
            let v = |x: &[u32; LANES]| {
                let mut c = [0u32; 4];
                for (i, c) in c.iter_mut().enumerate() {
                    *c = x[(4 * k + i) % LANES];
                }
                m128i::from(c)
            };
            // Each weight in both u16 halves of its lane, then in the four fields of its texel.
            let pair = |w: m128i| {
                let w = bitand_m128i(w, wmask);
                bitor_m128i(w, shl_imm_u32_m128i::<16>(w))
            };
            let (wx, wy) = (pair(v(ax)), pair(v(ay)));
            let (wx_lo, wx_hi) = (unpack_low_i32_m128i(wx, wx), unpack_high_i32_m128i(wx, wx));
            let (wy_lo, wy_hi) = (unpack_low_i32_m128i(wy, wy), unpack_high_i32_m128i(wy, wy));
            let (a, b, c, d) = (v(t00), v(t01), v(t10), v(t11));
            let lo = |x| unpack_low_i8_m128i(x, zero);
            let hi = |x| unpack_high_i8_m128i(x, zero);
            let top_lo = lerp(lo(a), lo(b), wx_lo);
            let top_hi = lerp(hi(a), hi(b), wx_hi);
            let bot_lo = lerp(lo(c), lo(d), wx_lo);
            let bot_hi = lerp(hi(c), hi(d), wx_hi);
            let f_lo = lerp(top_lo, bot_lo, wy_lo);
            let f_hi = lerp(top_hi, bot_hi, wy_hi);
            // Every field is <= 255, so the saturating pack is exact.
            let f: [u32; 4] = pack_i16_to_u8_m128i(f_lo, f_hi).into();
            for (i, f) in f.iter().enumerate() {
                r[(4 * k + i) % LANES] = *f;
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    let got = bilerp(&t00, &t01, &t10, &t11, &ax, &ay);
                    let port = portable::bilerp(&t00, &t01, &t10, &t11, &ax, &ay);
                    for l in 0..LANES {
                        let mut want = 0;
                        for s in [0, 8, 16, 24] {
                            let ch = |t: u32| (t >> s) & 0xFF;
                            let top = lerp_ref(ch(t00[l]), ch(t01[l]), ax[l]);
                            let bot = lerp_ref(ch(t10[l]), ch(t11[l]), ax[l]);
                            want |= lerp_ref(top, bot, ay[l]) << s;
                        }
                        assert_eq!(got[l], want, "lane {} a {} b {} w {}", l, a, b, ax[l]);
                        assert_eq!(port[l], want, "portable lane {}", l);
                    }
                }
            }
        }
    }
}
