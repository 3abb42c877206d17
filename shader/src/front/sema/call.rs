//! Calls: argument lowering, user functions (inlined, with their own scope and return slot) and
//! the dispatch between user functions, built-ins and constructors.
use heapless::Vec;

use super::builtins::BUILTINS;
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::ir::*;
use crate::limits::*;

impl<'a> Sema<'a> {
    /// Inlines function `f` with `args` (already evaluated); `at` is the call node for errors.
    pub(super) fn call_function(&mut self, f: i16, args: &[Val], at: i16) -> R<Val> {
        self.spend(at)?;
        // A call from main (or from an uncalled function being checked) is the outermost
        // expansion unless a loop around it already is.
        let outer = self.expansion < 0 && !self.calls.is_empty();
        if outer {
            self.expansion = at;
        }
        let r = self.inline_call(f, args, at);
        if outer {
            self.expansion = -1;
        }
        r
    }

    pub(super) fn inline_call(&mut self, f: i16, args: &[Val], at: i16) -> R<Val> {
        let fnode = self.node(f);
        let name = self.name_of(f);
        if let Some(c) = self.called.get_mut(f as usize) {
            *c = true;
        }
        if self.calls.contains(&f) {
            bail!(
                self,
                at,
                "recursion is not supported: '{}' is already being called",
                name
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
        let params: Vec<(i16, Node), PARAM_CAP> = self.ast.list(fnode.a).take(PARAM_CAP).collect();
        let nparams = self.ast.list(fnode.a).count();
        if nparams > self.lim.parameters_max {
            return Err(()); // reported at registration
        }
        if args.len() != nparams {
            bail!(
                self,
                at,
                "'{}' takes {} argument(s), {} given",
                name,
                nparams,
                args.len()
            );
        }
        // The result lives below the callee's temps so it survives the callee's statements.
        let ret_tmp = if fnode.ty == Type::Void {
            -1
        } else {
            let cols = fnode.ty.columns().max(1);
            self.temp(cols as u16)?
        };
        let prev_scope = self.push_scope(0, at)?;
        let _ = self.calls.push(f);
        let saved = (self.ret_tmp, self.ret_ty, self.last_stmt, self.if_depth);
        let r = (|| {
            for (k, (p, pn)) in params.iter().enumerate() {
                let Some(&arg) = args.get(k) else {
                    return Err(());
                };
                let arg = match self.convert(arg, pn.ty) {
                    Some(v) => v,
                    None => {
                        let pname = self.name_of(*p);
                        bail!(
                            self,
                            at,
                            "argument {} of '{}' is {}; the parameter '{}' is {}",
                            k + 1,
                            name,
                            arg.ty.name(),
                            pname,
                            pn.ty.name()
                        );
                    }
                };
                let cols = pn.ty.columns().max(1) as u16;
                let t = self.temp(cols)?;
                self.store(t, pn.ty, arg)?;
                let pname = self.name_of(*p);
                self.add_sym(*p, pname, SymKind::Local, pn.ty, t)?;
            }
            self.ret_tmp = ret_tmp;
            self.ret_ty = fnode.ty;
            let body = self.node(fnode.b);
            self.last_stmt = self.ast.list(body.a).last().map(|(i, _)| i).unwrap_or(-1);
            // Code after a `return` is the error (not the function's missing final return).
            if let Some((_, r)) = self
                .ast
                .list(body.a)
                .find(|(_, n)| n.kind == Kind::Return && n.next >= 0)
            {
                return self.after_return(r.next);
            }
            let last = self.node(self.last_stmt);
            if fnode.ty != Type::Void && !(last.kind == Kind::Return && last.a >= 0) {
                bail!(
                    self,
                    f,
                    "function '{}' must end with 'return <{}>;'",
                    name,
                    fnode.ty.name()
                );
            }
            self.block_body(fnode.b, false)
        })();
        self.ret_tmp = saved.0;
        self.ret_ty = saved.1;
        self.last_stmt = saved.2;
        self.if_depth = saved.3;
        let _ = self.calls.pop();
        self.pop_scope(prev_scope);
        r?;
        if ret_tmp >= 0 {
            // Callee temps above the result are dead now.
            self.ntemp = (ret_tmp as u16).saturating_add(fnode.ty.columns().max(1) as u16);
        }
        Ok(Val::temp(fnode.ty, ret_tmp))
    }

    /// Whether expression `i` calls a user function. Left operands (chains) are followed in a
    /// loop; the recursion is only into right operands and arguments, which are real nesting.
    pub(super) fn has_user_call(&self, i: i16, depth: usize) -> bool {
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
                Kind::Call => {
                    let name = self.name_of(i);
                    if !Self::is_builtin(name) {
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

    pub(super) fn args(&mut self, first: i16, max: usize, at: i16) -> R<Vec<(i16, Val), 16>> {
        let mut out: Vec<(i16, Val), 16> = Vec::new();
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
            // write a global this value still refers to.
            let later_call = self
                .ast
                .list(node.next)
                .any(|(b, _)| self.has_user_call(b, 0));
            let v = if later_call { self.snapshot(v)? } else { v };
            let _ = out.push((a, v));
        }
        Ok(out)
    }

    /// A copy of a variable's current value, so later writes to the variable do not change it.
    pub(super) fn snapshot(&mut self, v: Val) -> R<Val> {
        if v.k.is_some() || v.tmp < 0 || v.ty == Type::Sampler2D {
            return Ok(v);
        }
        let cols = v.ty.columns().max(1);
        let t = self.temp(cols as u16)?;
        for c in 0..cols as i16 {
            self.emit(Op::Mov, v.ty, 4, t + c, v.tmp + c, -1, 0, 0)?;
        }
        Ok(Val::temp(v.ty, t))
    }

    pub(super) fn call(&mut self, i: i16, n: Node) -> R<Val> {
        let name = self.name_of(i);
        // Profile 2 (GLSL): a variable of the same name hides a built-in function.
        if self.toks.profile == Profile::P2 && Self::is_builtin(name) {
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
        if let Some(&(bname, lo, hi, sig)) = BUILTINS.iter().find(|b| b.0 == name) {
            let args = self.args(n.a, 16, i)?;
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
            return self.builtin(i, bname, &args);
        }
        let Some(s) = self.lookup(name) else {
            bail!(self, i, "unknown function '{}'", name);
        };
        let Some(sym) = self.sym(s) else {
            return Err(());
        };
        if sym.kind != SymKind::Func {
            bail!(self, i, "'{}' is not a function", name);
        }
        let f = sym.node;
        let args = self.args(n.a, self.lim.parameters_max.max(8), i)?;
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
        self.call_function(f, &vals, i)
    }
}
