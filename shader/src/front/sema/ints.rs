//! Profile 2's true 32-bit integers (issue 14, item 4): `int`/`uint` values (constants and
//! temps) hold their bit pattern in the lane (`f32::from_bits`), as TGSI does, and every
//! operation on them lowers to the integer opcodes 48..=71 (`ir`), or folds with the same
//! semantics (`back::exec::ints`, the executor's own scalar functions). Profile 1 never reaches
//! this module: its integers stay float-backed (every entry point checks [`Sema::true_ints`]).
//!
//! Conversions between the scalar kinds (float, int, uint, bool) are [`Sema::p2_conv_kind`]:
//! int <-> uint keep the bits, int/uint -> float are CVT I2F/U2F, float -> int/uint CVT F2I/F2U
//! (truncating; out-of-range values as Mesa gives, see `ir::f2i`), bool -> int/uint is 0 or 1,
//! and int/uint -> bool is `x != 0` (ICMP).
use super::types::*;
use super::{Sema, R};
use crate::back::exec::ints as x;
use crate::front::ast::*;
use crate::ir::*;
use crate::limits::Profile;

/// The bit pattern of a constant lane.
fn bits(k: &[f32; 4], l: usize) -> u32 {
    lane(k, l).to_bits()
}

fn from_bits(v: u32) -> f32 {
    f32::from_bits(v)
}

impl<'a> Sema<'a> {
    /// Profile 2: integers are 32-bit bit patterns (profile 1: float-backed).
    #[inline]
    pub(super) fn true_ints(&self) -> bool {
        self.toks.profile == Profile::P2
    }

    /// The value of lane `l` of a constant of type `ty` as a float number: in profile 2 an int
    /// or uint lane's bits are read as the integer (exact up to 2^24, which covers every index,
    /// size and loop count), otherwise the lane itself.
    pub(super) fn knum(&self, ty: Type, k: &[f32; 4], l: usize) -> f32 {
        if !self.true_ints() || !is_whole(ty) {
            return lane(k, l);
        }
        if is_uint_based(ty) {
            bits(k, l) as f32
        } else {
            bits(k, l) as i32 as f32
        }
    }

    /// A constant lane of type `ty` holding the whole number `v` (profile 2: its bits).
    pub(super) fn kwhole(&self, ty: Type, v: f32) -> f32 {
        if !self.true_ints() || !is_whole(ty) {
            return v;
        }
        if is_uint_based(ty) {
            from_bits(f2u(v))
        } else {
            from_bits(f2i(v) as u32)
        }
    }

