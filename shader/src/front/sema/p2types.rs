//! Profile 2's types (issue 13): uint/uvec, bvec, mat2 and the non-square matrices.
//!
//! Everything here lowers to profile 1's opcodes: integers and bools stay float-backed (bools
//! are exactly 0.0 or 1.0), a matrix is `columns` consecutive temps of `rows` lanes. mat3 and
//! mat4 products keep MULMV/MULMM; every other shape is lowered to SWZ/MUL/ADD/DOT here.
//! Must never: be reached in profile 1 for a profile-1 construct (every entry point is called
//! only for profile-2 types or behind a profile check), allocate, or panic.

use super::types::*;
use super::{Sema, R};
use crate::front::ast::*;
use crate::ir::*;

/// SWZ selectors that broadcast lane `k` to every lane.
fn broadcast(k: u8) -> i16 {
    let k = (k & 3) as i16;
    k | (k << 2) | (k << 4) | (k << 6)
}

impl<'a> Sema<'a> {
    /// Lane-wise `a[k] OP b[k]` for k < n into a new bool vector (1.0 / 0.0 per lane).
    pub(super) fn cmp_lanes(&mut self, a: Val, b: Val, code: CmpCode, n: u8) -> R<Val> {
        let ty = vec_of(Sk::Bool, n);
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let mut out = [0.0f32; 4];
            for (l, o) in out.iter_mut().enumerate().take(n as usize) {
                let (p, q) = (lane(&x, l), lane(&y, l));
                let r = match code {
                    CmpCode::Lt => p < q,
                    CmpCode::Gt => p > q,
                    CmpCode::Le => p <= q,
                    CmpCode::Ge => p >= q,
                    CmpCode::Eq => p == q,
                    CmpCode::Ne => p != q,
                };
                *o = r as u8 as f32;
            }
            return Ok(Val::konst(ty, out));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        self.cmp_lanes_tmp(ta, tb, code, n)
    }

    /// [`Self::cmp_lanes`] on temps.
    pub(super) fn cmp_lanes_tmp(&mut self, ta: i16, tb: i16, code: CmpCode, n: u8) -> R<Val> {
        let ty = vec_of(Sk::Bool, n);
        let r = self.temp(1)?;
        if n > 1 {
            self.zero(r)?;
        }
        self.emit(Op::Cmp, Type::Bool, 1, r, ta, tb, code as i16, 0)?;
        if n > 1 {
            let (sa, sb, c) = (self.temp(1)?, self.temp(1)?, self.temp(1)?);
            for k in 1..n {
                self.emit(Op::Swz, Type::Float, 1, sa, ta, -1, k as i16, 0)?;
                self.emit(Op::Swz, Type::Float, 1, sb, tb, -1, k as i16, 0)?;
                self.emit(Op::Cmp, Type::Bool, 1, c, sa, sb, code as i16, 0)?;
                self.emit(Op::SetLane, ty, 1, r, c, -1, k as i16, 0)?;
            }
        }
        Ok(Val::temp(ty, r))
    }

    /// A numeric vector (or bool vector of raw uniform values) to a bvec: lane != 0.
    pub(super) fn to_bools(&mut self, v: Val) -> R<Val> {
        let n = v.ty.components().max(1);
        let z = Val::konst(float_of(v.ty), [0.0; 4]);
        let r = self.cmp_lanes(
            Val {
                ty: float_of(v.ty),
                ..v
            },
            z,
            CmpCode::Ne,
            n,
        )?;
        Ok(r)
    }

