//! Issue 14 item 3: `?:` whose arms call functions with side effects (out/inout parameters,
//! writes of globals): only the selected arm's effects happen, per lane.
mod ircore_util;
use ircore_util::p2::{compile_p2_vs as compile, run_vs_lanes, tgsi_ok as tgsi};
use shader::back::exec::lanes::{ALL_LANES, LANES};

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

#[test]
fn only_the_selected_arm_writes_out_params_and_globals_per_lane() {
    let r = run(
        "in vec4 a;\nfloat g = 0.0;\n\
         float bump(inout float x) { x += 10.0; g += 1.0; return 1.0; }\n\
         float other(out float y) { y = 5.0; g += 100.0; return 2.0; }\n\
         void main() { float x = 0.0; float y = 0.0;\n\
         float r = (a.x < 16.0) ? bump(x) : other(y);\n\
         gl_Position = vec4(r, x, y, g); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let want = if l < 16 {
            [1.0, 10.0, 0.0, 1.0]
        } else {
            [2.0, 0.0, 5.0, 100.0]
        };
        assert_eq!(*p, want, "lane {}", l);
    }
}

#[test]
fn an_int_arm_with_effects_converts_to_a_float_result() {
    let r = run(
        "in vec4 a;\nfloat g = 0.0;\n\
         int three(out float z) { z = 7.0; g += 1.0; return 3; }\n\
         float onehalf(inout float z) { z += 1.0; return 1.5; }\n\
         void main() { float z = 0.0;\n\
         float q = (a.x < 8.0) ? three(z) : onehalf(z);\n\
         float w = (a.x < 4.0) ? 0.25 : float(three(z));\n\
         gl_Position = vec4(q, z, g, w); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let (q, z1, g1) = if l < 8 {
            (3.0, 7.0, 1.0)
        } else {
            (1.5, 1.0, 0.0)
        };
        let (w, z, g) = if l < 4 {
            (0.25, z1, g1)
        } else {
            (3.0, 7.0, g1 + 1.0)
        };
        assert_eq!(*p, [q, z, g, w], "lane {}", l);
    }
}

#[test]
fn an_int_second_arm_with_effects_converts_too() {
    let r = run(
        "in vec4 a;\n\
         int three(out float z) { z = 7.0; return 3; }\n\
         float onehalf(inout float z) { z += 1.0; return 1.5; }\n\
         void main() { float z = 0.0;\n\
         float q = (a.x < 8.0) ? onehalf(z) : three(z);\n\
         gl_Position = vec4(q, z, 0.0, 1.0); }\n",
        &[],
    );
    for (l, p) in r.iter().enumerate() {
        let want = if l < 8 {
            [1.5, 1.0, 0.0, 1.0]
        } else {
            [3.0, 7.0, 0.0, 1.0]
        };
        assert_eq!(*p, want, "lane {}", l);
    }
}