    /// Emits (or folds) the lane-wise integer op `op` on `a` (and `b`), `n` lanes, type `ty`.
    fn int_op(&mut self, op: Op, aux: i16, ty: Type, n: u8, a: Val, b: Option<Val>) -> R<Val> {
        let kb = match b {
            Some(b) => b.k,
            None => Some([0.0; 4]),
        };
        if let (Some(ka), Some(kb)) = (a.k, kb) {
            let mut out = [0.0f32; 4];
            for (l, o) in out.iter_mut().enumerate().take(n as usize) {
                *o = x::eval(op, aux, lane(&ka, l), lane(&kb, l));
            }
            return Ok(Val::konst(ty, out));
        }
        let ta = self.mat(a)?;
        let tb = match b {
            Some(b) => self.mat(b)?,
            None => -1,
        };
        let t = self.temp(1)?;
        self.emit(op, ty, n, t, ta, tb, aux, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// `a OP b` of two whole-number operands of one kind (`+ - * / % & | ^ << >>`), already
    /// of one size (`ty`, `len` lanes). Division and remainder by a constant zero are errors
    /// (as in profile 1); at run time they give the documented results.
    pub(super) fn int_binary(&mut self, at: i16, op: BinOp, ty: Type, a: Val, b: Val) -> R<Val> {
        let len = ty.components().max(1);
        let unsigned = is_uint_based(ty);
        if matches!(op, BinOp::Div | BinOp::Mod) {
            if let Some(k) = b.k {
                if (0..len as usize).any(|l| bits(&k, l) == 0) {
                    if op == BinOp::Mod {
                        bail!(self, at, "division by zero in '%'");
                    }
                    bail!(self, at, "division by zero");
                }
            }
        }
        let irop = match op {
            BinOp::Add => Op::IAdd,
            BinOp::Sub => Op::ISub,
            BinOp::Mul => Op::IMul,
            BinOp::Div if unsigned => Op::UDiv,
            BinOp::Div => Op::IDiv,
            BinOp::Mod if unsigned => Op::UMod,
            BinOp::Mod => Op::IMod,
            BinOp::BitAnd => Op::And,
            BinOp::BitOr => Op::Or,
            BinOp::BitXor => Op::Xor,
            BinOp::Shl => Op::Shl,
            BinOp::Shr if unsigned => Op::UShr,
            _ => Op::IShr,
        };
        self.int_op(irop, 0, ty, len, a, Some(b))
    }

    /// `-v` (wrapping) or `~v` of a whole-number value.
    pub(super) fn int_unary(&mut self, not: bool, v: Val) -> R<Val> {
        let n = v.ty.components().max(1);
        let op = if not { Op::Not } else { Op::INeg };
        self.int_op(op, 0, v.ty, n, v, None)
    }

    /// A scalar or lane-wise compare of two whole-number values of one kind: a bool (n = 1) or
    /// bvecN of 1.0 / 0.0 lanes.
    pub(super) fn int_compare(&mut self, code: CmpCode, a: Val, b: Val, n: u8) -> R<Val> {
        let op = if is_uint_based(a.ty) {
            Op::UCmp
        } else {
            Op::ICmp
        };
        self.int_op(op, code as i16, vec_of(Sk::Bool, n), n, a, Some(b))
    }

    /// `a == b` (`want`) or `a != b` over every lane of two whole-number vectors of one type.
    pub(super) fn int_equal_all(&mut self, a: Val, b: Val, want: bool) -> R<Val> {
        let n = a.ty.components().max(1);
        let code = if want { CmpCode::Eq } else { CmpCode::Ne };
        if n == 1 {
            return self.int_compare(code, a, b, 1);
        }
        let e = self.int_compare(CmpCode::Eq, a, b, n)?;
        if let Some(k) = e.k {
            let all = (0..n as usize).all(|l| lane(&k, l) != 0.0);
            return Ok(Val::konst(
                Type::Bool,
                [(all == want) as u8 as f32, 0.0, 0.0, 0.0],
            ));
        }
        let d = self.temp(1)?;
        self.emit(Op::Dot, Type::Float, 1, d, e.tmp, e.tmp, n as i16, 0)?;
        let all = self.mat(Val::konst(Type::Float, [n as f32, 0.0, 0.0, 0.0]))?;
        let t = self.temp(1)?;
        self.emit(Op::Cmp, Type::Bool, 1, t, d, all, code as i16, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    /// Profile 2: converts `v`'s scalar kind to `target`'s, keeping its size (the conversion
    /// rules of the module doc). A bool target of a vector gives a bvec.
    pub(super) fn p2_conv_kind(&mut self, v: Val, target: Type) -> R<Val> {
        let n = v.ty.components().max(1);
        let (from, to) = (sk(v.ty), sk(target));
        let ty = vec_of(to, n);
        if from == to {
            return Ok(Val { ty, ..v });
        }
        match (from, to) {
            (Sk::Int, Sk::Uint) | (Sk::Uint, Sk::Int) => Ok(Val { ty, ..v }),
            (Sk::Int, Sk::Float) | (Sk::Uint, Sk::Float) => {
                let kind = if from == Sk::Int { CVT_I2F } else { CVT_U2F };
                self.int_op(Op::Cvt, kind, ty, n, v, None)
            }
            (Sk::Float, Sk::Int) | (Sk::Float, Sk::Uint) => {
                let kind = if to == Sk::Int { CVT_F2I } else { CVT_F2U };
                self.int_op(Op::Cvt, kind, ty, n, v, None)
            }
            (Sk::Bool, Sk::Int) | (Sk::Bool, Sk::Uint) => {
                // 0.0 / 1.0 -> 0 / 1.
                self.int_op(
                    Op::Cvt,
                    CVT_F2I,
                    ty,
                    n,
                    Val {
                        ty: float_of(v.ty),
                        ..v
                    },
                    None,
                )
            }
            (Sk::Int, Sk::Bool) | (Sk::Uint, Sk::Bool) => {
                let z = Val::konst(v.ty, [0.0; 4]);
                self.int_compare(CmpCode::Ne, v, z, n)
            }
            // Float <-> bool: the profile-1 rules (callers handle these before).
            _ => Ok(Val { ty, ..v }),
        }
    }

    /// Profile 2: `v` as the float type of its size (int/uint values are converted; others
    /// pass). Profile 1: the same value relabelled (float-backed ints need no conversion).
    pub(super) fn to_float(&mut self, v: Val) -> R<Val> {
        if !self.true_ints() || !is_whole(v.ty) {
            return Ok(Val {
                ty: float_of(v.ty),
                ..v
            });
        }
        self.p2_conv_kind(v, Type::Float)
    }

    /// [`Sema::convert`] that also performs the conversion: in profile 2 an int/uint value
    /// converted to a float type is a CVT (or a folded constant).
    #[inline]
    pub(super) fn convert_emit(&mut self, v: Val, want: Type) -> R<Option<Val>> {
        // Equal types (the usual case): the value as it is, no call.
        if v.ty == want {
            return Ok(Some(v));
        }
        self.convert_other(v, want)
    }

    /// [`Self::convert_emit`] of another type (out of line).
    #[inline(never)]
    fn convert_other(&mut self, v: Val, want: Type) -> R<Option<Val>> {
        match self.convert(v, want) {
            Some(c) if self.true_ints() && is_whole(v.ty) && !is_whole(want) => {
                self.convert_cvt(v, c.ty)
            }
            r => Ok(r),
        }
    }

    /// [`Self::convert_emit`]'s CVT (profile 2, int-based to float), out of line: with
    /// [`Self::to_float`] inline, every conversion (mostly of equal types) saved and restored
    /// five registers and set up a large frame.
    #[inline(never)]
    fn convert_cvt(&mut self, v: Val, ty: Type) -> R<Option<Val>> {
        let f = self.to_float(v)?;
        Ok(Some(Val { ty, ..f }))
    }

    /// `min`/`max`/`abs`/`sign` of whole-number values (profile 2): IMIN IMAX UMIN UMAX IABS ISIGN.
    pub(super) fn int_builtin(&mut self, name: &str, a: Val, b: Option<Val>) -> R<Val> {
        let n = a.ty.components().max(1);
        let u = is_uint_based(a.ty);
        let op = match name {
            "min" if u => Op::UMin,
            "min" => Op::IMin,
            "max" if u => Op::UMax,
            "max" => Op::IMax,
            "abs" => Op::IAbs,
            _ => Op::ISign,
        };
        self.int_op(op, 0, a.ty, n, a, b)
    }

    /// An int literal: profile 2 holds its bits.
    pub(super) fn int_literal(&self, ty: Type, v: u32) -> Val {
        let lane0 = if self.true_ints() {
            from_bits(v)
        } else {
            v as f32
        };
        Val::konst(ty, [lane0, 0.0, 0.0, 0.0])
    }

    /// `floatBitsToInt` & co.: the bits relabelled (`to` = the result's scalar kind).
    pub(super) fn bit_cast(&mut self, v: Val, to: Sk) -> Val {
        let n = v.ty.components().max(1);
        Val {
            ty: vec_of(to, n),
            ..v
        }
    }
}
