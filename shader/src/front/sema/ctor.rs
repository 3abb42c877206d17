//! Constructors: scalar, vector and matrix constructors and scalar kind conversion.
use heapless::Vec;

use super::types::*;
use super::{Sema, R};
use crate::front::ast::*;
use crate::ir::*;

impl<'a> Sema<'a> {
    /// Out of line, as [`Sema::call`].
    #[inline(never)]
    pub(super) fn ctor(&mut self, i: i16, n: Node) -> R<Val> {
        if n.op == 1 {
            return self.array_ctor(i, n);
        }
        let ty = n.ty;
        let mut args = Vec::new();
        self.args(n.a, 16, i, &mut args)?;
        self.cur_node = i;
        if ty == Type::Void || ty.is_sampler() {
            bail!(self, i, "cannot construct a {}", ty.name());
        }
        if args.is_empty() {
            bail!(self, i, "{}() needs at least one argument", ty.name());
        }
        for &(a, v) in args.iter() {
            if !is_scalar(v.ty) && !is_numeric(v.ty) && !is_matrix(v.ty) && !is_bvec(v.ty) {
                bail!(
                    self,
                    a,
                    "bad constructor argument: {} cannot build a {}",
                    v.ty.name(),
                    ty.name()
                );
            }
        }
        if self.true_ints() && !args.iter().any(|a| is_matrix(a.1.ty)) {
            // Profile 2: every argument is first converted to the result's scalar kind (a
            // matrix's is float), so the builders below copy lanes (integers are bit patterns).
            let kind = if is_matrix(ty) { Sk::Float } else { sk(ty) };
            for a in args.iter_mut() {
                let n = a.1.ty.components().max(1);
                if sk(a.1.ty) != kind && (is_whole(a.1.ty) || kind == Sk::Int || kind == Sk::Uint) {
                    a.1 = self.conv_scalar_kind(a.1, vec_of(kind, n))?;
                }
            }
        }
        let first = args
            .first()
            .map(|a| a.1)
            .unwrap_or(Val::konst(Type::Float, [0.0; 4]));
        if is_matrix(ty) {
            return self.mat_ctor(i, ty, &args);
        }
        if args.iter().any(|a| is_matrix(a.1.ty)) {
            bail!(
                self,
                i,
                "bad constructor argument: a matrix cannot build a {}",
                ty.name()
            );
        }
        let n_out = ty.components() as usize;
        // One argument: conversion, broadcast or truncation.
        if args.len() == 1 {
            let fc = first.ty.components() as usize;
            let src = if fc == 1 || is_scalar(ty) {
                let s = self.swizzle(i, first, 1, 0)?;
                let s = self.conv_scalar_kind(s, ty)?;
                return self.splat(s, n_out as u8).map(|v| Val { ty, ..v });
            } else {
                first
            };
            if fc < n_out {
                bail!(self, i, "constructor component count does not match: {} needs {}, the argument gives {}", ty.name(), n_out, fc);
            }
            let v = self.conv_scalar_kind(src, vec_of(sk(ty), fc as u8))?;
            return Ok(Val { ty, ..v });
        }
        let total: usize = args.iter().map(|a| a.1.ty.components() as usize).sum();
        if total != n_out {
            bail!(
                self,
                i,
                "constructor component count does not match: {} needs {}, the arguments give {}",
                ty.name(),
                n_out,
                total
            );
        }
        if let Some(k) = self.fill_const(ty, &args) {
            return Ok(Val::konst(ty, k));
        }
        let t = self.temp(1)?;
        self.fill(t, ty, &args)?;
        Ok(Val::temp(ty, t))
    }

