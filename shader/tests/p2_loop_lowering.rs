//! Profile 2's loop lowering in sema (issue 14): a loop body with `break`s and no `continue` has
//! no one-trip wrapper, the early-return check after a loop is emitted only when its body has a
//! `return`, and `while (a < b)` breaks on the negated integer compare (no `cmp eq 0`). On
//! random GLSL programs of nested `for`/`while`/`do` loops with `break`, `continue`, `return`
//! and lanes diverging on their inputs, every lane's result equals a reference evaluation of
//! the same program (integers only, so the comparison is exact), and the TGSI still passes the
//! checker.
mod ircore_util;
use ircore_util::p2::{compile_p2_vs, run_vs_lanes, tgsi_ok};
use ircore_util::xorshift;
use proptest::prelude::*;
use shader::back::exec::lanes::{ALL_LANES, LANES};
use shader::ir::*;
use std::fmt::Write;

#[derive(Clone, Debug)]
enum St {
    /// `x[d] = (x[d] + x[s] + c) & 255;`
    Assign(usize, usize, i32),
    /// `if (x[a] OP x[b] + c) { .. } else { .. }`
    If(usize, usize, u8, i32, Vec<St>, Vec<St>),
    /// `for (int iN = 0; iN < k; iN++) { .. }` (the condition is one of [`CONDS`])
    For(usize, i32, u8, Vec<St>),
    /// `int wN = 0; while (wN < k) { wN++; .. }`
    While(usize, i32, u8, Vec<St>),
    /// `int dN = 0; do { dN++; .. } while (dN < k);`
    Do(usize, i32, u8, Vec<St>),
    Break,
    Continue,
    Return,
}

struct Gen {
    s: u64,
    loops: usize,
    size: usize,
}

impl Gen {
    fn pick(&mut self, n: u64) -> u64 {
        xorshift(&mut self.s) % n
    }
    fn block(&mut self, depth: usize, in_loop: bool) -> Vec<St> {
        let n = 1 + self.pick(4) as usize;
        (0..n).map(|_| self.stmt(depth, in_loop)).collect()
    }
    fn stmt(&mut self, depth: usize, in_loop: bool) -> St {
        self.size += 1;
        let nest = depth < 3 && self.size < 40;
        match self.pick(12) {
            0..=3 => St::Assign(
                self.pick(4) as usize,
                self.pick(4) as usize,
                self.pick(7) as i32,
            ),
            4 | 5 if nest => {
                let (a, b, op, c) = (
                    self.pick(4) as usize,
                    self.pick(4) as usize,
                    self.pick(6) as u8,
                    self.pick(5) as i32 - 2,
                );
                let t = self.block(depth + 1, in_loop);
                let e = if self.pick(2) == 0 {
                    Vec::new()
                } else {
                    self.block(depth + 1, in_loop)
                };
                St::If(a, b, op, c, t, e)
            }
            6..=8 if nest => {
                let id = self.loops;
                self.loops += 1;
                let k = 1 + self.pick(4) as i32;
                let cond = self.pick(CONDS.len() as u64) as u8;
                let body = self.block(depth + 1, true);
                match self.pick(3) {
                    0 => St::For(id, k, cond, body),
                    1 => St::While(id, k, cond, body),
                    _ => St::Do(id, k, cond, body),
                }
            }
            9 if in_loop => St::Break,
            10 if in_loop => St::Continue,
            11 if self.pick(3) == 0 => St::Return,
            _ => St::Assign(0, self.pick(4) as usize, 1),
        }
    }
}

const OPS: [&str; 6] = ["<", "<=", ">", ">=", "==", "!="];
/// A loop's condition on its counter `v` (counting up from 0) and its limit `k` (at least 1).
const CONDS: [&str; 5] = [
    "{v} < {k}",
    "{v} <= {k}",
    "{v} != {k}",
    "{k} > {v}",
    "{k} >= {v}",
];

fn cond(c: u8, v: &str, k: i32) -> String {
    CONDS[c as usize]
        .replace("{v}", v)
        .replace("{k}", &k.to_string())
}

fn holds(c: u8, v: i32, k: i32) -> bool {
    [v < k, v <= k, v != k, k > v, k >= v][c as usize]
}
const OUT: &str = "gl_Position = vec4(float(x0), float(x1), float(x2), float(x3));";

