//! The meaning of compiled shaders, checked by running the frontend's output on the software
//! executor: each rule the old design got wrong (constants leaking out of `if`, matrix columns,
//! boolean logic, integer conversion and division, global initialisers, evaluation order) has a
//! shader whose computed `gl_Position` proves the rule.
use shader::back::exec::lanes::{Vec4x, LANES};
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::limits::{SAMPLER_MAX, UNIFORM_FLOATS, VARYING_CAP};
use shader::program::compile::compile;

/// Compiles a vertex shader and runs it once (lane 0) with `uniforms` (vec4 slots in order) and
/// attribute 0 = `attr0`; returns gl_Position.
fn run_vs(src: &str, uniforms: &[[f32; 4]], attr0: [f32; 4]) -> [f32; 4] {
    let sh = match compile(0, src.as_bytes(), "t.vert") {
        Ok(s) => s,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}", s)
        }
    };
    let exe = Executable::new(&sh.module, None).expect("verified");
    let mut uni = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter().enumerate() {
        uni[i * 4..i * 4 + 4].copy_from_slice(u);
    }
    let mut inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    for c in 0..4 {
        inputs[0][c] = [attr0[c]; LANES];
    }
    let textures = [None; SAMPLER_MAX];
    let fragcoord = [[0.0; LANES]; 4];
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut regs = Box::new(Regs::new());
    let mut out = Box::new(Outputs::new());
    exe.run(&mut regs, &inv, &mut out, 1);
    [
        out.position[0][0],
        out.position[1][0],
        out.position[2][0],
        out.position[3][0],
    ]
}

#[test]
fn a_constant_assigned_in_a_branch_does_not_leak() {
    let src = "uniform float u;
void main() {
    float x = 1.0;
    if (u > 0.5) {
        x = 2.0;
    }
    gl_Position = vec4(x, 0.0, 0.0, 1.0);
}";
    assert_eq!(run_vs(src, &[[0.0; 4]], [0.0; 4])[0], 1.0);
    assert_eq!(run_vs(src, &[[1.0; 4]], [0.0; 4])[0], 2.0);
}

#[test]
fn constructed_and_copied_matrices_keep_every_column() {
    let src = "uniform mat4 model;
void main() {
    mat4 s = mat4(2.0);
    mat4 t = mat4(vec4(1.0, 0.0, 0.0, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(0.0, 0.0, 1.0, 0.0), vec4(5.0, 6.0, 7.0, 1.0));
    mat4 m = model;
    gl_Position = m * t * s * vec4(1.0);
}";
    let identity = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    // t * (2, 2, 2, 2) = 2 * (col0 + col1 + col2 + col3)
    assert_eq!(run_vs(src, &identity, [0.0; 4]), [12.0, 14.0, 16.0, 2.0]);
}

#[test]
fn uniform_matrices_are_column_major() {
    // The reference MVP check: model = diag(2, 3, 4, 1) with translation (5, 6, 7).
    let src =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/in/mvp.vert")).unwrap();
    let model = [
        [2.0, 0.0, 0.0, 0.0],
        [0.0, 3.0, 0.0, 0.0],
        [0.0, 0.0, 4.0, 0.0],
        [5.0, 6.0, 7.0, 1.0],
    ];
    let id = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let mut u = Vec::new();
    for m in [model, id, id] {
        u.extend_from_slice(&m);
    }
    assert_eq!(
        run_vs(&src, &u, [1.0, 1.0, 1.0, 1.0]),
        [7.0, 9.0, 11.0, 1.0]
    );
}

#[test]
fn row_vector_times_matrix_uses_columns_as_rows() {
    let src = "uniform mat3 m;
void main() {
    vec3 r = vec3(1.0, 2.0, 3.0) * m;
    gl_Position = vec4(r, 1.0);
}";
    // columns (1,2,3), (4,5,6), (7,8,9): r_j = dot(v, column j)
    let u = [
        [1.0, 2.0, 3.0, 0.0],
        [4.0, 5.0, 6.0, 0.0],
        [7.0, 8.0, 9.0, 0.0],
    ];
    assert_eq!(run_vs(src, &u, [0.0; 4]), [14.0, 32.0, 50.0, 1.0]);
}

#[test]
fn int_conversion_and_division_truncate_toward_zero() {
    let src = "uniform float u;
void main() {
    int i = int(u);
    int q = i / 2;
    float f = float(i) / 2.0;
    gl_Position = vec4(float(i), float(q), f, float(-7 / 2));
}";
    assert_eq!(
        run_vs(src, &[[-7.9, 0.0, 0.0, 0.0]], [0.0; 4]),
        [-7.0, -3.0, -3.5, -3.0]
    );
    assert_eq!(
        run_vs(src, &[[7.9, 0.0, 0.0, 0.0]], [0.0; 4]),
        [7.0, 3.0, 3.5, -3.0]
    );
}

#[test]
fn logical_operators_are_boolean() {
    let src = "uniform float u;
void main() {
    bool a = u > 0.0;
    bool b = u < -0.5;
    float o = float(a || b);
    float n = float(!(a && b));
    float x = float(a == b);
    gl_Position = vec4(o, n, x, 1.0);
}";
    assert_eq!(
        run_vs(src, &[[-1.0, 0.0, 0.0, 0.0]], [0.0; 4]),
        [1.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        run_vs(src, &[[-0.25, 0.0, 0.0, 0.0]], [0.0; 4]),
        [0.0, 1.0, 1.0, 1.0]
    );
}

#[test]
fn global_initialisers_run_before_main() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/in/ok_global_initializers.vert"
    ))
    .unwrap();
    let p = run_vs(&src, &[[2.0, 0.0, 0.0, 0.0]], [0.0; 4]);
    // scaled = (0, 1, 0) * 2; f(1.0) = 1 * PI + 2 * PI
    assert_eq!(&p[..3], &[0.0, 2.0, 0.0]);
    assert!((p[3] - 3.0 * std::f32::consts::PI).abs() < 1e-5, "{:?}", p);
}

