//! POW inline (issue 17, session 11): `math::pow_f32`, `pow_is_zero` and `pow_fast_ok` op for
//! op on 8 lanes, with the same constants (`POW_CONSTS`, written as `math` writes them), the
//! same IEEE single ops in the same order and no FMA, so every lane the branch-free core
//! covers (normal finite x > 0 with |y log2 x| <= 125, and the +0 shortcuts: a zero base with
//! y > 0, y log2 x < -151) has the interpreter's bits. When an active lane is outside them
//! (x < 0, NaN, infinite or denormal x, y = 0 with a zero base, a result near the f32 range's
//! ends...), a cold path in line (skipped by one VPTEST and jump) saves every YMM to the
//! frame, calls [`super::Helper::Pow`] (the interpreter's own `math::pow_lanes` on the 8
//! lanes of `Frame::pow_io`), restores the YMMs and takes the helper's result for all 8 lanes
//! (the same bits on the core's lanes). Nothing is spilled and no value leaves its YMM on the
//! common path.
//!
//! The core's clamp of y log2 x to [-125, 125] is left out: it only changes lanes outside
//! [-125, 125], whose result is the +0 shortcut or the helper's.

use super::enc::{Arg, Base, EncError, Pi, Ps, Y};
use super::{half, half_mut, Frame, Gen, JitError, Val, YM};
use core::mem::offset_of;

/// The floats (and ints, as bits) the inline POW reads, at `Frame::consts[POW_BASE..]`.
pub(super) const POW_BASE: usize = 20;
const K_MANT: usize = POW_BASE;
const K_FF: usize = POW_BASE + 1;
const K_I127: usize = POW_BASE + 2;
const K_SQRT2: usize = POW_BASE + 3;
const K_T9: usize = POW_BASE + 4;
const K_T7: usize = POW_BASE + 5;
const K_T5: usize = POW_BASE + 6;
const K_T3: usize = POW_BASE + 7;
const K_TWO: usize = POW_BASE + 8;
const K_LOG2E: usize = POW_BASE + 9;
const K_BIAS: usize = POW_BASE + 10;
const K_I128: usize = POW_BASE + 11;
const K_LN2: usize = POW_BASE + 12;
const K_F5040: usize = POW_BASE + 13;
const K_E720: usize = POW_BASE + 14;
const K_E120: usize = POW_BASE + 15;
const K_E24: usize = POW_BASE + 16;
const K_E6: usize = POW_BASE + 17;
const K_MINPOS: usize = POW_BASE + 18;
const K_INF: usize = POW_BASE + 19;
const K_M151: usize = POW_BASE + 20;
const K_M125: usize = POW_BASE + 21;
const K_P125: usize = POW_BASE + 22;
const K_HALF: usize = super::K_HALF;
const K_ONE: usize = super::K_ONE;
/// How many constants POW adds.
pub(super) const POW_COUNT: usize = 23;

/// The bits of the constants, in `K_*` order: `math::pow_f32`'s literals as it writes them
/// (f32 arithmetic, folded the same way).
pub(super) const POW_CONSTS: [u32; POW_COUNT] = [
    0x007f_ffff,
    0xff,
    127,
    core::f32::consts::SQRT_2.to_bits(),
    (1.0f32 / 9.0).to_bits(),
    (1.0f32 / 7.0).to_bits(),
    0.2f32.to_bits(),
    (1.0f32 / 3.0).to_bits(),
    2.0f32.to_bits(),
    core::f32::consts::LOG2_E.to_bits(),
    128.5f32.to_bits(),
    128,
    core::f32::consts::LN_2.to_bits(),
    5040.0f32.to_bits(),
    (1.0f32 / 720.0).to_bits(),
    (1.0f32 / 120.0).to_bits(),
    (1.0f32 / 24.0).to_bits(),
    (1.0f32 / 6.0).to_bits(),
    f32::MIN_POSITIVE.to_bits(),
    f32::INFINITY.to_bits(),
    (-151.0f32).to_bits(),
    (-125.0f32).to_bits(),
    125.0f32.to_bits(),
];