fn glsl(sts: &[St], out: &mut String, indent: usize) {
    let pad = " ".repeat(indent * 2);
    for s in sts {
        match s {
            St::Assign(d, s, c) => {
                let _ = writeln!(out, "{pad}x{d} = (x{d} + x{s} + {c}) & 255;");
            }
            St::If(a, b, op, c, t, e) => {
                let _ = writeln!(out, "{pad}if (x{a} {} x{b} + ({c})) {{", OPS[*op as usize]);
                glsl(t, out, indent + 1);
                if e.is_empty() {
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    let _ = writeln!(out, "{pad}}} else {{");
                    glsl(e, out, indent + 1);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            St::For(id, k, c, body) => {
                let v = format!("i{id}");
                let c = cond(*c, &v, *k);
                let _ = writeln!(out, "{pad}for (int {v} = 0; {c}; {v}++) {{");
                glsl(body, out, indent + 1);
                let _ = writeln!(out, "{pad}}}");
            }
            St::While(id, k, c, body) => {
                let _ = writeln!(out, "{pad}int w{id} = 0;");
                let _ = writeln!(out, "{pad}while ({}) {{", cond(*c, &format!("w{id}"), *k));
                let _ = writeln!(out, "{pad}  w{id}++;");
                glsl(body, out, indent + 1);
                let _ = writeln!(out, "{pad}}}");
            }
            St::Do(id, k, c, body) => {
                let _ = writeln!(out, "{pad}int d{id} = 0;");
                let _ = writeln!(out, "{pad}do {{");
                let _ = writeln!(out, "{pad}  d{id}++;");
                glsl(body, out, indent + 1);
                let _ = writeln!(out, "{pad}}} while ({});", cond(*c, &format!("d{id}"), *k));
            }
            St::Break => {
                let _ = writeln!(out, "{pad}break;");
            }
            St::Continue => {
                let _ = writeln!(out, "{pad}continue;");
            }
            St::Return => {
                let _ = writeln!(out, "{pad}{{ {OUT} return; }}");
            }
        }
    }
}

fn source(sts: &[St]) -> String {
    let mut s = String::from(
        "in vec4 a;\nvoid main() {\n  int x0 = int(a.x); int x1 = int(a.y); \
         int x2 = int(a.z); int x3 = 5;\n",
    );
    glsl(sts, &mut s, 1);
    let _ = writeln!(s, "  {OUT}\n}}");
    s
}

#[derive(PartialEq)]
enum Flow {
    Normal,
    Break,
    Continue,
    Return,
}

/// The reference: GLSL's meaning of the program on one invocation.
fn eval(sts: &[St], x: &mut [i32; 4]) -> Flow {
    for s in sts {
        let f = match s {
            St::Assign(d, s, c) => {
                x[*d] = (x[*d] + x[*s] + c) & 255;
                Flow::Normal
            }
            St::If(a, b, op, c, t, e) => {
                let (l, r) = (x[*a], x[*b] + c);
                let holds = [l < r, l <= r, l > r, l >= r, l == r, l != r][*op as usize];
                eval(if holds { t } else { e }, x)
            }
            St::For(_, k, c, body) => {
                let mut i = 0;
                loop {
                    if !holds(*c, i, *k) {
                        break Flow::Normal;
                    }
                    if let Some(f) = iteration(body, x) {
                        break f;
                    }
                    i += 1;
                }
            }
            St::While(_, k, c, body) | St::Do(_, k, c, body) => {
                let do_while = matches!(s, St::Do(..));
                let mut w = 0;
                loop {
                    if !do_while && !holds(*c, w, *k) {
                        break Flow::Normal;
                    }
                    w += 1;
                    if let Some(f) = iteration(body, x) {
                        break f;
                    }
                    if do_while && !holds(*c, w, *k) {
                        break Flow::Normal;
                    }
                }
            }
            St::Break => Flow::Break,
            St::Continue => Flow::Continue,
            St::Return => Flow::Return,
        };
        if f != Flow::Normal {
            return f;
        }
    }
    Flow::Normal
}

/// One run of a loop body: Some(what the loop statement gives) when it leaves the loop.
fn iteration(body: &[St], x: &mut [i32; 4]) -> Option<Flow> {
    match eval(body, x) {
        Flow::Break => Some(Flow::Normal),
        Flow::Return => Some(Flow::Return),
        _ => None,
    }
}

fn attr(lane: usize) -> [f32; 4] {
    [
        (lane * 7 % 13) as f32,
        (lane * 3 % 5) as f32,
        (lane % 9) as f32,
        0.0,
    ]
}

fn check(sts: &[St]) -> Result<(), TestCaseError> {
    let src = source(sts);
    let sh = compile_p2_vs(&src);
    tgsi_ok(&sh.module);
    let got = run_vs_lanes(&sh.module, &[], attr, ALL_LANES);
    for (lane, g) in got.iter().enumerate().take(LANES) {
        let a = attr(lane);
        let mut x = [a[0] as i32, a[1] as i32, a[2] as i32, 5];
        eval(sts, &mut x);
        let want = x.map(|v| v as f32);
        prop_assert_eq!(
            g.map(f32::to_bits),
            want.map(f32::to_bits),
            "lane {}\n{}",
            lane,
            src
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn random_loops_with_jumps_match_the_reference(seed in any::<u64>()) {
        let mut g = Gen { s: seed | 1, loops: 0, size: 0 };
        let mut sts = g.block(0, false);
        // At least one loop, so every case exercises the lowering.
        let c = g.pick(CONDS.len() as u64) as u8;
        sts.push(St::Do(g.loops, 3, c, g.block(1, true)));
        check(&sts)?;
    }
}

fn count(m: &Module, op: Op) -> usize {
    m.insts.iter().filter(|i| i.op == op).count()
}

#[test]
fn a_loop_with_break_and_no_continue_has_no_wrapper() {
    let src = "uniform int n;\nin vec4 a;\nvoid main() {\n  float t = 0.0;\n\
        for (int i = 0; i < n; i++) { t += a.x; if (t > 4.0) break; }\n\
        int k = 0; do { k++; if (k > n) break; } while (k < 9);\n\
        gl_Position = vec4(t, float(k), 0.0, 1.0);\n}\n";
    let m = compile_p2_vs(src).module;
    assert_eq!(count(&m, Op::Loop), 2);
    // The `for` condition breaks on `i >= n` itself.
    assert_eq!(count(&m, Op::Cmp), 1, "only the float `t > 4.0`");
    assert!(m
        .insts
        .iter()
        .any(|i| i.op == Op::ICmp && i.aux == CmpCode::Ge as i16));
    let n = f32::from_bits(3);
    let got = run_vs_lanes(
        &m,
        &[[n, 0.0, 0.0, 0.0]],
        |_| [2.0, 0.0, 0.0, 0.0],
        ALL_LANES,
    );
    // t = 2, 4, 6 (break); k = 1, 2, 3, 4 (break at k > 3).
    assert_eq!(got[0], [6.0, 4.0, 0.0, 1.0]);
}

#[test]
fn a_continue_keeps_the_wrapper_and_the_step() {
    let src = "uniform int n;\nin vec4 a;\nvoid main() {\n  float s = 0.0;\n\
        for (int i = 0; i < n; i++) { if (i == 1) continue; if (i == 4) break; s += 1.0; }\n\
        gl_Position = vec4(s, 0.0, 0.0, 1.0);\n}\n";
    let m = compile_p2_vs(src).module;
    assert_eq!(count(&m, Op::Loop), 2);
    let n = f32::from_bits(9);
    let got = run_vs_lanes(&m, &[[n, 0.0, 0.0, 0.0]], |_| [0.0; 4], ALL_LANES);
    // i = 0, 2, 3 count; 1 is skipped; 4 breaks.
    assert_eq!(got[0], [3.0, 0.0, 0.0, 1.0]);
}

#[test]
fn the_return_check_follows_only_loops_that_return() {
    // The early return is after the loops: the outer loop needs no check of the return flag
    // after the inner one (three BREAKs: the two conditions and the `break`).
    let plain = "uniform int n;\nin vec4 a;\nvoid main() {\n  int k = 0;\n\
        for (int j = 0; j < n; j++) { while (k < n) { k++; if (k > 5) break; } }\n\
        if (k == 2) { gl_Position = vec4(1.0); return; }\n\
        gl_Position = vec4(float(k));\n}\n";
    let m = compile_p2_vs(plain).module;
    assert_eq!(count(&m, Op::Break), 3, "{:?}", m.insts);
    // A return inside the inner loop: the outer loop checks the flag after it.
    let inner = "uniform int n;\nin vec4 a;\nvoid main() {\n  int k = 0;\n\
        for (int j = 0; j < n; j++) {\n\
          for (int i = 0; i < n; i++) { k++; if (k == 7) { gl_Position = vec4(2.0); return; } }\n\
        }\n  gl_Position = vec4(float(k));\n}\n";
    let m = compile_p2_vs(inner).module;
    let n = f32::from_bits(3);
    let got = run_vs_lanes(&m, &[[n, 0.0, 0.0, 0.0]], |_| [0.0; 4], ALL_LANES);
    assert_eq!(got[0], [2.0; 4]);
    let n = f32::from_bits(2);
    let got = run_vs_lanes(&m, &[[n, 0.0, 0.0, 0.0]], |_| [0.0; 4], ALL_LANES);
    assert_eq!(got[0], [4.0; 4]);
}