    /// Converts a value's element kind to that of `target` (int<->float<->bool), keeping size.
    pub(super) fn conv_scalar_kind(&mut self, v: Val, target: Type) -> R<Val> {
        let n = v.ty.components().max(1);
        let whole = is_whole(v.ty) || is_whole(target);
        if self.true_ints() && whole && !(is_bvec(target) || target == Type::Bool) {
            return self.p2_conv_kind(v, target);
        }
        if self.true_ints() && is_whole(v.ty) {
            // int/uint to bool or bvec: lane-wise `x != 0` on the integers.
            return self.p2_conv_kind(v, Type::Bool);
        }
        let to_int = is_whole(target);
        let to_bool = target == Type::Bool;
        let from_int = is_whole(v.ty);
        let from_bool = v.ty == Type::Bool || is_bvec(v.ty);
        let ty = if to_bool {
            Type::Bool
        } else {
            vec_of(sk(target), n)
        };
        if is_bvec(target) || (to_bool && n > 1) {
            // Profile 2: lane-wise `x != 0` (a bool vector keeps its lanes).
            if from_bool {
                return Ok(Val {
                    ty: vec_of(Sk::Bool, n),
                    ..v
                });
            }
            return self.to_bools(v);
        }
        if to_bool {
            if from_bool {
                return Ok(v);
            }
            if let Some(k) = v.k {
                return Ok(Val::konst(
                    Type::Bool,
                    [(lane(&k, 0) != 0.0) as u8 as f32, 0.0, 0.0, 0.0],
                ));
            }
            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, v.tmp, z, CmpCode::Ne as i16, 0)?;
            return Ok(Val::temp(Type::Bool, t));
        }
        if to_int && !from_int && !from_bool {
            if let Some(k) = v.k {
                let mut out = k;
                for o in out.iter_mut() {
                    *o = libm::truncf(*o);
                }
                return Ok(Val::konst(ty, out));
            }
            let t = self.temp(1)?;
            self.emit(Op::Trunc, ty, n, t, v.tmp, -1, 0, 0)?;
            return Ok(Val::temp(ty, t));
        }
        Ok(Val { ty, ..v })
    }

    /// When every argument is constant, the folded components of a vector constructor.
    pub(super) fn fill_const(&self, ty: Type, args: &[(i16, Val)]) -> Option<[f32; 4]> {
        let mut out = [0.0f32; 4];
        let mut k = 0usize;
        for &(_, v) in args {
            let c = v.k?;
            for l in 0..v.ty.components() as usize {
                let mut x = lane(&c, l);
                if is_whole(ty) && sk(v.ty) == Sk::Float {
                    x = libm::truncf(x);
                } else if is_bvec(ty) {
                    x = (x != 0.0) as u8 as f32;
                }
                if let Some(o) = out.get_mut(k) {
                    *o = x;
                }
                k += 1;
            }
        }
        Some(out)
    }

    /// Builds the components of `args` (total = size of `ty`'s column) into temp `t`.
    pub(super) fn fill(&mut self, t: i16, ty: Type, args: &[(i16, Val)]) -> R<()> {
        if self.fill_const(ty, args).is_some() {
            return Ok(());
        }
        let col = like(ty, ty.components());
        // Constant parts first (zeros where values go), then the values lane by lane.
        let mut base = [0.0f32; 4];
        let mut lane_at = 0usize;
        for &(_, v) in args {
            let c = v.ty.components() as usize;
            if let Some(k) = v.k {
                for l in 0..c {
                    let mut x = lane(&k, l);
                    if is_whole(ty) && sk(v.ty) == Sk::Float {
                        x = libm::truncf(x);
                    } else if is_bvec(ty) {
                        x = (x != 0.0) as u8 as f32;
                    }
                    if let Some(b) = base.get_mut(lane_at + l) {
                        *b = x;
                    }
                }
            }
            lane_at += c;
        }
        let n = ty.components().max(1);
        let b = self.imm(base.get(..n as usize).unwrap_or(&base))?;
        self.emit(Op::Const, col, n, t, -1, -1, b, 0)?;
        let mut lane_at = 0usize;
        for &(_, v) in args {
            let c = v.ty.components() as usize;
            if v.k.is_none() {
                let v = self.conv_scalar_kind(v, vec_of(sk(ty), c as u8))?;
                if lane_at == 0 && c > 1 {
                    self.emit(Op::Mov, col, c as u8, t, v.tmp, -1, 0, 0)?;
                } else {
                    for l in 0..c {
                        self.emit(
                            Op::SetLane,
                            col,
                            1,
                            t,
                            v.tmp,
                            -1,
                            (lane_at + l) as i16,
                            l as i16,
                        )?;
                    }
                }
            }
            lane_at += c;
        }
        Ok(())
    }

    pub(super) fn mat_ctor(&mut self, i: i16, ty: Type, args: &[(i16, Val)]) -> R<Val> {
        let cols = ty.columns() as usize;
        let rows = ty.components() as usize;
        let colty = vec_type(false, rows as u8);
        let first = args
            .first()
            .map(|a| a.1)
            .unwrap_or(Val::konst(Type::Float, [0.0; 4]));
        if args.len() == 1 && is_matrix(first.ty) {
            if first.ty == ty {
                return Ok(first);
            }
            if self.toks.profile == crate::limits::Profile::P2 {
                return self.mat_from_mat(ty, first);
            }
            if ty == Type::Mat3 {
                // The upper-left 3x3: the same columns read three lanes.
                return Ok(Val::temp(ty, first.tmp));
            }
            let t = self.temp(4)?;
            for c in 0..4i16 {
                let mut k = [0.0f32; 4];
                if c == 3 {
                    k[3] = 1.0;
                }
                let b = self.imm(&k)?;
                self.emit(Op::Const, Type::Vec4, 4, t + c, -1, -1, b, 0)?;
                if c < 3 {
                    self.emit(Op::Mov, Type::Vec4, 3, t + c, first.tmp + c, -1, 0, 0)?;
                }
            }
            return Ok(Val::temp(ty, t));
        }
        if args.iter().any(|a| is_matrix(a.1.ty)) {
            bail!(
                self,
                i,
                "unsupported matrix constructor: a matrix argument must be the only one"
            );
        }
        if args.len() == 1 && first.ty.components() == 1 {
            // Diagonal matrix.
            let s = self.conv_scalar_kind(first, Type::Float)?;
            let t = self.temp(cols as u16)?;
            for c in 0..cols {
                let mut k = [0.0f32; 4];
                if let Some(sk) = s.k {
                    if let Some(x) = k.get_mut(c).filter(|_| c < rows) {
                        *x = lane(&sk, 0);
                    }
                }
                let b = self.imm(k.get(..rows).unwrap_or(&k))?;
                self.emit(Op::Const, colty, rows as u8, t + c as i16, -1, -1, b, 0)?;
                if s.k.is_none() && c < rows {
                    self.emit(Op::SetLane, colty, 1, t + c as i16, s.tmp, -1, c as i16, 0)?;
                }
            }
            return Ok(Val::temp(ty, t));
        }
        let total: usize = args.iter().map(|a| a.1.ty.components() as usize).sum();
        if total != cols * rows {
            bail!(
                self,
                i,
                "unsupported matrix constructor: {} takes one scalar (diagonal), {} column vectors or {} scalars; the arguments give {} components",
                ty.name(),
                cols,
                cols * rows,
                total
            );
        }
        let t = self.temp(cols as u16)?;
        // Split the arguments into columns; an argument may not straddle two columns.
        let mut col_args: Vec<(i16, Val), 16> = Vec::new();
        let mut filled = 0usize;
        let mut c = 0i16;
        let p2 = self.toks.profile == crate::limits::Profile::P2;
        for &(a, whole) in args {
            let wn = whole.ty.components() as usize;
            // Profile 2 (GLSL): an argument may straddle columns; it is split into components.
            let split = p2 && filled + wn > rows;
            for part in 0..if split { wn } else { 1 } {
                let v = if split {
                    self.swizzle(a, whole, 1, part as i32)?
                } else {
                    whole
                };
                let n = v.ty.components() as usize;
                if filled + n > rows {
                    bail!(
                        self,
                        a,
                        "bad matrix column: this argument crosses a column boundary of {}",
                        ty.name()
                    );
                }
                let _ = col_args.push((a, v));
                filled += n;
                if filled == rows {
                    let ctmp = t + c;
                    self.fill(ctmp, colty, &col_args)?;
                    if let Some(k) = self.fill_const(colty, &col_args) {
                        let b = self.imm(k.get(..rows).unwrap_or(&k))?;
                        self.emit(Op::Const, colty, rows as u8, ctmp, -1, -1, b, 0)?;
                    }
                    col_args.clear();
                    filled = 0;
                    c += 1;
                }
            }
        }
        Ok(Val::temp(ty, t))
    }
}
