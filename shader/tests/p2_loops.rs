//! Profile 2's structured loops (issue 14): the verifier's rules, the executor's per-lane loop
//! masks and bound, the TGSI guard counter, CSIR v2 round trips.
mod ircore_util;
use ircore_util::p2::{compile_p2_vs, counting, run_fs_lanes, run_vs_lanes, tgsi_ok};
use ircore_util::*;
use shader::back::exec::lanes::{ALL_LANES, LANES};
use shader::back::exec::*;
use shader::ir::verify::verify;
use shader::ir::*;
use shader::limits::{Profile, LOOP_DEPTH_MAX, P2_LOOP_ITERATIONS_MAX};

fn p2(b: B) -> Module {
    let mut m = b.done();
    m.profile = Profile::P2;
    m
}

fn push(b: &mut B, i: Inst) {
    b.push(i);
}

fn ctl(op: Op) -> Inst {
    Inst::new(op)
}

/// Runs a fragment module with gl_FragCoord.x = lane index on every lane; the colour's x.
fn run_x(m: &Module) -> [f32; LANES] {
    run_fs_lanes(m)[0]
}

#[test]
fn lanes_leave_the_loop_at_different_iterations() {
    let m = counting(100, true);
    verify(&m).unwrap();
    let x = run_x(&m);
    for (l, v) in x.iter().enumerate() {
        assert_eq!(*v, l as f32, "lane {}", l);
    }
    // The accumulator counts the even iterations only (continue skipped the odd ones).
    let exe = Executable::new(&m, None).unwrap();
    let _ = exe;
}

#[test]
fn continue_skips_the_rest_of_the_iteration_per_lane() {
    let m = counting(100, true);
    let exe = Executable::new(&m, None).expect("verifies");
    let mut regs = Regs::new();
    let inputs = [[[0.0f32; LANES]; 4]; 16];
    let mut fc = [[0.0f32; LANES]; 4];
    for l in 0..LANES {
        fc[0][l] = l as f32;
    }
    let inv = Invocation {
        uniforms: &[0.0; 128],
        textures: &[None, None, None, None],
        inputs: &inputs,
        fragcoord: &fc,
    };
    let mut out = Outputs::new();
    exe.run(&mut regs, &inv, &mut out, ALL_LANES);
    for l in 0..LANES {
        assert_eq!(out.color[1][l], (l / 2) as f32, "lane {}", l);
    }
}

#[test]
fn an_endless_loop_stops_at_its_bound() {
    for bound in [1u32, 5, 1000, P2_LOOP_ITERATIONS_MAX] {
        let m = counting(bound, false);
        let x = run_x(&m);
        assert!(x.iter().all(|v| *v == bound as f32), "{} {:?}", bound, x);
        // The TGSI guards it with a counter compared against the same bound.
        let t = tgsi_ok(&m);
        assert!(t.contains("BGNLOOP") && t.contains("ENDLOOP") && t.contains("BRK"));
        assert!(
            t.contains(&format!("{}", shader::back::tgsi::format_imm(bound as f32))),
            "{}",
            t
        );
    }
}

