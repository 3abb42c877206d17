//! Profile 2's straight-line constructs (issue 12 item 5), run on the software executor: each
//! shader's computed `gl_Position` proves the GLSL value rules of `?:`, compound assignment,
//! `++`/`--`, assignment as an expression, the comma operator in `for` headers, `in`/`out`/
//! `inout`/`const in` parameters, early `return`, overloading and prototypes.
mod ircore_util;
use ircore_util::p2::{compile_p2_vs, run_vs_lanes};

/// Compiles a profile-2 vertex shader (the pragma is prepended) and runs it once with
/// `uniforms` (vec4 slots in order) and attribute 0 = `attr0`; returns gl_Position.
fn run_vs(body: &str, uniforms: &[[f32; 4]], attr0: [f32; 4]) -> [f32; 4] {
    let sh = compile_p2_vs(body);
    shader::ir::verify::verify(&sh.module).expect("verified");
    run_vs_lanes(&sh.module, uniforms, |_| attr0, 1)[0]
}

fn u(x: f32) -> [[f32; 4]; 1] {
    [[x, 0.0, 0.0, 0.0]]
}

#[test]
fn conditional_runs_only_the_selected_call() {
    let src = "uniform float k;
float calls = 0.0;
float tag(float x) { calls = calls * 10.0 + x; return x * 100.0; }
void main() {
    float a = k > 0.5 ? tag(1.0) : tag(2.0);
    float b = k > 0.5 ? 3 : 4.5;
    vec2 c = k < 0.5 ? vec2(1.0, 2.0) : (k < 2.0 ? vec2(3.0) : vec2(4.0));
    gl_Position = vec4(a + b, calls, c);
}";
    assert_eq!(run_vs(src, &u(1.0), [0.0; 4]), [103.0, 1.0, 3.0, 3.0]);
    assert_eq!(run_vs(src, &u(0.0), [0.0; 4]), [204.5, 2.0, 1.0, 2.0]);
    assert_eq!(run_vs(src, &u(5.0), [0.0; 4]), [103.0, 1.0, 4.0, 4.0]);
}

#[test]
fn compound_assignments_apply_their_operator() {
    let src = "uniform float k;
void main() {
    float a = k;
    a += 1.0; a -= 0.5; a *= 4.0; a /= 2.0;
    vec3 v = vec3(1.0, 2.0, 3.0);
    v *= 2.0;
    v.yz += vec2(k);
    v[0] -= 1;
    int i = 7;
    i /= 2;
    i *= -3;
    gl_Position = vec4(a, v.x + v.y * 10.0, v.z, float(i));
}";
    // a = ((3 + 1 - 0.5) * 4) / 2 = 7; v = (2 - 1, 4 + 3, 6 + 3); i = 7 / 2 * -3 = -9
    assert_eq!(run_vs(src, &u(3.0), [0.0; 4]), [7.0, 71.0, 9.0, -9.0]);
}

#[test]
fn increments_yield_glsl_values() {
    let src = "uniform float k;
void main() {
    int i = int(k);
    int a = i++;
    int b = ++i;
    int c = i--;
    int d = --i;
    float f = k;
    float g = f++ * 10.0 + ++f;
    vec2 w = vec2(1.0, 2.0);
    w++;
    --w.y;
    gl_Position = vec4(float(a * 1000 + b * 100 + c * 10 + d), g, w);
}";
    // i = 1: a = 1, b = 3, c = 3, d = 1; g = 1 * 10 + 3; w = (2, 2)
    assert_eq!(run_vs(src, &u(1.0), [0.0; 4]), [1331.0, 13.0, 2.0, 2.0]);
}

#[test]
fn assignment_is_an_expression_with_the_assigned_value() {
    let src = "uniform float k;
void main() {
    float a; float b; int i; int j;
    a = b = k * 2.0;
    i = j = 5;
    vec4 q = vec4(0.0);
    float e = (q.y = 2.0) + (q.x = k);
    float f = (a += 1.0) * 10.0;
    gl_Position = vec4(a + b * 10.0, e, float(i + j), f + q.x + q.y * 100.0);
}";
    // k = 3: b = 6, a = 7 after +=; e = 5; f = 70 + 3 + 200
    assert_eq!(run_vs(src, &u(3.0), [0.0; 4]), [67.0, 5.0, 10.0, 273.0]);
}

