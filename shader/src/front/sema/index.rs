//! Profile 2's dynamic indexing (issue 14): `a[i]` and `a[i] = x` for arrays (local, global,
//! uniform; elements of any type), `v[i]` on vectors and `m[i]` on matrix columns, with an index
//! known only at run time. A constant index keeps the static path (an offset, checked against
//! the length at compile time).
//!
//! Lowering: an array element is read with one LOAD_IDX per temp of the element (the array is
//! one temp range in the instruction, so liveness and register allocation keep it whole), a
//! uniform array of float leaves with LOAD_UNI_IDX from its slots, a vector lane with LOAD_LANE,
//! a matrix column with LOAD_IDX over its columns. A write target is a fresh copy of the element
//! (read the same way); after the store, the copy is written back with STORE_IDX / STORE_LANE
//! ([`Sema::flush_indexed`], keyed by the copy's temp), innermost first, so `a[i][j] = x` and
//! `s[i].v[j] += y` work at any depth. Every backend clamps the index to the array
//! (docs/LANGUAGE.md, "Dynamic indexing").
//!
//! Owns: [`Sema::index_operand`], the ONE place an index expression becomes the IR's index
//! operand. Must never: emit an indirect op with a range outside the temps or uniforms, or leave
//! a write-back unflushed on a successful store.
use super::aggregate::AggTy;
use super::stmt::LValue;
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::Kind;
use crate::ir::*;
use crate::limits::*;

/// An index: for the static path (a constant, or not an integer at all: the static path
/// re-reads it and reports what is wrong, with its long-standing diagnostics) or in a temp.
#[derive(Clone, Copy, Debug)]
pub(super) enum Index {
    Static,
    /// The temp whose lane 0 holds the index (see [`Sema::index_operand`]).
    Dyn(i16),
}

/// A pending write-back of an indexed assignment target (see the module comment).
#[derive(Clone, Copy, Debug)]
pub(super) struct WriteBack {
    /// The copy the target was resolved to (the key), and its temps.
    copy: i16,
    temps: u16,
    /// The indexed object: an array (`lane` false: its base temp, length and element stride)
    /// or a vector (`lane` true: its temp and component count in `len`).
    base: i16,
    len: u16,
    stride: u16,
    lane: bool,
    index: i16,
    /// The final target temp this write-back belongs to (set once the target is resolved).
    key: i16,
}

impl<'a> Sema<'a> {
    /// The index expression `e` as the IR's index operand: an `int` or `uint` scalar, constant
    /// or in a temp. THE one place an index is lowered: profile-2 integers are 32-bit bit
    /// patterns, and LOAD_IDX, STORE_IDX, LOAD_UNI_IDX, LOAD_LANE and STORE_LANE read their
    /// index as a float holding a whole number (floor, then clamp), so a run-time index is
    /// converted here (CVT I2F or U2F: a uint index past 2^31 clamps to the last element, a
    /// negative int to the first). `snapshot`: copy a run-time index into a temp of its own
    /// (write targets, whose index must not change while the right-hand side runs).
    pub(super) fn index_operand(&mut self, e: i16, snapshot: bool) -> R<Index> {
        let v = self.value(e)?;
        if !matches!(v.ty, Type::Int | Type::Uint) || v.agg.is_agg() || v.k.is_some() {
            return Ok(Index::Static);
        }
        let v = self.to_float(v)?;
        if !snapshot {
            return Ok(Index::Dyn(v.tmp));
        }
        let t = self.temp(1)?;
        self.emit(Op::Mov, v.ty, 1, t, v.tmp, -1, 0, 0)?;
        Ok(Index::Dyn(t))
    }

    /// Emits the read of element `index` of the array of `len` elements of `stride` temps from
    /// `base`, into a new block of `stride` temps.
    fn load_element(&mut self, base: i16, len: u16, stride: u16, index: i16) -> R<i16> {
        let t = self.temp(stride)?;
        for o in 0..stride as i16 {
            if !self.dry {
                let mut inst = Inst::new(Op::LoadIdx);
                inst.ty = Type::Vec4 as u8;
                inst.dst = t + o;
                inst.a = index;
                inst.b = base;
                inst.c = o;
                inst.aux = len as i16;
                inst.aux2 = stride as i16;
                self.push_inst(inst)?;
            }
        }
        Ok(t)
    }

    /// Pushes a fully built instruction (for ops that use the `c` field).
    fn push_inst(&mut self, inst: Inst) -> R<()> {
        self.emit(
            inst.op,
            Type::from_u8(inst.ty).unwrap_or(Type::None),
            inst.lanes,
            inst.dst,
            inst.a,
            inst.b,
            inst.aux,
            inst.aux2,
        )?;
        if let Some(last) = self.module.insts.last_mut().filter(|_| !self.dry) {
            last.c = inst.c;
        }
        Ok(())
    }

