//! Profile 2's dynamic loops (issue 14): `while`, `do ... while`, `for` loops the unroller does
//! not take (a trip count not known at compile time, more trips than the unroll limit, or a
//! `break`/`continue` in the body), `break` and `continue`, lowered to the IR's bounded LOOP.
//!
//! A loop's bound is its trip count when [`Sema::proven_trips`] proves one (a `for` over an
//! `int`/`uint` counter with constant start, limit and step that the body never writes) and the
//! product of the proven trip counts of it and its enclosing loops stays within
//! `P2_LOOP_BUDGET`: it then runs exactly as in GLSL. Every other loop (and every loop nested in
//! one) is budgeted: bound `P2_LOOP_ITERATIONS_MAX` (or its trip count), and each iteration it
//! starts spends one of the invocation's `P2_LOOP_BUDGET` iterations; once spent, every
//! budgeted loop ends for that invocation as if by `break` (the documented deviation from
//! GLSL). `while (c) s` is `LOOP; if (!c) BREAK; s; ENDLOOP`.
//! In every loop whose body has a `continue` (of its own), the body sits in a one-trip wrapper
//! loop: `continue` leaves the wrapper (so a `for` step or a `do` condition still runs after
//! it), `break` sets a flag and leaves it, and the flag breaks the loop itself after the
//! wrapper. So the front end never emits the IR's CONTINUE: virglrenderer (0.10) cannot
//! translate TGSI's CONT (it logs "failed to convert opcode 96"; the picture is wrong). A body
//! with `break`s and no `continue` has no wrapper: its BREAK leaves the loop itself (issue
//! 14: the wrapper cost the fractal 4-5 dispatches an iteration).
use super::types::*;
use super::{Sema, SymKind, R};
use crate::front::ast::*;
use crate::ir::*;
use crate::limits::*;

impl<'a> Sema<'a> {
    /// Whether statement `i` contains a `break` or `continue` (bounded by the tree's nesting).
    pub(super) fn has_jump(&self, i: i16, depth: usize) -> bool {
        if depth > AST_CAP || i < 0 {
            return false;
        }
        let n = self.node(i);
        match n.kind {
            Kind::Break | Kind::Continue => true,
            Kind::Block => self.ast.list(n.a).any(|(s, _)| self.has_jump(s, depth + 1)),
            Kind::If => self.has_jump(n.b, depth + 1) || self.has_jump(n.c, depth + 1),
            Kind::For => self.has_jump(n.d, depth + 1),
            Kind::While | Kind::DoWhile => self.has_jump(n.b, depth + 1),
            // A switch's `break` is its own; a `continue` in it belongs to the loop.
            Kind::Switch => self.has_continue(n.b, depth + 1),
            _ => false,
        }
    }

    /// Whether `for` loop `n` has the shape the unroller takes: `int v = constant` first and a
    /// condition.
    pub(super) fn unrollable_shape(&self, n: Node) -> bool {
        if n.a < 0 || n.b < 0 {
            return false;
        }
        let init = self.node(n.a);
        init.kind == Kind::Decl && init.ty == Type::Int && init.quals == 0 && init.a >= 0
    }

    pub(super) fn jump_check(&mut self, i: i16) -> R<()> {
        if self.dloops.len() >= LOOP_DEPTH_MAX {
            bail!(
                self,
                i,
                "loops are nested too deeply: the limit is {} (LOOP_DEPTH_MAX)",
                LOOP_DEPTH_MAX
            );
        }
        if self.if_depth + 1 >= IF_DEPTH_MAX {
            bail!(
                self,
                i,
                "if statements are nested too deeply: the limit is {} (inlined calls count)",
                IF_DEPTH_MAX
            );
        }
        Ok(())
    }

    fn ctl(&mut self, op: Op) -> R<()> {
        self.emit(op, Type::None, 0, -1, -1, -1, 0, 0)
    }

