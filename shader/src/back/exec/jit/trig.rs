//! SIN/COS inline (issue 17): `math::trig_reduce`, `sin_r`, `cos_r` and `trig_pick` op for op
//! on 8 lanes, with the same constants (`math::TRIG_CONSTS` in `Frame::consts`), the same IEEE
//! single ops in the same order and no FMA. A lane whose operand is outside the f32 form's
//! range (|x| >= 8192, or NaN) sets `Frame::bail` when active, and the dispatch goes to the
//! interpreter.
//!
//! The quadrant k = k0 + quarter picks +-sin(r) (k even) or +-cos(r) (k odd) per lane; the
//! interpreter's `trig_lanes` evaluates only one polynomial when its lanes share k's parity,
//! and so does this code (session 14): one VPTEST of k0 against 1 in every lane (ZF: every k0
//! even, CF: every k0 odd) branches to a path with that polynomial alone, and only a group of
//! mixed parity evaluates both and blends (laid out even, mixed, odd: the even and mixed paths
//! jump to the join, the odd one falls through to it). The pick is per lane either way (a blend takes
//! each lane's bits from the polynomial its k selects), so all three paths give every lane
//! the same bits; the branch only chooses which work is skipped. The sign flip (quadrants 2
//! and 3) is `(k & 2) << 30` XORed in; where k is known even it is `k << 30` (bit 30 is
//! k & 1 = 0), one op fewer.

use super::enc::{Arg, Enc, EncError, Pi, Ps, Y};
use super::flow::Cc;
use super::{
    Frame, Gen, JitError, Val, K_2PI, K_ABS, K_BIAS, K_C0, K_C1, K_C2, K_HALF, K_I1, K_I16384,
    K_I2, K_ONE, K_P1, K_P2, K_P3, K_S0, K_S1, K_S2, K_TMAX, YM,
};
use core::mem::offset_of;

/// `d = sin_r(r)` with `z = r * r`: `((S0 z + S1) z - S2) z r + r` (`d` differs from both).
fn sin_poly(e: &mut Enc, d: Y, z: Y, r: Y) -> Result<(), EncError> {
    // Every constant is a memory operand (`Frame::consts`, 8 lanes); where an op takes it as
    // its first operand in `math`, the op commutes (MUL, ADD) and the constant is never NaN,
    // so the bits are the same.
    e.op_k(Ps::Mul, d, z, K_S0)?;
    e.steps(
        d,
        &[
            (Ps::Add, Arg::K(K_S1)),
            (Ps::Mul, Arg::Y(z)),
            (Ps::Sub, Arg::K(K_S2)),
            (Ps::Mul, Arg::Y(z)),
            (Ps::Mul, Arg::Y(r)),
            (Ps::Add, Arg::Y(r)),
        ],
    )
}

/// `d = cos_r(r)` with `z = r * r`: `((C0 z - C1) z + C2) z z - 0.5 z + 1` (`t` a scratch
/// register; `d`, `z` and `t` distinct).
fn cos_poly(e: &mut Enc, d: Y, z: Y, t: Y) -> Result<(), EncError> {
    e.op_k(Ps::Mul, d, z, K_C0)?;
    e.steps(
        d,
        &[
            (Ps::Sub, Arg::K(K_C1)),
            (Ps::Mul, Arg::Y(z)),
            (Ps::Add, Arg::K(K_C2)),
            (Ps::Mul, Arg::Y(z)),
            (Ps::Mul, Arg::Y(z)),
        ],
    )?;
    e.op_k(Ps::Mul, t, z, K_HALF)?;
    e.steps(d, &[(Ps::Sub, Arg::Y(t)), (Ps::Add, Arg::K(K_ONE))])
}

/// `d ^= (k & 2) << 30` (quadrants 2 and 3 flip the sign), `k` clobbered; `even`: every
/// lane's k is even, so `k << 30` alone has that bit and nothing else.
fn flip_sign(e: &mut Enc, d: Y, k: Y, even: bool) -> Result<(), EncError> {
    if !even {
        e.int_k(Pi::And as u8, k, k, K_I2)?;
    }
    e.pslld(k, k, 30)?;
    e.op_reg(Ps::Xor, d, d, k)
}

