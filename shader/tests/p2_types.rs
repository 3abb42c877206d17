//! Profile 2's types of issue 13 item 1 (uint/uvec, bvec, mat2 and the non-square matrices),
//! run on the software executor: constructors and conversions, linear-algebra `*` for every
//! shape pair, component-wise operators, column indexing, `==`/`!=`, and uniforms of the types.
mod ircore_util;
use ircore_util::p2::{build, compile_p2_vs, run_vs_lanes};
use shader::program::compile::compile;

/// Compiles a profile-2 vertex shader (the pragma is prepended) and runs it once with
/// `uniforms` (vec4 slots in order) and attribute 0 = `attr0`; returns gl_Position.
fn run_vs(body: &str, uniforms: &[[f32; 4]], attr0: [f32; 4]) -> [f32; 4] {
    let sh = compile_p2_vs(body);
    shader::ir::verify::verify(&sh.module).expect("verified");
    run_vs_lanes(&sh.module, uniforms, |_| attr0, 1)[0]
}

fn k(x: f32, y: f32, z: f32, w: f32) -> [f32; 4] {
    [x, y, z, w]
}

#[test]
fn uint_literals_conversions_and_arithmetic() {
    let src = "uniform float f;
void main() {
    uint a = 7u;
    uint b = uint(f);          // truncates
    uint c = a / 2u + b * 3u;  // uint division truncates
    uvec2 v = uvec2(a, 0x10u) + uvec2(1u);
    float x = float(c) + 0.5;  // explicit
    float y = 1.0 + c;         // uint -> float implicitly
    gl_Position = vec4(x, y, float(v.x), float(v.y));
}";
    // f = 2.75: b = 2, c = 3 + 6 = 9
    assert_eq!(
        run_vs(src, &[k(2.75, 0., 0., 0.)], [0.0; 4]),
        [9.5, 10.0, 8.0, 17.0]
    );
}

#[test]
fn bvec_from_numeric_vectors_and_back() {
    let src = "uniform vec4 u;
void main() {
    bvec4 b = bvec4(u);
    bvec2 c = bvec2(true, u.y > 1.0);
    vec4 r = vec4(b);
    gl_Position = r + vec4(vec2(c), 0.0, 0.0) * 10.0;
}";
    assert_eq!(
        run_vs(src, &[k(0.0, 2.0, -0.5, 0.0)], [0.0; 4]),
        [10.0, 11.0, 1.0, 0.0]
    );
}

#[test]
fn mat2_and_non_square_products_follow_linear_algebra() {
    // m is 3 columns of 2 rows: [1 3 5; 2 4 6]
    let src = "uniform float s;
void main() {
    mat3x2 m = mat3x2(1.0 * s, 2.0, 3.0, 4.0, 5.0, 6.0);
    vec2 a = m * vec3(1.0, 1.0, 1.0);          // (9, 12)
    vec3 b = vec2(1.0, 1.0) * m;               // (3, 7, 11)
    mat2x3 n = mat2x3(1.0, 0.0, 0.0, 0.0, 1.0, 0.0);
    mat2 p = m * n;                            // first two columns of m
    mat3 q = n * m;                            // 3x3
    mat2 r = mat2(1.0, 2.0, 3.0, 4.0) * mat2(2.0);
    gl_Position = vec4(a.x + a.y * 100.0, b.x + b.y * 10.0 + b.z * 100.0,
                       p[1][0] + p[1][1] * 10.0 + q[2][1] * 100.0 + q[2][2] * 1000.0,
                       r[1][1] + r[0][0] * 10.0);
}";
    // q = n * m: column j = n * m[j]; m[2] = (5,6) -> n*(5,6) = (5, 6, 0)
    assert_eq!(
        run_vs(src, &[k(1.0, 0., 0., 0.)], [0.0; 4]),
        [1209.0, 1173.0, 3.0 + 40.0 + 600.0, 8.0 + 20.0]
    );
}