#[test]
fn verifier_rejects_unbounded_and_unbalanced_loops() {
    let base = |f: &dyn Fn(&mut B)| {
        let mut b = B::new(Stage::Fragment);
        let z = b.konst(&[0.0, 0.0, 0.0, 1.0]);
        f(&mut b);
        b.color(z);
        p2(b)
    };
    let err = |m: &Module| verify(m).unwrap_err().message;
    assert!(err(&base(&|b| {
        push(b, loop_inst(0));
        push(b, ctl(Op::EndLoop));
    }))
    .contains("without an iteration bound"));
    assert!(err(&base(&|b| {
        push(b, loop_inst(P2_LOOP_ITERATIONS_MAX + 1));
        push(b, ctl(Op::EndLoop));
    }))
    .contains("P2_LOOP_ITERATIONS_MAX"));
    assert!(err(&base(&|b| push(b, ctl(Op::Break)))).contains("outside of a LOOP"));
    assert!(err(&base(&|b| push(b, ctl(Op::EndLoop)))).contains("ENDLOOP outside"));
    assert!(err(&base(&|b| push(b, loop_inst(4)))).contains("unbalanced"));
    // IF opened in a loop must close in it.
    assert!(err(&base(&|b| {
        let c = b.konst(&[1.0]);
        push(b, loop_inst(4));
        b.inst(Op::If, -1, c, -1, 0, 0, 0);
        push(b, ctl(Op::EndLoop));
        push(b, ctl(Op::Endif));
    }))
    .contains("ENDLOOP closes an IF"));
    assert!(err(&base(&|b| {
        let c = b.konst(&[1.0]);
        b.inst(Op::If, -1, c, -1, 0, 0, 0);
        push(b, loop_inst(4));
        push(b, ctl(Op::Endif));
        push(b, ctl(Op::EndLoop));
    }))
    .contains("ENDIF closes a LOOP"));
    // Depth limit.
    assert!(err(&base(&|b| {
        for _ in 0..=LOOP_DEPTH_MAX {
            push(b, loop_inst(2));
        }
        for _ in 0..=LOOP_DEPTH_MAX {
            push(b, ctl(Op::EndLoop));
        }
    }))
    .contains("LOOP_DEPTH_MAX"));
    // Profile 1 has no loops.
    let mut m = base(&|b| {
        push(b, loop_inst(2));
        push(b, ctl(Op::EndLoop));
    });
    verify(&m).unwrap();
    m.profile = Profile::P1;
    assert!(err(&m).contains("profile-2"));
}

#[test]
fn nested_loops_multiply_and_stop_at_their_bounds() {
    // for 3 outer iterations, an inner endless loop bounded at 7: n = 21.
    let mut b = B::new(Stage::Fragment);
    let one = b.konst(&[1.0]);
    let n = b.konst(&[0.0]);
    push(&mut b, loop_inst(3));
    push(&mut b, loop_inst(7));
    b.inst(Op::Add, n, n, one, 1, 0, 0);
    push(&mut b, ctl(Op::EndLoop));
    push(&mut b, ctl(Op::EndLoop));
    let o = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    b.inst(Op::SetLane, o, n, -1, 0, 0, 0);
    b.color(o);
    let m = p2(b);
    assert!(run_x(&m).iter().all(|v| *v == 21.0));
    tgsi_ok(&m);
}

#[test]
fn dead_code_keeps_values_read_in_later_iterations() {
    // t is read at the top of the body and written at its end: the write is live.
    let mut b = B::new(Stage::Fragment);
    let one = b.konst(&[1.0]);
    let t = b.konst(&[0.0]);
    let s = b.konst(&[0.0]);
    push(&mut b, loop_inst(4));
    b.inst(Op::Add, s, s, t, 1, 0, 0);
    b.inst(Op::Add, t, t, one, 1, 0, 0);
    push(&mut b, ctl(Op::EndLoop));
    let o = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    b.inst(Op::SetLane, o, s, -1, 0, 0, 0);
    b.color(o);
    let mut m = p2(b);
    shader::ir::opt::optimize(&mut m);
    // s = 0 + 1 + 2 + 3.
    assert!(run_x(&m).iter().all(|v| *v == 6.0));
}

#[test]
fn loops_round_trip_through_csir_v2() {
    use shader::program::csir::{load, save, saved_size, Version};
    let m = counting(77, true);
    let mut buf = vec![0u8; saved_size(&m, Version::V2)];
    let n = save(&m, Version::V2, &mut buf).unwrap();
    let back = load(&buf[..n]).unwrap();
    assert_eq!(back.insts.len(), m.insts.len());
    assert!(back
        .insts
        .iter()
        .any(|i| i.op == Op::Loop && loop_bound(i) == 77));
    assert_eq!(run_x(&back), run_x(&m));
}

/// Compiles a profile-2 vertex shader, checks its TGSI, and runs it with `uniforms` (vec4 slots)
/// and attribute 0 = `attr0` on every lane; gl_Position of lane 0.
fn run_glsl(body: &str, uniforms: &[[f32; 4]], attr0: [f32; 4]) -> [f32; 4] {
    let sh = compile_p2_vs(body);
    tgsi_ok(&sh.module);
    run_vs_lanes(&sh.module, uniforms, |_| attr0, ALL_LANES)[0]
}