// VCMPPS predicates.
const EQ_OQ: u8 = 0x00;
const LT_OS: u8 = 0x01;
const LE_OS: u8 = 0x02;
const GE_OS: u8 = 0x0D;
const GT_OS: u8 = 0x0E;
// Packed dword opcodes (map 0F, 66).
const POR: u8 = 0xEB;

/// `Frame::pow_io[k]`: the helper's x, y and result.
const fn io(k: usize) -> usize {
    offset_of!(Frame, pow_io) + k * super::SLOT_BYTES
}

impl Gen<'_, '_> {
    /// `dst = pow(a, b)` as `math::pow_lanes` computes it (see the module header). Uses
    /// eight YMMs at most (the operands, five temporaries and the result), as SIN/COS do.
    pub(super) fn pow(&mut self, a: Val, b: Val, dst: Val) -> Result<(), JitError> {
        let x = self.get(a)?;
        let y = self.get(b)?;
        let mut t = [Y(0); 5];
        for t in t.iter_mut() {
            *t = self.alloc()?;
        }
        let [ta, tb, tc, td, te] = t;
        let e = &mut self.e;
        // Constants are memory operands (`Frame::consts`, 8 lanes); where `math` writes one
        // first, the op commutes (MUL, AND, OR) and the constant is never NaN: the same bits.
        // m0 = mantissa | 1.0's exponent; e0 = biased exponent - 127.
        e.int_k(Pi::And as u8, ta, x, K_MANT)?;
        e.int_k(POR, ta, ta, K_ONE)?;
        e.shift_imm(2, tb, x, 23)?;
        e.int_k(Pi::And as u8, tb, tb, K_FF)?;
        e.int_k(Pi::Sub as u8, tb, tb, K_I127)?;
        // big = m0 > sqrt 2: m = m0 * 0.5, e = e0 + 1 (big is -1 as an int).
        e.cmp_k(tc, ta, K_SQRT2, GT_OS)?;
        e.int_op(Pi::Sub, tb, tb, tc)?;
        e.op_k(Ps::Mul, td, ta, K_HALF)?;
        e.blendv(ta, ta, td, tc)?;
        // t = (m - 1) / (m + 1), t2 = t t.
        e.op_k(Ps::Sub, td, ta, K_ONE)?;
        e.op_k(Ps::Add, ta, ta, K_ONE)?;
        e.op_reg(Ps::Div, td, td, ta)?;
        e.op_reg(Ps::Mul, ta, td, td)?;
        // ln = 2 t (1 + t2 (1/3 + t2 (0.2 + t2 (1/7 + t2 / 9)))).
        let t2 = Arg::Y(ta);
        e.op_k(Ps::Mul, tc, ta, K_T9)?;
        e.steps(
            tc,
            &[
                (Ps::Add, Arg::K(K_T7)),
                (Ps::Mul, t2),
                (Ps::Add, Arg::K(K_T5)),
                (Ps::Mul, t2),
                (Ps::Add, Arg::K(K_T3)),
                (Ps::Mul, t2),
                (Ps::Add, Arg::K(K_ONE)),
            ],
        )?;
        e.op_k(Ps::Mul, te, td, K_TWO)?;
        e.op_reg(Ps::Mul, tc, te, tc)?;
        // z = y (e + ln log2 e).
        e.op_k(Ps::Mul, tc, tc, K_LOG2E)?;
        e.cvt_dq_ps(tb, tb)?;
        e.op_reg(Ps::Add, tb, tb, tc)?;
        e.op_reg(Ps::Mul, tb, y, tb)?;
        let z = tb;
        // n = floor(z + 128.5) - 128 (truncation: the sum is positive on the core's lanes).
        e.floor_biased(ta, z, K_BIAS, K_I128)?;
        // g = (z - n) ln 2; p = 1 + g (1 + g (0.5 + g (1/6 + ... + g (1/720 + g / 5040)))).
        e.cvt_dq_ps(tc, ta)?;
        e.op_reg(Ps::Sub, tc, z, tc)?;
        e.op_k(Ps::Mul, tc, tc, K_LN2)?;
        e.op_k(Ps::Div, td, tc, K_F5040)?;
        let g = Arg::Y(tc);
        e.steps(
            td,
            &[
                (Ps::Add, Arg::K(K_E720)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_E120)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_E24)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_E6)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_HALF)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_ONE)),
                (Ps::Mul, g),
                (Ps::Add, Arg::K(K_ONE)),
            ],
        )?;
        // v = p * 2^n: ((n + 127) & 0xff) << 23.
        e.int_k(Pi::Add as u8, ta, ta, K_I127)?;
        e.int_k(Pi::And as u8, ta, ta, K_FF)?;
        e.pslld(ta, ta, 23)?;
        e.op_reg(Ps::Mul, td, td, ta)?;
        // xn = MIN_POSITIVE <= x < inf; zero = (x == 0 & y > 0) | (xn & z < -151);
        // ok = zero | (xn & -125 <= z <= 125).
        e.cmp_k(ta, x, K_MINPOS, GE_OS)?;
        e.cmp_k(tc, x, K_INF, LT_OS)?;
        e.op_reg(Ps::And, ta, ta, tc)?;
        e.cmp_k(tc, z, K_M151, LT_OS)?;
        e.op_reg(Ps::And, tc, tc, ta)?;
        e.op_reg(Ps::Xor, te, te, te)?;
        let r = self.alloc()?;
        let e = &mut self.e;
        e.cmp_reg(r, x, te, EQ_OQ)?;
        e.cmp_reg(te, y, te, GT_OS)?;
        e.op_reg(Ps::And, r, r, te)?;
        e.int0f(POR, tc, tc, r)?;
        e.cmp_k(te, z, K_M125, GE_OS)?;
        e.op_reg(Ps::And, ta, ta, te)?;
        e.cmp_k(te, z, K_P125, LE_OS)?;
        e.op_reg(Ps::And, ta, ta, te)?;
        e.int0f(POR, ta, ta, tc)?;
        // The result: +0 on the zero lanes, v on the others.
        e.andn(r, tc, td)?;
        // The helper runs when some lane is not ok (and active: the interpreter skips the
        // others): VPTEST's CF is set, and the cold path skipped, when every bit of the
        // active lanes' mask (every lane's all-ones without IF or DISCARD) is set in ok.
        if self.flow {
            e.ptest(ta, YM)?;
        } else {
            e.ptest_k(ta, super::K_ALL)?;
        }
        let skip = e.jcc_fwd(super::flow::Cc::B)?;
        cold(e, x, y, r)?;
        e.land(skip)?;
        // The temporaries are free again (a blend under the mask may need one).
        for t in t {
            self.pinned &= !(1 << t.0);
        }
        self.set(dst, r)
    }
}

