//! Issue 14's loop optimisation (`ir::loopopt`): on random structured programs with loops,
//! IF/ELSE, BREAK and CONTINUE (lanes diverging on gl_FragCoord.x, loop bounds and the
//! invocation budget hit), the optimised module computes bit-identical colours in every lane,
//! still verifies and still emits TGSI; and on hand-written loops it removes what it should.
mod ircore_util;
use ircore_util::p2::{run_fs_lanes, tgsi_ok};
use ircore_util::reference::{reference, RefIn};
use ircore_util::*;
use proptest::prelude::*;
use shader::ir::loopopt::optimize_loops;
use shader::ir::verify::verify;
use shader::ir::*;
use shader::limits::Profile;

struct Gen {
    s: u64,
    b: B,
    pool: [i16; 6],
    fc: i16,
    consts: [i16; 3],
    budget: usize,
}

impl Gen {
    fn pick(&mut self, n: u64) -> u64 {
        xorshift(&mut self.s) % n
    }
    fn var(&mut self) -> i16 {
        self.pool[self.pick(6) as usize]
    }
    fn operand(&mut self) -> i16 {
        match self.pick(6) {
            0 => self.fc,
            1 => self.consts[self.pick(3) as usize],
            // A CONST where it is used (in a loop: loop-invariant constant hoisting's shape).
            2 => {
                let v = self.pick(4) as f32 - 1.5;
                self.b.konst(&[v, 0.75, -2.0])
            }
            _ => self.var(),
        }
    }
    fn arith(&mut self) {
        let lanes = 1 + self.pick(4) as u8;
        let op = [Op::Add, Op::Sub, Op::Mul, Op::Min, Op::Max][self.pick(5) as usize];
        let (a, b) = (self.operand(), self.operand());
        match self.pick(4) {
            // Compute into a fresh temp, then copy into a variable (copy coalescing's shape).
            0 | 1 => {
                let t = self.b.temp();
                self.b.inst(op, t, a, b, lanes, 0, 0);
                let d = self.var();
                self.b.inst(Op::Mov, d, t, -1, lanes, 0, 0);
            }
            2 => {
                let d = self.var();
                self.b.inst(op, d, a, b, lanes, 0, 0);
            }
            _ => {
                // A value that is copied and never read (dead code's shape).
                let t = self.b.temp();
                self.b.inst(Op::Mov, t, a, -1, 4, 0, 0);
                let d = self.var();
                self.b.inst(op, d, t, b, lanes, 0, 0);
            }
        }
    }
    fn cond(&mut self) -> i16 {
        let c = self.b.temp();
        let (a, b) = if self.pick(3) == 0 {
            // gl_FragCoord.x against a threshold inside the 32 lanes: divergent lanes.
            let k = 8.0 * self.pick(4) as f32 + 2.5;
            (self.fc, self.b.konst(&[k]))
        } else {
            (self.operand(), self.operand())
        };
        let code = [CmpCode::Lt, CmpCode::Ge, CmpCode::Ne][self.pick(3) as usize];
        self.b.inst(Op::Cmp, c, a, b, 1, code as i16, 0);
        c
    }
    fn block(&mut self, depth: usize, in_loop: bool) {
        let n = 1 + self.pick(5);
        for _ in 0..n {
            if self.budget == 0 {
                return;
            }
            self.budget -= 1;
            match self.pick(10) {
                0 | 1 if depth < 4 => {
                    let c = self.cond();
                    self.b.inst(Op::If, -1, c, -1, 0, 0, 0);
                    self.block(depth + 1, in_loop);
                    if self.pick(2) == 0 {
                        self.b.push(Inst::new(Op::Else));
                        self.block(depth + 1, in_loop);
                    }
                    self.b.push(Inst::new(Op::Endif));
                }
                2 if depth < 4 => {
                    let bound = 1 + self.pick(6) as u32;
                    let l = if self.pick(3) == 0 {
                        loop_inst_budgeted(bound)
                    } else {
                        loop_inst(bound)
                    };
                    self.b.push(l);
                    self.block(depth + 1, true);
                    self.b.push(Inst::new(Op::EndLoop));
                }
                3 if in_loop => {
                    let c = self.cond();
                    self.b.inst(Op::If, -1, c, -1, 0, 0, 0);
                    // Half of them the bare exit test the executor fuses (`CMP; IF; BREAK;
                    // ENDIF`, see `decode`'s `fuse_break_if`).
                    if self.pick(2) == 0 {
                        self.arith();
                    }
                    let op = if self.pick(2) == 0 {
                        Op::Break
                    } else {
                        Op::Continue
                    };
                    self.b.push(Inst::new(op));
                    self.b.push(Inst::new(Op::Endif));
                }
                _ => self.arith(),
            }
        }
    }
}

