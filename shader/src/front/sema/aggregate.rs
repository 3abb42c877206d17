//! Profile 2's aggregate types (issue 13): structs, flattened into their leaf values.
//!
//! An aggregate type ([`AggTy`]) is a base type or a struct, with an optional array length
//! (reserved for arrays: `len` is 0 until they come). A value of aggregate type lives in a block
//! of consecutive temps, each leaf (a scalar, vector or matrix member, in declaration order,
//! nested structs expanded in place) at a fixed offset: a member access with a known name is an
//! offset, so the IR, the executor, TGSI and CSIR see only ordinary values. A uniform of struct
//! type is one program uniform per leaf, named `u.member` (`u.inner.member` when nested), in
//! consecutive vec4 slots.
//!
//! Owns: struct declarations and their scoping, leaf layout (temp and uniform-slot offsets),
//! member lookup, copies, zeroing, `==`/`!=` and constructors of aggregates. Must never:
//! recurse deeper than the struct table (a member's type is always an earlier struct).
use heapless::Vec;

use super::scope::{name_key, same_name};
use super::types::*;
use super::{Sema, SymName, R};
use crate::front::ast::*;
use crate::front::diag::bounded_string;
use crate::ir::*;
use crate::limits::*;

/// An aggregate type: `base` (a scalar, vector, matrix or sampler type) or, with `strukt` >
/// 0, the struct `strukt - 1` of the struct table; `len` > 0 would make it an array of that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AggTy {
    pub(super) base: Type,
    pub(super) strukt: u16,
    pub(super) len: u16,
}

impl AggTy {
    pub(super) const NONE: AggTy = AggTy {
        base: Type::None,
        strukt: 0,
        len: 0,
    };

    pub(super) fn plain(base: Type) -> AggTy {
        AggTy {
            base,
            strukt: 0,
            len: 0,
        }
    }

    /// The element type of an array type (the type itself otherwise).
    pub(super) fn elem(self) -> AggTy {
        AggTy { len: 0, ..self }
    }

    /// Whether values of this type are blocks of temps rather than single values.
    pub(super) fn is_agg(self) -> bool {
        self.strukt != 0 || self.len != 0
    }
}

/// A declared struct type.
#[derive(Clone, Copy, Debug)]
pub(super) struct StructDef {
    pub(super) name: SymName,
    pub(super) key: u32,
    /// The scope it was declared in (structs of a popped scope are dropped with it).
    pub(super) scope: u16,
    /// Its members: `members[first..first + count]`.
    pub(super) first: u16,
    pub(super) count: u16,
    /// Temps and uniform vec4 slots of one value.
    pub(super) temps: u16,
    pub(super) uslots: u16,
    /// Sampler units of one value (its sampler members, GLSL 3.30 §4.1.7: such a struct is
    /// only a uniform or an `in` parameter; its samplers take no temps and no slots).
    pub(super) units: u16,
    pub(super) node: i16,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Member {
    pub(super) name: SymName,
    pub(super) ty: AggTy,
    /// A matrix member of a block with `layout(row_major)`.
    pub(super) row_major: bool,
    /// An interface block member's own qualifiers: the `D_FLAT | D_NOPERSPECTIVE | D_CENTROID
    /// | D_INVARIANT` flags, and 0x80 for `smooth` (0: the block's qualifiers apply).
    pub(super) quals: u8,
}

/// One leaf of an aggregate: its temp and uniform-slot offsets and its type.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf {
    pub(super) toff: u16,
    pub(super) uoff: u16,
    pub(super) ty: Type,
    /// A row-major matrix: its uniform floats are its rows (transposed when loaded).
    pub(super) row_major: bool,
}

/// A type's name in a diagnostic.
pub(super) type TypeName = heapless::String<80>;

/// Leaves of one aggregate value at most (each takes at least one temp).
pub(super) const LEAF_CAP: usize = P2_TEMP_MAX;

/// Temps of a value of base type `t` (matrices: a temp per column; a sampler member none: its
/// value is a unit known at compile time).
fn base_temps(t: Type) -> u16 {
    if t.is_sampler() {
        return 0;
    }
    t.columns().max(1) as u16
}

impl<'a> Sema<'a> {
    pub(super) fn struct_def(&self, agg: AggTy) -> Option<StructDef> {
        agg.strukt
            .checked_sub(1)
            .and_then(|s| self.t.structs.get(s as usize))
            .copied()
    }

    /// Temps a value of `agg` takes.
    pub(super) fn agg_temps(&self, agg: AggTy) -> u16 {
        if agg.len > 0 {
            return agg.len.saturating_mul(self.agg_temps(agg.elem()));
        }
        match self.struct_def(agg) {
            Some(d) => d.temps,
            None => base_temps(agg.base),
        }
    }

