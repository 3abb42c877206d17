//! Profile 2's dynamic loops (issue 14): `while`, `do ... while`, `for` loops the unroller does
//! not take (a trip count not known at compile time, more trips than the unroll limit, or a
//! `break`/`continue` in the body), `break` and `continue`, lowered to the IR's bounded LOOP.
//!
//! Every loop gets the bound `P2_LOOP_ITERATIONS_MAX`: at the bound it ends as if by `break`
//! (the documented deviation from GLSL). `while (c) s` is `LOOP; if (!c) BREAK; s; ENDLOOP`.
//! Where `continue` must still run code after the body (a `for` step, a `do` condition) the body
//! sits in a one-trip wrapper loop: `continue` leaves the wrapper, `break` sets a flag and leaves
//! it, and the flag breaks the loop itself after the wrapper.
use super::types::*;
use super::{Sema, R};
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
        let z = self.mat(Val::konst(Type::Bool, [0.0; 4]))?;
        let nt = self.temp(1)?;
        self.emit(Op::Cmp, Type::Bool, 1, nt, t, z, CmpCode::Eq as i16, 0)?;
        self.emit(Op::If, Type::None, 0, -1, nt, -1, 0, 0)?;
        self.ctl(Op::Break)?;
        self.ctl(Op::Endif)?;
        self.ntemp = mark;
        Ok(())
    }

    /// Opens the IR loop of a source loop (and its wrapper when `wrapped`).
    fn open_loop(&mut self, wrapped: bool) -> R<()> {
        let flag = if wrapped {
            let f = self.temp(1)?;
            let base = self.imm(&[0.0])?;
            self.emit(Op::Const, Type::Bool, 1, f, -1, -1, base, 0)?;
            f
        } else {
            -1
        };
        let l = loop_inst(P2_LOOP_ITERATIONS_MAX);
        self.emit(Op::Loop, Type::None, 0, -1, -1, -1, l.aux, l.aux2)?;
        if self.dloops.push((wrapped, flag)).is_err() {
            bail!(self, -1, "loops are nested too deeply");
        }
        Ok(())
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
            self.returned_break()?;
        }
        r
    }

    fn close_loop(&mut self) -> R<()> {
        self.dloops.pop();
        self.ctl(Op::EndLoop)?;
        self.after_inner_loop()
    }

    /// After an IR loop that may have been left by a `return` (its lanes broke out): when still
    /// inside a loop of this function, those lanes leave that one too.
    pub(super) fn after_inner_loop(&mut self) -> R<()> {
        if self.dloops.len() > self.loop_base {
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
        let wrapped = do_while && self.has_jump(n.b, 0);
        self.open_loop(wrapped)?;
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
        let c = self.close_loop();
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
        let wrapped = n.c >= 0 && self.has_jump(n.d, 0);
        self.open_loop(wrapped)?;
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
        let c = self.close_loop();
        r.and(c)
    }

    /// `break;` and `continue;`.
    pub(super) fn jump_stmt(&mut self, i: i16, is_break: bool) -> R<()> {
        let what = if is_break { "break" } else { "continue" };
        let Some(&(wrapped, flag)) = self.dloops.get(self.loop_base..).and_then(|l| l.last())
        else {
            bail!(self, i, "'{}' outside of a loop", what);
        };
        if !wrapped && flag & super::switch::SWITCH_ENTRY != 0 {
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