#[test]
fn matrix_scalar_and_componentwise_operators() {
    let src = "uniform float s;
void main() {
    mat2 m = mat2(s, 2.0, 3.0, 4.0);
    mat2 a = m * 2.0 + 1.0;        // (3,5,7,9)
    mat2 b = 12.0 / m;             // (12,6,4,3)
    mat2 c = -(m / m);             // all -1
    mat4x3 d = mat4x3(s);          // diagonal
    gl_Position = vec4(a[1][1], b[0][1] + b[1][0] * 10.0, c[1][0], d[2][2] + d[3][0] + d[1][2]);
}";
    assert_eq!(
        run_vs(src, &[k(1.0, 0., 0., 0.)], [0.0; 4]),
        [9.0, 46.0, -1.0, 1.0]
    );
}

#[test]
fn matrix_from_matrix_keeps_the_overlap_and_fills_the_identity() {
    let src = "uniform float s;
void main() {
    mat2 m = mat2(s, 2.0, 3.0, 4.0);
    mat3 a = mat3(m);           // (1,2,0; 3,4,0; 0,0,1)
    mat2x4 b = mat2x4(a);       // (1,2,0,0; 3,4,0,0)
    mat4 c = mat4(mat4x2(a));   // upper 2 rows of a's 4 columns... then identity
    gl_Position = vec4(a[2][2] + a[0][2] * 10.0, b[1][1] + b[1][3] * 10.0, c[2][2], c[3][3] + c[1][0]);
}";
    assert_eq!(
        run_vs(src, &[k(1.0, 0., 0., 0.)], [0.0; 4]),
        [1.0, 4.0, 1.0, 4.0]
    );
}

#[test]
fn equality_of_vectors_and_matrices() {
    let src = "uniform vec4 u;
void main() {
    bool a = u.xy == vec2(1.0, 2.0);
    bool b = u != vec4(1.0, 2.0, 3.0, 4.0);
    bool c = mat2(u) == mat2(1.0, 2.0, 3.0, 4.0);
    bool d = uvec2(u.xy) == uvec2(1u, 2u);
    bool e = bvec2(u.xz) != bvec2(true, false);
    gl_Position = vec4(float(a), float(b), float(c), float(d) + float(e) * 10.0);
}";
    assert_eq!(
        run_vs(src, &[k(1.0, 2.0, 3.0, 4.0)], [0.0; 4]),
        [1.0, 0.0, 1.0, 11.0]
    );
    assert_eq!(
        run_vs(src, &[k(1.0, 2.0, 3.0, 5.0)], [0.0; 4]),
        [1.0, 1.0, 0.0, 11.0]
    );
    assert_eq!(
        run_vs(src, &[k(1.0, 3.0, 0.0, 4.0)], [0.0; 4]),
        [0.0, 1.0, 0.0, 0.0]
    );
}

#[test]
fn uniforms_of_the_new_types_load_their_columns() {
    // mat3x2 takes 3 vec4 slots (one per column), then a uvec3, then a bvec2.
    let src = "uniform mat3x2 m; uniform uvec3 n; uniform bvec2 b;
void main() {
    vec2 a = m * vec3(1.0, 10.0, 100.0);
    gl_Position = vec4(a, float(n.z), float(b.x) + float(b.y) * 10.0);
}";
    let uni = [
        k(1.0, 2.0, 9.0, 9.0),
        k(3.0, 4.0, 9.0, 9.0),
        k(5.0, 6.0, 9.0, 9.0),
        // Profile 2's uints are 32-bit: the uniform words hold their bits.
        k(f32::from_bits(1), f32::from_bits(2), f32::from_bits(3), 0.0),
        k(0.0, 0.5, 0.0, 0.0),
    ];
    assert_eq!(run_vs(src, &uni, [0.0; 4]), [531.0, 642.0, 3.0, 10.0]);
}

fn module(stage: u32, body: &str) -> shader::ir::Module {
    build(stage, &format!("#pragma chrisos profile 2\n{}", body)).module
}