    /// Uniform vec4 slots a uniform of `agg` takes.
    pub(super) fn agg_uslots(&self, agg: AggTy) -> u16 {
        if agg.len > 0 {
            return agg.len.saturating_mul(self.agg_uslots(agg.elem()));
        }
        match self.struct_def(agg) {
            Some(d) => d.uslots,
            None => agg.base.uniform_slots() as u16,
        }
    }

    /// Sampler units a value of `agg` refers to (its sampler leaves, in layout order).
    pub(super) fn agg_units(&self, agg: AggTy) -> u16 {
        if agg.len > 0 {
            return agg.len.saturating_mul(self.agg_units(agg.elem()));
        }
        match self.struct_def(agg) {
            Some(d) => d.units,
            None => u16::from(agg.base.is_sampler()),
        }
    }

    /// The GLSL rule a struct with a sampler member breaks when used as anything but a
    /// uniform or an `in` parameter.
    pub(super) const SAMPLER_STRUCT_RULE: &'static str = "GLSL 3.30, section 4.1.7: samplers, and structs with sampler members, can only be uniforms or function 'in' parameters, never l-values";

    /// Refuses `agg` when it holds samplers: `what` is the use (`'m' cannot be a local
    /// variable`), followed by the type and the GLSL rule.
    pub(super) fn no_sampler_agg(&mut self, at: i16, agg: AggTy, what: &str) -> R<()> {
        if self.agg_units(agg) == 0 {
            return Ok(());
        }
        let t = self.agg_name(agg);
        bail!(
            self,
            at,
            "{}: {} has sampler members ({})",
            what,
            t,
            Self::SAMPLER_STRUCT_RULE
        );
    }

    /// The name of `agg` for diagnostics (`Light`, `vec3[4]`).
    pub(super) fn agg_name(&self, agg: AggTy) -> TypeName {
        let mut s = TypeName::new();
        let base = match self.struct_def(agg) {
            Some(d) => self.name_str(d.name),
            None => agg.base.name(),
        };
        let _ = s.push_str(base);
        if agg.len > 0 {
            let _ = core::fmt::Write::write_fmt(&mut s, format_args!("[{}]", agg.len));
        }
        s
    }

    /// The type name of a value for diagnostics (its struct's or array's, or its type's).
    pub(super) fn val_name(&self, v: &Val) -> TypeName {
        if v.agg.is_agg() {
            self.agg_name(v.agg)
        } else {
            let mut s = TypeName::new();
            let _ = s.push_str(v.ty.name());
            s
        }
    }

    /// The innermost visible struct named `name`, as an [`AggTy::strukt`] number.
    pub(super) fn lookup_struct(&self, name: &str) -> Option<u16> {
        // No struct declared (most shaders): nothing to hash or search.
        if self.t.structs.is_empty() {
            return None;
        }
        let key = name_key(name);
        (0..self.t.structs.len()).rev().find_map(|i| {
            let d = self.t.structs.get(i)?;
            (d.key == key && same_name(self.name_str(d.name), name) && self.visible(d.scope))
                .then_some(i as u16 + 1)
        })
    }

    /// Drops the structs declared in scope `scope` and above (it is being popped).
    pub(super) fn pop_structs(&mut self, scope: u16) {
        while let Some(d) = self.t.structs.last().copied() {
            if d.scope < scope || scope == 0 {
                break;
            }
            self.t.members.truncate(d.first as usize);
            self.t.structs.pop();
        }
    }

    /// The type of a Decl, Param or Func node: its base type, or (profile 2, `c` set) the
    /// struct its type name names.
    pub(super) fn node_agg(&mut self, i: i16) -> R<AggTy> {
        let n = self.node(i);
        // No type name (the usual node): its base type, without `node_elem`'s second copy of
        // the node.
        let elem = if n.c < 0 {
            AggTy::plain(n.ty)
        } else {
            self.node_elem(i)?
        };
        if n.b >= 0 && matches!(n.kind, Kind::Decl | Kind::Param) {
            let len = self.array_len(n.b)?;
            return Ok(AggTy { len, ..elem });
        }
        if n.d >= 0 && n.kind == Kind::Func {
            let len = self.array_len(n.d)?;
            return Ok(AggTy { len, ..elem });
        }
        Ok(elem)
    }

