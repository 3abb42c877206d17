//! Lane-wise math that LLVM does not turn into SIMD by itself. `libm::sqrtf` is the scalar
//! SSE square root, so a loop of it stays one lane at a time; here x86_64 uses SQRTPS through
//! `safe_arch` (four lanes per instruction). IEEE square root is correctly rounded, so every
//! form gives the same bits.
//!
//! It must never: differ from `libm::sqrtf` in any bit, or depend on the lane count being more
//! than a multiple of 4.
use crate::exec::LANES;

const _: () = assert!(LANES.is_multiple_of(4));

/// sqrt of every lane.
#[inline(always)]
pub(crate) fn sqrt(x: &[f32; LANES]) -> [f32; LANES] {
    let mut r = [0.0f32; LANES];
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        for k in 0..LANES / 4 {
            let mut c = [0.0f32; 4];
            for (i, c) in c.iter_mut().enumerate() {
                *c = x[(4 * k + i) % LANES];
            }
            let s: [f32; 4] = sqrt_m128(m128::from(c)).into();
            for (i, s) in s.iter().enumerate() {
                r[(4 * k + i) % LANES] = *s;
            }
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        for (r, x) in r.iter_mut().zip(x) {
            *r = libm::sqrtf(*x);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqrt_matches_libm() {
        let special = [
            0.0f32,
            -0.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-45,
            f32::MIN_POSITIVE,
            f32::MAX,
            2.0,
        ];
        let mut bits = 0x3F00_0000u32;
        for round in 0..2000 {
            let mut x = [0.0f32; LANES];
            for (l, x) in x.iter_mut().enumerate() {
                *x = if round == 0 {
                    special[l % special.len()]
                } else {
                    bits = bits.wrapping_mul(2_654_435_761).wrapping_add(12345);
                    f32::from_bits(bits)
                };
            }
            let got = sqrt(&x);
            for l in 0..LANES {
                let want = libm::sqrtf(x[l]);
                assert!(
                    got[l].to_bits() == want.to_bits() || (got[l].is_nan() && want.is_nan()),
                    "sqrt({:e})",
                    x[l]
                );
            }
        }
    }
}
