//! Profile 2's 32-bit integer ops (IR opcodes 48..=71) on the executor's float lanes: each lane
//! holds its integer's bit pattern (`f32::to_bits` / `from_bits`), so nothing is rounded. Out
//! of line (one call per instruction) so that the interpreter's float paths, which profile 1
//! runs, stay as they were.
//!
//! Semantics (ir/mod.rs's table, docs/LANGUAGE.md "Integers (profile 2)"), chosen to give the bits
//! Mesa's llvmpipe gives, which is also what VirGL gives (virglrenderer turns the TGSI back into
//! GLSL for the host): wrapping arithmetic, IDIV x / 0 = 0 and INT_MIN / -1 = INT_MIN, UDIV x / 0
//! = 0xffffffff, IMOD and UMOD the remainder of the unsigned bit patterns with x % 0 =
//! 0xffffffff, shift counts mod 32, F2I/F2U as [`crate::ir::f2i`] / [`crate::ir::f2u`].
use super::lanes::{Mask, Vec4x, LANES};
use super::{put, DInst, REG_FILE, REG_MASK};
use crate::ir::{f2i, f2u, CmpCode, Op, CVT_F2I, CVT_F2U, CVT_I2F, CVT_U2F};

/// The two-operand ops on bit patterns (everything but CVT and the compares).
#[inline]
pub fn binary_bits(op: Op, x: u32, y: u32) -> u32 {
    let (sx, sy) = (x as i32, y as i32);
    match op {
        Op::IAdd => x.wrapping_add(y),
        Op::ISub => x.wrapping_sub(y),
        Op::IMul => x.wrapping_mul(y),
        Op::IDiv => {
            if sy == 0 {
                0
            } else {
                sx.wrapping_div(sy) as u32
            }
        }
        Op::UDiv => x.checked_div(y).unwrap_or(u32::MAX),
        Op::IMod | Op::UMod => x.checked_rem(y).unwrap_or(u32::MAX),
        Op::And => x & y,
        Op::Or => x | y,
        Op::Xor => x ^ y,
        Op::Shl => x.wrapping_shl(y),
        Op::IShr => sx.wrapping_shr(y) as u32,
        Op::UShr => x.wrapping_shr(y),
        Op::IMin => sx.min(sy) as u32,
        Op::IMax => sx.max(sy) as u32,
        Op::UMin => x.min(y),
        Op::UMax => x.max(y),
        _ => 0,
    }
}

/// The one-operand ops (NOT, INEG, IABS, ISIGN) on a bit pattern.
#[inline]
pub fn unary_bits(op: Op, x: u32) -> u32 {
    let sx = x as i32;
    match op {
        Op::Not => !x,
        Op::INeg => sx.wrapping_neg() as u32,
        Op::IAbs => sx.wrapping_abs() as u32,
        Op::ISign => sx.signum() as u32,
        _ => 0,
    }
}

/// ICMP (signed) or UCMP (unsigned) of two bit patterns.
#[inline]
pub fn compare_bits(signed: bool, code: CmpCode, x: u32, y: u32) -> bool {
    let o = if signed {
        (x as i32).cmp(&(y as i32))
    } else {
        x.cmp(&y)
    };
    match code {
        CmpCode::Lt => o.is_lt(),
        CmpCode::Gt => o.is_gt(),
        CmpCode::Le => o.is_le(),
        CmpCode::Ge => o.is_ge(),
        CmpCode::Eq => o.is_eq(),
        CmpCode::Ne => o.is_ne(),
    }
}

/// CVT of one lane (`kind` = the CVT_* constant); the result as the lane's f32.
#[inline]
pub fn convert(kind: i16, x: f32) -> f32 {
    match kind {
        CVT_I2F => x.to_bits() as i32 as f32,
        CVT_U2F => x.to_bits() as f32,
        CVT_F2I => f32::from_bits(f2i(x) as u32),
        CVT_F2U => f32::from_bits(f2u(x)),
        _ => 0.0,
    }
}

/// One lane of any integer op (also the scalar reference of tests and constant folding).
pub fn eval(op: Op, aux: i16, x: f32, y: f32) -> f32 {
    let (bx, by) = (x.to_bits(), y.to_bits());
    match op {
        Op::Cvt => convert(aux, x),
        Op::ICmp | Op::UCmp => {
            let code = CmpCode::from_i16(aux).unwrap_or(CmpCode::Eq);
            if compare_bits(op == Op::ICmp, code, bx, by) {
                1.0
            } else {
                0.0
            }
        }
        op if op.is_int_unary() => f32::from_bits(unary_bits(op, bx)),
        op => f32::from_bits(binary_bits(op, bx, by)),
    }
}

/// Runs one decoded integer instruction over every lane (masked by `m`).
#[inline(never)]
pub(super) fn run(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask) {
    let (a, b, dst) = (
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
        d.dst as usize & REG_MASK,
    );
    let aux = d.x as i16;
    for c in 0..(d.n as usize).min(4) {
        let (x, y) = (&r[a][c], &r[b][c]);
        let mut v = [0.0f32; LANES];
        match d.op {
            Op::Cvt => {
                for l in 0..LANES {
                    v[l] = convert(aux, x[l]);
                }
            }
            Op::ICmp | Op::UCmp => {
                let code = CmpCode::from_i16(aux).unwrap_or(CmpCode::Eq);
                let signed = d.op == Op::ICmp;
                for l in 0..LANES {
                    let t = compare_bits(signed, code, x[l].to_bits(), y[l].to_bits());
                    v[l] = if t { 1.0 } else { 0.0 };
                }
            }
            op if op.is_int_unary() => {
                for l in 0..LANES {
                    v[l] = f32::from_bits(unary_bits(op, x[l].to_bits()));
                }
            }
            op => {
                for l in 0..LANES {
                    v[l] = f32::from_bits(binary_bits(op, x[l].to_bits(), y[l].to_bits()));
                }
            }
        }
        put(&mut r[dst][c], &v, m);
    }
}