    /// An array size: a constant integer expression, 1 to [`P2_ARRAY_LEN_MAX`].
    pub(super) fn array_len(&mut self, e: i16) -> R<u16> {
        if let Some(len) = self.global_const_int(e, 0) {
            if !(1..=P2_ARRAY_LEN_MAX as i64).contains(&len) {
                bail!(
                    self,
                    e,
                    "array size {} is out of range: it must be 1 to {} (P2_ARRAY_LEN_MAX)",
                    len,
                    P2_ARRAY_LEN_MAX
                );
            }
            return Ok(len as u16);
        }
        let v = self.value(e)?;
        let Some(k) = v.k.filter(|_| v.ty == Type::Int) else {
            bail!(
                self,
                e,
                "an array size must be a constant integer expression; found {}",
                if v.ty == Type::Int {
                    "a value known only at run time"
                } else {
                    v.ty.name()
                }
            );
        };
        let len = self.knum(v.ty, &k, 0);
        if !(len >= 1.0 && len <= P2_ARRAY_LEN_MAX as f32) {
            bail!(
                self,
                e,
                "array size {} is out of range: it must be 1 to {} (P2_ARRAY_LEN_MAX)",
                len,
                P2_ARRAY_LEN_MAX
            );
        }
        Ok(len as u16)
    }

    /// The value of integer expression `e` when it is made of literals, `+ - * /` and global
    /// `const int`s declared before the use: the sizes of global arrays are needed when the
    /// interface is bound, before the global constants are symbols. None otherwise (then the
    /// expression is lowered as usual, which reports what is wrong).
    fn global_const_int(&self, e: i16, depth: usize) -> Option<i64> {
        if depth > NEST_MAX {
            return None;
        }
        let n = self.ast.get(e).copied()?;
        match n.kind {
            Kind::IntLit => Some(n.ival as u32 as i64),
            Kind::Ident => {
                let name = self.name_of(e);
                if self.lookup(name).is_some() {
                    return None;
                }
                let ast: &'a Ast = self.ast;
                let (_, d) = ast
                    .list(ast.first)
                    .take_while(|&(j, _)| j < e)
                    .find(|&(j, d)| {
                        d.kind == Kind::Decl
                            && d.quals & Q_CONST != 0
                            && d.quals & Q_UNIFORM == 0
                            && d.ty == Type::Int
                            && d.b < 0
                            && d.a >= 0
                            && self.name_of(j) == name
                    })?;
                self.global_const_int(d.a, depth + 1)
            }
            Kind::Unary if n.op == UN_NEG => self.global_const_int(n.a, depth + 1).map(|v| -v),
            Kind::Binary => {
                let a = self.global_const_int(n.a, depth + 1)?;
                let b = self.global_const_int(n.b, depth + 1)?;
                let r = match BinOp::from_u8(n.op)? {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div if b != 0 => a.checked_div(b),
                    _ => None,
                }?;
                (r.abs() <= 1 << 24).then_some(r)
            }
            _ => None,
        }
    }

    /// The type of a Decl, Param or Func node without its array size.
    fn node_elem(&mut self, i: i16) -> R<AggTy> {
        let n = self.node(i);
        if n.c < 0 || !matches!(n.kind, Kind::Decl | Kind::Param | Kind::Func | Kind::Ctor) {
            return Ok(AggTy::plain(n.ty));
        }
        let t = self.toks.get(n.c).map(|t| t.text(self.src)).unwrap_or("");
        match self.lookup_struct(t) {
            Some(s) => Ok(AggTy {
                base: Type::None,
                strukt: s,
                len: 0,
            }),
            None => {
                self.err_tok(n.c, format_args!("unknown type '{}'", t));
                Err(())
            }
        }
    }