    /// `if (!cond) BREAK;` for the innermost IR loop.
    fn break_unless(&mut self, cond: i16) -> R<()> {
        let mark = self.ntemp;
        let c = self.value(cond)?;
        if c.ty != Type::Bool {
            bail!(
                self,
                cond,
                "loop condition must be a bool; found {}",
                c.ty.name()
            );
        }
        let t = self.mat(c)?;
        let nt = if self.negate_last_icmp(t, mark) {
            t
        } else {
            let z = self.mat(Val::konst(Type::Bool, [0.0; 4]))?;
            let nt = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, nt, t, z, CmpCode::Eq as i16, 0)?;
            nt
        };
        self.emit(Op::If, Type::None, 0, -1, nt, -1, 0, 0)?;
        self.ctl(Op::Break)?;
        self.ctl(Op::Endif)?;
        self.ntemp = mark;
        Ok(())
    }

    /// When the last instruction emitted is an integer compare into `t`, a scratch temp of this
    /// statement (from `mark` on, so no variable), negates its code in place (`a < b` becomes
    /// `a >= b`) and returns true: `t == false` then costs no second compare. Exact: an
    /// integer compare has no unordered case, and its result is 0 or 1.0 as the `cmp eq 0`'s.
    fn negate_last_icmp(&mut self, t: i16, mark: u16) -> bool {
        if self.dry || (t as i32) < mark as i32 {
            return false;
        }
        let Some(last) = self.module.insts.last_mut() else {
            return false;
        };
        if !matches!(last.op, Op::ICmp | Op::UCmp) || last.dst != t || last.lanes != 1 {
            return false;
        }
        let neg = match CmpCode::from_i16(last.aux) {
            Some(CmpCode::Lt) => CmpCode::Ge,
            Some(CmpCode::Ge) => CmpCode::Lt,
            Some(CmpCode::Gt) => CmpCode::Le,
            Some(CmpCode::Le) => CmpCode::Gt,
            Some(CmpCode::Eq) => CmpCode::Ne,
            Some(CmpCode::Ne) => CmpCode::Eq,
            None => return false,
        };
        last.aux = neg as i16;
        true
    }

    /// Opens the IR loop of a source loop (and its wrapper when `wrapped`), `trips` its proven
    /// trip count if any. Returns the enclosing `loop_work`, for [`Self::close_loop`].
    fn open_loop(&mut self, wrapped: bool, trips: Option<u32>) -> R<u32> {
        let flag = if wrapped {
            let f = self.temp(1)?;
            let base = self.imm(&[0.0])?;
            self.emit(Op::Const, Type::Bool, 1, f, -1, -1, base, 0)?;
            f
        } else {
            -1
        };
        let prev = self.loop_work;
        let (bound, work) = match trips {
            Some(t) => {
                let t = t.clamp(1, P2_LOOP_ITERATIONS_MAX);
                let w = prev.checked_mul(t).filter(|w| *w <= P2_LOOP_BUDGET);
                (t, w.unwrap_or(0))
            }
            None => (P2_LOOP_ITERATIONS_MAX, 0),
        };
        let l = if work == 0 {
            loop_inst_budgeted(bound)
        } else {
            loop_inst(bound)
        };
        self.emit(Op::Loop, Type::None, 0, -1, -1, -1, l.aux, l.aux2)?;
        if self.dloops.push((wrapped, flag)).is_err() {
            bail!(self, -1, "loops are nested too deeply");
        }
        self.loop_work = work;
        Ok(prev)
    }

    /// The body of a source loop, inside its wrapper when there is one.
    fn loop_body(&mut self, body: i16) -> R<()> {
        let (wrapped, flag) = self.dloops.last().copied().unwrap_or((false, -1));
        if wrapped {
            let l = loop_inst(1);
            self.emit(Op::Loop, Type::None, 0, -1, -1, -1, l.aux, l.aux2)?;
        }
        let r = self.scoped_stmt(body);
        if wrapped {
            self.ctl(Op::EndLoop)?;
            self.emit(Op::If, Type::None, 0, -1, flag, -1, 0, 0)?;
            self.ctl(Op::Break)?;
            self.ctl(Op::Endif)?;
            if self.may_return(body, 0) {
                self.returned_break()?;
            }
        }
        r
    }

    /// Closes the IR loop of a source loop whose body is statement `body`.
    fn close_loop(&mut self, work: u32, body: i16) -> R<()> {
        self.loop_work = work;
        self.dloops.pop();
        self.ctl(Op::EndLoop)?;
        self.after_inner_loop(body)
    }

    /// After an IR loop (body statement `body`) that may have been left by a `return` (its
    /// lanes broke out): when still inside a loop of this function, those lanes leave that one
    /// too. A body without a `return` statement needs no check: only its own `return`s break
    /// out of this function's loops (an inlined call's `return` has the callee's flag and
    /// loop base), so the flag cannot have changed inside it.
    pub(super) fn after_inner_loop(&mut self, body: i16) -> R<()> {
        if self.dloops.len() > self.loop_base && self.may_return(body, 0) {
            self.returned_break()?;
        }
        Ok(())
    }

    /// `if (returned) BREAK;` in a function with an early return (nothing otherwise).
    fn returned_break(&mut self) -> R<()> {
        if self.ret_flag < 0 {
            return Ok(());
        }
        self.emit(Op::If, Type::None, 0, -1, self.ret_flag, -1, 0, 0)?;
        self.ctl(Op::Break)?;
        self.ctl(Op::Endif)
    }

    /// A `return` inside loops of the current function: the returning lanes leave the innermost
    /// loop now (and each enclosing one after it ends, see [`Self::after_inner_loop`]).
    pub(super) fn return_from_loops(&mut self) -> R<()> {
        if self.dloops.len() > self.loop_base {
            self.ctl(Op::Break)?;
        }
        Ok(())
    }

    /// `while (c) s` and `do s while (c);`.
    pub(super) fn while_stmt(&mut self, i: i16, n: Node, do_while: bool) -> R<()> {
        self.jump_check(i)?;
        // A `continue` always leaves a one-trip wrapper: the IR's CONTINUE is never emitted,
        // since virglrenderer (0.10) cannot translate TGSI's CONT ("failed to convert opcode").
        // A body with only `break`s needs none: its BREAK leaves the loop itself.
        let wrapped = self.has_continue(n.b, 0);
        let work = self.open_loop(wrapped, None)?;
        let mut r = Ok(());
        if !do_while {
            r = self.break_unless(n.a);
        }
        if r.is_ok() {
            r = self.loop_body(n.b);
        }
        if r.is_ok() && do_while {
            r = self.break_unless(n.a);
        }
        let c = self.close_loop(work, n.b);
        r.and(c)
    }

    /// A `for` loop that runs at run time.
    pub(super) fn dyn_for(&mut self, i: i16, n: Node) -> R<()> {
        self.jump_check(i)?;
        let prev = self.push_scope(self.cur, i)?;
        let r = self.dyn_for_inner(n);
        self.pop_scope(prev);
        r
    }

    fn dyn_for_inner(&mut self, n: Node) -> R<()> {
        let trips = self.proven_trips(n);
        // The initializer: declarations (a list) or a statement.
        let mut d = n.a;
        while d >= 0 {
            let dn = self.node(d);
            if dn.kind == Kind::Decl {
                self.local_decl(d, dn, false)?;
                d = dn.next;
            } else {
                self.stmt(d)?;
                break;
            }
        }
        // A `continue` (see `while_stmt`; the step runs after the wrapper).
        let wrapped = self.has_continue(n.d, 0);
        let work = self.open_loop(wrapped, trips)?;
        let mut r = Ok(());
        if n.b >= 0 {
            r = self.break_unless(n.b);
        }
        if r.is_ok() {
            r = self.loop_body(n.d);
        }
        if r.is_ok() {
            let mark = self.ntemp;
            let items: heapless::Vec<i16, 16> =
                self.ast.list(n.c).map(|(s, _)| s).take(16).collect();
            for s in items {
                if self.stmt(s).is_err() {
                    r = Err(());
                    break;
                }
            }
            self.ntemp = mark;
        }
        let c = self.close_loop(work, n.d);
        r.and(c)
    }

    /// `break;` and `continue;`.
    pub(super) fn jump_stmt(&mut self, i: i16, is_break: bool) -> R<()> {
        let what = if is_break { "break" } else { "continue" };
        let Some(&(wrapped, flag)) = self.dloops.get(self.loop_base..).and_then(|l| l.last())
        else {
            bail!(self, i, "'{}' outside of a loop", what);
        };
        // A loop without a wrapper has flag -1 (every bit set): only a non-negative flag can
        // mark a switch entry.
        if !wrapped && flag >= 0 && flag & super::switch::SWITCH_ENTRY != 0 {
            // A switch: `break` leaves it; `continue` sets its flag, leaves it, and continues
            // the enclosing loop after it (see `switch`).
            if is_break {
                return self.ctl(Op::Break);
            }
            let cont = (flag & !super::switch::SWITCH_ENTRY) - 1;
            if cont < 0 {
                bail!(self, i, "'continue' outside of a loop");
            }
            let base = self.imm(&[1.0])?;
            self.emit(Op::Const, Type::Bool, 1, cont, -1, -1, base, 0)?;
            return self.ctl(Op::Break);
        }
        if wrapped {
            if is_break {
                let base = self.imm(&[1.0])?;
                self.emit(Op::Const, Type::Bool, 1, flag, -1, -1, base, 0)?;
            }
            return self.ctl(Op::Break);
        }
        self.ctl(if is_break { Op::Break } else { Op::Continue })
    }
}

