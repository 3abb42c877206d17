//! Calls: argument lowering, user functions (inlined, with their own scope and return slot) and
//! the dispatch between user functions, built-ins and constructors.
use heapless::Vec;

use core::fmt::Write;

use super::stmt::LValue;
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::front::profile::P2_HINT;
use crate::ir::*;
use crate::limits::*;

/// Whether [`Sema::snapshot`] copies `v` (a temp's value; not a constant or a sampler): only
/// then is it worth asking whether a later operand calls a user function.
pub(super) fn copied_by_snapshot(v: &Val) -> bool {
    !(v.k.is_some() || v.tmp < 0 || v.ty.is_sampler())
}

/// A function's shape as `inline_call` needs it (see [`Sema::fn_facts`]).
#[derive(Clone, Copy)]
pub(super) struct FnFacts {
    f: i16,
    /// Its parameters.
    nparams: u32,
    /// The body's last top-level statement (-1: an empty body).
    last_stmt: i16,
    /// Profile 2: a `return` other than as the body's last statement.
    early_return: bool,
    /// The statement after the first top-level `return` that is not last (-1: none).
    after_return: i16,
}

impl<'a> Sema<'a> {
    /// Inlines function `f` with `args` (already evaluated); `at` is the call node for errors.
    /// `outs` holds, per parameter, the caller's l-value an `out`/`inout` parameter is copied
    /// back to (empty for `main` and for uncalled functions being checked).
    pub(super) fn call_function(
        &mut self,
        f: i16,
        args: &[Val],
        outs: &[Option<LValue>],
        at: i16,
    ) -> R<Val> {
        self.spend(at)?;
        // A call from main (or from an uncalled function being checked) is the outermost
        // expansion unless a loop around it already is.
        let outer = self.expansion < 0 && !self.calls.is_empty();
        if outer {
            self.expansion = at;
        }
        let r = self.inline_call(f, args, outs, at);
        if outer {
            self.expansion = -1;
        }
        r
    }

