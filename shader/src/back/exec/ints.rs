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
use super::lanes::{Lanes, Mask, Vec4x, LANES};
use super::simd::Simd;
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

/// Runs one decoded integer instruction over every lane (masked by `m`), compiled for the
/// dispatch's instruction set (see `simd`): out of line, so the interpreter's float paths stay
/// as they were, but inside its own AVX2 trampoline so the lane loops run 8 lanes wide there.
#[inline(never)]
pub(super) fn run(simd: Simd, r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask) {
    simd.run(
        #[inline(always)]
        || run_lanes(r, d, m),
    )
}

/// ICMP (`signed`) or UCMP with code `aux` of every lane: 1.0 or 0.0.
#[inline(always)]
pub(super) fn compare_lanes(signed: bool, aux: i16, x: &Lanes, y: &Lanes) -> Lanes {
    let code = CmpCode::from_i16(aux).unwrap_or(CmpCode::Eq);
    if signed {
        let s = |x: u32| x as i32;
        match code {
            CmpCode::Lt => cmp(x, y, |x, y| (s(x) < s(y)) as u32),
            CmpCode::Gt => cmp(x, y, |x, y| (s(x) > s(y)) as u32),
            CmpCode::Le => cmp(x, y, |x, y| (s(x) <= s(y)) as u32),
            CmpCode::Ge => cmp(x, y, |x, y| (s(x) >= s(y)) as u32),
            CmpCode::Eq => cmp(x, y, |x, y| (x == y) as u32),
            CmpCode::Ne => cmp(x, y, |x, y| (x != y) as u32),
        }
    } else {
        match code {
            CmpCode::Lt => cmp(x, y, |x, y| (x < y) as u32),
            CmpCode::Gt => cmp(x, y, |x, y| (x > y) as u32),
            CmpCode::Le => cmp(x, y, |x, y| (x <= y) as u32),
            CmpCode::Ge => cmp(x, y, |x, y| (x >= y) as u32),
            CmpCode::Eq => cmp(x, y, |x, y| (x == y) as u32),
            CmpCode::Ne => cmp(x, y, |x, y| (x != y) as u32),
        }
    }
}

/// IADD of one component, inlined into the interpreter (same bits as [`run`]'s).
#[inline(always)]
pub(super) fn iadd1(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask) {
    let v = bits2(
        &r[d.a as usize & REG_MASK][0],
        &r[d.b as usize & REG_MASK][0],
        u32::wrapping_add,
    );
    put(&mut r[d.dst as usize & REG_MASK][0], &v, m);
}

/// One lane loop per op (the op is chosen once per component, not per lane), so the loops
/// that have SIMD forms (add, sub, mul, bit ops, shifts, min/max, compares, conversions to
/// float) vectorise; the division family stays lane by lane. Each lane gives the bits of
/// [`binary_bits`] / [`unary_bits`] / [`compare_bits`] / [`convert`] (the `ints_*` tests check
/// every op against [`eval`]).
#[inline(always)]
fn run_lanes(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask) {
    let (a, b, dst) = (
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
        d.dst as usize & REG_MASK,
    );
    let aux = d.x as i16;
    for c in 0..(d.n as usize).min(4) {
        let (x, y) = (&r[a][c], &r[b][c]);
        let v = match d.op {
            Op::Cvt => match aux {
                CVT_I2F => each(x, |x| x.to_bits() as i32 as f32),
                CVT_U2F => each(x, |x| x.to_bits() as f32),
                kind => each(x, |x| convert(kind, x)),
            },
            Op::ICmp | Op::UCmp => compare_lanes(d.op == Op::ICmp, aux, x, y),
            Op::IAdd => bits2(x, y, u32::wrapping_add),
            Op::ISub => bits2(x, y, u32::wrapping_sub),
            Op::IMul => bits2(x, y, u32::wrapping_mul),
            Op::And => bits2(x, y, |x, y| x & y),
            Op::Or => bits2(x, y, |x, y| x | y),
            Op::Xor => bits2(x, y, |x, y| x ^ y),
            Op::Shl => bits2(x, y, |x, y| x << (y & 31)),
            Op::UShr => bits2(x, y, |x, y| x >> (y & 31)),
            Op::IShr => bits2(x, y, |x, y| ((x as i32) >> (y & 31)) as u32),
            Op::IMin => bits2(x, y, |x, y| (x as i32).min(y as i32) as u32),
            Op::IMax => bits2(x, y, |x, y| (x as i32).max(y as i32) as u32),
            Op::UMin => bits2(x, y, u32::min),
            Op::UMax => bits2(x, y, u32::max),
            Op::Not => bits2(x, y, |x, _| !x),
            Op::INeg => bits2(x, y, |x, _| (x as i32).wrapping_neg() as u32),
            Op::IAbs => bits2(x, y, |x, _| (x as i32).wrapping_abs() as u32),
            op if op.is_int_unary() => bits2(x, y, |x, _| unary_bits(op, x)),
            op => bits2(x, y, |x, y| binary_bits(op, x, y)),
        };
        put(&mut r[dst][c], &v, m);
    }
}

