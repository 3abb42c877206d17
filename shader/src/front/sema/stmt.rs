//! Statements: blocks, `if`, `for` (unrolled), `return`, local declarations, assignment,
//! lvalues and stores.

use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::front::profile::P2_HINT;
use crate::ir::*;
use crate::limits::*;

/// An assignment target: symbol index, storage temp, type stored there, and the written lanes
/// (swizzle length and selectors) when only some lanes are written.
pub(super) type LValue = (usize, i16, Type, Option<(u8, i32)>);

impl<'a> Sema<'a> {
    /// Statements of a block; `scoped` pushes a scope (function bodies share the params' scope).
    pub(super) fn block_body(&mut self, block: i16, scoped: bool) -> R<()> {
        let b = self.node(block);
        let prev = if scoped {
            Some(self.push_scope(self.cur, block)?)
        } else {
            None
        };
        let mark = self.ntemp;
        let mut ok = true;
        let mut guards = 0usize;
        for (i, node) in self.ast.list(b.a) {
            if self.diag.full() {
                ok = false;
                break;
            }
            if self.stmt(i).is_err() {
                ok = false;
            }
            // Profile 2's early return: the rest of the block runs only if nothing returned.
            if ok && self.ret_flag >= 0 && node.next >= 0 && self.may_return(i, 0) {
                if self.open_return_guard(i).is_err() {
                    ok = false;
                    break;
                }
                guards += 1;
            }
        }
        if self.close_return_guards(guards).is_err() {
            ok = false;
        }
        self.ntemp = mark;
        if let Some(p) = prev {
            self.pop_scope(p);
        }
        if ok {
            Ok(())
        } else {
            Err(())
        }
    }

    pub(super) fn stmt(&mut self, i: i16) -> R<()> {
        self.spend(i)?;
        let n = self.node(i);
        self.cur_node = i;
        let mark = self.ntemp;
        let saved_mark = self.stmt_mark;
        self.stmt_mark = mark;
        let r = match n.kind {
            Kind::Decl => self.local_decl(i, n, false),
            Kind::Block => self.block_body(i, true),
            Kind::Empty => Ok(()),
            Kind::ExprStmt => self.expr(n.a).map(|_| ()),
            Kind::Assign => self.assign(i, n),
            Kind::If => self.if_stmt(i, n),
            Kind::For => self.for_stmt(i, n),
            Kind::While => self.while_stmt(i, n, false),
            Kind::DoWhile => self.while_stmt(i, n, true),
            Kind::Break => self.jump_stmt(i, true),
            Kind::Continue => self.jump_stmt(i, false),
            Kind::Discard => {
                if self.stage != Stage::Fragment {
                    bail!(self, i, "discard is only valid in a fragment shader");
                }
                self.emit(Op::Discard, Type::None, 0, -1, -1, -1, 0, 0)
            }
            Kind::Return => self.return_stmt(i, n),
            Kind::Struct => self.declare_struct(i),
            Kind::Switch => self.switch_stmt(i, n),
            Kind::Case => {
                let w = if n.a < 0 { "default" } else { "case" };
                bail!(self, i, "'{}' label outside of a switch body", w)
            }
            _ => {
                self.err(i, format_args!("unsupported statement"));
                Err(())
            }
        };
        self.stmt_mark = saved_mark;
        if n.kind != Kind::Decl {
            self.ntemp = mark;
        }
        r
    }

