//! Expressions: literals, identifiers, swizzles, operator chains, and the binary, logical,
//! comparison, arithmetic, matrix and unary operators.

use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::front::profile::P2_HINT;
use crate::ir::*;
use crate::limits::*;

impl<'a> Sema<'a> {
    /// An expression that must have a value (not a void call).
    pub(super) fn value(&mut self, i: i16) -> R<Val> {
        // The result passed on as it came (not unwrapped and rebuilt: a copy per level).
        let r = self.expr(i);
        if matches!(&r, Ok(v) if v.ty == Type::Void) {
            return self.void_value(i);
        }
        r
    }

    /// [`Self::value`]'s error, out of line (its formatting made every value save and restore
    /// six registers).
    #[cold]
    #[inline(never)]
    fn void_value(&mut self, i: i16) -> R<Val> {
        let name = self.name_of(i);
        bail!(self, i, "void function '{}' used as a value", name);
    }

    /// Converts `v` to `want`: equal types, or int-based to the float type of the same size
    /// (ints are whole floats, so the value is unchanged).
    pub(super) fn convert(&self, v: Val, want: Type) -> Option<Val> {
        if v.ty == want {
            return Some(v);
        }
        if is_whole(v.ty)
            && sk(want) == Sk::Float
            && is_numeric(want)
            && v.ty.components() == want.components()
        {
            return Some(Val { ty: want, ..v });
        }
        None
    }

    pub(super) fn const_index(&mut self, i: i16, of: Type) -> R<usize> {
        let v = self.value(i)?;
        let Some(k) = v.k.filter(|_| matches!(v.ty, Type::Int | Type::Uint)) else {
            bail!(self, i, "only constant integer indexes are supported");
        };
        let idx = self.knum(v.ty, &k, 0);
        let count = if is_matrix(of) {
            of.columns()
        } else {
            of.components()
        } as f32;
        if is_scalar(of) || !is_matrix(of) && !is_numeric(of) {
            bail!(self, i, "cannot index a {}", of.name());
        }
        if !(idx >= 0.0 && idx < count) {
            bail!(
                self,
                i,
                "index {} is out of range: {} has {} element(s)",
                idx,
                of.name(),
                count
            );
        }
        Ok(idx as usize)
    }

    pub(super) fn expr(&mut self, i: i16) -> R<Val> {
        self.spend(i)?;
        let n = self.node(i);
        self.cur_node = i;
        match n.kind {
            Kind::IntLit => Ok(self.int_literal(
                if n.ty == Type::Uint {
                    Type::Uint
                } else {
                    Type::Int
                },
                n.ival as u32,
            )),
            Kind::FloatLit => Ok(Val::konst(
                Type::Float,
                [f32::from_bits(n.ival as u32), 0.0, 0.0, 0.0],
            )),
            Kind::BoolLit => Ok(Val::konst(Type::Bool, [n.ival as f32, 0.0, 0.0, 0.0])),
            Kind::Ident => self.ident(i),
            Kind::Binary | Kind::Swizzle | Kind::Index => self.chain(i),
            Kind::Unary => self.unary(i, n),
            Kind::Incr if self.toks.profile == Profile::P2 => self.incr(i, n),
            Kind::Incr => bail!(
                self,
                i,
                "increment and decrement are only supported as a for-loop step{}",
                P2_HINT
            ),
            Kind::Assign if self.toks.profile == Profile::P2 => self.assign_value(i, n, true),
            Kind::Cond => self.cond(i, n),
            Kind::Call => self.call(i, n),
            Kind::Ctor => self.ctor(i, n),
            _ => bail!(self, i, "unsupported expression"),
        }
    }

    /// A left operand chain: binary operators (left-associative) and postfix swizzles and
    /// indexes, each applied to the value of the one below it, as in `a + b + c` or `m[0].xy`.
    /// Chains are as long as the node table allows and are not nesting, so they are lowered
    /// with an explicit stack ([`Sema::spine`]) rather than by recursion: the walk down pushes
    /// the chain, its innermost operand is lowered, and each link is applied on the way back,
    /// in the same order (and with the same diagnostics) as a recursive descent.
    pub(super) fn chain(&mut self, top: i16) -> R<Val> {
        let base = self.t.spine.len();
        let r = self.chain_from(top, base);
        self.t.spine.truncate(base);
        r
    }

    pub(super) fn chain_from(&mut self, top: i16, base: usize) -> R<Val> {
        let mut cur = self.push_chain(top, false)?;
        let mut v = match self.depth_range_member(cur, base)? {
            // The member link is consumed: the chain goes on from the member's value.
            Some(m) => {
                self.t.spine.pop();
                m
            }
            None => self.value(cur)?,
        };
        while self.t.spine.len() > base {
            let Some(link) = self.t.spine.pop() else {
                break;
            };
            cur = link;
            v = self.link(cur, v)?;
        }
        Ok(v)
    }

