//! Constant operands known when compiling (issue 17, session 14).
//!
//! A bank register that holds a constant (not a uniform) has bits the compiler knows
//! (`Executable::bank`). Where every input's result is provably the interpreter's, the op is
//! done at compile time or shortened:
//! - `x * 1.0`, `x / 1.0`, `x - (+0.0)` and `x + (-0.0)` are `x` for every x (signed zeros,
//!   infinities and denormals included: the default MXCSR flushes nothing; a NaN stays a NaN,
//!   whose bits are not part of the contract): the destination becomes an alias of x
//!   (`copy`), no code.
//! - An op of two constants is computed once with the same f32 operation (IEEE single, round
//!   to nearest: the bits the run-time op gives); when a bank register component holds those
//!   bits the destination becomes its alias (its slot is the op's memory operand). A NaN
//!   result is left to the run-time op.
//! - MIN/MAX with a constant operand k (either side): the interpreter's `f32::min`/`max` as
//!   LLVM lowers them returns the constant for a NaN x, the first operand for two zeros, else
//!   the smaller/larger. For k neither NaN nor zero, that is `VMINPS/VMAXPS x, [k]` alone (a
//!   NaN in either source gives the second, k; two zeros cannot meet). For k = +0.0 it is x
//!   where an ordered compare of x against +0.0 holds, else +0.0: `x & (x CMP 0)` with
//!   MAX(x, 0): x >= 0, MAX(0, x): x > 0, MIN(x, 0): x <= 0, MIN(0, x): x < 0 (the first
//!   operand wins the tie of two zeros). Other constants (-0.0, NaN) keep the general form.
//!
//! Each of these is an alias or fewer instructions; none changes an operation's inputs or
//! order. Aliases are made only where `copy` finds them exact (else the op is emitted).

use super::enc::{Arg, Ps};
use super::{val, Gen, JitError, Side, Val, V_ONE};
use crate::back::exec::{BANK_BASE, BANK_MAX, NOT_UNIFORM};
use crate::ir::Op;

const ONE: u32 = 0x3F80_0000;
const NEG_ZERO: u32 = 0x8000_0000;

impl Gen<'_, '_> {
    /// The bits of `v` when the compiler knows them: a component of a bank register holding a
    /// constant (through an alias).
    pub(super) fn known(&self, v: Val) -> Option<u32> {
        let v = self.alias_of(v).unwrap_or(v);
        if v >= V_ONE {
            return None;
        }
        let k = (v / 4).checked_sub(BANK_BASE)?;
        if k >= (self.exe.nbank as usize).min(BANK_MAX) {
            return None;
        }
        match self.exe.bank_uni.get(k) {
            Some(&NOT_UNIFORM) => self.exe.bank.get(k).map(|b| b[v % 4]),
            _ => None,
        }
    }

    /// A constant bank register component holding `bits`.
    fn bank_with(&self, bits: u32) -> Option<Val> {
        let nb = (self.exe.nbank as usize).min(BANK_MAX);
        (0..nb)
            .filter(|&k| self.exe.bank_uni.get(k) == Some(&NOT_UNIFORM))
            .find_map(|k| {
                let b = self.exe.bank.get(k)?;
                let c = b.iter().position(|&x| x == bits)?;
                Some(val(BANK_BASE + k, c))
            })
    }

    /// `dst = a op b` (ADD, SUB, MUL, DIV) without code when it is an identity or a fold to a
    /// bank constant (module header); false: nothing done.
    pub(super) fn fold_arith(&mut self, op: Op, dst: Val, a: Val, b: Val) -> bool {
        let (ka, kb) = (self.known(a), self.known(b));
        let same = match (op, ka, kb) {
            (Op::Mul, Some(ONE), _) => Some(b),
            (Op::Mul | Op::Div, _, Some(ONE)) => Some(a),
            (Op::Add, Some(NEG_ZERO), _) => Some(b),
            (Op::Add, _, Some(NEG_ZERO)) | (Op::Sub, _, Some(0)) => Some(a),
            (_, Some(x), Some(y)) => {
                let (x, y) = (f32::from_bits(x), f32::from_bits(y));
                let r = match op {
                    Op::Add => x + y,
                    Op::Sub => x - y,
                    Op::Mul => x * y,
                    _ => x / y,
                };
                if r.is_nan() {
                    None
                } else {
                    self.bank_with(r.to_bits())
                }
            }
            _ => None,
        };
        match same {
            Some(src) => self.alias(dst, src),
            None => false,
        }
    }

    /// `dst = min/max(a, b)` with a constant operand neither NaN nor -0.0, in one or two
    /// instructions (module header); false: nothing done.
    pub(super) fn min_max_const(
        &mut self,
        max: bool,
        dst: Val,
        a: Val,
        b: Val,
    ) -> Result<bool, JitError> {
        let (x, k, k_first) = match (self.known(a), self.known(b)) {
            (_, Some(kb)) => (a, kb, false),
            (Some(ka), None) => (b, ka, true),
            (None, None) => return Ok(false),
        };
        if f32::from_bits(k).is_nan() || k == NEG_ZERO {
            return Ok(false);
        }
        let kv = if k_first { a } else { b };
        let y = self.get(x)?;
        let arg = match self.side(kv) {
            Side::M(_, m) => Arg::M(m),
            s => Arg::Y(self.reg(s)?),
        };
        if k != 0 {
            let op = if max { Ps::Max } else { Ps::Min };
            self.def(dst, |e, r| e.op_arg(op, r, y, arg))?;
        } else {
            // Ordered, quiet: GE_OQ, GT_OQ, LE_OQ, LT_OQ.
            let pred = match (max, k_first) {
                (true, false) => 0x1D,
                (true, true) => 0x1E,
                (false, false) => 0x12,
                (false, true) => 0x11,
            };
            self.def(dst, |e, r| {
                e.cmp_arg(r, y, arg, pred)?;
                e.op_reg(Ps::And, r, r, y)
            })?;
        }
        Ok(true)
    }
}