    pub(super) fn return_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let fname = self
            .calls
            .last()
            .map(|&f| self.name_of(f))
            .unwrap_or("main");
        if self.ret_flag >= 0 {
            return self.early_return(i, n, fname);
        }
        if i != self.last_stmt {
            if n.next >= 0 {
                return self.after_return(n.next);
            }
            bail!(
                self,
                i,
                "return must be the last statement of the function{}",
                P2_HINT
            );
        }
        if self.ret_agg.is_agg() {
            return self.return_agg(n);
        }
        if self.ret_ty == Type::Void {
            if n.a >= 0 {
                bail!(self, n.a, "void function '{}' cannot return a value", fname);
            }
            return Ok(());
        }
        let v = self.value(n.a)?;
        let want = self.ret_ty;
        let Some(v) = self.convert_emit(v, want)? else {
            bail!(
                self,
                n.a,
                "'{}' returns {}; found {}",
                fname,
                want.name(),
                v.ty.name()
            );
        };
        let t = self.ret_tmp;
        self.store(t, want, v)
    }

    /// Profile 2: `return VALUE;` in a function returning a struct.
    fn return_agg(&mut self, n: Node) -> R<()> {
        let v = self.value(n.a)?;
        let want = self.ret_agg;
        self.check_agg(n.a, &v, want, "wrong type returned")?;
        let t = self.ret_tmp;
        self.store_agg(n.a, t, want, v)
    }

    /// Reports statement `next`, which follows a `return` in the same block.
    pub(super) fn after_return(&mut self, next: i16) -> R<()> {
        let tok = self.first_token(next);
        self.err_tok(
            tok,
            format_args!(
                "statement after 'return': return must be the last statement of the function{}",
                P2_HINT
            ),
        );
        Err(())
    }

    /// Profile 2: a `return` anywhere in a function whose body has one before its end. The
    /// value goes to the result temp, the "returned" flag is set, and every statement after
    /// one that may have returned is inside `IF returned == 0` (see `block_body`).
    pub(super) fn early_return(&mut self, i: i16, n: Node, fname: &str) -> R<()> {
        if self.ret_agg.is_agg() {
            if n.a < 0 {
                let w = self.agg_name(self.ret_agg);
                bail!(
                    self,
                    i,
                    "'{}' returns {}: give the value, 'return <{}>;'",
                    fname,
                    w,
                    w
                );
            }
            self.return_agg(n)?;
        } else if self.ret_ty == Type::Void {
            if n.a >= 0 {
                bail!(self, n.a, "void function '{}' cannot return a value", fname);
            }
        } else {
            if n.a < 0 {
                bail!(
                    self,
                    i,
                    "'{}' returns {}: give the value, 'return <{}>;'",
                    fname,
                    self.ret_ty.name(),
                    self.ret_ty.name()
                );
            }
            let v = self.value(n.a)?;
            let want = self.ret_ty;
            let Some(v) = self.convert_emit(v, want)? else {
                bail!(
                    self,
                    n.a,
                    "'{}' returns {}; found {}",
                    fname,
                    want.name(),
                    v.ty.name()
                );
            };
            let t = self.ret_tmp;
            self.store(t, want, v)?;
        }
        let f = self.ret_flag;
        self.store(f, Type::Bool, Val::konst(Type::Bool, [1.0, 0.0, 0.0, 0.0]))?;
        self.return_from_loops()
    }

    /// Whether statement `i` contains a `return` (bounded by the tree's nesting).
    pub(super) fn may_return(&self, i: i16, depth: usize) -> bool {
        if depth > AST_CAP || i < 0 {
            return false;
        }
        let n = self.node(i);
        match n.kind {
            Kind::Return => true,
            Kind::Block => self
                .ast
                .list(n.a)
                .any(|(s, _)| self.may_return(s, depth + 1)),
            Kind::If => self.may_return(n.b, depth + 1) || self.may_return(n.c, depth + 1),
            Kind::For => self.may_return(n.d, depth + 1),
            Kind::While | Kind::DoWhile | Kind::Switch => self.may_return(n.b, depth + 1),
            _ => false,
        }
    }

    /// Whether function body `block` has a `return` other than as its last statement.
    pub(super) fn has_early_return(&self, block: i16) -> bool {
        let b = self.node(block);
        self.ast.list(b.a).any(|(s, sn)| {
            sn.next >= 0 && self.may_return(s, 0)
                || sn.next < 0 && sn.kind != Kind::Return && self.may_return(s, 0)
        })
    }

    /// `IF returned == 0` around the code after a statement that may have returned.
    pub(super) fn open_return_guard(&mut self, at: i16) -> R<()> {
        let limit = IF_DEPTH_MAX;
        if self.if_depth >= limit {
            bail!(
                self,
                at,
                "if statements are nested too deeply: the limit is {} (each early return nests the code after it)",
                limit
            );
        }
        let mark = self.ntemp;
        let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
        let t = self.temp(1)?;
        let f = self.ret_flag;
        self.emit(Op::Cmp, Type::Bool, 1, t, f, z, CmpCode::Eq as i16, 0)?;
        self.emit(Op::If, Type::None, 0, -1, t, -1, 0, 0)?;
        self.ntemp = mark;
        self.if_depth += 1;
        Ok(())
    }

    pub(super) fn close_return_guards(&mut self, n: usize) -> R<()> {
        for _ in 0..n {
            self.if_depth = self.if_depth.saturating_sub(1);
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        }
        Ok(())
    }

    /// The first token of statement `i` (a declaration's type or qualifier, an assignment's
    /// target), for errors about the statement as a whole.
    pub(super) fn first_token(&self, i: i16) -> i16 {
        let n = self.node(i);
        match n.kind {
            Kind::Decl => n.d,
            Kind::Assign | Kind::ExprStmt => {
                // The leftmost token of the target or expression: down the operand chain.
                let mut e = if n.kind == Kind::Assign { n.a } else { i };
                let mut tok = n.tok;
                for _ in 0..AST_CAP {
                    let m = self.node(e);
                    if e < 0 {
                        break;
                    }
                    if m.kind == Kind::ExprStmt {
                        e = m.a;
                        continue;
                    }
                    tok = tok.min(m.tok);
                    match m.kind {
                        Kind::Binary | Kind::Swizzle | Kind::Index => e = m.a,
                        _ => break,
                    }
                }
                tok
            }
            _ => n.tok,
        }
    }

    pub(super) fn if_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let c = self.value(n.a)?;
        if !is_scalar(c.ty) {
            bail!(
                self,
                n.a,
                "if condition must be a bool or a scalar; found {}",
                c.ty.name()
            );
        }
        if self.if_depth >= IF_DEPTH_MAX {
            bail!(
                self,
                i,
                "if statements are nested too deeply: the limit is {} (inlined calls count)",
                IF_DEPTH_MAX
            );
        }
        let t = self.mat(c)?;
        self.emit(Op::If, Type::None, 0, -1, t, -1, 0, 0)?;
        self.if_depth += 1;
        let r1 = self.scoped_stmt(n.b);
        let mut r2 = Ok(());
        if n.c >= 0 {
            self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
            r2 = self.scoped_stmt(n.c);
        }
        self.if_depth -= 1;
        self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        r1.and(r2)
    }

    pub(super) fn scoped_stmt(&mut self, s: i16) -> R<()> {
        let prev = self.push_scope(self.cur, s)?;
        let r = self.stmt(s);
        self.pop_scope(prev);
        r
    }

    pub(super) fn for_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let p2 = self.toks.profile == Profile::P2;
        if p2 && (self.has_jump(n.d, 0) || !self.unrollable_shape(n) || self.writes_counter(n)) {
            return self.dyn_for(i, n);
        }
        let insts = self.module.insts.len();
        let mark = self.ntemp;
        let prev = self.push_scope(self.cur, i)?;
        let outer = self.expansion < 0;
        if outer {
            self.expansion = i;
        }
        self.unroll_failed = false;
        let r = self.for_inner(i, n);
        if outer {
            self.expansion = -1;
        }
        self.pop_scope(prev);
        if p2 && self.unroll_failed && !self.dry {
            // Profile 2: a loop the unroller cannot take (a condition known only at run time,
            // more trips than the unroll limit) runs as a dynamic loop instead.
            self.unroll_failed = false;
            self.module.insts.truncate(insts);
            self.ntemp = mark;
            return self.dyn_for(i, n);
        }
        r
    }

    pub(super) fn for_inner(&mut self, i: i16, n: Node) -> R<()> {
        let init = self.node(n.a);
        if n.a < 0 || init.kind != Kind::Decl {
            let at = if n.a >= 0 { n.a } else { i };
            bail!(self, at, "unsupported loop: the initializer must declare an int loop variable, as in 'for (int i = 0; ...)'");
        }
        let p2 = self.toks.profile == Profile::P2;
        if !p2 && init.next >= 0 && self.node(init.next).kind == Kind::Decl {
            bail!(
                self,
                init.next,
                "unsupported loop: declare exactly one loop variable{}",
                P2_HINT
            );
        }
        if init.ty != Type::Int || init.quals != 0 {
            bail!(
                self,
                n.a,
                "the loop variable must be a plain int; found {}",
                init.ty.name()
            );
        }
        if init.a < 0 {
            bail!(
                self,
                n.a,
                "loop initializer is missing: the loop variable needs a constant start"
            );
        }
        let start = self.value(init.a)?;
        let Some(k) = start.k.filter(|_| start.ty == Type::Int) else {
            if p2 && start.ty == Type::Int {
                // Profile 2: a start known only at run time (`int y = -u_radius`).
                self.unroll_failed = true;
                return Err(());
            }
            bail!(self, init.a, "loop initializer is not a constant integer");
        };
        let vname = self.name_of(n.a);
        let v = self.add_sym(n.a, vname, SymKind::LoopVar, Type::Int, -1)?;
        let mut value = self.knum(Type::Int, &k, 0);
        if p2 {
            // Profile 2: the first declarator is the loop variable, the others are ordinary
            // locals of the loop's scope (their initializers see the start value).
            let kv = self.kwhole(Type::Int, value);
            if let Some(s) = self.t.syms.get_mut(v) {
                s.known = Some([kv, 0.0, 0.0, 0.0]);
            }
            let mut d = init.next;
            while d >= 0 && self.node(d).kind == Kind::Decl {
                let dn = self.node(d);
                self.local_decl(d, dn, false)?;
                d = dn.next;
            }
        }
        if n.b < 0 {
            bail!(
                self,
                i,
                "unsupported loop: a condition is required (the loop is unrolled)"
            );
        }
        let errors_before = self.diag.total();
        let mut iterations = 0usize;
        let mut guards = 0usize;
        loop {
            let kv = self.kwhole(Type::Int, value);
            if let Some(s) = self.t.syms.get_mut(v) {
                s.known = Some([kv, 0.0, 0.0, 0.0]);
            }
            let mark = self.ntemp;
            let c = self.value(n.b)?;
            self.ntemp = mark;
            let Some(ck) = c.k.filter(|_| c.ty == Type::Bool) else {
                if p2 && iterations == 0 && c.ty == Type::Bool {
                    self.unroll_failed = true;
                    return Err(());
                }
                bail!(
                    self,
                    n.b,
                    "unsupported loop condition: it must be a comparison of the loop variable with constants"
                );
            };
            if lane(&ck, 0) == 0.0 {
                break;
            }
            if iterations >= UNROLL_MAX {
                if p2 {
                    self.unroll_failed = true;
                    return Err(());
                }
                bail!(
                    self,
                    i,
                    "loop bound exceeds the unroll limit of {} iterations",
                    UNROLL_MAX
                );
            }
            self.spend(i)?;
            let _ = self.scoped_stmt(n.d);
            if self.diag.total() > errors_before {
                return Err(());
            }
            iterations += 1;
            if p2 {
                if self.ret_flag >= 0 && self.may_return(n.d, 0) {
                    self.open_return_guard(n.d)?;
                    guards += 1;
                }
                value = self.loop_steps(n.c, v, value)?;
            } else {
                value = self.loop_step(n.c, v, value)?;
            }
        }
        self.close_return_guards(guards)
    }

    /// Profile 2: the step list of a loop (the comma operator), in order: items that update the
    /// loop variable give its next value (seen by the items after them), the others are
    /// statements run at the end of each iteration.
    pub(super) fn loop_steps(&mut self, step: i16, v: usize, value: f32) -> R<f32> {
        let vname = self.sym(v).map(|s| self.sym_name(s)).unwrap_or_default();
        let mut value = value;
        let mut stepped = false;
        for (item, _) in self.ast.list(step) {
            let mut s = self.node(item);
            if s.kind == Kind::ExprStmt {
                s = self.node(s.a);
            }
            let target = match s.kind {
                Kind::Incr | Kind::Assign => s.a,
                _ => -1,
            };
            let on_var = target >= 0
                && self.node(target).kind == Kind::Ident
                && self.name_of(target) == vname;
            if on_var {
                value = self.loop_step(item, v, value)?;
                stepped = true;
                let kv = self.kwhole(Type::Int, value);
                if let Some(sym) = self.t.syms.get_mut(v) {
                    sym.known = Some([kv, 0.0, 0.0, 0.0]);
                }
            } else {
                let mark = self.ntemp;
                let r = self.stmt(item);
                self.ntemp = mark;
                r?;
            }
        }
        if !stepped {
            // The profile-1 message, at the first item (or the loop).
            return self.loop_step(step, v, value);
        }
        Ok(value)
    }

    /// The next value of the loop variable `v` after `step`.
    pub(super) fn loop_step(&mut self, step: i16, v: usize, value: f32) -> R<f32> {
        let mut s = self.node(step);
        if s.kind == Kind::ExprStmt {
            s = self.node(s.a);
        }
        let vname = self.sym(v).map(|s| self.sym_name(s)).unwrap_or_default();
        let target = match s.kind {
            Kind::Incr => s.a,
            Kind::Assign => s.a,
            _ => -1,
        };
        let tn = self.node(target);
        if step < 0 || target < 0 || tn.kind != Kind::Ident || self.name_of(target) != vname {
            let at = if step >= 0 { step } else { self.cur_node };
            bail!(
                self,
                at,
                "unsupported loop step: use {v}++, {v}--, ++{v}, --{v} or {v} = <constant expression of {v}>",
                v = vname
            );
        }
        if s.kind == Kind::Incr {
            return Ok(if s.op == INC_PRE || s.op == INC_POST {
                value + 1.0
            } else {
                value - 1.0
            });
        }
        let mark = self.ntemp;
        let nv = self.value(s.b)?;
        self.ntemp = mark;
        if s.op != 0 {
            // Profile 2: `i += N` and the other compound forms with a constant N.
            let Some(k) = nv.k.filter(|_| nv.ty == Type::Int) else {
                bail!(
                    self,
                    s.b,
                    "unsupported loop step: the new value must be a constant integer expression"
                );
            };
            let d = self.knum(Type::Int, &k, 0);
            let r = match BinOp::from_u8(s.op) {
                Some(BinOp::Add) => value + d,
                Some(BinOp::Sub) => value - d,
                Some(BinOp::Mul) => value * d,
                Some(BinOp::Div) | Some(BinOp::Mod) if d == 0.0 => {
                    bail!(self, s.b, "division by zero in the loop step")
                }
                Some(BinOp::Div) => libm::truncf(value / d),
                _ => (value as i32).wrapping_rem(d as i32) as f32,
            };
            return Ok(r);
        }
        match nv.k {
            Some(k) if nv.ty == Type::Int => Ok(self.knum(Type::Int, &k, 0)),
            _ => bail!(
                self,
                s.b,
                "unsupported loop step: the new value must be a constant integer expression"
            ),
        }
    }

    /// A local (or, with `global`, a plain/const global) declaration with its initializer.
    pub(super) fn local_decl(&mut self, i: i16, n: Node, global: bool) -> R<()> {
        let name = self.name_of(i);
        self.cur_node = i;
        if !global && (n.quals & !Q_CONST != 0 || n.op & !D_PRECISION != 0) {
            self.err_tok(
                n.d,
                format_args!("qualifiers are only valid at global scope"),
            );
            return Err(());
        }
        if n.ty == Type::Void && n.c < 0 {
            bail!(self, i, "variables cannot be void");
        }
        if n.ty.is_sampler() {
            bail!(self, i, "{} must be a uniform", n.ty.name());
        }
        let is_const = n.quals & Q_CONST != 0;
        if is_const && n.a < 0 {
            bail!(self, i, "const '{}' needs an initializer", name);
        }
        if n.c >= 0 || n.b >= 0 || n.op & D_UNSIZED != 0 {
            return self.local_agg(i, n, is_const);
        }
        let mark = self.ntemp;
        let cols = n.ty.columns().max(1) as u16;
        // The variable's storage sits below the initializer's temps.
        let tmp = self.temp(cols)?;
        let mut known = None;
        if n.a >= 0 {
            let v = self.value(n.a)?;
            let Some(v) = self.convert_emit(v, n.ty)? else {
                bail!(
                    self,
                    n.a,
                    "cannot initialize {} '{}' with a {} value",
                    n.ty.name(),
                    name,
                    v.ty.name()
                );
            };
            if is_const && v.k.is_some() {
                known = v.k;
            } else {
                self.store(tmp, n.ty, v)?;
            }
        } else {
            // Uninitialised locals read as zero (temps may be reused).
            for c in 0..cols {
                self.zero(tmp + c as i16)?;
            }
        }
        if known.is_some() {
            self.ntemp = mark;
        } else {
            self.ntemp = (tmp as u16).saturating_add(cols);
        }
        let kind = if is_const {
            SymKind::Const
        } else {
            SymKind::Local
        };
        let s = self.add_sym(i, name, kind, n.ty, if known.is_some() { -1 } else { tmp })?;
        if let Some(sym) = self.t.syms.get_mut(s) {
            sym.known = known;
        }
        Ok(())
    }

    /// Profile 2: a local (or plain or const global) of struct type: a block of temps,
    /// initialised from a value of the same struct or zeroed.
    fn local_agg(&mut self, i: i16, n: Node, is_const: bool) -> R<()> {
        let name = self.name_of(i);
        let mut agg = self.node_agg(i)?;
        if self.agg_units(agg) > 0 {
            let what = if n.quals & Q_CONST != 0 {
                "a const"
            } else if self.cur == 0 {
                "a global variable (only a uniform)"
            } else {
                "a local variable"
            };
            let mut msg: heapless::String<96> = heapless::String::new();
            let _ = core::fmt::Write::write_fmt(
                &mut msg,
                format_args!("'{}' cannot be {}", name, what),
            );
            self.no_sampler_agg(i, agg, &msg)?;
        }
        let mut init = None;
        if n.op & D_UNSIZED != 0 {
            // `T name[] = ...`: the initializer's array gives the size.
            let v = self.value(n.a)?;
            if v.agg.len == 0 || v.agg.elem() != agg {
                let (w, g) = (self.agg_name(agg), self.val_name(&v));
                bail!(
                    self,
                    n.a,
                    "cannot initialize {}[] '{}' with a {} value",
                    w,
                    name,
                    g
                );
            }
            agg = v.agg;
            init = Some(v);
        }
        let tmp = self.temp(self.agg_temps(agg))?;
        if n.a >= 0 {
            let v = match init {
                Some(v) => v,
                None => self.value(n.a)?,
            };
            if v.agg != agg {
                let (w, g) = (self.agg_name(agg), self.val_name(&v));
                bail!(
                    self,
                    n.a,
                    "cannot initialize {} '{}' with a {} value",
                    w,
                    name,
                    g
                );
            }
            self.store_agg(n.a, tmp, agg, v)?;
        } else {
            self.zero_agg(tmp, agg)?;
        }
        self.ntemp = (tmp as u16).saturating_add(self.agg_temps(agg));
        let kind = if is_const {
            SymKind::Const
        } else {
            SymKind::Local
        };
        let s = self.add_sym(i, name, kind, Type::None, tmp)?;
        if let Some(sym) = self.t.syms.get_mut(s) {
            sym.agg = agg;
        }
        Ok(())
    }

    /// Writes `v` (already of type `ty`) into the storage at `dst` (all columns of a matrix).
    pub(super) fn store(&mut self, dst: i16, ty: Type, v: Val) -> R<()> {
        if is_matrix(ty) {
            let (cols, rows) = (ty.columns(), ty.components());
            for c in 0..cols as i16 {
                self.emit(
                    Op::Mov,
                    float_of(Type::Vec4),
                    rows,
                    dst + c,
                    v.tmp + c,
                    -1,
                    0,
                    0,
                )?;
            }
            return Ok(());
        }
        let n = ty.components().max(1);
        if let Some(k) = v.k {
            let base = self.imm(k.get(..n as usize).unwrap_or(&k))?;
            return self.emit(Op::Const, ty, n, dst, -1, -1, base, 0);
        }
        if v.tmp == dst {
            return Ok(());
        }
        if self.retarget(v.tmp, dst, n) || (n == 4 && self.retarget_run(v.tmp, dst)) {
            return Ok(());
        }
        self.emit(Op::Mov, ty, n, dst, v.tmp, -1, 0, 0)
    }

    /// Like [`Self::retarget`] for a value built by several instructions (a constructor: a
    /// CONST, then lanes and partial moves into it): when the last instructions all write only
    /// the expression temp `from`, the earliest of them writes all four lanes, and none reads
    /// `to`, they are made to write (and read) `to` instead of `from`, and the whole-vector MOV
    /// that would follow is not needed. Nothing runs in between, so every value is the same.
    pub(super) fn retarget_run(&mut self, from: i16, to: i16) -> bool {
        /// Longest run looked at (constructors of a vec4 need at most a CONST and four lanes).
        const RUN_MAX: usize = 8;
        if self.dry || from < self.stmt_mark as i16 || from == to {
            return false;
        }
        let insts = &self.module.insts;
        let mut start = None;
        for (k, i) in insts.iter().enumerate().rev().take(RUN_MAX) {
            let single = matches!(
                i.op,
                Op::Const
                    | Op::Mov
                    | Op::SetLane
                    | Op::Swz
                    | Op::Add
                    | Op::Sub
                    | Op::Mul
                    | Op::Div
                    | Op::Max
                    | Op::Min
                    | Op::Abs
            );
            if !single || i.dst != from || i.a == to || i.b == to {
                return false;
            }
            // Writes all four lanes of `from`: the value starts here.
            let whole = match i.op {
                Op::Const | Op::Swz => true,
                Op::SetLane => false,
                _ => i.lanes == 0 || i.lanes >= 4,
            };
            if whole {
                // The value before the run is another one: the first writer must not read it.
                if i.a == from || i.b == from {
                    return false;
                }
                start = Some(k);
                break;
            }
        }
        let Some(start) = start else {
            return false;
        };
        for i in self.module.insts.iter_mut().skip(start) {
            i.dst = to;
            if i.a == from {
                i.a = to;
            }
            if i.b == from {
                i.b = to;
            }
        }
        true
    }

    /// When the last instruction alone produced lanes 0..n of the expression temp `from`, makes it
    /// write `to` directly instead of emitting a MOV (same lanes written, same values).
    pub(super) fn retarget(&mut self, from: i16, to: i16, n: u8) -> bool {
        if self.dry || from < self.stmt_mark as i16 {
            return false; // a variable's storage, not an expression temp
        }
        let Some(last) = self.module.insts.last_mut() else {
            return false;
        };
        if last.dst != from || last.a == to || last.b == to {
            return false;
        }
        let whole = match last.op {
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Max
            | Op::Min
            | Op::Abs
            | Op::Rsq
            | Op::Rcp
            | Op::Sin
            | Op::Cos
            | Op::Pow
            | Op::Sqrt
            | Op::Trunc
            | Op::Swz => last.lanes == n,
            Op::Cmp | Op::Dot => n == 1,
            Op::Sample => true,
            Op::MulMV => !(last.a..last.a.saturating_add(last.aux.max(1))).contains(&to),
            _ => false,
        };
        if whole {
            last.dst = to;
        }
        whole
    }

    pub(super) fn assign(&mut self, i: i16, n: Node) -> R<()> {
        self.assign_value(i, n, false).map(|_| ())
    }

    /// The current value of an assignment target (a swizzle or index reads its lanes).
    pub(super) fn lvalue_read(&mut self, i: i16, lv: LValue) -> R<Val> {
        let (_, tmp, ty, swz) = lv;
        match swz {
            None => Ok(Val::temp(ty, tmp)),
            Some((len, mask)) => self.swizzle(i, Val::temp(ty, tmp), len, mask),
        }
    }

    /// Assignment node `i` (`=`, or in profile 2 a compound `OP=`): stores the value and, with
    /// `want`, returns the value the target then holds (a copy, so later writes in the same
    /// expression do not change it).
    pub(super) fn assign_value(&mut self, i: i16, n: Node, want: bool) -> R<Val> {
        let lv = self.lvalue(n.a)?;
        let (sym, tmp, ty, swz) = lv;
        let lagg = self.lv_agg;
        if lagg.is_agg() {
            if self.sym(sym).map(|s| s.kind) == Some(SymKind::ClipDistance) {
                self.clip_written = 0xff;
            }
            // Profile 2: a whole struct.
            if n.op != 0 {
                let w = self.agg_name(lagg);
                bail!(self, i, "compound assignment cannot take a struct ({})", w);
            }
            let v = self.value(n.b)?;
            self.check_agg(n.b, &v, lagg, "type mismatch in assignment")?;
            self.store_agg(i, tmp, lagg, v)?;
            self.flush_indexed(tmp)?;
            if want {
                return self.copy_agg(i, Val::agg(lagg, tmp));
            }
            return Ok(v);
        }
        let v = if n.op == 0 {
            self.value(n.b)?
        } else {
            let mut cur = self.lvalue_read(i, lv)?;
            if super::call::copied_by_snapshot(&cur) && self.has_user_call(n.b, 0) {
                cur = self.snapshot(cur)?;
            }
            let b = self.value(n.b)?;
            self.cur_node = i;
            match BinOp::from_u8(n.op) {
                Some(BinOp::Mod) | None => {
                    bail!(self, i, "operator % is only supported on constant integers")
                }
                Some(op) => self.arith(i, n, op, cur, b)?,
            }
        };
        let target_ty = match swz {
            Some((len, _)) => like(ty, len),
            None => ty,
        };
        let Some(v) = self.convert_emit(v, target_ty)? else {
            let what = match self.sym(sym).map(|s| s.kind) {
                Some(SymKind::Position) => "gl_Position must be a vec4",
                Some(SymKind::FragDepth) => "gl_FragDepth must be a float",
                _ => "type mismatch in assignment",
            };
            bail!(
                self,
                n.b,
                "{}: the target is {}, the value is {}",
                what,
                target_ty.name(),
                self.val_name(&v)
            );
        };
        let src = self.write_lvalue(lv, v)?;
        if !want {
            return Ok(v);
        }
        if v.k.is_some() {
            return Ok(v);
        }
        match swz {
            None => self.snapshot(Val::temp(ty, tmp)),
            Some(_) => self.snapshot(Val::temp(target_ty, src)),
        }
    }

    /// Stores `v` (already of the target's type) into an assignment target; returns the temp
    /// the written lanes were taken from (swizzle and index targets), else -1.
    pub(super) fn write_lvalue(&mut self, lv: LValue, v: Val) -> R<i16> {
        let (sym, tmp, ty, swz) = lv;
        match self.sym(sym).map(|s| (s.kind, s.tmp)) {
            Some((SymKind::Position, _)) => self.pos_written = true,
            Some((SymKind::FragDepth, _)) => self.depth_written = true,
            // An element written by a constant index is its temp; any other target (a
            // dynamic index's copy) may be any element.
            Some((SymKind::ClipDistance, base)) => {
                let k = tmp.wrapping_sub(base);
                self.clip_written |= match (0..8).contains(&k) && ty == Type::Float {
                    true => 1 << k,
                    false => 0xff,
                };
            }
            _ => {}
        }
        let r = match swz {
            None => self.store(tmp, ty, v).map(|_| -1),
            Some((len, mask)) => {
                let src = self.mat(v)?;
                for k in 0..len as usize {
                    self.emit(
                        Op::SetLane,
                        ty,
                        1,
                        tmp,
                        src,
                        -1,
                        sel(mask, k) as i16,
                        k as i16,
                    )?;
                }
                Ok(src)
            }
        }?;
        self.flush_indexed(tmp)?;
        Ok(r)
    }

    /// Profile 2: `++x`, `--x` (the new value) and `x++`, `x--` (the old value) on an int or
    /// float scalar, vector or matrix target.
    pub(super) fn incr(&mut self, i: i16, n: Node) -> R<Val> {
        if !self.is_lvalue_shape(n.a) {
            let sym = if n.op == INC_PRE || n.op == INC_POST {
                "++"
            } else {
                "--"
            };
            bail!(
                self,
                i,
                "operator '{}' needs an l-value (a variable, or a swizzle or index of one)",
                sym
            );
        }
        let lv = self.lvalue(n.a)?;
        let cur = self.lvalue_read(i, lv)?;
        self.cur_node = i;
        let sym = if n.op == INC_PRE || n.op == INC_POST {
            "++"
        } else {
            "--"
        };
        if !is_numeric(cur.ty) && !is_matrix(cur.ty) {
            bail!(
                self,
                i,
                "operator '{}' needs an int or float scalar, vector or matrix; found {}",
                sym,
                cur.ty.name()
            );
        }
        let post = n.op == INC_POST || n.op == DEC_POST;
        let old = if post { self.snapshot(cur)? } else { cur };
        let op = if sym == "++" { BinOp::Add } else { BinOp::Sub };
        // GLSL: a matrix gains 1.0 in every component.
        let one_ty = if is_matrix(cur.ty) {
            Type::Float
        } else if self.true_ints() && is_whole(cur.ty) {
            // Profile 2: 1 of the operand's own kind (a uint counts up by 1u).
            vec_of(sk(cur.ty), 1)
        } else {
            Type::Int
        };
        let one = Val::konst(one_ty, [self.kwhole(one_ty, 1.0), 0.0, 0.0, 0.0]);
        let new = self.arith(i, n, op, cur, one)?;
        let src = self.write_lvalue(lv, new)?;
        if post {
            return Ok(old);
        }
        let (_, tmp, ty, swz) = lv;
        match swz {
            None => self.snapshot(Val::temp(ty, tmp)),
            Some(_) => self.snapshot(Val::temp(cur.ty, src)),
        }
    }

    /// Resolves an assignment target: (symbol, storage temp, type at that temp, written lanes).
    /// Its swizzles and indexes form a chain, resolved from the name outwards (see `chain`).
    pub(super) fn lvalue(&mut self, i: i16) -> R<LValue> {
        let base = self.t.spine.len();
        let mark = self.t.wb.len();
        let mut r = self.lvalue_from(i, base);
        self.t.spine.truncate(base);
        if let Ok(lv) = r {
            // Samplers (and structs holding them) are not l-values (GLSL 3.30, 4.1.7).
            if lv.2.is_sampler() {
                self.err(
                    i,
                    format_args!(
                        "cannot assign to a sampler ({})",
                        super::Sema::SAMPLER_STRUCT_RULE
                    ),
                );
                r = Err(());
            } else if self.agg_units(self.lv_agg) > 0 {
                let _ = self.no_sampler_agg(i, self.lv_agg, "cannot assign to this struct");
                r = Err(());
            }
        }
        match r {
            // Dynamically indexed levels are written back after the store (`flush_indexed`).
            Ok(lv) => self.own_indexed(mark, lv.1),
            Err(()) => self.t.wb.truncate(mark),
        }
        r
    }

    pub(super) fn lvalue_from(&mut self, i: i16, base: usize) -> R<LValue> {
        let root = self.push_chain(i, true)?;
        let mut lv = self.lvalue_link(root, None)?;
        while self.t.spine.len() > base {
            let Some(link) = self.t.spine.pop() else {
                break;
            };
            lv = self.lvalue_link(link, Some(lv))?;
        }
        Ok(lv)
    }

    /// One node of an assignment target: the name (`inner` None) or a swizzle or index applied
    /// to the target `inner` below it.
    pub(super) fn lvalue_link(&mut self, i: i16, inner: Option<LValue>) -> R<LValue> {
        let n = self.node(i);
        let inner_agg = core::mem::replace(&mut self.lv_agg, super::aggregate::AggTy::NONE);
        if let (Kind::Swizzle, Some((s, tmp, _, None)), true) = (n.kind, inner, inner_agg.is_agg())
        {
            // Profile 2: a struct member.
            let name = self.name_of(i);
            let Some((toff, _, ty)) = self.member_of(inner_agg, name) else {
                let st = self.agg_name(inner_agg);
                bail!(self, i, "struct '{}' has no member named '{}'", st, name);
            };
            self.lv_agg = ty;
            return Ok((
                s,
                tmp.saturating_add(toff.min(i16::MAX as u16) as i16),
                ty.base,
                None,
            ));
        }
        if let (Kind::Index, Some((s, tmp, _, None)), true) = (n.kind, inner, inner_agg.len > 0) {
            // Profile 2: an array element.
            if let super::index::Index::Dyn(t) = self.index_operand(n.b, true)? {
                return self.dyn_array_target(n.b, s, tmp, inner_agg, t);
            }
            let k = self.array_index(n.b, inner_agg)?;
            let el = inner_agg.elem();
            let t = tmp
                .saturating_add(k.saturating_mul(self.agg_temps(el)).min(i16::MAX as u16) as i16);
            if el.is_agg() {
                self.lv_agg = el;
            }
            return Ok((s, t, el.base, None));
        }
        if n.kind == Kind::Swizzle && n.op == 0 && n.ival == 1 {
            bail!(self, i, "length() cannot be assigned");
        }
        if inner_agg.is_agg() && inner.is_some() {
            let st = self.agg_name(inner_agg);
            bail!(
                self,
                i,
                "cannot index a struct ({}): select a member with '.'",
                st
            );
        }
        if n.kind == Kind::Swizzle && n.op == 0 {
            return self.not_a_swizzle(i);
        }
        match (n.kind, inner) {
            (Kind::Ident, None) => {
                let Some(s) = self.lookup_node(i) else {
                    let name = self.name_of(i);
                    return self.unknown_name(i, name, "identifier");
                };
                let Some(sym) = self.sym(s) else {
                    return Err(());
                };
                let (kind, ty, tmp) = (sym.kind, sym.ty, sym.tmp);
                self.lv_agg = sym.agg;
                match kind {
                    SymKind::Local | SymKind::Out => {}
                    SymKind::Position if self.stage == Stage::Vertex => {}
                    SymKind::Position => {
                        bail!(self, i, "gl_Position is not available in a fragment shader")
                    }
                    SymKind::FragCoord => bail!(self, i, "gl_FragCoord is read-only"),
                    SymKind::FragDepth if self.stage == Stage::Fragment => {}
                    SymKind::FragDepth => {
                        bail!(self, i, "gl_FragDepth is not available in a vertex shader")
                    }
                    SymKind::ClipDistance if self.stage == Stage::Vertex => {}
                    SymKind::ClipDistance => {
                        bail!(
                            self,
                            i,
                            "gl_ClipDistance is not available in a fragment shader"
                        )
                    }
                    SymKind::SysVal => bail!(self, i, "{} is read-only", self.name_of(i)),
                    SymKind::In => bail!(
                        self,
                        i,
                        "cannot assign to shader input '{}'",
                        self.name_of(i)
                    ),
                    SymKind::Uniform | SymKind::Sampler => {
                        bail!(self, i, "cannot assign to uniform '{}'", self.name_of(i))
                    }
                    SymKind::Const => {
                        bail!(self, i, "cannot assign to const '{}'", self.name_of(i))
                    }
                    SymKind::LoopVar => {
                        bail!(
                            self,
                            i,
                            "cannot assign the loop variable '{}'",
                            self.name_of(i)
                        )
                    }
                    SymKind::Func => {
                        bail!(self, i, "cannot assign to function '{}'", self.name_of(i))
                    }
                }
                Ok((s, tmp, ty, None))
            }
            (Kind::Index, Some((s, tmp, ty, swz))) => {
                if swz.is_some() {
                    bail!(
                        self,
                        i,
                        "assignment target must be a name, a swizzle or an index of one"
                    );
                }
                if self.toks.profile == Profile::P2 {
                    if let super::index::Index::Dyn(t) = self.index_operand(n.b, true)? {
                        return self.dyn_component_target(n.b, s, tmp, ty, t);
                    }
                }
                let idx = self.const_index(n.b, ty)?;
                if is_matrix(ty) {
                    return Ok((s, tmp + idx as i16, vec_type(false, ty.components()), None));
                }
                Ok((s, tmp, ty, Some((1, idx as i32))))
            }
            (Kind::Swizzle, Some((s, tmp, ty, swz))) => {
                if swz.is_some() {
                    bail!(
                        self,
                        i,
                        "assignment target must be a name, a swizzle or an index of one"
                    );
                }
                if is_matrix(ty) {
                    bail!(
                        self,
                        i,
                        "cannot swizzle a matrix (index a column first, as in m[0].xyz)"
                    );
                }
                let len = n.op as usize;
                let comps = ty.components() as usize;
                let mut seen = 0u8;
                for k in 0..len {
                    let c = sel(n.ival, k);
                    if c >= comps {
                        let w = self.name_of(i);
                        bail!(
                            self,
                            i,
                            "invalid swizzle '{}': {} has {} component(s)",
                            w,
                            ty.name(),
                            comps
                        );
                    }
                    if seen & (1 << c) != 0 {
                        let w = self.name_of(i);
                        bail!(
                            self,
                            i,
                            "swizzle '{}' repeats a component on the left of '='",
                            w
                        );
                    }
                    seen |= 1 << c;
                }
                Ok((s, tmp, ty, Some((n.op, n.ival))))
            }
            _ => bail!(
                self,
                i,
                "assignment target must be a name, a swizzle or an index of one"
            ),
        }
    }
}