#[test]
fn evaluation_is_left_to_right_and_short_circuits() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/in/ok_evaluation_order.vert"
    ))
    .unwrap();
    assert_eq!(run_vs(&src, &[], [0.0; 4]), [12.0, 1121.0, 21.0, 1.0]);
    let sc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/in/ok_short_circuit_call.vert"
    ))
    .unwrap();
    // u = 1: && calls touch() once, || does not call it.
    assert_eq!(run_vs(&sc, &[[1.0; 4]], [0.0; 4]), [1.0, 1.0, 1.0, 1.0]);
    // u = 0: && does not call it, || calls it once.
    assert_eq!(run_vs(&sc, &[[0.0; 4]], [0.0; 4]), [1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn loops_unroll_with_constant_indices() {
    let src = "in vec4 p;
void main() {
    float s = 0.0;
    vec4 v = vec4(0.0);
    for (int i = 0; i < 8; i++) {
        s = s + float(i);
    }
    for (int k = 3; k >= 0; k--) {
        v[k] = p[3 - k];
    }
    gl_Position = vec4(s, v.x, v.w, 1.0);
}";
    assert_eq!(
        run_vs(src, &[], [1.0, 2.0, 3.0, 4.0]),
        [28.0, 4.0, 1.0, 1.0]
    );
}

#[test]
fn callees_get_copies_of_their_arguments() {
    let src = "float twice(float x) {
    x = x * 2.0;
    return x;
}
void main() {
    float a = 3.0;
    float b = twice(a);
    gl_Position = vec4(a, b, 0.0, 1.0);
}";
    assert_eq!(run_vs(src, &[], [0.0; 4]), [3.0, 6.0, 0.0, 1.0]);
}

#[test]
fn builtins_compute_their_glsl_values() {
    let src = "void main() {
    vec3 n = normalize(vec3(3.0, 0.0, 4.0));
    float l = length(vec2(3.0, 4.0));
    vec3 c = cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0));
    vec3 r = reflect(vec3(1.0, -1.0, 0.0), vec3(0.0, 1.0, 0.0));
    float m = mix(2.0, 4.0, 0.25) + clamp(5.0, 0.0, 1.0) + pow(2.0, 3.0);
    gl_Position = vec4(n.x + n.z, l, c.z + r.y, m);
}";
    let p = run_vs(src, &[], [0.0; 4]);
    assert!((p[0] - 1.4).abs() < 1e-6, "{:?}", p);
    assert_eq!(&p[1..], &[5.0, 2.0, 11.5]);
}