    /// Profile 2's built-in uniform `gl_DepthRange` (GLSL 3.30 §7.4): `base_node` is the
    /// identifier at the bottom of a chain and the last link pushed above `base` its first link.
    /// `gl_DepthRange.near`, `.far` and `.diff` are the constants 0.0, 1.0 and 1.0, since
    /// Gfx3D's depth range is GL's default and cannot be changed. `None` for every other chain
    /// (and in profile 1); `gl_DepthRange` without one of those members falls through to the
    /// identifier's error (`removed.rs`), and a user symbol of that name cannot exist (the
    /// `gl_` prefix is reserved).
    fn depth_range_member(&mut self, base_node: i16, base: usize) -> R<Option<Val>> {
        if self.toks.profile != Profile::P2 || self.t.spine.len() <= base {
            return Ok(None);
        }
        let n = self.node(base_node);
        if n.kind != Kind::Ident || self.name_of(base_node) != "gl_DepthRange" {
            return Ok(None);
        }
        let Some(&link) = self.t.spine.last() else {
            return Ok(None);
        };
        let l = self.node(link);
        if l.kind != Kind::Swizzle || l.op != 0 || l.ival == 1 {
            return Ok(None);
        }
        let k = match self.name_of(link) {
            "near" => 0.0,
            "far" | "diff" => 1.0,
            other => bail!(
                self,
                link,
                "gl_DepthRange has no member named '{}': it has near, far and diff",
                other
            ),
        };
        Ok(Some(Val::konst(Type::Float, [k, 0.0, 0.0, 0.0])))
    }

    /// Pushes the chain from `top` down and returns its innermost operand. An expression's
    /// chain includes binary operators and each node below `top` is one step of work, as `top`
    /// was in `expr`; an assignment target's (`target`) has only swizzles and indexes.
    pub(super) fn push_chain(&mut self, top: i16, target: bool) -> R<i16> {
        let mut cur = top;
        for _ in 0..=AST_CAP {
            let n = self.node(cur);
            let linked = match n.kind {
                Kind::Swizzle | Kind::Index => true,
                Kind::Binary => !target,
                _ => false,
            };
            if !linked {
                return Ok(cur);
            }
            if cur != top && !target {
                self.spend(cur)?;
                self.cur_node = cur;
            }
            if n.kind == Kind::Binary && BinOp::from_u8(n.op).is_none() {
                bail!(self, cur, "unsupported operator");
            }
            if self.t.spine.push(cur).is_err() {
                // Unreachable: a node is on the stack at most once (no recursion).
                bail!(self, cur, "expression is too long");
            }
            cur = n.a;
        }
        bail!(self, top, "expression is too long")
    }

    /// Applies chain link `i` to `lhs`, the value of its left operand.
    pub(super) fn link(&mut self, i: i16, lhs: Val) -> R<Val> {
        let n = self.node(i);
        if n.kind == Kind::Swizzle && n.op == 0 && n.ival == 1 {
            // Profile 2: `a.length()`, a constant.
            if lhs.agg.len == 0 {
                let g = self.val_name(&lhs);
                bail!(self, i, "length() needs an array; this is {}", g);
            }
            return Ok(self.int_literal(Type::Int, lhs.agg.len as u32));
        }
        if lhs.agg.len > 0 && n.kind == Kind::Index {
            return self.index_value(i, n.b, lhs);
        }
        if lhs.agg.is_agg() {
            if n.kind == Kind::Swizzle {
                return self.member_value(i, lhs);
            }
            if n.kind == Kind::Index {
                let st = self.agg_name(lhs.agg);
                bail!(
                    self,
                    i,
                    "cannot index a struct ({}): select a member with '.'",
                    st
                );
            }
        }
        if n.kind == Kind::Swizzle && n.op == 0 {
            return self.not_a_swizzle(i);
        }
        match n.kind {
            Kind::Swizzle => self.swizzle(i, lhs, n.op, n.ival),
            Kind::Index => {
                if self.toks.profile == Profile::P2 {
                    if let super::index::Index::Dyn(t) = self.index_operand(n.b, false)? {
                        return self.dyn_component_value(n.b, lhs, t);
                    }
                }
                let idx = self.const_index(n.b, lhs.ty)?;
                if is_matrix(lhs.ty) {
                    return Ok(Val::temp(
                        vec_type(false, lhs.ty.components()),
                        lhs.tmp + idx as i16,
                    ));
                }
                self.swizzle(i, lhs, 1, idx as i32)
            }
            _ => self.binary(i, n, lhs),
        }
    }