    pub(super) fn inline_call(
        &mut self,
        f: i16,
        args: &[Val],
        outs: &[Option<LValue>],
        at: i16,
    ) -> R<Val> {
        let fnode = self.node(f);
        if fnode.b < 0 {
            let line = self.toks.get(fnode.tok).map(|t| t.line).unwrap_or(0);
            bail!(
                self,
                at,
                "function '{}' is declared (line {}) but never defined",
                self.name_of(f),
                line
            );
        }
        if let Some(c) = self.t.called.get_mut(f as usize) {
            *c = true;
        }
        self.inlines = self.inlines.wrapping_add(1);
        if self.calls.contains(&f) {
            bail!(
                self,
                at,
                "recursion is not supported: '{}' is already being called",
                self.name_of(f)
            );
        }
        let max = self.lim.call_depth_max;
        if self.calls.len() >= max {
            bail!(
                self,
                at,
                "call depth exceeds the limit of {} nested functions (main counts as one)",
                max
            );
        }
        // Walked from the tree (which `self` only borrows) instead of collected: the list's
        // copy was a `memcpy` per call.
        let ast: &'a Ast = self.ast;
        let params = ast.list(fnode.a).take(PARAM_CAP);
        let facts = self.fn_facts(f, fnode);
        let nparams = facts.nparams as usize;
        if nparams > self.lim.parameters_max {
            return Err(()); // reported at registration
        }
        if args.len() != nparams {
            bail!(
                self,
                at,
                "'{}' takes {} argument(s), {} given",
                self.name_of(f),
                nparams,
                args.len()
            );
        }
        // The result lives below the callee's temps so it survives the callee's statements.
        let ret_agg = self.node_agg(f)?;
        if ret_agg.is_agg() || ret_agg.base.is_sampler() {
            self.no_sampler_agg(
                f,
                ret_agg,
                "a function cannot return a struct with samplers",
            )?;
        }
        let ret_temps = if ret_agg.is_agg() {
            self.agg_temps(ret_agg)
        } else {
            fnode.ty.columns().max(1) as u16
        };
        let mut frame = self.replay_frame(f, self.ntemp, !ret_agg.is_agg());
        let ret_tmp = if fnode.ty == Type::Void && !ret_agg.is_agg() {
            -1
        } else {
            self.temp(ret_temps)?
        };
        let prev_scope = self.push_scope(0, at)?;
        let _ = self.calls.push(f);
        let saved = (
            self.ret_tmp,
            self.ret_ty,
            self.last_stmt,
            self.if_depth,
            self.ret_flag,
            self.ret_agg,
        );
        let saved_loop_base = core::mem::replace(&mut self.loop_base, self.dloops.len());
        // A plain frame's parameter symbols wait until the body is lowered: a replayed body
        // looks no name up, so it does without them. Only when adding them cannot fail
        // (distinct names, room in the table), so no diagnostic moves.
        let defer = frame.plain
            && self.t.syms.len() + nparams <= self.lim.symbols_max
            && self.plain_distinct_params_of(f, fnode.a);
        let r = (|| {
            let mut pending: Vec<(i16, SymKind, Type, i16), PARAM_CAP> = Vec::new();
            let mut copy_out: Vec<(usize, i16, super::aggregate::AggTy), PARAM_CAP> = Vec::new();
            for (k, (p, pn)) in params.enumerate() {
                let p = &p;
                let Some(&arg) = args.get(k) else {
                    return Err(());
                };
                let out = pn.quals & Q_OUT != 0;
                let copy_in = pn.quals & Q_IN != 0 || !out;
                // A parameter without a type name or an array size (the usual one): its base
                // type, what `node_agg` answers for it.
                let pagg = if pn.c < 0 && pn.b < 0 {
                    super::aggregate::AggTy::plain(pn.ty)
                } else {
                    self.node_agg(*p)?
                };
                if pagg.is_agg() || arg.agg.is_agg() {
                    self.replay_param(&mut frame, -1, false);
                    // Profile 2: a struct or array parameter; `out`/`inout` ones are copied
                    // in (inout) and back out to the caller's l-value whole, as scalars are.
                    let pname = self.name_of(*p);
                    if arg.agg != pagg {
                        let (g, w) = (self.val_name(&arg), self.agg_name(pagg));
                        bail!(
                            self,
                            at,
                            "argument {} of '{}' is {}; the parameter '{}' is {}",
                            k + 1,
                            self.name_of(f),
                            g,
                            pname,
                            w
                        );
                    }
                    if out {
                        let mut msg: heapless::String<96> = heapless::String::new();
                        let _ = core::fmt::Write::write_fmt(
                            &mut msg,
                            format_args!("the parameter '{}' cannot be out or inout", pname),
                        );
                        self.no_sampler_agg(at, pagg, &msg)?;
                    }
                    let t = self.temp(self.agg_temps(pagg))?;
                    if copy_in {
                        self.store_agg(at, t, pagg, arg)?;
                    } else {
                        // An out parameter starts at zero, as an uninitialised local.
                        self.zero_agg(t, pagg)?;
                    }
                    if out {
                        let _ = copy_out.push((k, t, pagg));
                    }
                    let kind = if pn.quals & Q_CONST != 0 {
                        SymKind::Const
                    } else {
                        SymKind::Local
                    };
                    if pn.ival != 1 {
                        let s = self.add_sym(*p, pname, kind, Type::None, t)?;
                        if let Some(sym) = self.t.syms.get_mut(s) {
                            sym.agg = pagg;
                            // A struct with samplers refers to the argument's units.
                            sym.unit = arg.unit;
                        }
                    }
                    continue;
                }
                if let Some(Some((_, _, lty, swz))) = outs.get(k) {
                    let target = match swz {
                        Some((len, _)) => like(*lty, *len),
                        None => *lty,
                    };
                    if self.convert(Val::temp(pn.ty, 0), target).is_none() {
                        let pname = self.name_of(*p);
                        bail!(
                            self,
                            at,
                            "argument {} of '{}' is {}; the out parameter '{}' is {} and cannot be stored there",
                            k + 1,
                            self.name_of(f),
                            target.name(),
                            pname,
                            pn.ty.name()
                        );
                    }
                }
                // An argument of the parameter's type (the usual one) is its own conversion.
                let same = if arg.ty == pn.ty { Some(arg) } else { None };
                let conv = match same {
                    Some(v) => Some(v),
                    None => self.convert_emit(arg, pn.ty)?,
                };
                let arg = match conv {
                    Some(v) => v,
                    None if !copy_in => Val::temp(pn.ty, -1),
                    None => {
                        let pname = self.name_of(*p);
                        bail!(
                            self,
                            at,
                            "argument {} of '{}' is {}; the parameter '{}' is {}",
                            k + 1,
                            self.name_of(f),
                            arg.ty.name(),
                            pname,
                            pn.ty.name()
                        );
                    }
                };
                let cols = pn.ty.columns().max(1) as u16;
                let t = self.temp(cols)?;
                self.replay_param(&mut frame, t, !out && !pn.ty.is_sampler());
                if copy_in {
                    self.store(t, pn.ty, arg)?;
                } else {
                    // An out parameter starts at zero, as an uninitialised local.
                    for c in 0..cols {
                        self.zero(t + c as i16)?;
                    }
                }
                if out {
                    let _ = copy_out.push((k, t, super::aggregate::AggTy::NONE));
                }
                let kind = if pn.quals & Q_CONST != 0 {
                    SymKind::Const
                } else {
                    SymKind::Local
                };
                if pn.ival != 1 {
                    if defer && pending.push((*p, kind, pn.ty, t)).is_ok() {
                        continue;
                    }
                    let pname = self.name_of(*p);
                    self.add_sym(*p, pname, kind, pn.ty, t)?;
                }
            }
            self.ret_tmp = ret_tmp;
            self.ret_ty = fnode.ty;
            self.ret_agg = ret_agg;
            self.ret_flag = -1;
            self.last_stmt = facts.last_stmt;
            if facts.early_return {
                // Profile 2: a "returned" flag and IF around the code after each return.
                let flag = self.temp(1)?;
                self.zero(flag)?;
                if ret_tmp >= 0 {
                    for c in 0..ret_temps as i16 {
                        self.zero(ret_tmp + c)?;
                    }
                }
                self.ret_flag = flag;
                self.param_syms(&pending)?;
                self.block_body(fnode.b, false)?;
                return self.copy_out(&copy_out, outs);
            }
            // Code after a `return` is the error (not the function's missing final return).
            if facts.after_return >= 0 {
                self.param_syms(&pending)?;
                return self.after_return(facts.after_return);
            }
            let last = self.node(self.last_stmt);
            if (fnode.ty != Type::Void || ret_agg.is_agg())
                && !(last.kind == Kind::Return && last.a >= 0)
            {
                let hint = if self.toks.profile == Profile::P1 && self.may_return(fnode.b, 0) {
                    P2_HINT
                } else {
                    ""
                };
                bail!(
                    self,
                    f,
                    "function '{}' must end with 'return <{}>;'{}",
                    self.name_of(f),
                    self.agg_name(ret_agg),
                    hint
                );
            }
            // A body recorded at an earlier call with the same frame is copied instead of
            // lowered again (see `replay`).
            if self.replay_body(&mut frame, pending.len()) {
                return self.copy_out(&copy_out, outs);
            }
            self.param_syms(&pending)?;
            let mark = self.replay_start(&frame);
            let r = self.block_body(fnode.b, false);
            if let Some(m) = mark {
                self.replay_end(&frame, m, r.is_ok() && copy_out.is_empty());
            }
            r?;
            self.copy_out(&copy_out, outs)
        })();
        self.ret_tmp = saved.0;
        self.ret_ty = saved.1;
        self.last_stmt = saved.2;
        self.if_depth = saved.3;
        self.ret_flag = saved.4;
        self.ret_agg = saved.5;
        self.loop_base = saved_loop_base;
        let _ = self.calls.pop();
        self.pop_scope(prev_scope);
        r?;
        if ret_tmp >= 0 {
            // Callee temps above the result are dead now.
            self.ntemp = (ret_tmp as u16).saturating_add(ret_temps);
        }
        if ret_agg.is_agg() {
            return Ok(Val::agg(ret_agg, ret_tmp));
        }
        Ok(Val::temp(fnode.ty, ret_tmp))
    }