/// AST nodes [`Sema::writes_var`] visits at most (past it the loop counts as unproven).
const WRITE_SCAN_MAX: usize = 4096;

impl<'a> Sema<'a> {
    /// The trip count of `for` loop `n` when it is provable (issue 14): `T v = a` (`T` int or
    /// uint, one declarator), the condition `v OP b` or `b OP v` (`<`, `<=`, `>`, `>=`, `!=`),
    /// one step `v++`, `++v`, `v--`, `--v`, `v += c` or `v -= c`, with `a`, `b`, `c` constant
    /// expressions, every value of `v` up to the one that ends the loop in `T`'s range (no
    /// wrap-around), and no write of `v` in the body (an assignment, `++`/`--`, or `v` passed
    /// to a user function, which might take it `out`). None otherwise, or past
    /// `P2_LOOP_BUDGET` trips (no host runs one loop longer: see `P2_LOOP_BUDGET`).
    pub(super) fn proven_trips(&self, n: Node) -> Option<u32> {
        if n.a < 0 || n.b < 0 || n.c < 0 {
            return None;
        }
        let init = self.node(n.a);
        let uint = match init.ty {
            Type::Int => false,
            Type::Uint => true,
            _ => return None,
        };
        if init.kind != Kind::Decl || init.quals != 0 || init.a < 0 || init.next >= 0 {
            return None;
        }
        let v = self.name_of(n.a);
        let (lo, hi) = if uint {
            (0i64, u32::MAX as i64)
        } else {
            (i32::MIN as i64, i32::MAX as i64)
        };
        let a = self.const_int(init.a, uint, 0)?;
        // The condition, as `v OP b`.
        let cn = self.node(n.b);
        if cn.kind != Kind::Binary {
            return None;
        }
        let is_v = |s: &Self, i: i16| i >= 0 && s.node(i).kind == Kind::Ident && s.name_of(i) == v;
        let op = BinOp::from_u8(cn.op)?;
        let (op, b) = if is_v(self, cn.a) {
            (op, self.const_int(cn.b, uint, 0)?)
        } else if is_v(self, cn.b) {
            let flipped = match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Gt => BinOp::Lt,
                BinOp::Le => BinOp::Ge,
                BinOp::Ge => BinOp::Le,
                other => other,
            };
            (flipped, self.const_int(cn.a, uint, 0)?)
        } else {
            return None;
        };
        // The step: exactly one item, on `v`.
        let mut items = self.ast.list(n.c);
        let (item, _) = items.next()?;
        if items.next().is_some() {
            return None;
        }
        let mut st = self.node(item);
        if st.kind == Kind::ExprStmt {
            st = self.node(st.a);
        }
        if !is_v(self, st.a) {
            return None;
        }
        let c = match st.kind {
            Kind::Incr if st.op == INC_PRE || st.op == INC_POST => 1,
            Kind::Incr => -1,
            Kind::Assign if st.op == BinOp::Add as u8 => self.const_int(st.b, uint, 0)?,
            Kind::Assign if st.op == BinOp::Sub as u8 => {
                self.const_int(st.b, uint, 0)?.checked_neg()?
            }
            _ => return None,
        };
        if !(lo..=hi).contains(&a) || !(lo..=hi).contains(&b) || c == 0 {
            return None;
        }
        let holds = |x: i64| match op {
            BinOp::Lt => x < b,
            BinOp::Le => x <= b,
            BinOp::Gt => x > b,
            BinOp::Ge => x >= b,
            BinOp::Ne => x != b,
            _ => true,
        };
        if !matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne
        ) {
            return None;
        }
        let trips: i64 = if !holds(a) {
            0
        } else {
            match op {
                BinOp::Lt if c > 0 => (b - a + c - 1) / c,
                BinOp::Le if c > 0 => (b - a) / c + 1,
                BinOp::Gt if c < 0 => (a - b + (-c) - 1) / (-c),
                BinOp::Ge if c < 0 => (a - b) / (-c) + 1,
                BinOp::Ne if (b - a) % c == 0 && (b - a) / c > 0 => (b - a) / c,
                _ => return None,
            }
        };
        // Every value the counter takes, the last step's included, stays in range.
        let last = a.checked_add(trips.checked_mul(c)?)?;
        if !(lo..=hi).contains(&last) || trips > P2_LOOP_BUDGET as i64 {
            return None;
        }
        let mut budget = WRITE_SCAN_MAX;
        if self.writes_var(n.d, v, &mut budget, 0) || budget == 0 {
            return None;
        }
        Some(trips as u32)
    }

    /// Whether the body or the condition of `for` loop `n` may write its (first) loop variable:
    /// GLSL allows it, the unroller does not, so profile 2 runs such a loop at run time (with
    /// the budget, as [`Self::proven_trips`] proves nothing for it).
    pub(super) fn writes_counter(&self, n: Node) -> bool {
        if n.a < 0 || self.node(n.a).kind != Kind::Decl {
            return false;
        }
        let v = self.name_of(n.a);
        let mut budget = WRITE_SCAN_MAX;
        let body = self.writes_var(n.d, v, &mut budget, 0);
        // A write in the condition (`i++ < n`) counts too (a false positive only costs the
        // unrolling).
        let cond = self.writes_var(n.b, v, &mut budget, 0);
        body || cond || budget == 0
    }

    /// The value of a constant integer expression in the AST (literals, `-`, `+ - *` and
    /// `const` variables), without lowering it; None when it is not one.
    fn const_int(&self, i: i16, uint: bool, depth: usize) -> Option<i64> {
        if i < 0 || depth > 16 {
            return None;
        }
        let n = self.node(i);
        match n.kind {
            Kind::IntLit => {
                if (n.ty == Type::Uint) != uint {
                    return None;
                }
                Some(if uint {
                    n.ival as u32 as i64
                } else {
                    n.ival as i64
                })
            }
            Kind::Unary if n.op == UN_NEG => self.const_int(n.a, uint, depth + 1)?.checked_neg(),
            Kind::Binary => {
                let x = self.const_int(n.a, uint, depth + 1)?;
                let y = self.const_int(n.b, uint, depth + 1)?;
                let r = match BinOp::from_u8(n.op)? {
                    BinOp::Add => x.checked_add(y)?,
                    BinOp::Sub => x.checked_sub(y)?,
                    BinOp::Mul => x.checked_mul(y)?,
                    _ => return None,
                };
                // Out of the type's range it would have wrapped: not folded here.
                let ok = if uint {
                    (0..=u32::MAX as i64).contains(&r)
                } else {
                    (i32::MIN as i64..=i32::MAX as i64).contains(&r)
                };
                ok.then_some(r)
            }
            Kind::Ident => {
                let s = self.sym(self.lookup(self.name_of(i))?)?;
                let want = if uint { Type::Uint } else { Type::Int };
                if s.kind != SymKind::Const || s.ty != want {
                    return None;
                }
                let k = s.known?;
                let v = self.knum(s.ty, &k, 0);
                Some(v as i64)
            }
            _ => None,
        }
    }

    /// Whether statement or expression `i` (and what follows it through `next`) may write the
    /// variable named `v`; `budget` counts the nodes visited (at 0 the answer is unknown).
    fn writes_var(&self, i: i16, v: &str, budget: &mut usize, depth: usize) -> bool {
        let mut cur = i;
        while cur >= 0 {
            if *budget == 0 || depth > AST_CAP {
                *budget = 0;
                return true;
            }
            *budget -= 1;
            let n = self.node(cur);
            let hit = match n.kind {
                Kind::Assign | Kind::Incr => self.lvalue_root_is(n.a, v, 0),
                Kind::Call => {
                    let user = self
                        .lookup(self.name_of(cur))
                        .and_then(|s| self.sym(s))
                        .is_some_and(|s| s.kind == SymKind::Func);
                    user && self
                        .ast
                        .list(n.a)
                        .any(|(arg, _)| self.lvalue_root_is(arg, v, 0))
                }
                _ => false,
            };
            if hit {
                return true;
            }
            let kids: [i16; 4] = match n.kind {
                Kind::Ident | Kind::IntLit | Kind::FloatLit | Kind::BoolLit => [-1; 4],
                Kind::Break | Kind::Continue | Kind::Discard | Kind::Empty => [-1; 4],
                Kind::Swizzle | Kind::Unary | Kind::Incr | Kind::ExprStmt | Kind::Return => {
                    [n.a, -1, -1, -1]
                }
                Kind::Decl => [n.a, n.b, -1, -1],
                // Arguments chain through `next` from `a`.
                Kind::Call | Kind::Ctor | Kind::Block => [n.a, -1, -1, -1],
                _ => [n.a, n.b, n.c, n.d],
            };
            for k in kids {
                if k >= 0 && self.writes_var(k, v, budget, depth + 1) {
                    return true;
                }
            }
            // Lists (statements, arguments, declarators) chain through `next`.
            cur = n.next;
        }
        false
    }

    /// Whether lvalue `i` is `v` or an element, member or swizzle of it.
    fn lvalue_root_is(&self, i: i16, v: &str, depth: usize) -> bool {
        if i < 0 || depth > 64 {
            return false;
        }
        let n = self.node(i);
        match n.kind {
            Kind::Ident => self.name_of(i) == v,
            Kind::Index | Kind::Swizzle => self.lvalue_root_is(n.a, v, depth + 1),
            _ => false,
        }
    }
}