/// `f` of every lane's float.
#[inline(always)]
fn each(x: &Lanes, f: impl Fn(f32) -> f32) -> Lanes {
    let mut v = [0.0f32; LANES];
    for l in 0..LANES {
        v[l] = f(x[l]);
    }
    v
}

/// `f` of every lane's two bit patterns.
#[inline(always)]
fn bits2(x: &Lanes, y: &Lanes, f: impl Fn(u32, u32) -> u32) -> Lanes {
    let mut v = [0.0f32; LANES];
    for l in 0..LANES {
        v[l] = f32::from_bits(f(x[l].to_bits(), y[l].to_bits()));
    }
    v
}

/// A compare `t` (0 or 1) of every lane's bit patterns, as 0.0 or 1.0.
#[inline(always)]
fn cmp(x: &Lanes, y: &Lanes, t: impl Fn(u32, u32) -> u32) -> Lanes {
    let mut v = [0.0f32; LANES];
    for l in 0..LANES {
        // 1.0 is 0x3f80_0000: the compare's 0/1 times that pattern, no branch.
        v[l] = f32::from_bits(t(x[l].to_bits(), y[l].to_bits()) * 0x3f80_0000);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::super::simd::Isa;
    use super::super::ALL_LANES;
    use super::*;

    /// The per-op lane loops of `run` give `eval`'s bits on every lane of the mask and leave the
    /// others alone, on every instruction set this machine runs.
    #[test]
    fn ints_run_matches_eval_on_every_path() {
        let edge = [
            0u32,
            1,
            2,
            31,
            32,
            33,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0xffff_fffe,
            0x3f80_0000,
            0x7f80_0000,
            0x7fc0_0000,
            0x4f00_0000,
            0xcf00_0001,
        ];
        let mut ops: std::vec::Vec<(Op, i16)> = [
            Op::IAdd,
            Op::ISub,
            Op::IMul,
            Op::IDiv,
            Op::UDiv,
            Op::IMod,
            Op::UMod,
            Op::And,
            Op::Or,
            Op::Xor,
            Op::Not,
            Op::Shl,
            Op::IShr,
            Op::UShr,
            Op::IMin,
            Op::IMax,
            Op::UMin,
            Op::UMax,
            Op::INeg,
            Op::IAbs,
            Op::ISign,
        ]
        .iter()
        .map(|o| (*o, 0))
        .collect();
        for k in [CVT_I2F, CVT_U2F, CVT_F2I, CVT_F2U] {
            ops.push((Op::Cvt, k));
        }
        for code in 0..6i16 {
            ops.push((Op::ICmp, code));
            ops.push((Op::UCmp, code));
        }
        let mut seed = 0x1234_5678u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed
        };
        for isa in [Isa::Base, Isa::Avx2] {
            let Some(simd) = Simd::with(isa) else {
                continue;
            };
            for round in 0..40 {
                for &(op, aux) in &ops {
                    let mut r = [[[0.0f32; LANES]; 4]; REG_FILE];
                    for c in 0..4 {
                        for l in 0..LANES {
                            let pick = |v: u32| {
                                if round % 2 == 0 {
                                    edge[v as usize % edge.len()]
                                } else {
                                    v
                                }
                            };
                            r[1][c][l] = f32::from_bits(pick(rnd()));
                            r[2][c][l] = f32::from_bits(pick(rnd()));
                            r[3][c][l] = f32::from_bits(rnd());
                        }
                    }
                    let m = if round % 4 < 2 { ALL_LANES } else { rnd() };
                    let d = DInst {
                        op,
                        n: 4,
                        dst: 3,
                        a: 1,
                        b: 2,
                        x: aux as u8,
                        ..super::super::DNOP
                    };
                    let before = r[3];
                    // The interpreter's inlined forms, on a copy: the same bits as `run`'s
                    // first component.
                    let mut inl = r;
                    match op {
                        Op::IAdd => iadd1(&mut inl, &d, m),
                        Op::ICmp | Op::UCmp => {
                            let v = compare_lanes(op == Op::ICmp, aux, &inl[1][0], &inl[2][0]);
                            put(&mut inl[3][0], &v, m);
                        }
                        _ => {}
                    }
                    run(simd, &mut r, &d, m);
                    if matches!(op, Op::IAdd | Op::ICmp | Op::UCmp) {
                        assert_eq!(inl[3][0].map(f32::to_bits), r[3][0].map(f32::to_bits));
                    }
                    for c in 0..4 {
                        for l in 0..LANES {
                            let want = if m & (1 << l) != 0 {
                                eval(op, aux, r[1][c][l], r[2][c][l])
                            } else {
                                before[c][l]
                            };
                            assert_eq!(
                                r[3][c][l].to_bits(),
                                want.to_bits(),
                                "{:?} {} on {:?}: {:08x}, {:08x}",
                                op,
                                aux,
                                isa,
                                r[1][c][l].to_bits(),
                                r[2][c][l].to_bits()
                            );
                        }
                    }
                }
            }
        }
    }
}