    /// What `inline_call` asks of function `f`'s tree at every call (node `fnode`),
    /// remembered for the last function asked (calls of one function often follow each
    /// other).
    fn fn_facts(&mut self, f: i16, fnode: Node) -> FnFacts {
        if let Some(x) = self.facts_memo.filter(|x| x.f == f) {
            return x;
        }
        let ast: &'a Ast = self.ast;
        let body = self.node(fnode.b);
        let x = FnFacts {
            f,
            nparams: ast.list(fnode.a).count() as u32,
            last_stmt: ast.list(body.a).last().map(|(i, _)| i).unwrap_or(-1),
            early_return: self.toks.profile == Profile::P2 && self.has_early_return(fnode.b),
            after_return: ast
                .list(body.a)
                .find(|(_, n)| n.kind == Kind::Return && n.next >= 0)
                .map_or(-1, |(_, r)| r.next),
        };
        self.facts_memo = Some(x);
        x
    }

    /// [`Self::plain_distinct_params`] of function `f` (parameter list `first`), remembered
    /// for the last function asked.
    fn plain_distinct_params_of(&mut self, f: i16, first: i16) -> bool {
        if self.distinct_memo.0 == f {
            return self.distinct_memo.1;
        }
        let r = self.plain_distinct_params(first);
        self.distinct_memo = (f, r);
        r
    }