    /// Struct declaration node `i` in the current scope.
    pub(super) fn declare_struct(&mut self, i: i16) -> R<()> {
        let n = self.node(i);
        let name = self.name_of(i);
        let key = name_key(name);
        let cur = self.cur;
        if name.starts_with("gl_") {
            bail!(self, i, "names beginning with 'gl_' are reserved");
        }
        if let Some(prev) = self
            .t
            .structs
            .iter()
            .find(|d| d.scope == cur && d.key == key && same_name(self.name_str(d.name), name))
        {
            let line = self
                .toks
                .get(self.node(prev.node).tok)
                .map(|t| t.line)
                .unwrap_or(0);
            bail!(
                self,
                i,
                "duplicate declaration of struct '{}' (first declared at line {})",
                name,
                line
            );
        }
        if self.t.structs.len() >= P2_STRUCT_MAX {
            bail!(
                self,
                i,
                "too many struct types: the limit is {} declared at once (P2_STRUCT_MAX)",
                P2_STRUCT_MAX
            );
        }
        let first = self.t.members.len() as u16;
        let (mut temps, mut uslots, mut units) = (0u16, 0u16, 0u16);
        for (m, mn) in self.ast.list(n.a) {
            let mname = self.name_of(m);
            let ty = match self.node_agg(m) {
                Ok(t) => t,
                Err(()) => {
                    self.t.members.truncate(first as usize);
                    return Err(());
                }
            };
            let bad = if ty.is_agg() {
                None
            } else if mn.ty == Type::Void {
                Some("void")
            } else {
                None
            };
            let dup = self
                .t
                .members
                .get(first as usize..)
                .is_some_and(|ms| ms.iter().any(|x| same_name(self.name_str(x.name), mname)));
            if let Some(what) = bad {
                self.t.members.truncate(first as usize);
                bail!(self, m, "struct member '{}' cannot be {}", mname, what);
            }
            if dup {
                self.t.members.truncate(first as usize);
                bail!(
                    self,
                    m,
                    "struct '{}' has two members named '{}'",
                    name,
                    mname
                );
            }
            let Some(mref) = self.name_ref(mname) else {
                self.t.members.truncate(first as usize);
                bail!(
                    self,
                    m,
                    "internal compiler error: the name '{}' is not in the source",
                    mname
                );
            };
            if self.t.members.len() >= P2_MEMBER_MAX
                || self
                    .t
                    .members
                    .push(Member {
                        name: mref,
                        ty,
                        row_major: mn.op & D_ROW_MAJOR != 0,
                        quals: (mn.op & (D_FLAT | D_NOPERSPECTIVE | D_CENTROID | D_INVARIANT))
                            | if mn.quals & Q_SMOOTH != 0 { 0x80 } else { 0 },
                    })
                    .is_err()
            {
                self.t.members.truncate(first as usize);
                bail!(
                    self,
                    m,
                    "too many struct members: the limit is {} in all (P2_MEMBER_MAX)",
                    P2_MEMBER_MAX
                );
            }
            temps = temps.saturating_add(self.agg_temps(ty));
            uslots = uslots.saturating_add(self.agg_uslots(ty));
            units = units.saturating_add(self.agg_units(ty));
        }
        let count = self.t.members.len() as u16 - first;
        let Some(sref) = self.name_ref(name) else {
            self.t.members.truncate(first as usize);
            bail!(
                self,
                i,
                "internal compiler error: the name '{}' is not in the source",
                name
            );
        };
        let _ = self.t.structs.push(StructDef {
            name: sref,
            key,
            scope: cur,
            first,
            count,
            temps,
            uslots,
            units,
            node: i,
        });
        Ok(())
    }

    /// Member `name` of struct type `agg`: its temp and uniform-slot offsets and its type.
    pub(super) fn member_of(&self, agg: AggTy, name: &str) -> Option<(u16, u16, AggTy)> {
        if agg.len > 0 {
            return None;
        }
        let d = self.struct_def(agg)?;
        let (mut toff, mut uoff) = (0u16, 0u16);
        for k in d.first..d.first + d.count {
            let m = self.t.members.get(k as usize)?;
            if same_name(self.name_str(m.name), name) {
                return Some((toff, uoff, m.ty));
            }
            toff = toff.saturating_add(self.agg_temps(m.ty));
            uoff = uoff.saturating_add(self.agg_uslots(m.ty));
        }
        None
    }

    /// The sampler-unit offset of member `name` of struct type `agg` (0 when none).
    pub(super) fn member_unit(&self, agg: AggTy, name: &str) -> u16 {
        let Some(d) = self.struct_def(agg) else {
            return 0;
        };
        let mut off = 0u16;
        for k in d.first..d.first + d.count {
            let Some(m) = self.t.members.get(k as usize) else {
                break;
            };
            if same_name(self.name_str(m.name), name) {
                break;
            }
            off = off.saturating_add(self.agg_units(m.ty));
        }
        off
    }