/// The cold path: every YMM saved, x and y to `pow_io`, the helper, the YMMs back and the
/// helper's result in `r`.
fn cold(e: &mut super::Enc, x: Y, y: Y, r: Y) -> Result<(), EncError> {
    let save = |i: u8| offset_of!(Frame, pow_save) + i as usize * super::SLOT_BYTES;
    for i in 0..16 {
        e.store(Base::Frame, save(i), Y(i))?;
    }
    e.store(Base::Frame, io(0), x)?;
    e.store(Base::Frame, io(1), y)?;
    e.call(super::Helper::Pow, if e.wide { super::INFO_ZMM } else { 0 })?;
    for i in 0..16 {
        e.load(Y(i), Base::Frame, save(i))?;
    }
    e.load(r, Base::Frame, io(2))
}

/// [`super::Helper::Pow`]: `pow_io[2] = math::pow_lanes(pow_io[0], pow_io[1])` on the frame's
/// instruction set (the interpreter's own lane function: lanes never influence each other in
/// it, so these are the interpreter's bits).
pub(super) extern "sysv64" fn helper_pow(frame: &mut Frame, info: u32) {
    // The 16-lane form's call: both halves of the slots, else the first.
    let halves = if info & super::INFO_ZMM != 0 { 2 } else { 1 };
    let simd = frame.simd;
    simd.run(
        #[inline(always)]
        || {
            for h in 0..halves {
                let (x, y) = (half(&frame.pow_io[0], h), half(&frame.pow_io[1], h));
                *half_mut(&mut frame.pow_io[2], h) = super::super::math::pow_lanes(&x, &y);
            }
        },
    );
}