    /// Whether the parameters of list `first` are all named, none is a struct or an array,
    /// and no two share a name: then their symbols can be added in any order without a
    /// diagnostic.
    fn plain_distinct_params(&self, first: i16) -> bool {
        let ast: &'a Ast = self.ast;
        for (k, (_, pn)) in ast.list(first).enumerate() {
            if pn.c >= 0 || pn.b >= 0 || pn.ival == 1 || k >= PARAM_CAP {
                return false;
            }
            let name = self.token_bytes(pn.tok);
            if name.is_empty()
                || ast
                    .list(first)
                    .take(k)
                    .any(|(_, q)| super::scope::same_bytes(self.token_bytes(q.tok), name))
            {
                return false;
            }
        }
        true
    }

    /// Adds the deferred parameter symbols (see `inline_call`), in parameter order.
    fn param_syms(&mut self, pending: &[(i16, SymKind, Type, i16)]) -> R<()> {
        for &(p, kind, ty, t) in pending {
            let pname = self.name_of(p);
            self.add_sym(p, pname, kind, ty, t)?;
        }
        Ok(())
    }

    /// Copies `out`/`inout` parameters (temp, aggregate type or NONE) back to the caller's
    /// l-values.
    fn copy_out(
        &mut self,
        params: &[(usize, i16, super::aggregate::AggTy)],
        outs: &[Option<LValue>],
    ) -> R<()> {
        for &(k, t, agg) in params {
            let Some(Some(lv)) = outs.get(k).copied() else {
                continue;
            };
            if agg.is_agg() {
                // A whole struct or array: leaf by leaf into the caller's block.
                let at = self.cur_node;
                self.store_agg(at, lv.1, agg, Val::agg(agg, t))?;
                self.flush_indexed(lv.1)?;
                continue;
            }
            let target = match lv.3 {
                Some((len, _)) => like(lv.2, len),
                None => lv.2,
            };
            let v = Val::temp(target, t);
            self.write_lvalue(lv, v)?;
        }
        Ok(())
    }