    /// The leaves of `agg` in layout order, offsets from (`toff`, `uoff`). Samplers are no
    /// leaves (they hold no value: their units are known at compile time).
    pub(super) fn leaves(
        &self,
        agg: AggTy,
        toff: u16,
        uoff: u16,
        out: &mut Vec<Leaf, LEAF_CAP>,
    ) -> R<()> {
        if agg.len > 0 {
            let e = agg.elem();
            let (et, eu) = (self.agg_temps(e), self.agg_uslots(e));
            for k in 0..agg.len {
                self.leaves(
                    e,
                    toff.saturating_add(k.saturating_mul(et)),
                    uoff.saturating_add(k.saturating_mul(eu)),
                    out,
                )?;
            }
            return Ok(());
        }
        let Some(d) = self.struct_def(agg) else {
            if agg.base.is_sampler() {
                return Ok(());
            }
            return out
                .push(Leaf {
                    toff,
                    uoff,
                    ty: agg.base,
                    row_major: false,
                })
                .map_err(|_| ());
        };
        let (mut t, mut u) = (toff, uoff);
        for k in d.first..d.first + d.count {
            let Some(m) = self.t.members.get(k as usize).copied() else {
                return Err(());
            };
            // A member's struct is an earlier one: the recursion is bounded by the table.
            if m.ty.strukt != 0 && m.ty.strukt > agg.strukt {
                return Err(());
            }
            if m.ty.base.is_sampler() && !m.ty.is_agg() {
                // A sampler member: no value (its unit is the struct value's unit + offset).
            } else if !m.ty.is_agg() {
                out.push(Leaf {
                    toff: t,
                    uoff: u,
                    ty: m.ty.base,
                    row_major: m.row_major,
                })
                .map_err(|_| ())?;
            } else {
                self.leaves(m.ty, t, u, out)?;
            }
            t = t.saturating_add(self.agg_temps(m.ty));
            u = u.saturating_add(self.agg_uslots(m.ty));
        }
        Ok(())
    }

    // Out of line: its 6 KiB leaf list must not sit in the frames of the recursive
    // expression and statement functions it would be inlined into (every nesting level paid
    // for it in stack probes and cache misses).
    #[inline(never)]
    pub(super) fn leaves_of(&mut self, at: i16, agg: AggTy) -> R<Vec<Leaf, LEAF_CAP>> {
        let mut out = Vec::new();
        if self.leaves(agg, 0, 0, &mut out).is_err() {
            bail!(self, at, "struct '{}' is too large", self.agg_name(agg));
        }
        Ok(out)
    }

    /// Copies the aggregate `v` (of type `agg`) into the block at `dst`.
    // Out of line (a leaf list): see `leaves_of`.
    #[inline(never)]
    pub(super) fn store_agg(&mut self, at: i16, dst: i16, agg: AggTy, v: Val) -> R<()> {
        if v.tmp == dst {
            return Ok(());
        }
        for l in self.leaves_of(at, agg)? {
            let o = l.toff.min(i16::MAX as u16) as i16;
            self.store(
                dst.saturating_add(o),
                l.ty,
                Val::temp(l.ty, v.tmp.saturating_add(o)),
            )?;
        }
        Ok(())
    }

    /// Zeroes the block of an aggregate of type `agg` at `dst`.
    pub(super) fn zero_agg(&mut self, dst: i16, agg: AggTy) -> R<()> {
        for k in 0..self.agg_temps(agg) {
            self.zero(dst + k as i16)?;
        }
        Ok(())
    }

    /// A new block holding a copy of aggregate `v`.
    pub(super) fn copy_agg(&mut self, at: i16, v: Val) -> R<Val> {
        let t = self.temp(self.agg_temps(v.agg))?;
        self.store_agg(at, t, v.agg, v)?;
        Ok(Val::agg(v.agg, t))
    }

    /// Checks that `v` has exactly aggregate type `want` (what must be e.g. "cannot assign").
    pub(super) fn check_agg(&mut self, at: i16, v: &Val, want: AggTy, what: &str) -> R<()> {
        if v.agg != want {
            let (w, g) = (self.agg_name(want), self.val_name(v));
            bail!(self, at, "{}: expected {}, found {}", what, w, g);
        }
        Ok(())
    }

    /// Member access `v.name` (Swizzle node `i` naming a member) on the aggregate `v`.
    pub(super) fn member_value(&mut self, i: i16, v: Val) -> R<Val> {
        let name = self.name_of(i);
        if v.agg.len > 0 {
            let a = self.agg_name(v.agg);
            bail!(
                self,
                i,
                "an array ({}) has no member '{}': only .length()",
                a,
                name
            );
        }
        let Some((toff, _, ty)) = self.member_of(v.agg, name) else {
            let s = self.agg_name(v.agg);
            bail!(self, i, "struct '{}' has no member named '{}'", s, name);
        };
        let t = v.tmp.saturating_add(toff.min(i16::MAX as u16) as i16);
        if self.agg_units(ty) > 0 {
            // A sampler member (or a struct or array holding samplers): its units follow the
            // struct value's first unit.
            let uo = self.member_unit(v.agg, name);
            let unit = i8::try_from((v.unit as i32).saturating_add(uo as i32)).unwrap_or(-1);
            if v.unit < 0 || unit < 0 {
                bail!(
                    self,
                    i,
                    "'{}' names a sampler of a struct that has none bound here",
                    name
                );
            }
            return Ok(if !ty.is_agg() {
                Val {
                    ty: ty.base,
                    tmp: -1,
                    k: None,
                    unit,
                    agg: AggTy::NONE,
                }
            } else if ty.base.is_sampler() && ty.strukt == 0 {
                Val {
                    ty: Type::None,
                    tmp: -1,
                    k: None,
                    unit,
                    agg: ty,
                }
            } else {
                Val {
                    unit,
                    ..Val::agg(ty, t)
                }
            });
        }
        Ok(if ty.is_agg() {
            Val::agg(ty, t)
        } else {
            Val::temp(ty.base, t)
        })
    }

