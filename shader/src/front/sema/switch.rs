//! Profile 2's `switch` (issue 14): GLSL 3.30 rules (an `int` or `uint` scalar selector,
//! constant integer labels of the selector's type, unique, at most one `default`, no statement
//! before the first label, `break` leaves the switch, fall-through otherwise).
//!
//! Lowering: the selector in a temp, a "matched" flag, and the body in a one-trip LOOP so that
//! `break` is the IR's BREAK. Each `case K:` sets matched |= (selector == K), `default:` sets
//! matched |= (no label equals the selector); each run of statements between labels runs under
//! `IF matched`, so a matched lane falls through to the following runs until a `break`. A
//! `continue` in the body belongs to the enclosing loop: it sets a flag and leaves the switch,
//! and after the switch the flag continues that loop.
use heapless::Vec;

use super::types::*;
use super::{Sema, R};
use crate::front::ast::*;
use crate::ir::*;
use crate::limits::*;

impl<'a> Sema<'a> {
    /// Whether statement `i` has a `continue` that leaves it (not one of an inner loop).
    pub(super) fn has_continue(&self, i: i16, depth: usize) -> bool {
        if depth > AST_CAP || i < 0 {
            return false;
        }
        let n = self.node(i);
        match n.kind {
            Kind::Continue => true,
            Kind::Block => self
                .ast
                .list(n.a)
                .any(|(s, _)| self.has_continue(s, depth + 1)),
            Kind::If => self.has_continue(n.b, depth + 1) || self.has_continue(n.c, depth + 1),
            Kind::Switch => self.has_continue(n.b, depth + 1),
            _ => false,
        }
    }

    pub(super) fn switch_stmt(&mut self, i: i16, n: Node) -> R<()> {
        self.jump_check(i)?;
        let sel = self.value(n.a)?;
        if !matches!(sel.ty, Type::Int | Type::Uint) || sel.agg.is_agg() {
            let g = self.val_name(&sel);
            bail!(
                self,
                n.a,
                "switch selector must be an int or uint scalar; found {}",
                g
            );
        }
        // The labels: (node, value; None for default), checked before anything is emitted.
        let body = self.node(n.b);
        let mut labels: Vec<(i16, Option<f32>), P2_SWITCH_LABELS_MAX> = Vec::new();
        let mut first = true;
        for (s, sn) in self.ast.list(body.a) {
            if sn.kind != Kind::Case {
                if first {
                    bail!(
                        self,
                        s,
                        "a switch body must start with a case or default label"
                    );
                }
                continue;
            }
            first = false;
            let value = if sn.a < 0 {
                if let Some(&(prev, _)) = labels.iter().find(|l| l.1.is_none()) {
                    let line = self.line_of(prev);
                    bail!(
                        self,
                        s,
                        "more than one default label in a switch (the first is at line {})",
                        line
                    );
                }
                None
            } else {
                let v = self.value(sn.a)?;
                let Some(k) = v.k.filter(|_| matches!(v.ty, Type::Int | Type::Uint)) else {
                    let what = if matches!(v.ty, Type::Int | Type::Uint) {
                        "a value known only at run time"
                    } else {
                        v.ty.name()
                    };
                    bail!(
                        self,
                        sn.a,
                        "a case label must be a constant integer expression; found {}",
                        what
                    );
                };
                if v.ty != sel.ty {
                    bail!(
                        self,
                        sn.a,
                        "case label type {} does not match the selector type {}",
                        v.ty.name(),
                        sel.ty.name()
                    );
                }
                // Labels are compared by their 32-bit patterns (profile 2's integers).
                let shown = self.knum(v.ty, &k, 0) as i64;
                let k = lane(&k, 0);
                if let Some(&(prev, _)) = labels
                    .iter()
                    .find(|l| l.1.map(f32::to_bits) == Some(k.to_bits()))
                {
                    let line = self.line_of(prev);
                    bail!(
                        self,
                        sn.a,
                        "duplicate case label {} (first used at line {})",
                        shown,
                        line
                    );
                }
                Some(k)
            };
            if labels.push((s, value)).is_err() {
                bail!(
                    self,
                    s,
                    "too many case labels in one switch: the limit is {} (P2_SWITCH_LABELS_MAX)",
                    P2_SWITCH_LABELS_MAX
                );
            }
        }
        let s = self.mat(sel)?;
        let matched = self.temp(1)?;
        self.zero(matched)?;
        // default: no case label equals the selector.
        let dflt = if labels.iter().any(|l| l.1.is_none()) {
            let d = self.temp(1)?;
            let one = self.imm(&[1.0])?;
            self.emit(Op::Const, Type::Bool, 1, d, -1, -1, one, 0)?;
            for &(_, k) in labels.iter() {
                if let Some(k) = k {
                    let kt = self.mat(Val::konst(sel.ty, [k, 0.0, 0.0, 0.0]))?;
                    let c = self.temp(1)?;
                    self.emit(Op::ICmp, Type::Bool, 1, c, s, kt, CmpCode::Ne as i16, 0)?;
                    self.emit(Op::Min, Type::Bool, 1, d, d, c, 0, 0)?;
                }
            }
            d
        } else {
            -1
        };
        let in_loop = self.dloops.len() > self.loop_base;
        let cont = if in_loop && self.has_continue(n.b, 0) {
            let f = self.temp(1)?;
            self.zero(f)?;
            f
        } else {
            -1
        };
        let l = loop_inst(1);
        self.emit(Op::Loop, Type::None, 0, -1, -1, -1, l.aux, l.aux2)?;
        // A switch entry: not wrapped, with its continue flag (0 when none: never used then).
        if self
            .dloops
            .push((false, (cont + 1) | SWITCH_ENTRY))
            .is_err()
        {
            bail!(self, i, "loops are nested too deeply");
        }
        let prev = self.push_scope(self.cur, n.b)?;
        let r = self.switch_body(n.b, s, matched, dflt, sel.ty);
        self.pop_scope(prev);
        self.dloops.pop();
        self.emit(Op::EndLoop, Type::None, 0, -1, -1, -1, 0, 0)?;
        r?;
        self.after_inner_loop(n.b)?;
        if cont >= 0 {
            self.emit(Op::If, Type::None, 0, -1, cont, -1, 0, 0)?;
            self.jump_stmt(i, false)?;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        }
        Ok(())
    }