    /// The uniform array symbol whose loaded block `v` is, with its first slot, when its
    /// element's leaves are all float-based and column-major (LOAD_UNI_IDX reads them as they
    /// are); None otherwise (the loaded temps are indexed instead).
    // Out of line (a leaf list): see `leaves_of`.
    #[inline(never)]
    fn uniform_array(&mut self, v: &Val) -> Option<u16> {
        let s = self.t.syms.iter().rev().find(|s| {
            s.kind == SymKind::Uniform && s.tmp == v.tmp && s.tmp >= 0 && s.agg == v.agg
        })?;
        let slot = u16::try_from(s.slot).ok()?;
        let leaves = self.leaves_of(-1, v.agg.elem()).ok()?;
        leaves
            .iter()
            .all(|l| !l.row_major && l.ty != Type::Bool && !is_bvec(l.ty))
            .then_some(slot)
    }

    /// GLSL 3.30 §4.3.7: an index into a uniform block array (`lights[k]` of `uniform Light
    /// { .. } lights[3];`) must be an integral constant expression (literals, `const`
    /// variables and operators, constructors and built-in calls on them). A run-time index or
    /// a loop's counter (even one the compiler unrolls) is an error, as in Mesa's `#version
    /// 330` without GL_ARB_gpu_shader5. `i` is the Index node, `e` its index expression.
    pub(super) fn check_block_array_index(&mut self, i: i16, e: i16) -> R<()> {
        let a = self.node(i).a;
        if a < 0 || self.node(a).kind != Kind::Ident {
            return Ok(());
        }
        let Some((kind, agg, node)) = self
            .lookup(self.name_of(a))
            .and_then(|s| self.sym(s))
            .map(|s| (s.kind, s.agg, s.node))
        else {
            return Ok(());
        };
        let block_array = kind == SymKind::Uniform
            && agg.len > 0
            && node >= 0
            && self.node(node).op & crate::front::ast::D_BLOCK != 0;
        if !block_array || self.is_const_expr(e, 0) {
            return Ok(());
        }
        let block = self.agg_name(agg.elem());
        let inst = self.name_of(a);
        bail!(
            self,
            e,
            "'{}' is an array of uniform block {}: its index must be a constant integer expression (GLSL 3.30, section 4.3.7: uniform block arrays take only integral constant-expression indexes; a loop counter or run-time value is not one)",
            inst,
            block
        );
    }

    /// Whether expression `i` is a GLSL constant expression: literals, `const` variables, and
    /// operators, constructors, swizzles, `.length()`, indexes and built-in calls on them.
    fn is_const_expr(&self, i: i16, depth: usize) -> bool {
        if i < 0 || depth > 64 {
            return false;
        }
        let n = self.node(i);
        match n.kind {
            Kind::IntLit | Kind::FloatLit | Kind::BoolLit => true,
            Kind::Ident => self
                .lookup(self.name_of(i))
                .and_then(|s| self.sym(s))
                .is_some_and(|s| s.kind == SymKind::Const),
            Kind::Swizzle if n.op == 0 && n.ival == 1 => true,
            Kind::Swizzle | Kind::Unary => self.is_const_expr(n.a, depth + 1),
            Kind::Binary | Kind::Index => {
                self.is_const_expr(n.a, depth + 1) && self.is_const_expr(n.b, depth + 1)
            }
            Kind::Cond => {
                self.is_const_expr(n.a, depth + 1)
                    && self.is_const_expr(n.b, depth + 1)
                    && self.is_const_expr(n.c, depth + 1)
            }
            Kind::Ctor | Kind::Call => {
                let user = n.kind == Kind::Call
                    && self
                        .lookup(self.name_of(i))
                        .and_then(|s| self.sym(s))
                        .is_some_and(|s| s.kind == SymKind::Func);
                !user
                    && self
                        .ast
                        .list(n.a)
                        .take(64)
                        .all(|(arg, _)| self.is_const_expr(arg, depth + 1))
            }
            _ => false,
        }
    }

    /// `v[index]` for array value `v` with a run-time index.
    // Out of line (a leaf list): see `leaves_of`.
    #[inline(never)]
    pub(super) fn dyn_array_value(&mut self, e: i16, v: Val, index: i16) -> R<Val> {
        let el = v.agg.elem();
        if el.base.is_sampler() {
            bail!(
                self,
                e,
                "an array of samplers can only be indexed with a constant expression (GLSL 3.30, section 4.1.7: sampler arrays take only integral constant-expression indexes)"
            );
        }
        if self.agg_units(el) > 0 {
            let a = self.agg_name(v.agg);
            bail!(
                self,
                e,
                "an array of structs with samplers ({}) can only be indexed with a constant expression (GLSL 3.30, section 4.1.7: sampler arrays take only integral constant-expression indexes)",
                a
            );
        }
        let stride = self.agg_temps(el);
        let len = v.agg.len;
        let t = match self.uniform_array(&v) {
            Some(first) => {
                let ustride = self.agg_uslots(el);
                let t = self.temp(stride)?;
                for l in self.leaves_of(e, el)? {
                    for col in 0..l.ty.columns().max(1) as u16 {
                        let mut inst = Inst::new(Op::LoadUniIdx);
                        inst.ty = Type::Vec4 as u8;
                        inst.dst = t + (l.toff + col) as i16;
                        inst.a = index;
                        inst.aux = (first + l.uoff + col) as i16;
                        inst.aux2 = len as i16;
                        inst.c = ustride as i16;
                        self.push_inst(inst)?;
                    }
                }
                t
            }
            None => self.load_element(v.tmp, len, stride, index)?,
        };
        Ok(if el.is_agg() {
            Val::agg(el, t)
        } else {
            Val::temp(el.base, t)
        })
    }