/// Compiles a fragment shader and runs lane 0 with varying slot 0 = `v0`; returns the colour, or
/// None when the fragment was discarded.
fn run_fs(src: &str, uniforms: &[[f32; 4]], v0: [f32; 4]) -> Option<[f32; 4]> {
    let sh = compile(1, src.as_bytes(), "t.frag").unwrap_or_else(|d| {
        let mut s = String::new();
        d.render(src.as_bytes(), &mut s).unwrap();
        panic!("{}", s)
    });
    let exe = Executable::new(&sh.module, None).expect("verified");
    let mut uni = [0.0f32; UNIFORM_FLOATS];
    for (i, u) in uniforms.iter().enumerate() {
        uni[i * 4..i * 4 + 4].copy_from_slice(u);
    }
    let mut inputs: [Vec4x; VARYING_CAP] = [[[0.0; LANES]; 4]; VARYING_CAP];
    for c in 0..4 {
        inputs[0][c] = [v0[c]; LANES];
    }
    let textures = [None; SAMPLER_MAX];
    let fragcoord = [[0.0; LANES]; 4];
    let inv = Invocation {
        uniforms: &uni,
        textures: &textures,
        inputs: &inputs,
        fragcoord: &fragcoord,
    };
    let mut regs = Box::new(Regs::new());
    let mut out = Box::new(Outputs::new());
    let alive = exe.run(&mut regs, &inv, &mut out, 1);
    (alive & 1 != 0).then(|| {
        [
            out.color[0][0],
            out.color[1][0],
            out.color[2][0],
            out.color[3][0],
        ]
    })
}

#[test]
fn reference_flow_checks() {
    // The old test suite's flow checks: if/else on a value, a 4-trip loop, a user function.
    let ifelse = "void main() {
    float x = 0.2;
    if (x > 0.5) {
        gl_Position = vec4(1.0, 0.0, 0.0, 1.0);
    } else {
        gl_Position = vec4(0.0, 1.0, 0.0, 1.0);
    }
}";
    assert_eq!(run_vs(ifelse, &[], [0.0; 4]), [0.0, 1.0, 0.0, 1.0]);
    let looped = "void main() {
    float s = 0.0;
    for (int i = 0; i < 4; i++) {
        s = s + 1.0;
    }
    gl_Position = vec4(s, 0.0, 0.0, 1.0);
}";
    assert_eq!(run_vs(looped, &[], [0.0; 4])[0], 4.0);
    let func = "float saturate(float x) {
    return clamp(x, 0.0, 1.0);
}
void main() {
    gl_Position = vec4(saturate(-2.0), saturate(0.25), saturate(7.0), 1.0);
}";
    assert_eq!(run_vs(func, &[], [0.0; 4]), [0.0, 0.25, 1.0, 1.0]);
}

#[test]
fn discard_ends_the_fragment_and_colour_is_stored() {
    let src = "in float a;
out vec4 c;
void main() {
    if (a < 0.5) discard;
    c = vec4(a, 1.0 - a, 0.0, 1.0);
}";
    assert_eq!(run_fs(src, &[], [0.2, 0.0, 0.0, 0.0]), None);
    assert_eq!(
        run_fs(src, &[], [0.75, 0.0, 0.0, 0.0]),
        Some([0.75, 0.25, 0.0, 1.0])
    );
    let sine = "uniform float time;
out vec4 c;
void main() {
    c = vec4(0.5 + 0.5 * sin(time), 0.0, 0.0, 1.0);
}";
    assert_eq!(
        run_fs(sine, &[[0.0; 4]], [0.0; 4]),
        Some([0.5, 0.0, 0.0, 1.0])
    );
}

/// Operator chains far longer than the 32 nesting levels compile (they are not nesting) and
/// keep left-to-right, left-associative meaning: `-` and `/` chains, calls that change a global
/// in the middle of a chain, and long swizzle chains.
#[test]
fn long_operator_chains_are_left_associative() {
    let n = 60;
    let sub = vec!["1.0"; n].join(" - ");
    let div = format!("4096.0{}", " / 2.0".repeat(12));
    let calls = vec!["bump()"; 20].join(" + ");
    let swz = format!("u{}.x", ".wzyx".repeat(41));
    let src = format!(
        "uniform vec4 u;
float g = 0.0;
float bump() {{ g = g + 1.0; return g; }}
void main() {{
    float a = {sub};
    float b = {div};
    float c = {calls};
    gl_Position = vec4(a, b, c, {swz});
}}"
    );
    // 1 - 1 - ... (60 ones) = 1 - 59; 4096 / 2^12 = 1; 1 + 2 + ... + 20 = 210; 41 reversals.
    let p = run_vs(&src, &[[1.0, 2.0, 3.0, 4.0]], [0.0; 4]);
    assert_eq!(p, [-58.0, 1.0, 210.0, 4.0]);
}