    /// `a == b` / `a != b` on aggregates: every leaf component equal.
    // Out of line (a leaf list): see `leaves_of`.
    #[inline(never)]
    pub(super) fn agg_compare(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Val> {
        if !matches!(op, BinOp::Eq | BinOp::Ne) {
            let (x, y) = (self.val_name(&a), self.val_name(&b));
            bail!(
                self,
                i,
                "operator {} cannot take a struct or an array ({} {} {}); only = == != do",
                op.symbol(),
                x,
                op.symbol(),
                y
            );
        }
        if a.agg != b.agg {
            let (x, y) = (self.val_name(&a), self.val_name(&b));
            bail!(self, i, "cannot compare {} {} {}", x, op.symbol(), y);
        }
        self.no_sampler_agg(i, a.agg, "structs with samplers cannot be compared")?;
        let mut acc: i16 = -1;
        for l in self.leaves_of(i, a.agg)? {
            let cols = l.ty.columns().max(1) as i16;
            let col_ty = if is_matrix(l.ty) {
                vec_type(false, l.ty.components())
            } else {
                l.ty
            };
            for c in 0..cols {
                let o = (l.toff.min(i16::MAX as u16) as i16).saturating_add(c);
                for k in 0..col_ty.components().max(1) {
                    let (x, y) = (
                        Val::temp(col_ty, a.tmp.saturating_add(o)),
                        Val::temp(col_ty, b.tmp.saturating_add(o)),
                    );
                    let (x, y) = if is_scalar(col_ty) {
                        (x, y)
                    } else {
                        (
                            self.swizzle(i, x, 1, k as i32)?,
                            self.swizzle(i, y, 1, k as i32)?,
                        )
                    };
                    let r = self.compare(i, BinOp::Eq, x, y)?;
                    let r = self.mat(r)?;
                    if acc < 0 {
                        acc = r;
                    } else {
                        let t = self.temp(1)?;
                        self.emit(Op::Min, Type::Bool, 1, t, acc, r, 0, 0)?;
                        acc = t;
                    }
                }
            }
        }
        if op == BinOp::Ne {
            let z = self.mat(Val::konst(Type::Bool, [0.0; 4]))?;
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, acc, z, CmpCode::Eq as i16, 0)?;
            acc = t;
        }
        Ok(Val::temp(Type::Bool, acc))
    }

    /// Struct constructor `S(a, b, ...)` (Call node `i`): one argument per member, each of the
    /// member's type (int-based values convert to float ones, as GLSL's implicit conversions).
    pub(super) fn struct_ctor(&mut self, i: i16, n: Node, strukt: u16) -> R<Val> {
        let agg = AggTy {
            base: Type::None,
            strukt,
            len: 0,
        };
        let Some(d) = self.struct_def(agg) else {
            return Err(());
        };
        self.no_sampler_agg(i, agg, "a struct with samplers cannot be constructed")?;
        let nargs = self.ast.list(n.a).count();
        if nargs != d.count as usize {
            bail!(
                self,
                i,
                "constructor of struct '{}' takes {} argument(s) (one per member), {} given",
                self.name_str(d.name),
                d.count,
                nargs
            );
        }
        let t = self.temp(d.temps)?;
        let mut off = 0u16;
        let args = self.ast.list(n.a);
        for (k, (a, _)) in args.enumerate() {
            let Some(m) = self.t.members.get(d.first as usize + k).copied() else {
                return Err(());
            };
            let v = self.value(a)?;
            let dst = t + off as i16;
            if m.ty.is_agg() {
                self.check_agg(
                    a,
                    &v,
                    m.ty,
                    "wrong type for a struct member in the constructor",
                )?;
                self.store_agg(a, dst, m.ty, v)?;
            } else {
                let Some(v) = self.convert_emit(v, m.ty.base)?.filter(|_| !v.agg.is_agg()) else {
                    let g = self.val_name(&v);
                    bail!(
                        self,
                        a,
                        "argument {} of the constructor of '{}' is {}; the member '{}' is {}",
                        k + 1,
                        self.name_str(d.name),
                        g,
                        self.name_str(m.name),
                        m.ty.base.name()
                    );
                };
                self.store(dst, m.ty.base, v)?;
            }
            off = off.saturating_add(self.agg_temps(m.ty));
        }
        self.cur_node = i;
        Ok(Val::agg(agg, t))
    }