    fn switch_body(&mut self, block: i16, s: i16, matched: i16, dflt: i16, ty: Type) -> R<()> {
        let body = self.node(block);
        let mut open = false;
        let mut ok = true;
        for (st, sn) in self.ast.list(body.a) {
            if sn.kind == Kind::Case {
                if open {
                    self.if_depth = self.if_depth.saturating_sub(1);
                    self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
                    open = false;
                }
                let mark = self.ntemp;
                let c = if sn.a < 0 {
                    dflt
                } else {
                    let v = self.value(sn.a)?;
                    let kt = self.mat(Val::konst(ty, v.k.unwrap_or([0.0; 4])))?;
                    let c = self.temp(1)?;
                    self.emit(Op::ICmp, Type::Bool, 1, c, s, kt, CmpCode::Eq as i16, 0)?;
                    c
                };
                self.emit(Op::Max, Type::Bool, 1, matched, matched, c, 0, 0)?;
                self.ntemp = mark;
                continue;
            }
            if !open {
                self.emit(Op::If, Type::None, 0, -1, matched, -1, 0, 0)?;
                self.if_depth += 1;
                open = true;
            }
            if self.stmt(st).is_err() {
                ok = false;
            }
        }
        if open {
            self.if_depth = self.if_depth.saturating_sub(1);
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        }
        if ok {
            Ok(())
        } else {
            Err(())
        }
    }

    /// The source line of node `i` (for "first declared at line N" notes).
    fn line_of(&self, i: i16) -> u32 {
        self.toks
            .get(self.node(i).tok)
            .map(|t| t.line as u32)
            .unwrap_or(0)
    }
}

/// `Sema::dloops` marks a switch's entry with this bit in its flag (the rest is its continue
/// flag temp + 1, or 0 when it has none).
pub(super) const SWITCH_ENTRY: i16 = 0x4000;
