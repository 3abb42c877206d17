//! Issue 14 item 2: a loop's bound is its proven trip count, else the per-invocation loop
//! budget (`P2_LOOP_BUDGET`) shared by every unproven loop; endless loops compile and end with
//! the documented result on the executor (per lane), and the TGSI guards them with one budget
//! counter per invocation.
mod ircore_util;
use ircore_util::p2::{compile_p2_vs as compile, run_vs_lanes, tgsi_ok as tgsi};
use shader::back::exec::lanes::{ALL_LANES, LANES};
use shader::ir::*;
use shader::limits::{limits, Profile, P2_LOOP_BUDGET};

/// The (bound, budgeted) of every LOOP with a bound above 1 (one-trip wrappers and switches
/// left out), in order.
fn loops(body: &str) -> Vec<(u32, bool)> {
    compile(body)
        .module
        .insts
        .iter()
        .filter(|i| i.op == Op::Loop && loop_bound(i) > 1)
        .map(|i| (loop_bound(i), loop_budgeted(i)))
        .collect()
}

/// Compiles a vertex shader, checks its TGSI, runs it with `uniforms` (vec4 slots) and
/// attribute 0 = (lane index, 0, 0, 0); gl_Position per lane.
fn run(body: &str, uniforms: &[[f32; 4]]) -> [[f32; 4]; LANES] {
    let sh = compile(body);
    tgsi(&sh.module);
    run_vs_lanes(
        &sh.module,
        uniforms,
        |l| [l as f32, 0.0, 0.0, 0.0],
        ALL_LANES,
    )
}

fn lane0(body: &str) -> [f32; 4] {
    run(body, &[])[0]
}

const B: f32 = P2_LOOP_BUDGET as f32;

#[test]
fn the_budget_is_a_reported_limit() {
    assert_eq!(P2_LOOP_BUDGET, 65535);
    let find = |p| {
        limits(p)
            .entries()
            .iter()
            .find(|(k, _)| *k == "loop_budget_per_invocation")
            .map(|(_, v)| *v)
    };
    assert_eq!(find(Profile::P2), Some(65535));
    assert_eq!(find(Profile::P1), Some(0));
}

#[test]
fn provable_for_loops_carry_their_trip_count() {
    let f = |head: &str| {
        loops(&format!(
            "const int N = 40;\nin vec4 a;\nvoid main() {{ float s = 0.0; for ({}) {{ s += 1.0; }} gl_Position = vec4(s); }}\n",
            head
        ))
    };
    assert_eq!(f("int i = 0; i < 100; i++"), [(100, false)]);
    assert_eq!(f("int i = 0; i <= 100; ++i"), [(101, false)]);
    assert_eq!(f("int i = 100; i > 0; i--"), [(100, false)]);
    assert_eq!(f("int i = 100; i >= 0; i -= 3"), [(34, false)]);
    assert_eq!(f("int i = 0; 30 > i; i += 3"), [(10, false)]);
    assert_eq!(f("int i = 0; i != 30; i += 3"), [(10, false)]);
    assert_eq!(f("uint i = 0u; i < 20u; i++"), [(20, false)]);
    assert_eq!(f("int i = -5; i < N; i++"), [(45, false)]);
    assert_eq!(f("int i = 0; i < N * 2 - 10; i++"), [(70, false)]);
    assert_eq!(f("int i = 0; i < 65535; i++"), [(65535, false)]);
    assert_eq!(f("int i = 0; i < 65536; i++"), [(65536, true)]);
}

#[test]
fn unprovable_loops_are_budgeted() {
    // (A `break` in the body: the loop runs at run time, not through the unroller.)
    let f = |head: &str, body: &str| {
        loops(&format!(
            "uniform int n;\nin vec4 a;\nvoid bump(inout int k) {{ k++; }}\nvoid main() {{ float s = 0.0; for ({}) {{ s += 1.0; if (s < 0.0) break; {} }} gl_Position = vec4(s); }}\n",
            head, body
        ))
    };
    let max = (65536, true);
    assert_eq!(f("int i = 0; i < n; i++", ""), [max]);
    assert_eq!(f("int i = 0; i < 100; i++", "i += 1;"), [max]);
    assert_eq!(f("int i = 0; i < 100; i++", "bump(i);"), [max]);
    assert_eq!(f("int i = 0; i != 30; i += 7", ""), [max]);
    assert_eq!(f("int i = 0; i < 100; i--", ""), [max]);
    assert_eq!(f("uint i = 5u; i >= 0u; i--", ""), [max]);
    assert_eq!(f("int i = 0; i < 1000000; i++", ""), [max]);
    assert_eq!(f("int i = 0; i >= 0; i++", ""), [max]);
    assert_eq!(f("int i = 2147483600; i < 2147483647; i += 100", ""), [max]);
    // Reading the counter is not writing it.
    assert_eq!(
        f("int i = 0; i < 100; i++", "s += float(i); int j = i * 2;"),
        [(100, false)]
    );
}