#[test]
fn new_uniform_types_are_reflected_and_set_column_major() {
    use shader::ir::{Stage, Type};
    use shader::program::link::Program;
    let vs = module(
        0,
        "uniform mat2x3 m; uniform mat4x2 w; uniform uvec2 n; uniform bvec3 b;
flat out uint id;
void main() {
    id = n.y;
    gl_Position = vec4(m * vec2(1.0), 1.0) + vec4(w * vec4(1.0), float(b.z), 0.0);
}",
    );
    let fs = module(
        1,
        "flat in uint id; out vec4 c; void main() { c = vec4(float(id)); }",
    );
    let mut p = Program::new();
    p.link(Some(&vs), Some(&fs))
        .unwrap_or_else(|e| panic!("link: {}\n{}", e, p.log()));
    let m = p.uniform_find("m").unwrap();
    let w = p.uniform_find("w").unwrap();
    assert_eq!(p.uniforms()[m].ty, Type::Mat2x3);
    assert_eq!(p.uniforms()[m].floats(), 6);
    assert_eq!(p.uniforms()[w].floats(), 8);
    assert_eq!(p.uniforms()[p.uniform_find("n").unwrap()].floats(), 2);
    assert_eq!(p.uniforms()[p.uniform_find("b").unwrap()].floats(), 3);
    p.set_uniform(m, &[1., 2., 3., 4., 5., 6.]).unwrap();
    p.set_uniform(w, &[1., 2., 3., 4., 5., 6., 7., 8.]).unwrap();
    assert!(p.set_uniform(m, &[1.0; 9]).is_err());
    let words = p.uniform_words(Stage::Vertex);
    // m: 2 slots of 3 rows; w: 4 slots of 2 rows, after m.
    assert_eq!(&words[0..8], &[1., 2., 3., 0., 4., 5., 6., 0.]);
    assert_eq!(&words[8..16], &[1., 2., 0., 0., 3., 4., 0., 0.]);
    assert_eq!(&words[20..22], &[7., 8.]);
    let mut back = [0.0f32; 8];
    p.uniform_value(w, &mut back).unwrap();
    assert_eq!(back, [1., 2., 3., 4., 5., 6., 7., 8.]);
}

#[test]
fn integer_varyings_must_be_flat() {
    for (stage, src) in [
        (
            0u32,
            "out uint id; void main() { id = 1u; gl_Position = vec4(0.0); }",
        ),
        (
            1,
            "in ivec2 id; out vec4 c; void main() { c = vec4(float(id.x)); }",
        ),
    ] {
        let src = format!("#pragma chrisos profile 2\n{}", src);
        let d = compile(stage, src.as_bytes(), "t")
            .err()
            .expect("must fail");
        let mut s = String::new();
        d.render(src.as_bytes(), &mut s).unwrap();
        assert!(s.contains("must be declared flat"), "{}", s);
    }
}

#[test]
fn profile_2_types_stay_unknown_in_profile_1() {
    for t in ["uint", "uvec3", "bvec2", "mat2", "mat3x2", "mat4x4"] {
        let src = format!("{} x;\nvoid main() {{ gl_Position = vec4(0.0); }}\n", t);
        assert!(compile(0, src.as_bytes(), "t").is_err(), "{}", t);
    }
}

#[test]
fn integer_attributes_are_profile_2_words() {
    // Issue 14 item 4: `in int`/`ivecN`/`uint`/`uvecN` attributes in profile 2, read as their
    // 32-bit words (attribute 0 holds the bits of 16777217 and -3, which floats cannot carry);
    // profile 1 keeps "it must be float, vec2, vec3 or vec4".
    let p = run_vs(
        "in ivec2 a; void main() { ivec2 b = a + ivec2(1, -1); gl_Position = vec4(intBitsToFloat(b.x), float(b.y), 0.0, 1.0); }",
        &[],
        [f32::from_bits(16_777_217), f32::from_bits(-3i32 as u32), 0.0, 0.0],
    );
    assert_eq!(p[0].to_bits(), 16_777_218);
    assert_eq!(p[1], -4.0);
    let vs = module(
        0,
        "layout(location = 3) in uvec3 u; void main() { gl_Position = vec4(float(u.z)); }",
    );
    let a = &vs.iface.attributes[0];
    assert_eq!(
        (a.ty, a.location, a.components),
        (shader::ir::Type::UVec3, 3, 3)
    );
    let p1 = "in int i;\nvoid main() { gl_Position = vec4(float(i)); }\n";
    let d = compile(0, p1.as_bytes(), "t")
        .err()
        .expect("profile 1 refuses it");
    let mut s = String::new();
    d.render(p1.as_bytes(), &mut s).unwrap();
    assert!(
        s.contains("attribute 'i' has type int; it must be float, vec2, vec3 or vec4"),
        "{}",
        s
    );
}
