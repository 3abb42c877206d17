//! The lane model every part of the executor shares: how many invocations a dispatch holds
//! ([`LANES`]), the structure-of-arrays register and mask types, and lane-wise math that LLVM
//! does not turn into SIMD by itself. `libm::sqrtf` is the scalar
//! SSE square root, so a loop of it stays one lane at a time; here x86_64 uses SQRTPS through
//! `safe_arch` (four lanes per instruction). IEEE square root is correctly rounded, so every
//! form gives the same bits.
//!
//! It must never: differ from `libm::sqrtf` in any bit, or depend on the lane count being more
//! than a multiple of 4.

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

const _: () = assert!(LANES.is_multiple_of(4));

/// Lanes 4k..4k + 4 of x: the four values one SSE register holds (every SIMD loop over
/// lanes here and in `texel` goes through this and [`set_quad`]).
#[inline(always)]
pub(crate) fn quad<T: Copy + Default>(x: &[T; LANES], k: usize) -> [T; 4] {
    let mut c = [T::default(); 4];
    for (i, c) in c.iter_mut().enumerate() {
        *c = x[(4 * k + i) % LANES];
    }
    c
}

/// Sets lanes 4k..4k + 4 of x.
#[inline(always)]
pub(crate) fn set_quad<T: Copy>(x: &mut [T; LANES], k: usize, v: [T; 4]) {
    for (i, v) in v.iter().enumerate() {
        x[(4 * k + i) % LANES] = *v;
    }
}

/// sqrt of every lane.
#[inline(always)]
pub(crate) fn sqrt(x: &[f32; LANES]) -> [f32; LANES] {
    let mut r = [0.0f32; LANES];
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::*;
        for k in 0..LANES / 4 {
            set_quad(&mut r, k, sqrt_m128(m128::from(quad(x, k))).into());
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