    /// `v[index]` for a vector (a lane) or a matrix (a column) with a run-time index.
    pub(super) fn dyn_component_value(&mut self, e: i16, v: Val, index: i16) -> R<Val> {
        if is_scalar(v.ty) || !is_matrix(v.ty) && !is_numeric(v.ty) && !is_bvec(v.ty) {
            bail!(self, e, "cannot index a {}", v.ty.name());
        }
        let src = self.mat(v)?;
        if is_matrix(v.ty) {
            let cols = v.ty.columns() as u16;
            let t = self.load_element(src, cols, 1, index)?;
            return Ok(Val::temp(vec_type(false, v.ty.components()), t));
        }
        let t = self.temp(1)?;
        let n = v.ty.components() as i16;
        let ty = like(v.ty, 1);
        self.emit(Op::LoadLane, ty, 1, t, index, src, n, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// An assignment target `arr[index]` (array block `tmp` of type `agg`): a copy of the
    /// element, written back after the store.
    pub(super) fn dyn_array_target(
        &mut self,
        e: i16,
        s: usize,
        tmp: i16,
        agg: AggTy,
        index: i16,
    ) -> R<LValue> {
        let el = agg.elem();
        if el.base.is_sampler() {
            bail!(self, e, "cannot assign to a sampler");
        }
        let stride = self.agg_temps(el);
        let t = self.load_element(tmp, agg.len, stride, index)?;
        self.pend(WriteBack {
            copy: t,
            temps: stride,
            base: tmp,
            len: agg.len,
            stride,
            lane: false,
            index,
            key: -1,
        })?;
        if el.is_agg() {
            self.lv_agg = el;
        }
        Ok((s, t, el.base, None))
    }

    /// An assignment target `v[index]` on a vector or matrix target at `tmp` of type `ty`.
    pub(super) fn dyn_component_target(
        &mut self,
        e: i16,
        s: usize,
        tmp: i16,
        ty: Type,
        index: i16,
    ) -> R<LValue> {
        if is_scalar(ty) || !is_matrix(ty) && !is_numeric(ty) && !is_bvec(ty) {
            bail!(self, e, "cannot index a {}", ty.name());
        }
        if is_matrix(ty) {
            let cols = ty.columns() as u16;
            let t = self.load_element(tmp, cols, 1, index)?;
            self.pend(WriteBack {
                copy: t,
                temps: 1,
                base: tmp,
                len: cols,
                stride: 1,
                lane: false,
                index,
                key: -1,
            })?;
            return Ok((s, t, vec_type(false, ty.components()), None));
        }
        let t = self.temp(1)?;
        let n = ty.components() as i16;
        let sty = like(ty, 1);
        self.emit(Op::LoadLane, sty, 1, t, index, tmp, n, 0)?;
        self.pend(WriteBack {
            copy: t,
            temps: 1,
            base: tmp,
            len: n as u16,
            stride: 1,
            lane: true,
            index,
            key: -1,
        })?;
        Ok((s, t, sty, None))
    }

    fn pend(&mut self, w: WriteBack) -> R<()> {
        if self.t.wb.push(w).is_err() {
            bail!(
                self,
                -1,
                "too many dynamically indexed assignment targets at once (the limit is {}, P2_INDEXED_TARGETS_MAX)",
                P2_INDEXED_TARGETS_MAX
            );
        }
        Ok(())
    }

    /// Marks the write-backs pushed since `mark` as belonging to target temp `key`.
    pub(super) fn own_indexed(&mut self, mark: usize, key: i16) {
        for w in self.t.wb.iter_mut().skip(mark) {
            if w.key < 0 {
                w.key = key;
            }
        }
    }

    /// After a store to target temp `key`: writes its indexed copies back, innermost first.
    pub(super) fn flush_indexed(&mut self, key: i16) -> R<()> {
        while let Some(w) = self.t.wb.last().copied() {
            if w.key != key {
                break;
            }
            self.t.wb.pop();
            if w.lane {
                self.emit(
                    Op::StoreLane,
                    Type::None,
                    1,
                    w.base,
                    w.index,
                    w.copy,
                    w.len as i16,
                    0,
                )?;
                continue;
            }
            for o in 0..w.temps as i16 {
                let mut inst = Inst::new(Op::StoreIdx);
                inst.lanes = 4;
                inst.dst = w.base;
                inst.a = w.index;
                inst.b = w.copy + o;
                inst.c = o;
                inst.aux = w.len as i16;
                inst.aux2 = w.stride as i16;
                self.push_inst(inst)?;
            }
        }
        Ok(())
    }
}