#[test]
fn nested_proven_loops_stay_exact_until_their_product_passes_the_budget() {
    let f = |o: u32, i: u32| {
        loops(&format!(
            "in vec4 a;\nvoid main() {{ float s = 0.0; for (int i = 0; i < {}; i++) {{ for (int j = 0; j < {}; j++) {{ s += 1.0; }} }} gl_Position = vec4(s); }}\n",
            o, i
        ))
    };
    assert_eq!(f(255, 256), [(255, false), (256, false)]);
    // 300 x 300 > 65535: the inner loop spends the budget (its bound stays its trip count).
    assert_eq!(f(300, 300), [(300, false), (300, true)]);
    // Inside a while loop everything is budgeted.
    let w = loops("in vec4 a;\nvoid main() { float s = 0.0; while (s < 5.0) { for (int j = 0; j < 10; j++) { s += 1.0; } } gl_Position = vec4(s); }\n");
    assert_eq!(w, [(65536, true), (10, true)]);
}

#[test]
fn proven_loops_run_exactly_their_trips() {
    let p = lane0(
        "in vec4 a;\nvoid main() { float s = 0.0; float t = 0.0;\n\
         for (int i = 0; i < 300; i++) { s += 1.0; if (i == 100) continue; t += 1.0; }\n\
         float u = 0.0; for (int i = 10; i >= 0; i -= 2) { u += float(i); }\n\
         float v = 0.0; for (int i = 0; i < 200; i++) { for (int j = 0; j < 200; j++) { v += 1.0; } }\n\
         gl_Position = vec4(s, t, u, v); }\n",
    );
    assert_eq!(p, [300.0, 299.0, 30.0, 40000.0]);
}

#[test]
fn while_true_ends_at_the_budget() {
    let p = lane0("in vec4 a;\nvoid main() { float n = 0.0; while (true) { n += 1.0; } gl_Position = vec4(n, 0.0, 0.0, 1.0); }\n");
    assert_eq!(p, [B, 0.0, 0.0, 1.0]);
}

#[test]
fn a_condition_that_never_changes_ends_at_the_budget() {
    let p = lane0("in vec4 a;\nvoid main() { float n = 0.0; int k = 0; while (k < 10) { n += 1.0; } gl_Position = vec4(n, float(k), 0.0, 1.0); }\n");
    assert_eq!(p, [B, 0.0, 0.0, 1.0]);
}

#[test]
fn huge_nested_loops_share_one_budget() {
    // 1e6 x 1e6 trips: neither is provable within the limit, both spend the one budget. The
    // outer loop's first iteration costs one, the inner runs the other 65534, then both end.
    let p = lane0(
        "in vec4 a;\nvoid main() { float n = 0.0; float o = 0.0;\n\
         for (int i = 0; i < 1000000; i++) { o += 1.0; for (int j = 0; j < 1000000; j++) { n += 1.0; } }\n\
         gl_Position = vec4(n, o, 0.0, 1.0); }\n",
    );
    assert_eq!(p, [B - 1.0, 1.0, 0.0, 1.0]);
}

#[test]
fn do_while_true_with_continue_ends_at_the_budget() {
    let p = lane0(
        "in vec4 a;\nvoid main() { float n = 0.0; float m = 0.0;\n\
         do { n += 1.0; if (n > 5.0) continue; m += 1.0; } while (true);\n\
         gl_Position = vec4(n, m, 0.0, 1.0); }\n",
    );
    assert_eq!(p, [B, 5.0, 0.0, 1.0]);
}

#[test]
fn the_budget_is_per_invocation_and_shared_by_later_loops() {
    // Each lane (one invocation) spends the budget on its own: lane l runs l iterations of the
    // first loop, so the endless second loop gets the rest; a proven loop after both still runs
    // in full, and a budgeted loop entered after the budget is spent runs no iteration.
    let r = run(
        "in vec4 a;\nvoid main() { float x = 0.0; float n = 0.0;\n\
         while (x < a.x) { x += 1.0; }\n\
         while (true) { n += 1.0; }\n\
         float z = 0.0; for (int i = 0; i < 20; i++) { z += 1.0; }\n\
         float w = 0.0; while (true) { w += 1.0; }\n\
         gl_Position = vec4(x, n, z, w); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        // The first loop starts l + 1 iterations (the last one breaks at its condition).
        assert_eq!(
            *p,
            [l as f32, B - (l as f32 + 1.0), 20.0, 0.0],
            "lane {}",
            l
        );
    }
}

