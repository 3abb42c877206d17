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
/// texels, with weights ax, ay in [0, 256]. `pair(i)` gives the row pair `left | right << 32`
/// at texel index i; lane l's top pair is at `i0[l]`, its bottom pair at `i1[l]` (the gather
/// happens next to its use so the pairs stay in registers). Larger weights are the caller's
/// bug; they give some 8-bit-per-channel value (no panic).
#[inline(always)]
pub(crate) fn bilerp(
    pair: impl Fn(u32) -> u64,
    i0: &[u32; LANES],
    i1: &[u32; LANES],
    ax: &[u32; LANES],
    ay: &[u32; LANES],
) -> [u32; LANES] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::bilerp(pair, i0, i1, ax, ay)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::bilerp(pair, i0, i1, ax, ay)
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
        pair: impl Fn(u32) -> u64,
        i0: &[u32; LANES],
        i1: &[u32; LANES],
        ax: &[u32; LANES],
        ay: &[u32; LANES],
    ) -> [u32; LANES] {
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
        pair: impl Fn(u32) -> u64,
        i0: &[u32; LANES],
        i1: &[u32; LANES],
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
            let dup = |w: m128i| {
                let w = bitand_m128i(w, wmask);
                bitor_m128i(w, shl_imm_u32_m128i::<16>(w))
            };
            let (wx, wy) = (dup(v(ax)), dup(v(ay)));
            let (wx_lo, wx_hi) = (unpack_low_i32_m128i(wx, wx), unpack_high_i32_m128i(wx, wx));
            let (wy_lo, wy_hi) = (unpack_low_i32_m128i(wy, wy), unpack_high_i32_m128i(wy, wy));
            // Two lanes' row pairs [p.lo, p.hi, q.lo, q.hi] reordered to [p.lo, q.lo, p.hi, q.hi]:
            // the low half widens to the left texels of both lanes, the high half to the right.
            let rows = |x: &[u32; LANES], j: usize| {
                let p = [
                    pair(x[(4 * k + j) % LANES]),
                    pair(x[(4 * k + j + 1) % LANES]),
                ];
                let q = shuffle_ai_f32_all_m128i::<0b11_01_10_00>(m128i::from(p));
                (unpack_low_i8_m128i(q, zero), unpack_high_i8_m128i(q, zero))
            };
            let row = |x: &[u32; LANES]| {
                let ((l0, r0), (l1, r1)) = (rows(x, 0), rows(x, 2));
                (lerp(l0, r0, wx_lo), lerp(l1, r1, wx_hi))
            };
            let (top_lo, top_hi) = row(i0);
            let (bot_lo, bot_hi) = row(i1);
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
                    let got = bilerp(pairs, &i0, &i1, &ax, &ay);
                    let port = portable::bilerp(pairs, &i0, &i1, &ax, &ay);
                    for l in 0..LANES {
                        let mut want = 0;
                        let (p, q) = (pairs(i0[l]), pairs(i1[l]));
                        for s in [0, 8, 16, 24] {
                            let ch = |t: u64| (t >> s) as u32 & 0xFF;
                            let top = lerp_ref(ch(p), ch(p >> 32), ax[l]);
                            let bot = lerp_ref(ch(q), ch(q >> 32), ax[l]);
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