#[test]
fn glsl_while_for_do_break_continue() {
    let src = "uniform int steps;\nin vec4 a;\nvoid main() {\n\
        float t = 0.0; int n = 0;\n\
        while (n < steps) { t += a.x; if (t > 10.0) break; n++; }\n\
        float acc = 0.0;\n\
        for (int i = 0; i < steps; i++) { if (i == 2) continue; acc += 1.0; }\n\
        int k = 0;\n\
        do { k += 2; if (k >= 5) continue; k += 1; } while (k < 5);\n\
        gl_Position = vec4(t, float(n), acc, float(k));\n}\n";
    // steps = 5, a.x = 3: t = 3, 6, 9, 12 (break at n = 3); acc = 4 (i = 2 skipped);
    // k: 2 -> 3, then 5 and `continue`, which still evaluates the condition (5 < 5 ends it).
    assert_eq!(
        run_glsl(
            src,
            &[[f32::from_bits(5), 0.0, 0.0, 0.0]],
            [3.0, 0.0, 0.0, 0.0]
        ),
        [12.0, 3.0, 4.0, 5.0]
    );
    // steps = 0: the while and for bodies never run.
    assert_eq!(
        run_glsl(src, &[[0.0, 0.0, 0.0, 0.0]], [3.0, 0.0, 0.0, 0.0]),
        [0.0, 0.0, 0.0, 5.0]
    );
}

#[test]
fn glsl_endless_loops_stop_at_the_bound() {
    let src = "in vec4 a;\nvoid main() {\n\
        float n = 0.0; while (true) { n += 1.0; }\n\
        float m = 0.0; for (int i = 0; i >= 0; i++) { m += 1.0; }\n\
        float z = 0.0; for (int i = 0; i < 20; i++) { z += 1.0; }\n\
        gl_Position = vec4(n, m, z, 1.0);\n}\n";
    // Both unproven loops share the invocation's budget (issue 14): the first spends it all,
    // so the second runs no iteration; the proven 20-trip loop runs in full.
    let b = shader::limits::P2_LOOP_BUDGET as f32;
    assert_eq!(run_glsl(src, &[], [0.0; 4]), [b, 0.0, 20.0, 1.0]);
}

#[test]
fn renumbered_temps_stay_live_across_the_back_edge() {
    // More than 96 temps, so the executor renumbers them by live range. In the loop, `t` is
    // last touched by its increment; the temps made after it in the body must not take its
    // register, because the next iteration reads `t` again.
    let mut b = B::new(Stage::Fragment);
    let one = b.konst(&[1.0]);
    let t = b.konst(&[0.0]);
    let s = b.konst(&[0.0]);
    push(&mut b, loop_inst(4));
    b.inst(Op::Add, s, s, t, 1, 0, 0);
    b.inst(Op::Add, t, t, one, 1, 0, 0);
    for _ in 0..3 {
        let w = b.konst(&[100.0]);
        let junk = b.bin(Op::Mul, w, w, 1);
        b.inst(Op::Max, s, s, junk, 1, 0, 0);
        b.inst(Op::Min, s, s, w, 1, 0, 0);
    }
    push(&mut b, ctl(Op::EndLoop));
    for _ in 0..100 {
        let w = b.konst(&[0.0]);
        b.inst(Op::Add, s, s, w, 1, 0, 0);
    }
    let o = b.konst(&[0.0, 0.0, 0.0, 0.0]);
    b.inst(Op::SetLane, o, t, -1, 0, 0, 0);
    b.inst(Op::SetLane, o, s, -1, 0, 1, 0);
    b.color(o);
    let m = p2(b);
    assert!(m.temps as usize > shader::limits::TEMP_MAX);
    // t counts the 4 iterations.
    let x = run_x(&m);
    assert!(x.iter().all(|v| *v == 4.0), "{:?}", x);
    tgsi_ok(&m);
}