#[test]
fn tgsi_guards_budgeted_loops_with_one_counter() {
    let sh = compile(
        "in vec4 a;\nvoid main() { float n = 0.0; while (true) { n += 1.0; while (n < 3.0) { n += 1.0; } }\n\
         float s = 0.0; for (int i = 0; i < 10; i++) { s += 1.0; }\n\
         gl_Position = vec4(n, s, 0.0, 1.0); }\n",
    );
    let t = tgsi(&sh.module);
    // One budget immediate (65535, 1, 0, 0) and one initialisation of its counter temp.
    let imm: Vec<&str> = t
        .lines()
        .filter(|l| l.ends_with("FLT32 {65535.0, 1.0, 0.0, 0.0}"))
        .collect();
    assert_eq!(imm.len(), 1, "{}", t);
    let k = imm[0].split(']').next().unwrap().trim_start_matches("IMM[");
    let init: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("MOV TEMP[") && l.ends_with(&format!(", IMM[{}].zzzz", k)))
        .collect();
    assert_eq!(init.len(), 1, "{}", t);
    let counter = init[0]
        .trim_start_matches("MOV ")
        .split(".x,")
        .next()
        .unwrap();
    // Both budgeted loops check and add to that counter; the proven one does not.
    let adds = t
        .lines()
        .filter(|l| l.starts_with(&format!("ADD {}.x", counter)))
        .count();
    assert_eq!(adds, 2, "{}", t);
}

#[test]
fn a_short_loop_that_writes_its_counter_runs_at_run_time() {
    // Short enough to unroll, but the body writes the counter (GLSL allows it): profile 2 runs
    // it as a budgeted run-time loop instead of refusing it ("cannot assign the loop variable").
    let head = "in vec4 a;\nvoid main() { float s = 0.0;\n";
    let l = loops(&format!(
        "{}for (int i = 0; i < 100; i++) {{ i += 1; s += 1.0; }}\ngl_Position = vec4(s); }}\n",
        head
    ));
    assert_eq!(l, [(65536, true)]);
    let p = lane0(&format!(
        "{}float t = 0.0; float u = 0.0;\n\
         for (int i = 0; i < 100; i++) {{ i += 1; s += 1.0; }}\n\
         for (int i = 0; i < 10; i++) {{ if (i == 3) i = 7; t += float(i); }}\n\
         for (int i = 0; i++ < 5; ) {{ u += float(i); }}\n\
         gl_Position = vec4(s, t, u, 1.0); }}\n",
        head
    ));
    // i = 0, 2, ..., 98: 50 trips; i = 0, 1, 2, 7, 8, 9: 0+1+2+7+8+9; i = 1..5 in the body.
    assert_eq!(p, [50.0, 27.0, 15.0, 1.0]);
}

#[test]
fn a_loop_with_a_uniform_start_runs_at_run_time() {
    // `for (int y = -r; y <= r; ++y)` (pp_gauss_radius@post): the start is not a constant, so
    // the loop runs at run time (it failed "loop initializer is not a constant integer").
    let p = run(
        "uniform int r;\nin vec4 a;\nvoid main() { float s = 0.0;\n\
         for (int y = -r; y <= r; ++y) { s += exp(float(y) * 0.0); }\n\
         gl_Position = vec4(s, 0.0, 0.0, 1.0); }\n",
        &[[f32::from_bits(2), 0.0, 0.0, 0.0]],
    );
    assert_eq!(p[0][0], 5.0);
}

#[test]
fn a_switch_spends_no_budget() {
    // A switch is a one-trip LOOP with the proven trip count 1: inside a budgeted loop of 60000
    // trips it costs nothing, so the loop runs to its end (were the switch budgeted, the two
    // would spend 120000 > 65535 iterations and the loop would stop near 32767).
    let body = "in vec4 a;\nvoid main() { float n = 0.0; float s = 0.0;\n\
         while (n < 60000.0) { n += 1.0; switch (int(n) % 3) { case 0: s += 1.0; break; default: break; } }\n\
         gl_Position = vec4(n, s, 0.0, 1.0); }\n";
    let sw: Vec<(u32, bool)> = compile(body)
        .module
        .insts
        .iter()
        .filter(|i| i.op == Op::Loop)
        .map(|i| (loop_bound(i), loop_budgeted(i)))
        .collect();
    assert_eq!(sw, [(65536, true), (1, false)]);
    let p = lane0(body);
    assert_eq!(p, [60000.0, 20000.0, 0.0, 1.0]);
}