#[test]
fn comma_in_for_headers_runs_each_part_in_order() {
    let src = "void main() {
    float s = 0.0;
    float t = 0.0;
    for (int i = 0, j = 10; i < 4; i++, j -= 2) { s += float(j); }
    for (int i = 0; i < 8; i += 3, t += float(i)) { }
    gl_Position = vec4(s, t, 0.0, 1.0);
}";
    // s = 10 + 8 + 6 + 4; t sees i after its step: 3 + 6 + 9
    assert_eq!(run_vs(src, &[], [0.0; 4]), [28.0, 18.0, 0.0, 1.0]);
}

#[test]
fn out_and_inout_parameters_copy_back() {
    let src = "in vec4 pos;
void split(in vec3 p, out float x, inout vec2 yz, const in float k) {
    x = p.x * k;
    yz += p.yz;
    p = vec3(0.0);
}
void twice(inout float f) { f *= 2.0; }
void place(out vec4 o) { o = vec4(9.0, 8.0, 7.0, 6.0); }
void main() {
    float x;
    vec3 p = pos.xyz;
    vec4 w = vec4(1.0, 2.0, 3.0, 4.0);
    split(p, x, w.zw, 3.0);
    twice(w[0]);
    vec4 g;
    place(g);
    gl_Position = vec4(x + p.x, w.x * 100.0 + w.z, w.w, g.x + g.w);
}";
    // pos = (1, 2, 3): x = 3, p unchanged; w.zw = (3 + 2, 4 + 3), w.x = 2
    assert_eq!(
        run_vs(src, &[], [1.0, 2.0, 3.0, 1.0]),
        [4.0, 205.0, 7.0, 15.0]
    );
}

#[test]
fn early_returns_skip_the_rest() {
    let src = "uniform float k;
float calls = 0.0;
float band(float x) {
    if (x < 0.25) return 0.0;
    calls += 1.0;
    if (x < 0.5) { return 0.5; }
    calls += 10.0;
    return 1.0;
}
float first(float x) {
    for (int i = 0; i < 4; i++) {
        if (x < float(i)) return float(i);
        calls += 100.0;
    }
    return -1.0;
}
void limit(inout float v) {
    if (v > 1.0) { v = 1.0; return; }
    v = -v;
}
void main() {
    float a = band(k);
    float b = first(k);
    float c = k;
    limit(c);
    gl_Position = vec4(a, b, c, calls);
    if (k > 2.5) return;
    gl_Position.w += 1000.0;
}";
    assert_eq!(run_vs(src, &u(0.0), [0.0; 4]), [0.0, 1.0, -0.0, 1100.0]);
    assert_eq!(run_vs(src, &u(0.3), [0.0; 4]), [0.5, 1.0, -0.3, 1101.0]);
    assert_eq!(run_vs(src, &u(2.0), [0.0; 4]), [1.0, 3.0, 1.0, 1311.0]);
    assert_eq!(run_vs(src, &u(9.0), [0.0; 4]), [1.0, -1.0, 1.0, 411.0]);
}

#[test]
fn overloads_and_prototypes_resolve_by_parameter_types() {
    let src = "float pick(float a);
float pick(int a) { return 2.0; }
float pick(vec2 a, float b) { return 3.0 + b; }
float luma(vec3 c) { return c.x + c.y; }
float luma(vec4 c) { return luma(c.rgb) * c.a; }
void main() {
    gl_Position = vec4(pick(1), pick(1.0), pick(vec2(0.0), 2), luma(vec4(1.0, 2.0, 0.0, 0.5)));
}
float pick(float a) { return 1.0; }";
    assert_eq!(run_vs(src, &[], [0.0; 4]), [2.0, 1.0, 5.0, 1.5]);
}

#[test]
fn increments_of_matrices_add_one_to_every_component() {
    // mat2 u = [[1,2],[3,4]] (columns); a++ yields the old value, ++ the new one (GLSL 5.9).
    let src = "uniform mat2 m;
void main() {
    mat2 a = m;
    mat2 old = a++;
    mat3 b = mat3(0.0);
    --b;
    mat2 c = ++a;
    gl_Position = vec4(old[0].x, a[1].y, b[2].z, c[0].y);
}";
    let p = run_vs(src, &[[1.0, 2.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0]], [0.0; 4]);
    assert_eq!(p, [1.0, 6.0, -1.0, 4.0]);
}