impl Gen<'_, '_> {
    /// `dst = sin(a)` (or cos) as `math::trig_lanes` computes it for |a| < 8192: the same
    /// reduction, polynomials and quadrant pick, op for op (one polynomial when the group's
    /// lanes share the quadrant parity, see the module header); the lanes outside that range
    /// (or NaN) are OR-ed into `Frame::bail` and the dispatch goes to the interpreter.
    pub(super) fn trig(&mut self, a: Val, dst: Val, cos: bool) -> Result<(), JitError> {
        let x = self.get(a)?;
        // Every register is taken before the first branch: the three paths leave the
        // allocator in one state.
        let mut t = [Y(0); 7];
        for t in t.iter_mut() {
            *t = self.alloc()?;
        }
        let [t0, k, z, r, t4, t5, res] = t;
        let e = &mut self.e;
        // Lanes for the interpreter: !(|x| < 8192) (NLT, unordered true).
        e.op_k(Ps::And, t0, x, K_ABS)?;
        e.cmp_k(t0, t0, K_TMAX, 0x05)?;
        if self.flow {
            // Only the lanes under the current mask (the interpreter skips the others).
            e.op_reg(Ps::And, t0, t0, YM)?;
        }
        e.or_mask(t0, offset_of!(Frame, bail))?;
        // k0 = floor(x * 2/pi + 16384.5) - 16384 (the sum is positive: truncation is floor).
        e.op_k(Ps::Mul, k, x, K_2PI)?;
        e.floor_biased(k, k, K_BIAS, K_I16384)?;
        e.cvt_dq_ps(z, k)?;
        // r = ((x - kf P1) - kf P2) - kf P3, z = r r.
        e.op_k(Ps::Mul, r, z, K_P1)?;
        e.op_reg(Ps::Sub, r, x, r)?;
        for p in [K_P2, K_P3] {
            e.op_k(Ps::Mul, t4, z, p)?;
            e.op_reg(Ps::Sub, r, r, t4)?;
        }
        e.op_reg(Ps::Mul, z, r, r)?;
        // k = k0 + quarter: SIN takes sin_r where k0 is even, COS where it is odd.
        e.ptest_k(k, K_I1)?;
        let not_even = e.jcc_fwd(Cc::Nz)?;
        // Every k0 even: one polynomial; k & 2 = k0 & 2 (k0 even, quarter <= 1).
        if cos {
            cos_poly(e, res, z, t4)?;
        } else {
            sin_poly(e, res, z, r)?;
        }
        flip_sign(e, res, k, true)?;
        let even_done = e.jmp_fwd()?;
        e.land(not_even)?;
        let odd = e.jcc_fwd(Cc::B)?;
        // Mixed parity: both, each lane's picked by k & 1 (shifted to the sign bit).
        if cos {
            e.int_k(Pi::Add as u8, k, k, K_I1)?;
        }
        sin_poly(e, res, z, r)?;
        cos_poly(e, t5, z, t4)?;
        e.pslld(t0, k, 31)?;
        e.blendv(res, res, t5, t0)?;
        flip_sign(e, res, k, false)?;
        let mixed_done = e.jmp_fwd()?;
        // Every k0 odd (last: it falls through to the join): the other polynomial.
        e.land(odd)?;
        if cos {
            sin_poly(e, res, z, r)?;
            // k = k0 + 1 is even.
            e.int_k(Pi::Add as u8, k, k, K_I1)?;
            flip_sign(e, res, k, true)?;
        } else {
            cos_poly(e, res, z, t4)?;
            flip_sign(e, res, k, false)?;
        }
        e.land(even_done)?;
        e.land(mixed_done)?;
        self.set(dst, res)
    }
}

#[cfg(test)]
mod tests {
    use super::super::enc::{Enc, EncError, Y};
    use super::super::flow::Cc;
    use super::super::{konst, FRAME_BYTES, K_I1};

    /// VPTEST against a frame constant and the forward jumps of the parity branch, against
    /// the manual's encodings (checked with a disassembler).
    #[test]
    fn parity_branch_encodings_are_the_manual_ones() {
        let mut buf = [0u8; 64];
        let mut e = Enc::new(&mut buf, FRAME_BYTES);
        let run = |e: &mut Enc| -> Result<(), EncError> {
            e.ptest_k(Y(11), K_I1)?;
            e.ptest_k(Y(2), K_I1)?;
            let ne = e.jcc_fwd(Cc::Nz)?;
            let done = e.jmp_fwd()?;
            e.land(ne)?;
            let odd = e.jcc_fwd(Cc::B)?;
            e.land(odd)?;
            e.land(done)
        };
        run(&mut e).unwrap();
        let n = e.len();
        let d = (konst(K_I1) as u32).to_le_bytes();
        let mut want = std::vec::Vec::new();
        want.extend_from_slice(&[0xC4, 0x62, 0x7D, 0x17, 0x9F]);
        want.extend_from_slice(&d);
        want.extend_from_slice(&[0xC4, 0xE2, 0x7D, 0x17, 0x97]);
        want.extend_from_slice(&d);
        want.extend_from_slice(&[
            0x0F, 0x85, 5, 0, 0, 0, 0xE9, 6, 0, 0, 0, 0x0F, 0x82, 0, 0, 0, 0,
        ]);
        assert_eq!(&buf[..n], &want[..]);
    }
}
