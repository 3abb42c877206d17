//! The executor's numerics that LLVM does not give as wanted by itself: GLSL pow as llvmpipe
//! evaluates it, sin/cos by range reduction and minimax polynomials, each in a scalar form
//! (the reference) and a lane form that vectorizes (the same bits), and the float floor that
//! keeps lane loops free of float-to-int saturation.
// Lane loops index several arrays in lockstep on purpose (that is the form that vectorizes),
// and negated float comparisons send NaN down the rejecting path.
#![allow(
    clippy::needless_range_loop,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::excessive_precision
)]

#[cfg(test)]
use super::lanes::LANES;

/// Magnitude below which [`floor_small`] is exact.
pub(super) const FLOOR_SMALL_MAX: f32 = 4_194_304.0;

/// floor(x) for |x| < 2^22 (= [`floor_i32`] there) with float adds and a bit cast only, so
/// lane loops using it vectorize: x + 1.5 * 2^23 rounds to an integer held in the mantissa.
#[inline(always)]
pub(super) fn floor_small(x: f32) -> i32 {
    const MAGIC: f32 = 12_582_912.0;
    let r = x + MAGIC;
    let n = (r.to_bits() as i32).wrapping_sub(0x4B40_0000);
    n - ((r - MAGIC > x) as i32)
}

/// libm's `floorf`, bit for bit (NaN and infinities as they are, -0.0 stays -0.0, -0.5 gives
/// -1.0), with float adds, compares and selects only, so lane loops using it vectorize (the
/// library call was one call per lane): below 2^23, |x| + 2^23 - 2^23 is |x| rounded to an
/// integer (exactly: the sum's unit in the last place is 1), and one less when that is above x;
/// from 2^23 on every float is an integer.
#[inline(always)]
pub(super) fn floor_f32(x: f32) -> f32 {
    const TWO23: f32 = 8_388_608.0;
    let a = x.abs();
    let r = ((a + TWO23) - TWO23).copysign(x);
    let f = if r > x { r - 1.0 } else { r };
    if a < TWO23 {
        f
    } else {
        x
    }
}

/// floor(x) as i32, saturating (NaN -> 0): no overflow on any input.
#[inline(always)]
pub(super) fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
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

/// Lane-wise [`pow`] (any lane count: the interpreter's 32, the compiled form's 8): the branch-free core for every lane (vectorizable), then the general
/// path for the rare lanes outside its domain. Same results as [`pow`] lane by lane.
#[inline(always)]
pub(crate) fn pow_lanes<const N: usize>(x: &[f32; N], y: &[f32; N]) -> [f32; N] {
    let mut out = [0.0; N];
    let mut slow = [false; N];
    let mut any = false;
    for l in 0..N {
        let (z, v) = pow_f32(x[l], y[l]);
        let zero = pow_is_zero(x[l], y[l], z);
        out[l] = if zero { 0.0 } else { v };
        slow[l] = !(pow_fast_ok(x[l], z) || zero);
        any |= slow[l];
    }
    if any {
        for l in 0..N {
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
pub(crate) fn trig_lanes<const N: usize>(x: &[f32; N], quarter: i32) -> [f32; N] {
    let mut red = [0.0; N];
    let mut quad = [0u32; N];
    let mut slow = false;
    let (mut any, mut all) = (0u32, 1u32);
    for l in 0..N {
        let ok = x[l].abs() < TRIG_F32_MAX;
        slow |= !ok;
        let (r, k) = trig_reduce(if ok { x[l] } else { 0.0 }, quarter);
        red[l] = r;
        quad[l] = k;
        any |= k;
        all &= k;
    }
    let mut out = [0.0; N];
    if any & 1 == 0 {
        for l in 0..N {
            out[l] = trig_sign(sin_r(red[l]), quad[l]);
        }
    } else if all & 1 == 1 {
        for l in 0..N {
            out[l] = trig_sign(cos_r(red[l]), quad[l]);
        }
    } else {
        for l in 0..N {
            out[l] = trig_pick(sin_r(red[l]), cos_r(red[l]), quad[l]);
        }
    }
    if slow {
        for l in 0..N {
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

/// The constants of [`trig_reduce`], [`sin_r`] and [`cos_r`] in the order the compiled form
/// keeps them from `jit::K_2PI` on: 2/pi, the rounding bias, a slot for the integer 16384,
/// P1..P3, the sin and cos coefficients, 0.5. The compiled SIN/COS uses these very values.
pub(crate) const TRIG_CONSTS: [f32; 13] = [
    core::f32::consts::FRAC_2_PI,
    16384.5,
    0.0, // K_I16384 (an int, set there)
    TRIG_P1,
    TRIG_P2,
    TRIG_P3,
    SIN_C[0],
    SIN_C[1],
    SIN_C[2],
    COS_C[0],
    COS_C[1],
    COS_C[2],
    0.5,
];
/// Below this magnitude SIN/COS take the f32 path ([`sin`]).
pub(crate) const TRIG_MAX: f32 = TRIG_F32_MAX;
const TRIG_P1: f32 = 1.570_312_5;
const TRIG_P2: f32 = 4.837_513e-4;
const TRIG_P3: f32 = 7.549_789_9e-8;
const SIN_C: [f32; 3] = [-1.951_529_6e-4, 8.332_160_9e-3, 1.666_665_5e-1];
const COS_C: [f32; 3] = [2.443_315_7e-5, 1.388_731_6e-3, 4.166_664_6e-2];

/// x + quarter * pi/2 = k * pi/2 + r with |r| <= pi/4 (Cody-Waite, f32): returns (r, k).
#[inline(always)]
fn trig_reduce(x: f32, quarter: i32) -> (f32, u32) {
    // pi/2 = P1 + P2 + P3, P1 and P2 short enough that k * P1 and k * P2 are exact.
    const P1: f32 = TRIG_P1;
    const P2: f32 = TRIG_P2;
    const P3: f32 = TRIG_P3;
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
    ((SIN_C[0] * z + SIN_C[1]) * z - SIN_C[2]) * z * r + r
}

/// Minimax cos on [-pi/4, pi/4].
#[inline(always)]
fn cos_r(r: f32) -> f32 {
    let z = r * r;
    ((COS_C[0] * z - COS_C[1]) * z + COS_C[2]) * z * z - 0.5 * z + 1.0
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
    fn floor_f32_is_libm_floorf_bit_for_bit() {
        let check = |x: f32| {
            assert_eq!(
                floor_f32(x).to_bits(),
                libm::floorf(x).to_bits(),
                "{:08x}",
                x.to_bits()
            );
        };
        // Every 4099th bit pattern (all exponents, both signs, NaNs and infinities)...
        let mut b = 0u32;
        while let Some(n) = b.checked_add(4099) {
            check(f32::from_bits(b));
            b = n;
        }
        // ... every float around the 2^23 boundary and near 0, and halves and quarters.
        for k in 0..1 << 16 {
            for base in [8_388_608.0f32, 4_194_304.0, 1.0, 0.0] {
                let x = f32::from_bits(base.to_bits().wrapping_add(k).wrapping_sub(1 << 15));
                check(x);
                check(-x);
            }
            let q = k as f32 * 0.25 - 8192.0;
            check(q);
            check(q + 0.5);
        }
        for x in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ] {
            check(x);
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