    /// `a == b` (`want` = true) or `a != b` on vectors or matrices of one shape: a bool.
    pub(super) fn equal_all(&mut self, a: Val, b: Val, want: bool) -> R<Val> {
        let (cols, rows) = (a.ty.columns().max(1), a.ty.components().max(1));
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let same = (0..rows as usize).all(|l| lane(&x, l) == lane(&y, l));
            return Ok(Val::konst(
                Type::Bool,
                [(same == want) as u8 as f32, 0.0, 0.0, 0.0],
            ));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        // Per column: the number of equal lanes (DOT of the 0/1 lanes with themselves).
        let mut count = -1i16;
        for c in 0..cols as i16 {
            let e = self.cmp_lanes_tmp(ta + c, tb + c, CmpCode::Eq, rows)?;
            let n = if rows == 1 {
                e.tmp
            } else {
                let d = self.temp(1)?;
                self.emit(Op::Dot, Type::Float, 1, d, e.tmp, e.tmp, rows as i16, 0)?;
                d
            };
            if count < 0 {
                count = n;
            } else {
                let s = self.temp(1)?;
                self.emit(Op::Add, Type::Float, 1, s, count, n, 0, 0)?;
                count = s;
            }
        }
        let all = self.mat(Val::konst(
            Type::Float,
            [(cols as u16 * rows as u16) as f32, 0.0, 0.0, 0.0],
        ))?;
        let t = self.temp(1)?;
        let code = if want { CmpCode::Eq } else { CmpCode::Ne };
        self.emit(Op::Cmp, Type::Bool, 1, t, count, all, code as i16, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    /// `dst = M * v` for any matrix shape (v: `columns` lanes; dst: `rows` lanes).
    pub(super) fn mat_vec_into(&mut self, dst: i16, m: Val, tv: i16) -> R<()> {
        let (cols, rows) = (m.ty.columns(), m.ty.components());
        let col = vec_type(false, rows);
        let (s, p) = (self.temp(1)?, self.temp(1)?);
        for k in 0..cols {
            self.emit(Op::Swz, col, rows, s, tv, -1, broadcast(k), 0)?;
            if k == 0 {
                self.emit(Op::Mul, col, rows, dst, m.tmp, s, 0, 0)?;
            } else {
                self.emit(Op::Mul, col, rows, p, m.tmp + k as i16, s, 0, 0)?;
                self.emit(Op::Add, col, rows, dst, dst, p, 0, 0)?;
            }
        }
        Ok(())
    }

    /// Profile 2's matrix operators: `*` as linear algebra for every legal shape pair, the
    /// component-wise `+ - /` of two matrices of one type and of a matrix and a scalar, and
    /// `*` of a matrix and a scalar. `None`: not one of these (the caller reports it).
    pub(super) fn p2_matrix_arith(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Option<Val>> {
        let (ma, mb) = (is_matrix(a.ty), is_matrix(b.ty));
        let scalar = |t: Type| is_numeric(t) && t.components() == 1;
        if (ma && scalar(b.ty)) || (mb && scalar(a.ty)) {
            let (m, s, m_left) = if ma { (a, b, true) } else { (b, a, false) };
            let (cols, rows) = (m.ty.columns(), m.ty.components());
            let s = Val {
                ty: Type::Float,
                ..s
            };
            let sv = self.splat(s, rows)?;
            let ts = self.mat(sv)?;
            let irop = match op {
                BinOp::Add => Op::Add,
                BinOp::Sub => Op::Sub,
                BinOp::Mul => Op::Mul,
                _ => Op::Div,
            };
            let t = self.temp(cols as u16)?;
            let col = vec_type(false, rows);
            for c in 0..cols as i16 {
                let (x, y) = if m_left {
                    (m.tmp + c, ts)
                } else {
                    (ts, m.tmp + c)
                };
                self.emit(irop, col, rows, t + c, x, y, 0, 0)?;
            }
            return Ok(Some(Val::temp(m.ty, t)));
        }
        if op == BinOp::Div && ma && mb && a.ty == b.ty {
            let (cols, rows) = (a.ty.columns(), a.ty.components());
            let t = self.temp(cols as u16)?;
            for c in 0..cols as i16 {
                let col = vec_type(false, rows);
                self.emit(Op::Div, col, rows, t + c, a.tmp + c, b.tmp + c, 0, 0)?;
            }
            return Ok(Some(Val::temp(a.ty, t)));
        }
        if op != BinOp::Mul {
            return Ok(None);
        }
        if ma && mb {
            if a.ty.columns() != b.ty.components() {
                bail!(
                    self,
                    i,
                    "matrix size mismatch: {} * {} (the left matrix has {} columns, the right {} rows)",
                    a.ty.name(),
                    b.ty.name(),
                    a.ty.columns(),
                    b.ty.components()
                );
            }
            let Some(rt) = Type::matrix(b.ty.columns(), a.ty.components()) else {
                return Ok(None);
            };
            let t = self.temp(rt.columns() as u16)?;
            for j in 0..rt.columns() as i16 {
                self.mat_vec_into(t + j, a, b.tmp + j)?;
            }
            return Ok(Some(Val::temp(rt, t)));
        }
        let (m, v) = if ma { (a, b) } else { (b, a) };
        let need = if ma {
            m.ty.columns()
        } else {
            m.ty.components()
        };
        if !is_numeric(v.ty) || sk(v.ty) != Sk::Float || v.ty.components() != need {
            bail!(
                self,
                i,
                "cannot multiply {} by {}: the vector must be vec{}",
                a.ty.name(),
                b.ty.name(),
                need
            );
        }
        let tv = self.mat(v)?;
        if ma {
            let rty = vec_type(false, m.ty.components());
            let t = self.temp(1)?;
            self.mat_vec_into(t, m, tv)?;
            return Ok(Some(Val::temp(rty, t)));
        }
        // Row vector times matrix: component j is dot(v, column j).
        let (cols, rows) = (m.ty.columns(), m.ty.components());
        let rty = vec_type(false, cols);
        let t = self.temp(1)?;
        let d = self.temp(1)?;
        self.zero(t)?;
        for c in 0..cols as i16 {
            self.emit(Op::Dot, Type::Float, 1, d, tv, m.tmp + c, rows as i16, 0)?;
            self.emit(Op::SetLane, rty, 1, t, d, -1, c, 0)?;
        }
        Ok(Some(Val::temp(rty, t)))
    }

    /// `-m` for a matrix.
    pub(super) fn neg_matrix(&mut self, m: Val) -> R<Val> {
        let (cols, rows) = (m.ty.columns(), m.ty.components());
        let k = self.splat(Val::konst(Type::Float, [-1.0, 0.0, 0.0, 0.0]), rows)?;
        let tk = self.mat(k)?;
        let t = self.temp(cols as u16)?;
        for c in 0..cols as i16 {
            self.emit(
                Op::Mul,
                vec_type(false, rows),
                rows,
                t + c,
                m.tmp + c,
                tk,
                0,
                0,
            )?;
        }
        Ok(Val::temp(m.ty, t))
    }

    /// A matrix from one matrix (GLSL: the overlap is copied, the rest is the identity's).
    pub(super) fn mat_from_mat(&mut self, ty: Type, src: Val) -> R<Val> {
        let (cols, rows) = (ty.columns(), ty.components());
        let (scols, srows) = (src.ty.columns(), src.ty.components());
        if scols >= cols && srows >= rows {
            // The upper-left part: the same columns, read with fewer lanes.
            return Ok(Val::temp(ty, src.tmp));
        }
        let t = self.temp(cols as u16)?;
        let col = vec_type(false, rows);
        for c in 0..cols {
            let mut k = [0.0f32; 4];
            if c < rows && (c >= scols || c >= srows) {
                if let Some(x) = k.get_mut(c as usize) {
                    *x = 1.0;
                }
            }
            let b = self.imm(k.get(..rows as usize).unwrap_or(&k))?;
            self.emit(Op::Const, col, rows, t + c as i16, -1, -1, b, 0)?;
            if c < scols {
                let n = rows.min(srows);
                self.emit(Op::Mov, col, n, t + c as i16, src.tmp + c as i16, -1, 0, 0)?;
            }
        }
        Ok(Val::temp(ty, t))
    }

    /// Profile 2's comparisons: `==`/`!=` on vectors and matrices (one type, or a whole-number
    /// vector against the float vector of its size), and int against uint refused. `None`: two
    /// scalars the profile-1 rules compare.
    pub(super) fn p2_compare(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Option<Val>> {
        let mixed = matches!(
            (sk(a.ty), sk(b.ty)),
            (Sk::Int, Sk::Uint) | (Sk::Uint, Sk::Int)
        );
        if mixed {
            bail!(
                self,
                i,
                "cannot compare {} {} {} (GLSL 3.30 does not convert between int and uint implicitly)",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        if is_scalar(a.ty) && is_scalar(b.ty) {
            return Ok(None);
        }
        let ok_type = |t: Type| is_numeric(t) || is_bvec(t) || is_matrix(t) || t == Type::Bool;
        if !ok_type(a.ty) || !ok_type(b.ty) {
            bail!(
                self,
                i,
                "cannot compare {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        if !matches!(op, BinOp::Eq | BinOp::Ne) {
            bail!(
                self,
                i,
                "operator '{}' compares scalars; found {} and {} (use lessThan() and friends for vectors)",
                op.symbol(),
                a.ty.name(),
                b.ty.name()
            );
        }
        let (a, b) = if a.ty == b.ty {
            (a, b)
        } else if let Some(b2) = self.convert_emit(b, a.ty)? {
            (a, b2)
        } else if let Some(a2) = self.convert_emit(a, b.ty)? {
            (a2, b)
        } else {
            bail!(
                self,
                i,
                "cannot compare {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        };
        if self.true_ints() && is_whole(a.ty) && is_whole(b.ty) {
            return self.int_equal_all(a, b, op == BinOp::Eq).map(Some);
        }
        self.equal_all(a, b, op == BinOp::Eq).map(Some)
    }
}