    /// Profile 2: the struct type name of a Param node (empty for other types).
    pub(super) fn user_type_name(&self, p: &Node) -> &'a str {
        if p.c < 0 {
            return "";
        }
        self.toks.get(p.c).map(|t| t.text(self.src)).unwrap_or("")
    }

    /// Whether two Param nodes name the same struct type (or neither names one).
    fn same_user_type(&self, p: &Node, q: &Node) -> bool {
        self.user_type_name(p) == self.user_type_name(q)
    }

    /// Whether parameter lists `a` and `b` have the same types.
    pub(super) fn same_params(&self, a: i16, b: i16) -> bool {
        let mut x = self.ast.list(a);
        let mut y = self.ast.list(b);
        loop {
            match (x.next(), y.next()) {
                (None, None) => return true,
                (Some((_, p)), Some((_, q))) if p.ty == q.ty && self.same_user_type(&p, &q) => {}
                _ => return false,
            }
        }
    }

    /// Profile 2: function `i` has the name of the earlier function `j`: a prototype or the
    /// definition of a prototype (same parameter types, same return type and qualifiers), or
    /// an overload (other parameter types).
    pub(super) fn check_redeclaration(&mut self, i: i16, n: Node, j: i16, m: Node) {
        let name = self.name_of(i);
        // Every earlier function of the name with these parameter types.
        let same: Vec<(i16, Node), 64> = self
            .ast
            .list(self.ast.first)
            .take_while(|&(k, _)| k != i)
            .filter(|&(k, o)| {
                o.kind == Kind::Func && self.name_of(k) == name && self.same_params(o.a, n.a)
            })
            .take(64)
            .collect();
        let _ = (j, m);
        for (_, o) in same {
            let line = self.toks.get(o.tok).map(|t| t.line).unwrap_or(0);
            if o.ty != n.ty {
                self.err(
                    i,
                    format_args!(
                        "'{}' is declared again with another return type ({} here, {} at line {})",
                        name,
                        n.ty.name(),
                        o.ty.name(),
                        line
                    ),
                );
                return;
            }
            if o.b >= 0 && n.b >= 0 {
                self.err(
                    i,
                    format_args!(
                        "redefinition of '{}' with the same parameter types (first defined at line {})",
                        name, line
                    ),
                );
                return;
            }
            let quals_differ =
                self.ast
                    .list(o.a)
                    .zip(self.ast.list(n.a))
                    .any(|((_, p), (_, q))| {
                        p.quals & (Q_IN | Q_OUT | Q_CONST) != q.quals & (Q_IN | Q_OUT | Q_CONST)
                    });
            if quals_differ {
                self.err(
                    i,
                    format_args!(
                        "'{}' is declared again with other parameter qualifiers (line {})",
                        name, line
                    ),
                );
                return;
            }
        }
    }

    /// Profile 2: the function a call of `name` with arguments `args` names, among the
    /// functions of that name (their definitions when given): the one whose parameter types
    /// are the arguments' exactly, else the only one the arguments convert to (int to float;
    /// an `out` parameter converts to its argument, an `inout` one must match).
    fn resolve(&mut self, at: i16, name: &str, args: &[(i16, Val)], first: i16) -> R<i16> {
        if !self.overloads {
            // No two functions share a name: `first`, the symbol's function, is the only
            // signature (what the scan below finds, without comparing every function's name).
            return Ok(first);
        }
        // Distinct signatures: for each, its definition, else its first declaration.
        let mut sigs: Vec<i16, 64> = Vec::new();
        for (j, m) in self.ast.list(self.ast.first) {
            if m.kind != Kind::Func || self.name_of(j) != name {
                continue;
            }
            let pos = sigs
                .iter()
                .position(|&s| self.same_params(self.node(s).a, m.a));
            match pos {
                Some(p) => {
                    if m.b >= 0 {
                        if let Some(s) = sigs.get_mut(p) {
                            *s = j;
                        }
                    }
                }
                None => {
                    if sigs.push(j).is_err() {
                        bail!(self, at, "too many overloads of '{}'", name);
                    }
                }
            }
        }
        if sigs.len() <= 1 {
            return Ok(sigs.first().copied().unwrap_or(first));
        }
        let fits = |s: &Self, f: i16, exact: bool| {
            let params = s.node(f).a;
            if s.ast.list(params).count() != args.len() {
                return false;
            }
            s.ast.list(params).zip(args.iter()).all(|((_, p), (_, v))| {
                if p.c >= 0 || p.b >= 0 || v.agg.is_agg() {
                    // Profile 2: a struct or array parameter takes exactly its type (the array
                    // size is checked when the call is inlined).
                    let arrays = (p.b >= 0) == (v.agg.len > 0);
                    let elem = if p.c >= 0 {
                        s.user_type_name(&p) == s.agg_name(v.agg.elem()).as_str()
                    } else {
                        v.agg.strukt == 0 && v.agg.base == p.ty
                    };
                    return v.agg.is_agg() && arrays && elem;
                }
                if exact || p.quals & (Q_IN | Q_OUT) == (Q_IN | Q_OUT) {
                    return p.ty == v.ty;
                }
                if p.quals & Q_OUT != 0 {
                    return s.convert(Val::temp(p.ty, 0), v.ty).is_some();
                }
                s.convert(*v, p.ty).is_some()
            })
        };
        if let Some(&f) = sigs.iter().find(|&&f| fits(self, f, true)) {
            return Ok(f);
        }
        let viable: Vec<i16, 64> = sigs
            .iter()
            .copied()
            .filter(|&f| fits(self, f, false))
            .collect();
        let mut types: heapless::String<160> = heapless::String::new();
        for (k, (_, v)) in args.iter().enumerate() {
            let _ = write!(
                types,
                "{}{}",
                if k > 0 { ", " } else { "" },
                self.val_name(v)
            );
        }
        match viable.len() {
            1 => Ok(viable.first().copied().unwrap_or(first)),
            0 => bail!(
                self,
                at,
                "no overload of '{}' takes ({}): {} functions of that name have other parameter types",
                name,
                types,
                sigs.len()
            ),
            n => bail!(
                self,
                at,
                "ambiguous call of '{}' with ({}): {} overloads match after int-to-float conversion",
                name,
                types,
                n
            ),
        }
    }

    /// Whether expression `i` calls a user function. Left operands (chains) are followed in a
    /// loop; the recursion is only into right operands and arguments, which are real nesting.
    #[inline]
    pub(super) fn has_user_call(&self, i: i16, depth: usize) -> bool {
        // A name or a literal (the usual operand) calls nothing: the scan's answer, without
        // the memo or the scan's walk.
        let leaf = usize::try_from(i)
            .ok()
            .and_then(|k| self.ast.nodes.get(k))
            .is_some_and(|n| {
                matches!(
                    n.kind,
                    Kind::Ident | Kind::IntLit | Kind::FloatLit | Kind::BoolLit
                )
            });
        if leaf && depth <= AST_CAP {
            return false;
        }
        // Memoised per node: the answer depends on the tree only, and operators ask it of
        // their right operand at every level (and again in every inlined copy of a body).
        let memo = usize::try_from(i)
            .ok()
            .and_then(|k| self.t.user_calls.get(k));
        match memo.map(|m| m.get()) {
            Some(1) => return false,
            Some(2) => return true,
            _ => {}
        }
        let r = self.has_user_call_scan(i, depth);
        if let Some(m) = memo {
            m.set(if r { 2 } else { 1 });
        }
        r
    }

    #[inline(never)]
    fn has_user_call_scan(&self, i: i16, depth: usize) -> bool {
        if depth > AST_CAP {
            return true;
        }
        let mut i = i;
        for _ in 0..=AST_CAP {
            if i < 0 {
                return false;
            }
            let n = self.node(i);
            match n.kind {
                // Profile 2: assignments and increments are side effects too.
                Kind::Assign | Kind::Incr if self.toks.profile == Profile::P2 => return true,
                Kind::Cond => {
                    if self.has_user_call(n.b, depth + 1) || self.has_user_call(n.c, depth + 1) {
                        return true;
                    }
                    i = n.a;
                }
                Kind::Call => {
                    let name = self.name_of(i);
                    if !self.is_builtin(name) {
                        return true;
                    }
                    return self
                        .ast
                        .list(n.a)
                        .any(|(a, _)| self.has_user_call(a, depth + 1));
                }
                Kind::Ctor => {
                    return self
                        .ast
                        .list(n.a)
                        .any(|(a, _)| self.has_user_call(a, depth + 1))
                }
                _ => {
                    if n.kind != Kind::Swizzle && self.has_user_call(n.b, depth + 1) {
                        return true;
                    }
                    i = n.a;
                }
            }
        }
        true
    }

    /// The call's argument values into `out` (cleared first). An out-parameter: returned by
    /// value, the 584-byte list was copied up to four times per call.
    pub(super) fn args(
        &mut self,
        first: i16,
        max: usize,
        at: i16,
        out: &mut Vec<(i16, Val), 16>,
    ) -> R<()> {
        out.clear();
        let count = self.ast.list(first).count();
        if count > max {
            bail!(
                self,
                at,
                "too many arguments: {} given, at most {} accepted",
                count,
                max
            );
        }
        for (a, node) in self.ast.list(first) {
            let v = self.value(a)?;
            // GLSL evaluates left to right: a later argument that calls a user function may
            // write a global this value still refers to (asked only of a value a snapshot
            // would copy).
            let later_call = copied_by_snapshot(&v)
                && self
                    .ast
                    .list(node.next)
                    .any(|(b, _)| self.has_user_call(b, 0));
            let v = if later_call { self.snapshot(v)? } else { v };
            let _ = out.push((a, v));
        }
        Ok(())
    }

    /// A copy of a variable's current value, so later writes to the variable do not change it.
    pub(super) fn snapshot(&mut self, v: Val) -> R<Val> {
        if !copied_by_snapshot(&v) {
            return Ok(v);
        }
        let cols = v.ty.columns().max(1);
        let t = self.temp(cols as u16)?;
        for c in 0..cols as i16 {
            self.emit(Op::Mov, v.ty, 4, t + c, v.tmp + c, -1, 0, 0)?;
        }
        Ok(Val::temp(v.ty, t))
    }

    /// Out of line: inlined into [`Sema::expr`], its argument lists made every expression
    /// level's frame about 2 KiB.
    #[inline(never)]
    pub(super) fn call(&mut self, i: i16, n: Node) -> R<Val> {
        let name = self.name_of(i);
        // Looked up once: the hiding check below and the call.
        let builtin = self.find_builtin(name);
        // Profile 2 (GLSL): a variable of the same name hides a built-in function.
        if self.toks.profile == Profile::P2 && builtin.is_some() {
            if let Some(s) = self.lookup(name) {
                if self.sym(s).is_some_and(|s| s.kind != SymKind::Func) {
                    bail!(
                        self,
                        i,
                        "'{}' is a variable here, which hides the built-in function {}() (rename the variable)",
                        name,
                        name
                    );
                }
            }
        }
        if let Some(&(bname, lo, hi, sig)) = builtin {
            let mut args = Vec::new();
            self.args(n.a, 16, i, &mut args)?;
            if args.len() < lo as usize || args.len() > hi as usize {
                bail!(
                    self,
                    i,
                    "wrong argument count: {}() takes {} argument(s), {} given ({})",
                    bname,
                    lo,
                    args.len(),
                    sig
                );
            }
            self.cur_node = i;
            if bname == "modf" {
                return self.modf(i, &args);
            }
            if self.toks.profile == Profile::P2 && Self::find_tex_builtin(bname).is_some() {
                return self.tex_builtin(i, bname, &args);
            }
            return self.builtin(i, bname, &args);
        }
        if self.toks.profile == Profile::P2 {
            // A struct's name called: its constructor (unless a function or variable of that
            // name is declared in an inner scope).
            if let Some(st) = self.lookup_struct(name) {
                let hidden = self
                    .lookup(name)
                    .and_then(|s| self.sym(s))
                    .is_some_and(|s| {
                        self.struct_def(super::aggregate::AggTy {
                            base: Type::None,
                            strukt: st,
                            len: 0,
                        })
                        .is_some_and(|d| s.scope > d.scope)
                    });
                if !hidden {
                    return self.struct_ctor(i, n, st);
                }
            }
        }
        let Some(s) = self.lookup(name) else {
            return self.unknown_name(i, name, "function");
        };
        let Some(sym) = self.sym(s) else {
            return Err(());
        };
        if sym.kind != SymKind::Func {
            bail!(self, i, "'{}' is not a function", name);
        }
        let f = sym.node;
        let mut args = Vec::new();
        self.args(n.a, self.lim.parameters_max.max(8), i, &mut args)?;
        let p2 = self.toks.profile == Profile::P2;
        let f = if p2 {
            self.resolve(i, name, &args, f)?
        } else {
            f
        };
        // Profile 2: the caller's l-values of out and inout parameters.
        let mut outs: Vec<Option<LValue>, PARAM_CAP> = Vec::new();
        if p2 {
            // Walked from the tree (which `self` only borrows) instead of collected.
            let ast: &'a Ast = self.ast;
            let mut params = ast.list(self.node(f).a).take(PARAM_CAP);
            for (k, (a, _)) in args.iter().enumerate() {
                let Some((p, pn)) = params.next() else {
                    break;
                };
                if pn.quals & Q_OUT == 0 {
                    let _ = outs.push(None);
                    continue;
                }
                if !self.is_lvalue_shape(*a) {
                    let pname = self.name_of(p);
                    let q = if pn.quals & Q_IN != 0 { "inout" } else { "out" };
                    bail!(
                        self,
                        *a,
                        "argument {} of '{}' must be an l-value (a variable, or a swizzle or index of one): the parameter '{}' is {}",
                        k + 1,
                        name,
                        pname,
                        q
                    );
                }
                let lv = self.lvalue(*a)?;
                let _ = outs.push(Some(lv));
            }
        }
        let mut vals: Vec<Val, PARAM_CAP> = Vec::new();
        let max = self.lim.parameters_max;
        for (_, v) in args.iter() {
            if vals.len() >= max || vals.push(*v).is_err() {
                bail!(
                    self,
                    i,
                    "too many arguments: '{}' takes at most {}",
                    name,
                    max
                );
            }
        }
        self.cur_node = i;
        self.call_function(f, &vals, &outs, i)
    }

    /// Whether expression `i` has the form of an assignment target: a name, or swizzles and
    /// indexes of one.
    pub(super) fn is_lvalue_shape(&self, i: i16) -> bool {
        let mut i = i;
        for _ in 0..=AST_CAP {
            let n = self.node(i);
            match n.kind {
                Kind::Ident => return true,
                Kind::Swizzle | Kind::Index => i = n.a,
                _ => return false,
            }
        }
        false
    }
}