    /// Profile 2: Swizzle node `i` names no swizzle (a struct member's name) but its value is
    /// not a struct: the parser's swizzle diagnostic.
    pub(super) fn not_a_swizzle<T>(&mut self, i: i16) -> R<T> {
        let w = self.name_of(i);
        match crate::front::parse::swizzle_problem(w.as_bytes()) {
            "mixed" => bail!(
                self,
                i,
                "mixed swizzle sets in '{}': use only xyzw or only rgba",
                w
            ),
            why => bail!(self, i, "invalid swizzle '{}': {}", w, why),
        }
    }

    pub(super) fn ident(&mut self, i: i16) -> R<Val> {
        let Some(s) = self.lookup_node(i) else {
            let name = self.name_of(i);
            if self.is_builtin(name) {
                bail!(self, i, "'{}' is a built-in function, not a value", name);
            }
            return self.unknown_name(i, name, "identifier");
        };
        let Some(sym) = self.sym(s) else {
            return Err(());
        };
        let (kind, ty, tmp, known, slot) = (sym.kind, sym.ty, sym.tmp, sym.known, sym.slot);
        let unit = sym.unit;
        if kind == SymKind::ClipDistance && self.stage != Stage::Vertex {
            bail!(
                self,
                i,
                "gl_ClipDistance is not available in a fragment shader"
            )
        }
        if sym.agg.is_agg() {
            let agg = sym.agg;
            if agg.base.is_sampler() {
                // Profile 2: a sampler array: its units follow the first one.
                return Ok(Val {
                    ty: Type::None,
                    tmp: -1,
                    k: None,
                    unit: slot as i8,
                    agg,
                });
            }
            if tmp < 0 {
                bail!(self, i, "'{}' has no value here", self.name_of(i));
            }
            // A struct with sampler members carries its first unit.
            return Ok(Val {
                unit,
                ..Val::agg(agg, tmp)
            });
        }
        match kind {
            SymKind::Func => bail!(
                self,
                i,
                "'{}' is a function; call it with ( )",
                self.name_of(i)
            ),
            SymKind::Position if self.stage != Stage::Vertex => {
                bail!(self, i, "gl_Position is not available in a fragment shader")
            }
            SymKind::FragCoord if self.stage != Stage::Fragment => {
                bail!(self, i, "gl_FragCoord is not available in a vertex shader")
            }
            SymKind::FragDepth if self.stage != Stage::Fragment => {
                bail!(self, i, "gl_FragDepth is not available in a vertex shader")
            }
            SymKind::SysVal
                if slot == super::FRONT_FACING_SLOT && self.stage != Stage::Fragment =>
            {
                bail!(
                    self,
                    i,
                    "{} is not available in a vertex shader",
                    self.name_of(i)
                )
            }
            SymKind::SysVal if slot != super::FRONT_FACING_SLOT && self.stage != Stage::Vertex => {
                bail!(
                    self,
                    i,
                    "{} is not available in a fragment shader",
                    self.name_of(i)
                )
            }
            SymKind::Sampler => {
                return Ok(Val {
                    ty,
                    tmp: -1,
                    k: None,
                    unit: slot as i8,
                    agg: super::aggregate::AggTy::NONE,
                })
            }
            _ => {}
        }
        if let Some(k) = known {
            return Ok(Val::konst(ty, k));
        }
        if tmp < 0 {
            bail!(self, i, "'{}' has no value here", self.name_of(i));
        }
        Ok(Val::temp(ty, tmp))
    }