    /// Reflects uniform `name` of struct type `agg` from vec4 slot `slot`: one program uniform
    /// per leaf, named `name.member` (nested: `name.inner.member`).
    pub(super) fn reflect_uniform(
        &mut self,
        at: i16,
        prefix: &str,
        agg: AggTy,
        slot: usize,
        units: &mut usize,
    ) -> R<()> {
        if agg.len > 0 {
            let e = agg.elem();
            let eu = self.agg_uslots(e) as usize;
            for k in 0..agg.len as usize {
                let mut full: heapless::String<NAME_CAP> = heapless::String::new();
                if core::fmt::Write::write_fmt(&mut full, format_args!("{}[{}]", prefix, k))
                    .is_err()
                {
                    bail!(
                        self,
                        at,
                        "the uniform name '{}[{}]' is longer than {} characters",
                        prefix,
                        k,
                        NAME_CAP - 1
                    );
                }
                self.reflect_uniform(at, &full, e, slot + k * eu, units)?;
            }
            return Ok(());
        }
        let Some(d) = self.struct_def(agg) else {
            let nm: Name = bounded_string(prefix);
            if agg.base.is_sampler() {
                // A sampler member: the next unit, named `u.member` (`mats[1].albedo`).
                let max = self.lim.samplers_max;
                if *units >= max
                    || self
                        .module
                        .iface
                        .samplers
                        .push(Sampler {
                            name: nm,
                            unit: *units as u8,
                            ty: agg.base,
                        })
                        .is_err()
                {
                    bail!(
                        self,
                        at,
                        "too many samplers: '{}' would be sampler {}; the limit is {}",
                        prefix,
                        *units + 1,
                        max
                    );
                }
                *units += 1;
                return Ok(());
            }
            if self.module.iface.uniforms.len() >= self.lim.uniform_vec4_slots_max
                || self
                    .module
                    .iface
                    .uniforms
                    .push(Uniform {
                        name: nm,
                        ty: agg.base,
                        slot: slot as u16,
                        slots: agg.base.uniform_slots(),
                    })
                    .is_err()
            {
                bail!(self, at, "too many uniforms: '{}' does not fit", prefix);
            }
            return Ok(());
        };
        let mut u = slot;
        for k in d.first..d.first + d.count {
            let Some(m) = self.t.members.get(k as usize).copied() else {
                return Err(());
            };
            if m.ty.strukt > agg.strukt {
                return Err(());
            }
            let mut full: heapless::String<NAME_CAP> = heapless::String::new();
            if full.push_str(prefix).is_err()
                || full.push('.').is_err()
                || full.push_str(self.name_str(m.name)).is_err()
            {
                bail!(
                    self,
                    at,
                    "the uniform name '{}.{}' is longer than {} characters",
                    prefix,
                    self.name_str(m.name),
                    NAME_CAP - 1
                );
            }
            self.reflect_uniform(at, &full, m.ty, u, units)?;
            u += self.agg_uslots(m.ty) as usize;
        }
        Ok(())
    }

    /// Transposes the matrix of type `ty` in the temps from `t` (a row-major uniform's rows
    /// become its columns): column j of the result is lane j of every column.
    pub(super) fn transpose_in_place(&mut self, t: i16, ty: Type) -> R<()> {
        let n = ty.columns() as i16;
        if n == 0 {
            return Ok(());
        }
        let r = self.temp(n as u16)?;
        for j in 0..n {
            for k in 0..n {
                self.emit(Op::SetLane, Type::Vec4, 1, r + j, t + k, -1, k, j)?;
            }
        }
        for j in 0..n {
            self.emit(Op::Mov, Type::Vec4, n as u8, t + j, r + j, -1, 0, 0)?;
        }
        Ok(())
    }

    /// Loads uniform aggregate `agg` (first vec4 slot `slot`) into a new block.
    // Out of line (a leaf list): see `leaves_of`.
    #[inline(never)]
    pub(super) fn load_uniform_agg(&mut self, at: i16, agg: AggTy, slot: u16) -> R<i16> {
        let t = self.temp(self.agg_temps(agg))?;
        for l in self.leaves_of(at, agg)? {
            let dst = t.saturating_add(l.toff.min(i16::MAX as u16) as i16);
            let count = l.ty.uniform_slots();
            let s = slot.saturating_add(l.uoff).min(i16::MAX as u16) as i16;
            self.emit(Op::LoadUni, l.ty, 4, dst, -1, -1, s, count as i16)?;
            if l.row_major {
                self.transpose_in_place(dst, l.ty)?;
            }
            if l.ty == Type::Bool {
                let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                self.emit(Op::Cmp, Type::Bool, 1, dst, dst, z, CmpCode::Ne as i16, 0)?;
            }
        }
        Ok(t)
    }