#[test]
fn glsl_continue_in_while_and_stepless_for() {
    // `continue` directly in a `while` body and in a `for` without a step: loops that need no
    // wrapper. They were taken for a switch entry (their flag, -1, has every bit set) and
    // `continue` was rejected as "outside of a loop".
    let src = "uniform int steps;\nin vec4 a;\nvoid main() {\n\
        int i = 0; float odd = 0.0;\n\
        while (i < steps) { i++; if (i % 2 == 0) continue; odd += 1.0; }\n\
        int j = 0; float s = 0.0;\n\
        for (;;) { if (j >= steps) break; j++; if (j == 3) continue; s += float(j); }\n\
        int k = 0; float w = 0.0;\n\
        while (true) { if (k >= steps) break; int m = k++;\n\
            switch (m) { case 1: continue; default: w += 1.0; } }\n\
        gl_Position = vec4(odd, s, w, float(i));\n}\n";
    // steps = 5: odd counts i = 1, 3, 5; s = 1 + 2 + 4 + 5; w skips m = 1 (a continue in a
    // switch in a while).
    assert_eq!(
        run_glsl(src, &[[f32::from_bits(5), 0.0, 0.0, 0.0]], [0.0; 4]),
        [3.0, 12.0, 4.0, 5.0]
    );
}

#[test]
fn continue_never_reaches_tgsi_as_cont() {
    // virglrenderer (0.10) cannot translate TGSI's CONT (it logs "failed to convert opcode
    // 96" and the picture is wrong: loop_light_mask@sphere through vtest), so every `continue`
    // leaves a one-trip wrapper loop instead: no CONTINUE in the IR, no CONT in the TGSI.
    for body in [
        "int i = 0; while (i < n) { i++; if (i == 2) continue; s += 1.0; }",
        "int i = 0; while (true) { if (i >= n) break; i++; if (i == 2) continue; s += 1.0; }",
        "int i = 0; for (;;) { if (i >= n) break; i++; if (i == 2) continue; s += 1.0; }",
        "for (int i = 0; i < n; i++) { if (i == 2) continue; s += 1.0; }",
        "int i = 0; do { i++; if (i == 2) continue; s += 1.0; } while (i < n);",
        "int i = 0; while (i < n) { switch (i++) { case 1: continue; default: s += 1.0; } }",
    ] {
        let src = format!(
            "#pragma chrisos profile 2\nuniform int n;\n\
             void main() {{ float s = 0.0; {} gl_Position = vec4(s); }}\n",
            body
        );
        let sh = shader::program::compile::compile(0, src.as_bytes(), "t.vert")
            .unwrap_or_else(|_| panic!("does not compile: {}", body));
        assert!(
            !sh.module.insts.iter().any(|i| i.op == Op::Continue),
            "CONTINUE in the IR of: {}",
            body
        );
        let tgsi = tgsi_ok(&sh.module);
        assert!(
            !tgsi.lines().any(|l| l.trim() == "CONT"),
            "CONT in the TGSI of: {}\n{}",
            body,
            tgsi
        );
    }
}

#[test]
fn a_loaded_continue_is_emitted_without_cont() {
    // virglrenderer 0.10 cannot translate CONT; a CSIR module (e.g. loaded from bytes) may
    // still hold a CONTINUE: the emitter wraps that loop's body in a one-trip inner loop and
    // leaves it by BRK instead. The module survives a CSIR round trip with its CONTINUE.
    let m = counting(100, true);
    assert!(m.insts.iter().any(|i| i.op == Op::Continue));
    use shader::program::csir::{load, save, saved_size, Version};
    let mut buf = vec![0u8; saved_size(&m, Version::V2)];
    let n = save(&m, Version::V2, &mut buf).unwrap();
    let loaded = load(&buf[..n]).unwrap();
    assert!(loaded.insts.iter().any(|i| i.op == Op::Continue));
    let t = tgsi_ok(&loaded);
    assert!(!t.lines().any(|l| l.trim() == "CONT"), "{}", t);
    // Two BGNLOOP per loop (the guarded loop and the one-trip body), the break flag tested.
    assert_eq!(
        t.lines().filter(|l| l.trim() == "BGNLOOP").count(),
        2,
        "{}",
        t
    );
    assert!(t.contains("].zzzz"), "{}", t);
}