    pub(super) fn swizzle(&mut self, i: i16, b: Val, len: u8, mask: i32) -> R<Val> {
        if is_matrix(b.ty) {
            bail!(
                self,
                i,
                "cannot swizzle a matrix (index a column first, as in m[0].xyz)"
            );
        }
        if !is_scalar(b.ty) && !is_numeric(b.ty) && !is_bvec(b.ty) {
            bail!(self, i, "cannot swizzle a {}", b.ty.name());
        }
        let comps = b.ty.components() as usize;
        for k in 0..len as usize {
            if sel(mask, k) >= comps {
                let w = self.name_of(i);
                bail!(
                    self,
                    i,
                    "invalid swizzle '{}': {} has {} component(s)",
                    w,
                    b.ty.name(),
                    comps
                );
            }
        }
        let ty = if b.ty == Type::Bool {
            if len != 1 {
                bail!(self, i, "a bool can only be swizzled to one component");
            }
            Type::Bool
        } else {
            like(b.ty, len)
        };
        if let Some(k) = b.k {
            let mut out = [0.0f32; 4];
            for (kk, o) in out.iter_mut().enumerate().take(len as usize) {
                *o = lane(&k, sel(mask, kk));
            }
            return Ok(Val::konst(ty, out));
        }
        let identity = (0..len as usize).all(|k| sel(mask, k) == k);
        if identity {
            return Ok(Val::temp(ty, b.tmp));
        }
        let t = self.temp(1)?;
        self.emit(Op::Swz, ty, len, t, b.tmp, -1, (mask & 0xff) as i16, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Broadcasts a scalar to `n` lanes.
    pub(super) fn splat(&mut self, v: Val, n: u8) -> R<Val> {
        let ty = like(v.ty, n);
        if n <= 1 {
            return Ok(v);
        }
        if let Some(k) = v.k {
            let x = lane(&k, 0);
            let mut out = [0.0; 4];
            for o in out.iter_mut().take(n as usize) {
                *o = x;
            }
            return Ok(Val::konst(ty, out));
        }
        let t = self.temp(1)?;
        self.emit(Op::Swz, ty, n, t, v.tmp, -1, 0, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// The vector side of a matrix-vector product (either order): not a scalar, float-based,
    /// with as many components as the matrix has columns.
    pub(super) fn check_matrix_vector(
        &mut self,
        i: i16,
        left: Type,
        right: Type,
        vec: Type,
        cols: u8,
    ) -> R<()> {
        if vec.components() == 1 {
            bail!(
                self,
                i,
                "cannot multiply a matrix by a scalar (scale the vector instead)"
            );
        }
        if sk(vec) != Sk::Float || vec.components() != cols {
            bail!(
                self,
                i,
                "cannot multiply {} by {}: the vector must be vec{}",
                left.name(),
                right.name(),
                cols
            );
        }
        Ok(())
    }

    /// Binary operator node `i` with its left operand's value `a`.
    pub(super) fn binary(&mut self, i: i16, n: Node, a: Val) -> R<Val> {
        let Some(op) = BinOp::from_u8(n.op) else {
            bail!(self, i, "unsupported operator")
        };
        if op == BinOp::And || op == BinOp::Or {
            return self.logic(i, n, op, a);
        }
        let mut a = a;
        if super::call::copied_by_snapshot(&a) && self.has_user_call(n.b, 0) {
            a = self.snapshot(a)?;
        }
        let b = self.value(n.b)?;
        self.cur_node = i;
        if a.agg.is_agg() || b.agg.is_agg() {
            return self.agg_compare(i, op, a, b);
        }
        match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                self.compare(i, op, a, b)
            }
            BinOp::Mod | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
                if self.true_ints() =>
            {
                self.arith(i, n, op, a, b)
            }
            BinOp::Mod => {
                let ok = a.ty == Type::Int && b.ty == Type::Int;
                match (a.k, b.k) {
                    (Some(x), Some(y)) if ok => {
                        let (x, y) = (lane(&x, 0) as i32, lane(&y, 0) as i32);
                        if y == 0 {
                            bail!(self, n.b, "division by zero in '%'");
                        }
                        Ok(Val::konst(
                            Type::Int,
                            [x.wrapping_rem(y) as f32, 0.0, 0.0, 0.0],
                        ))
                    }
                    _ => bail!(self, i, "operator % is only supported on constant integers"),
                }
            }
            _ => self.arith(i, n, op, a, b),
        }
    }

    pub(super) fn logic(&mut self, i: i16, n: Node, op: BinOp, a: Val) -> R<Val> {
        if a.ty != Type::Bool {
            bail!(
                self,
                n.a,
                "operands of '{}' must be bool; found {}",
                op.symbol(),
                a.ty.name()
            );
        }
        if self.has_user_call(n.b, 0) {
            // A user function may write globals: evaluate it only when GLSL would.
            let r = self.temp(1)?;
            self.store(r, Type::Bool, a)?;
            let cond = if op == BinOp::And {
                r
            } else {
                let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                let t = self.temp(1)?;
                self.emit(Op::Cmp, Type::Bool, 1, t, r, z, CmpCode::Eq as i16, 0)?;
                t
            };
            if self.if_depth >= IF_DEPTH_MAX {
                bail!(
                    self,
                    i,
                    "if statements are nested too deeply: the limit is {}",
                    IF_DEPTH_MAX
                );
            }
            self.emit(Op::If, Type::None, 0, -1, cond, -1, 0, 0)?;
            self.if_depth += 1;
            let b = self.value(n.b);
            self.if_depth -= 1;
            let b = b?;
            if b.ty != Type::Bool {
                bail!(
                    self,
                    n.b,
                    "operands of '{}' must be bool; found {}",
                    op.symbol(),
                    b.ty.name()
                );
            }
            self.store(r, Type::Bool, b)?;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
            return Ok(Val::temp(Type::Bool, r));
        }
        let b = self.value(n.b)?;
        if b.ty != Type::Bool {
            bail!(
                self,
                n.b,
                "operands of '{}' must be bool; found {}",
                op.symbol(),
                b.ty.name()
            );
        }
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let (x, y) = (lane(&x, 0) != 0.0, lane(&y, 0) != 0.0);
            let r = if op == BinOp::And { x && y } else { x || y };
            return Ok(Val::konst(Type::Bool, [r as u8 as f32, 0.0, 0.0, 0.0]));
        }
        // Bools are exactly 0.0 or 1.0, so MUL is AND and MAX is OR.
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let irop = if op == BinOp::And { Op::Mul } else { Op::Max };
        self.emit(irop, Type::Bool, 1, t, ta, tb, 0, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    /// Profile 2: `c ? a : b`. With a constant `c` and no calls or side effects on either side
    /// the selected value is the result; with pure sides both are computed and an IF/ELSE of
    /// two moves selects; otherwise each side is computed inside its branch, so only the
    /// selected side's calls and side effects run.
    #[inline(never)]
    pub(super) fn cond(&mut self, i: i16, n: Node) -> R<Val> {
        let c = self.value(n.a)?;
        if c.ty != Type::Bool {
            bail!(
                self,
                i,
                "the condition of ?: must be a bool; found {}",
                c.ty.name()
            );
        }
        let effects = self.has_user_call(n.b, 0) || self.has_user_call(n.c, 0);
        if !effects {
            let a = self.value(n.b)?;
            let b = self.value(n.c)?;
            self.cur_node = i;
            if a.agg.is_agg() || b.agg.is_agg() {
                // Profile 2: structs of one type are selected as wholes.
                self.cond_agg_check(i, &a, &b)?;
                if let Some(k) = c.k {
                    return Ok(if lane(&k, 0) != 0.0 { a } else { b });
                }
                let r = self.temp(self.agg_temps(a.agg))?;
                let tc = self.mat(c)?;
                self.cond_if(i, tc)?;
                self.store_agg(i, r, a.agg, a)?;
                self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
                self.store_agg(i, r, a.agg, b)?;
                self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
                self.if_depth -= 1;
                return Ok(Val::agg(a.agg, r));
            }
            let ty = self.cond_type(i, a.ty, b.ty)?;
            let (a, b) = if self.true_ints() && a.ty != b.ty {
                // Profile 2: the int side converts to float (a CVT).
                let a = self.convert_emit(a, ty)?.unwrap_or(a);
                let b = self.convert_emit(b, ty)?.unwrap_or(b);
                (a, b)
            } else {
                (a, b)
            };
            let (a, b) = (Val { ty, ..a }, Val { ty, ..b });
            if let Some(k) = c.k {
                return Ok(if lane(&k, 0) != 0.0 { a } else { b });
            }
            let cols = ty.columns().max(1) as u16;
            let r = self.temp(cols)?;
            let tc = self.mat(c)?;
            self.cond_if(i, tc)?;
            self.store(r, ty, a)?;
            self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
            self.store(r, ty, b)?;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
            self.if_depth -= 1;
            return Ok(Val::temp(ty, r));
        }
        let tc = self.mat(c)?;
        self.cond_if(i, tc)?;
        let r = (|| {
            // The result temp comes after the first side's temps (its type is known only
            // then); int values are whole floats, so an int side stored for a float result
            // needs no conversion.
            let a = self.value(n.b)?;
            if a.ty.is_sampler() {
                bail!(self, n.b, "?: cannot select a {}", a.ty.name());
            }
            if a.agg.is_agg() {
                let r = self.temp(self.agg_temps(a.agg))?;
                self.store_agg(i, r, a.agg, a)?;
                self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
                let mark = self.ntemp;
                let b = self.value(n.c)?;
                self.cur_node = i;
                self.cond_agg_check(i, &a, &b)?;
                self.store_agg(i, r, a.agg, b)?;
                self.ntemp = mark;
                return Ok((Val::agg(a.agg, r), -1, a.ty));
            }
            let cols = a.ty.columns().max(1) as u16;
            let r = self.temp(cols)?;
            self.store(r, a.ty, a)?;
            // Profile 2: an integer first side holds integer bits; if the result turns out a
            // float, the lanes that took this side convert after the ENDIF (`took` marks them).
            let took = if self.true_ints() && is_whole(a.ty) {
                let f = self.temp(1)?;
                let one = self.imm(&[1.0])?;
                self.emit(Op::Const, Type::Bool, 1, f, -1, -1, one, 0)?;
                f
            } else {
                -1
            };
            self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
            if took >= 0 {
                let zero = self.imm(&[0.0])?;
                self.emit(Op::Const, Type::Bool, 1, took, -1, -1, zero, 0)?;
            }
            let mark = self.ntemp;
            let b = self.value(n.c)?;
            self.cur_node = i;
            if b.agg.is_agg() {
                self.cond_agg_check(i, &a, &b)?;
            }
            let ty = self.cond_type(i, a.ty, b.ty)?;
            let b = if self.true_ints() && b.ty != ty {
                self.convert_emit(b, ty)?.unwrap_or(b)
            } else {
                b
            };
            self.store(r, ty, Val { ty, ..b })?;
            self.ntemp = mark;
            Ok((Val::temp(ty, r), took, a.ty))
        })();
        self.if_depth -= 1;
        let (r, took, aty) = r?;
        self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        if took >= 0 && aty != r.ty {
            self.cond_if(i, took)?;
            let mark = self.ntemp;
            if let Some(cv) = self.convert_emit(Val::temp(aty, r.tmp), r.ty)? {
                self.store(r.tmp, r.ty, cv)?;
            }
            self.ntemp = mark;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
            self.if_depth -= 1;
        }
        Ok(r)
    }

    /// Profile 2: the sides of `?:` where one is a struct must be the same struct.
    fn cond_agg_check(&mut self, i: i16, a: &Val, b: &Val) -> R<()> {
        self.no_sampler_agg(i, a.agg, "?: cannot select a struct with samplers")?;
        if a.agg != b.agg {
            let (x, y) = (self.val_name(a), self.val_name(b));
            bail!(
                self,
                i,
                "type mismatch in ?: : the second operand is {}, the third is {}",
                x,
                y
            );
        }
        Ok(())
    }

    fn cond_if(&mut self, i: i16, tc: i16) -> R<()> {
        if self.if_depth >= IF_DEPTH_MAX {
            bail!(
                self,
                i,
                "if statements are nested too deeply: the limit is {}",
                IF_DEPTH_MAX
            );
        }
        self.emit(Op::If, Type::None, 0, -1, tc, -1, 0, 0)?;
        self.if_depth += 1;
        Ok(())
    }

    /// The type of `c ? a : b`: the sides' common type (an int side converts to float).
    fn cond_type(&mut self, i: i16, a: Type, b: Type) -> R<Type> {
        if a.is_sampler() || b.is_sampler() {
            let s = if a.is_sampler() { a } else { b };
            bail!(self, i, "?: cannot select a {}", s.name());
        }
        if a == b {
            return Ok(a);
        }
        let conv = |x: Type, y: Type| {
            is_whole(x) && sk(y) == Sk::Float && is_numeric(y) && x.components() == y.components()
        };
        if conv(a, b) {
            return Ok(b);
        }
        if conv(b, a) {
            return Ok(a);
        }
        bail!(
            self,
            i,
            "type mismatch in ?: : the second operand is {}, the third is {}",
            a.name(),
            b.name()
        )
    }

    pub(super) fn compare(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Val> {
        if self.toks.profile == Profile::P2 {
            if let Some(v) = self.p2_compare(i, op, a, b)? {
                return Ok(v);
            }
        }
        if !is_scalar(a.ty) || !is_scalar(b.ty) {
            let ty = if is_scalar(a.ty) { b.ty } else { a.ty };
            bail!(
                self,
                i,
                "vector comparisons are not supported: compare components (found {})",
                ty.name()
            );
        }
        let bools = (a.ty == Type::Bool) as u8 + (b.ty == Type::Bool) as u8;
        if bools == 1 || (bools == 2 && !matches!(op, BinOp::Eq | BinOp::Ne)) {
            bail!(
                self,
                i,
                "cannot compare {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        let code = match op {
            BinOp::Lt => CmpCode::Lt,
            BinOp::Gt => CmpCode::Gt,
            BinOp::Le => CmpCode::Le,
            BinOp::Ge => CmpCode::Ge,
            BinOp::Eq => CmpCode::Eq,
            _ => CmpCode::Ne,
        };
        if self.true_ints() && bools == 0 {
            // Profile 2: int/uint pairs compare their integers; int with float converts.
            if is_whole(a.ty) && is_whole(b.ty) {
                return self.int_compare(code, a, b, 1);
            }
            let a = self.to_float(a)?;
            let b = self.to_float(b)?;
            if let (Some(x), Some(y)) = (a.k, b.k) {
                let (x, y) = (lane(&x, 0), lane(&y, 0));
                let r = match code {
                    CmpCode::Lt => x < y,
                    CmpCode::Gt => x > y,
                    CmpCode::Le => x <= y,
                    CmpCode::Ge => x >= y,
                    CmpCode::Eq => x == y,
                    CmpCode::Ne => x != y,
                };
                return Ok(Val::konst(Type::Bool, [r as u8 as f32, 0.0, 0.0, 0.0]));
            }
            let (ta, tb) = (self.mat(a)?, self.mat(b)?);
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, ta, tb, code as i16, 0)?;
            return Ok(Val::temp(Type::Bool, t));
        }
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let (x, y) = (lane(&x, 0), lane(&y, 0));
            let r = match code {
                CmpCode::Lt => x < y,
                CmpCode::Gt => x > y,
                CmpCode::Le => x <= y,
                CmpCode::Ge => x >= y,
                CmpCode::Eq => x == y,
                CmpCode::Ne => x != y,
            };
            return Ok(Val::konst(Type::Bool, [r as u8 as f32, 0.0, 0.0, 0.0]));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(Op::Cmp, Type::Bool, 1, t, ta, tb, code as i16, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    pub(super) fn arith(&mut self, i: i16, n: Node, op: BinOp, a: Val, b: Val) -> R<Val> {
        for v in [a, b] {
            if !is_numeric(v.ty) && !is_matrix(v.ty) {
                bail!(
                    self,
                    i,
                    "operator '{}' needs numbers; found {}",
                    op.symbol(),
                    v.ty.name()
                );
            }
        }
        if is_matrix(a.ty) || is_matrix(b.ty) {
            return self.matrix_arith(i, op, a, b);
        }
        let (ka, mut kb) = (sk(a.ty), sk(b.ty));
        let mut b = b;
        if matches!(op, BinOp::Shl | BinOp::Shr) && is_whole(a.ty) && is_whole(b.ty) {
            // A shift's count may be int or uint whatever the shifted value is (the bits are
            // the same); the result has the left operand's type.
            b = Val {
                ty: vec_of(ka, b.ty.components()),
                ..b
            };
            kb = ka;
        }
        if matches!((ka, kb), (Sk::Int, Sk::Uint) | (Sk::Uint, Sk::Int)) {
            bail!(
                self,
                i,
                "type mismatch: {} {} {} (GLSL 3.30 does not convert between int and uint implicitly)",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        let kind = if ka == kb { ka } else { Sk::Float };
        let int = kind != Sk::Float;
        let (na, nb) = (a.ty.components(), b.ty.components());
        if na != nb && na != 1 && nb != 1 {
            bail!(
                self,
                i,
                "type mismatch: {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        let len = na.max(nb);
        let ty = vec_of(kind, len);
        if self.true_ints() {
            let bitwise = !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
            if bitwise && !int {
                bail!(
                    self,
                    i,
                    "operator '{}' needs int or uint operands; found {} and {}",
                    op.symbol(),
                    a.ty.name(),
                    b.ty.name()
                );
            }
            let a = if na < len { self.splat(a, len)? } else { a };
            let b = if nb < len { self.splat(b, len)? } else { b };
            if int {
                return self.int_binary(n.b, op, ty, a, b);
            }
            // int with float: the int side converts (CVT), then the float rules below (a
            // float side is its own conversion: `to_float` would return it as it is).
            let a = if is_whole(a.ty) { self.to_float(a)? } else { a };
            let b = if is_whole(b.ty) { self.to_float(b)? } else { b };
            return self.float_arith(n, op, ty, len, a, b);
        }
        if op == BinOp::Div {
            if let Some(k) = b.k {
                if (0..nb as usize).any(|l| lane(&k, l) == 0.0) {
                    bail!(self, n.b, "division by zero");
                }
            }
        }
        let a = if na < len { self.splat(a, len)? } else { a };
        let b = if nb < len { self.splat(b, len)? } else { b };
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let mut out = [0.0f32; 4];
            for (l, o) in out.iter_mut().enumerate().take(len as usize) {
                let (p, q) = (lane(&x, l), lane(&y, l));
                *o = match op {
                    BinOp::Add => p + q,
                    BinOp::Sub => p - q,
                    BinOp::Mul => p * q,
                    _ => {
                        let d = p / q;
                        if int {
                            libm::truncf(d)
                        } else {
                            d
                        }
                    }
                };
            }
            return Ok(Val::konst(ty, out));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let irop = match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            _ => Op::Div,
        };
        self.emit(irop, ty, len, t, ta, tb, 0, 0)?;
        if int && op == BinOp::Div {
            self.emit(Op::Trunc, ty, len, t, t, -1, 0, 0)?;
        }
        Ok(Val::temp(ty, t))
    }

    /// Profile 2's float `+ - * /` of two float operands of `len` lanes (after conversion).
    fn float_arith(&mut self, n: Node, op: BinOp, ty: Type, len: u8, a: Val, b: Val) -> R<Val> {
        if op == BinOp::Div {
            if let Some(k) = b.k {
                if (0..len as usize).any(|l| lane(&k, l) == 0.0) {
                    bail!(self, n.b, "division by zero");
                }
            }
        }
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let mut out = [0.0f32; 4];
            for (l, o) in out.iter_mut().enumerate().take(len as usize) {
                let (p, q) = (lane(&x, l), lane(&y, l));
                *o = match op {
                    BinOp::Add => p + q,
                    BinOp::Sub => p - q,
                    BinOp::Mul => p * q,
                    _ => p / q,
                };
            }
            return Ok(Val::konst(ty, out));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let irop = match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            _ => Op::Div,
        };
        self.emit(irop, ty, len, t, ta, tb, 0, 0)?;
        Ok(Val::temp(ty, t))
    }

    pub(super) fn matrix_arith(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Val> {
        let (ma, mb) = (is_matrix(a.ty), is_matrix(b.ty));
        let square = |t: Type| matches!(t, Type::Mat3 | Type::Mat4);
        // The cases profile 1 has keep its lowering (MULMM, MULMV, DOTs, column ADD/SUB).
        let p1_case = match op {
            BinOp::Mul => {
                (ma && mb && a.ty == b.ty && square(a.ty))
                    || (ma && !mb && square(a.ty) && b.ty.components() > 1)
                    || (mb && !ma && square(b.ty) && a.ty.components() > 1)
            }
            BinOp::Add | BinOp::Sub => a.ty == b.ty,
            _ => false,
        };
        if self.toks.profile == Profile::P2 && !p1_case {
            if let Some(v) = self.p2_matrix_arith(i, op, a, b)? {
                return Ok(v);
            }
        }
        match op {
            BinOp::Mul if ma && mb => {
                if a.ty != b.ty {
                    bail!(
                        self,
                        i,
                        "matrix size mismatch: {} * {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                let cols = a.ty.columns();
                let t = self.temp(cols as u16)?;
                self.emit(Op::MulMM, a.ty, 4, t, a.tmp, b.tmp, cols as i16, 0)?;
                Ok(Val::temp(a.ty, t))
            }
            BinOp::Mul if ma => {
                let cols = a.ty.columns();
                self.check_matrix_vector(i, a.ty, b.ty, b.ty, cols)?;
                let tb = self.mat(b)?;
                let t = self.temp(1)?;
                self.emit(Op::MulMV, b.ty, 4, t, a.tmp, tb, cols as i16, 0)?;
                Ok(Val::temp(b.ty, t))
            }
            BinOp::Mul => {
                // Row vector times matrix: component j is dot(v, column j).
                let cols = b.ty.columns();
                self.check_matrix_vector(i, a.ty, b.ty, a.ty, cols)?;
                let ta = self.mat(a)?;
                let t = self.temp(1)?;
                let d = self.temp(1)?;
                self.zero(t)?;
                for c in 0..cols as i16 {
                    self.emit(Op::Dot, Type::Float, 1, d, ta, b.tmp + c, cols as i16, 0)?;
                    self.emit(Op::SetLane, a.ty, 1, t, d, -1, c, 0)?;
                }
                Ok(Val::temp(a.ty, t))
            }
            BinOp::Add | BinOp::Sub if a.ty == b.ty => {
                let (cols, rows) = (a.ty.columns(), a.ty.components());
                let t = self.temp(cols as u16)?;
                let irop = if op == BinOp::Add { Op::Add } else { Op::Sub };
                for c in 0..cols as i16 {
                    self.emit(
                        irop,
                        vec_type(false, rows),
                        rows,
                        t + c,
                        a.tmp + c,
                        b.tmp + c,
                        0,
                        0,
                    )?;
                }
                Ok(Val::temp(a.ty, t))
            }
            _ => bail!(
                self,
                i,
                "operator '{}' is not supported between {} and {}",
                op.symbol(),
                a.ty.name(),
                b.ty.name()
            ),
        }
    }

    pub(super) fn unary(&mut self, i: i16, n: Node) -> R<Val> {
        let v = self.value(n.a)?;
        self.cur_node = i;
        if n.op == UN_NOT {
            if v.ty != Type::Bool {
                bail!(self, i, "operator '!' needs a bool; found {}", v.ty.name());
            }
            if let Some(k) = v.k {
                return Ok(Val::konst(
                    Type::Bool,
                    [(lane(&k, 0) == 0.0) as u8 as f32, 0.0, 0.0, 0.0],
                ));
            }
            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, v.tmp, z, CmpCode::Eq as i16, 0)?;
            return Ok(Val::temp(Type::Bool, t));
        }
        if is_matrix(v.ty) && self.toks.profile == Profile::P2 {
            return self.neg_matrix(v);
        }
        if n.op == UN_BITNOT {
            if !is_whole(v.ty) {
                bail!(
                    self,
                    i,
                    "operator '~' needs an int or uint value; found {}",
                    v.ty.name()
                );
            }
            return self.int_unary(true, v);
        }
        if self.true_ints() && is_whole(v.ty) {
            return self.int_unary(false, v);
        }
        if !is_numeric(v.ty) {
            bail!(
                self,
                i,
                "operator '-' needs a number or vector; found {}",
                v.ty.name()
            );
        }
        let len = v.ty.components();
        if let Some(k) = v.k {
            let mut out = [0.0; 4];
            for (l, o) in out.iter_mut().enumerate().take(len as usize) {
                *o = -lane(&k, l);
            }
            return Ok(Val::konst(v.ty, out));
        }
        let m = self.splat(Val::konst(Type::Float, [-1.0, 0.0, 0.0, 0.0]), len)?;
        let tm = self.mat(m)?;
        let t = self.temp(1)?;
        self.emit(Op::Mul, v.ty, len, t, v.tmp, tm, 0, 0)?;
        Ok(Val::temp(v.ty, t))
    }
}