    /// Element `idx` (node `e`, a constant) of array `v` (Index node `i`).
    pub(super) fn index_value(&mut self, i: i16, e: i16, v: Val) -> R<Val> {
        self.check_block_array_index(i, e)?;
        if let super::index::Index::Dyn(t) = self.index_operand(e, false)? {
            return self.dyn_array_value(e, v, t);
        }
        let k = self.array_index(e, v.agg)?;
        let el = v.agg.elem();
        if el.base.is_sampler() {
            return Ok(Val {
                ty: el.base,
                tmp: -1,
                k: None,
                unit: v.unit.saturating_add(k as i8),
                agg: AggTy::NONE,
            });
        }
        let _ = i;
        let t = v
            .tmp
            .saturating_add(k.saturating_mul(self.agg_temps(el)).min(i16::MAX as u16) as i16);
        let eu = self.agg_units(el);
        if eu > 0 {
            // An element of an array of structs with samplers: its units follow.
            let unit = (v.unit as i32).saturating_add(k as i32 * eu as i32);
            return Ok(Val {
                unit: i8::try_from(unit).unwrap_or(-1),
                ..Val::agg(el, t)
            });
        }
        Ok(if el.is_agg() {
            Val::agg(el, t)
        } else {
            Val::temp(el.base, t)
        })
    }

    /// A constant index into an array of type `agg` (profile 2 part 2: only constant indexes).
    pub(super) fn array_index(&mut self, e: i16, agg: AggTy) -> R<u16> {
        let v = self.value(e)?;
        if v.ty != Type::Int || v.agg.is_agg() {
            let g = self.val_name(&v);
            bail!(self, e, "an array index must be an int; found {}", g);
        }
        let Some(k) = v.k else {
            bail!(
                self,
                e,
                "array indexes must be constant expressions (or loop indexes) for now: dynamic indexing comes with profile 2 part 3"
            );
        };
        let idx = self.knum(v.ty, &k, 0);
        if !(idx >= 0.0 && idx < agg.len as f32) {
            let a = self.agg_name(agg);
            bail!(
                self,
                e,
                "index {} is out of range: {} has {} element(s)",
                idx,
                a,
                agg.len
            );
        }
        Ok(idx as u16)
    }

    /// Array constructor `T[N](...)` / `T[](...)` (Ctor node `i` with op 1).
    pub(super) fn array_ctor(&mut self, i: i16, n: Node) -> R<Val> {
        let el = self.node_elem(i)?;
        if el.base.is_sampler() || (el.base == Type::Void && el.strukt == 0) {
            let w = self.agg_name(el);
            bail!(self, i, "cannot construct an array of {}", w);
        }
        let nargs = self.ast.list(n.a).count();
        let len = if n.b >= 0 {
            let len = self.array_len(n.b)?;
            if len as usize != nargs {
                bail!(
                    self,
                    i,
                    "the array constructor has {} element(s) but {} argument(s)",
                    len,
                    nargs
                );
            }
            len
        } else {
            if nargs == 0 || nargs > P2_ARRAY_LEN_MAX {
                bail!(
                    self,
                    i,
                    "an array constructor needs 1 to {} arguments; found {}",
                    P2_ARRAY_LEN_MAX,
                    nargs
                );
            }
            nargs as u16
        };
        let agg = AggTy { len, ..el };
        let et = self.agg_temps(el);
        let t = self.temp(self.agg_temps(agg))?;
        let args = self.ast.list(n.a);
        for (k, (a, _)) in args.enumerate() {
            let v = self.value(a)?;
            let dst = t.saturating_add((k as u16).saturating_mul(et).min(i16::MAX as u16) as i16);
            if el.is_agg() {
                self.check_agg(a, &v, el, "wrong element type in the array constructor")?;
                self.store_agg(a, dst, el, v)?;
            } else {
                let Some(v) = self.convert_emit(v, el.base)?.filter(|_| !v.agg.is_agg()) else {
                    let (g, w) = (self.val_name(&v), self.agg_name(agg));
                    bail!(
                        self,
                        a,
                        "element {} of the {} constructor is {}; it must be {}",
                        k,
                        w,
                        g,
                        el.base.name()
                    );
                };
                self.store(dst, el.base, v)?;
            }
        }
        self.cur_node = i;
        Ok(Val::agg(agg, t))
    }
}