/// A random fragment module: six variables start from constants and gl_FragCoord, a random
/// structured body, then the colour sums them (so every variable's final value shows).
fn random_loops(seed: u64) -> Module {
    let mut b = B::new(Stage::Fragment);
    let fc = b.fragcoord();
    let consts = [
        b.konst(&[1.0]),
        b.konst(&[0.5, 2.0, -1.0, 3.0]),
        b.konst(&[-0.25]),
    ];
    let mut pool = [0i16; 6];
    for (k, p) in pool.iter_mut().enumerate() {
        *p = b.konst(&[k as f32, 1.0, 2.0 - k as f32, 0.5]);
    }
    let mut g = Gen {
        s: seed | 1,
        b,
        pool,
        fc,
        consts,
        budget: 40,
    };
    g.block(0, false);
    let mut b = g.b;
    let o = b.temp();
    b.inst(Op::Mov, o, pool[0], -1, 4, 0, 0);
    for &p in &pool[1..] {
        b.inst(Op::Add, o, o, p, 4, 0, 0);
    }
    b.color(o);
    let mut m = b.done();
    m.profile = Profile::P2;
    m
}

fn bits(c: &[[f32; shader::back::exec::lanes::LANES]; 4]) -> Vec<u32> {
    c.iter()
        .flat_map(|l| l.iter().map(|v| v.to_bits()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn loop_optimisation_keeps_every_lane_bit_identical(seed in any::<u64>()) {
        let original = random_loops(seed);
        prop_assume!(verify(&original).is_ok());
        let mut m = original.clone();
        optimize_loops(&mut m);
        prop_assert!(verify(&m).is_ok(), "{:?}", verify(&m));
        prop_assert_eq!(bits(&run_fs_lanes(&original)), bits(&run_fs_lanes(&m)));
        tgsi_ok(&m);
        // Idempotent: a second run finds nothing more.
        let mut again = m.clone();
        prop_assert!(!optimize_loops(&mut again));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    /// The executor (its exit tests fused into conditional BREAKs) against the scalar
    /// reference interpreter, lane by lane (gl_FragCoord.x = the lane), before and after the
    /// loop optimisation.
    #[test]
    fn fused_exit_tests_run_as_the_reference(seed in any::<u64>()) {
        let original = random_loops(seed);
        prop_assume!(verify(&original).is_ok());
        let mut m = original.clone();
        optimize_loops(&mut m);
        let uniforms = [0.0f32; 128];
        let textures = [None, None, None, None];
        for module in [&original, &m] {
            let got = run_fs_lanes(module);
            for (l, _) in got[0].iter().enumerate() {
                let ri = RefIn {
                    attrs: [[0.0; 4]; 8],
                    vars: [[0.0; 4]; 8],
                    fragcoord: [l as f32, 0.0, 0.0, 0.0],
                    uniforms: &uniforms,
                    textures: &textures,
                };
                let want = reference(module, &ri).color;
                let have = [got[0][l], got[1][l], got[2][l], got[3][l]];
                prop_assert_eq!(have.map(f32::to_bits), want.map(f32::to_bits), "lane {}", l);
            }
        }
    }
}

/// Counts instructions that are not NOP.
fn live(m: &Module) -> usize {
    m.insts.iter().filter(|i| i.op != Op::Nop).count()
}

#[test]
fn postfix_copy_and_compute_then_copy_go_in_a_loop() {
    // i = 0; loop(8) { old = mov i (never read); t = add i, one; i = mov t; } color = i:
    // the copy of the old value is dead and `t = add; i = mov t` becomes `i = add i, one`...
    // except that it would make ADD's destination alias its source, so only the dead copy goes.
    // s = add x, one; y = mov s (y not read by the add) coalesces.
    let mut b = B::new(Stage::Fragment);
    let fc = b.fragcoord();
    let one = b.konst(&[1.0]);
    let i = b.konst(&[0.0]);
    let y = b.konst(&[0.0]);
    b.push(loop_inst(8));
    let old = b.temp();
    b.inst(Op::Mov, old, i, -1, 4, 0, 0);
    let t = b.temp();
    b.inst(Op::Add, t, i, one, 1, 0, 0);
    b.inst(Op::Mov, i, t, -1, 1, 0, 0);
    let s = b.temp();
    b.inst(Op::Add, s, i, fc, 1, 0, 0);
    b.inst(Op::Mov, y, s, -1, 1, 0, 0);
    b.push(Inst::new(Op::EndLoop));
    let o = b.temp();
    b.inst(Op::Add, o, i, y, 4, 0, 0);
    b.color(o);
    let mut m = b.done();
    m.profile = Profile::P2;
    let before = run_fs_lanes(&m);
    let n = live(&m);
    assert!(optimize_loops(&mut m));
    assert_eq!(live(&m), n - 3, "{:?}", m.insts);
    assert!(!m.insts.iter().any(|x| x.op == Op::Mov));
    assert!(m
        .insts
        .iter()
        .any(|x| x.op == Op::Add && x.dst == i && x.a == i && x.b == one));
    assert!(m
        .insts
        .iter()
        .any(|x| x.op == Op::Add && x.dst == y && x.a == i && x.b == fc));
    assert_eq!(bits(&before), bits(&run_fs_lanes(&m)));
    for l in 0..shader::back::exec::lanes::LANES {
        assert_eq!(before[0][l], 8.0 + 8.0 + l as f32);
    }
}

#[test]
fn modules_without_loops_are_not_touched() {
    let mut b = B::new(Stage::Fragment);
    let one = b.konst(&[1.0]);
    let t = b.temp();
    b.inst(Op::Add, t, one, one, 4, 0, 0);
    let u = b.temp();
    b.inst(Op::Mov, u, t, -1, 4, 0, 0);
    let _dead = b.konst(&[3.0]);
    b.color(u);
    let mut m = b.done();
    let before = m.insts.clone();
    assert!(!optimize_loops(&mut m));
    assert_eq!(m.insts, before);
}

#[test]
fn the_generator_makes_verifiable_loops_the_pass_changes() {
    let (mut ok, mut changed) = (0, 0);
    for seed in 1..200u64 {
        let mut m = random_loops(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if verify(&m).is_ok() && m.insts.iter().any(|i| i.op == Op::Loop) {
            ok += 1;
            changed += optimize_loops(&mut m) as usize;
        }
    }
    // About half the random programs have a loop; those verify and give the pass work.
    assert!(
        ok > 60 && changed > ok / 2,
        "{} verified with a loop, {} changed",
        ok,
        changed
    );
}

#[test]
fn a_constant_in_a_loop_is_set_once_before_it() {
    // loop(8) { k = const 2; acc = add acc, k } color = acc: the CONST moves before the loop.
    let mut b = B::new(Stage::Fragment);
    let acc = b.konst(&[0.0]);
    b.push(loop_inst(8));
    let k = b.konst(&[2.0]);
    let t = b.temp();
    b.inst(Op::Add, t, acc, k, 1, 0, 0);
    b.inst(Op::Mov, acc, t, -1, 1, 0, 0);
    b.push(Inst::new(Op::EndLoop));
    b.color(acc);
    let mut m = b.done();
    m.profile = Profile::P2;
    let before = run_fs_lanes(&m);
    assert!(optimize_loops(&mut m));
    verify(&m).unwrap();
    let lp = m.insts.iter().position(|i| i.op == Op::Loop).unwrap();
    let body = &m.insts[lp..];
    assert!(!body.iter().any(|i| i.op == Op::Const), "{:?}", m.insts);
    assert!(m.insts[..lp].iter().filter(|i| i.op == Op::Const).count() == 2);
    assert_eq!(bits(&before), bits(&run_fs_lanes(&m)));
    assert!(before[0].iter().all(|v| *v == 16.0));
}
