//! Profile 2's built-in library (issue 13 item 5) on the software executor against a reference:
//! each function runs on a few thousand inputs (edges included: 0, -0, denormals, huge values,
//! NaN, inf) and is compared with an f64 evaluation of GLSL's definition (libm). The allowed
//! error per function is written next to it and in docs/LANGUAGE.md. (Mesa llvmpipe is not
//! reached from this test: it is the compat suite's reference.)
mod ircore_util;
use ircore_util::p2::{build_named, run_exe_lanes};
use shader::back::exec::Executable;
use shader::program::compile::compile;

struct Shader {
    exe: Executable,
}

impl Shader {
    /// `gl_Position = vec4(EXPR)` with `uniform vec4 u`.
    fn new(expr: &str) -> Shader {
        let src = format!(
            "#pragma chrisos profile 2\nuniform vec4 u;\nvoid main() {{ gl_Position = vec4({}); }}\n",
            expr
        );
        Shader::from_src(src)
    }

    fn from_src(src: String) -> Shader {
        let sh = build_named(0, &src, "t.vert");
        shader::ir::verify::verify(&sh.module).expect("verified");
        Shader {
            exe: Executable::new(&sh.module, None).expect("runs"),
        }
    }

    /// `void main() { BODY }` with `uniform vec4 u`.
    fn body(body: &str) -> Shader {
        Shader::from_src(format!(
            "#pragma chrisos profile 2\nuniform vec4 u;\nvoid main() {{ {} }}\n",
            body
        ))
    }

    fn run(&self, u: [f32; 4]) -> [f32; 4] {
        run_exe_lanes(&self.exe, &[u], |_| [0.0; 4], 1)[0]
    }
}

/// Edge values and a deterministic sweep over `[-range, range]` (about 2000 values).
fn inputs(range: f32) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        1e-40,
        -1e-40,
        f32::MIN_POSITIVE,
        f32::MAX,
        -f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    let mut s = 0x1234_5678u32;
    for _ in 0..2000 {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let t = (s >> 8) as f32 / (1u32 << 24) as f32; // 0..1
        v.push((t * 2.0 - 1.0) * range);
    }
    v
}

/// A reference value meaning "GLSL leaves this undefined; not compared".
const ANY: f64 = f64::MAX;

/// Absolute error `abs` plus relative error `rel` of the reference (plus 2 denormal steps, the
/// f32 result's own spacing there); NaN must match NaN, and infinities must match exactly.
fn close(got: f32, want: f64, abs: f64, rel: f64) -> bool {
    let abs = abs + 2.0 * f32::from_bits(1) as f64;
    if want == ANY {
        return true;
    }
    if want.is_nan() {
        return got.is_nan();
    }
    let want32 = want as f32;
    if want32.is_infinite() || got.is_infinite() {
        return got == want32 || (got as f64 - want).abs() <= abs + rel * want.abs();
    }
    (got as f64 - want).abs() <= abs + rel * want.abs()
}

fn check(f: &str, range: f32, abs: f64, rel: f64, reference: impl Fn(f64) -> f64) {
    let sh = Shader::new(&format!("{}(u.x), {}(u.y), 0.0, 0.0", f, f));
    let xs = inputs(range);
    let mut bad = Vec::new();
    for pair in xs.chunks(2) {
        let (x, y) = (pair[0], *pair.get(1).unwrap_or(&0.0));
        let got = sh.run([x, y, 0.0, 0.0]);
        for (g, a) in [(got[0], x), (got[1], y)] {
            let want = reference(a as f64);
            if !close(g, want, abs, rel) {
                bad.push(format!("{}({:e}) = {:e}, reference {:e}", f, a, g, want));
            }
        }
    }
    assert!(
        bad.len() == 0,
        "{} mismatches:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}

fn round_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round_ties_even_compat()
    } else {
        r
    }
}

trait TiesEven {
    fn round_ties_even_compat(self) -> f64;
}
impl TiesEven for f64 {
    fn round_ties_even_compat(self) -> f64 {
        let f = self.floor();
        if self - f == 0.5 {
            if f % 2.0 == 0.0 {
                f
            } else {
                f + 1.0
            }
        } else {
            self.round()
        }
    }
}

#[test]
fn exact_functions_match_their_definition() {
    // Exact (0 error): rounding, fract, sign.
    check("floor", 1e6, 0.0, 0.0, f64::floor);
    check("ceil", 1e6, 0.0, 0.0, f64::ceil);
    check("trunc", 1e6, 0.0, 0.0, f64::trunc);
    check("roundEven", 100.0, 0.0, 0.0, |x| x.round_ties_even_compat());
    check("round", 100.0, 0.0, 0.0, round_even);
    // fract = x - floor(x), computed in f32 (inf gives NaN).
    check("fract", 1e3, 0.0, 0.0, |x| {
        let x = x as f32;
        (x - x.floor()) as f64
    });
    check("sign", 1e6, 0.0, 0.0, |x| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    });
}

#[test]
fn exponentials_are_within_their_bounds() {
    // exp2/log2/sqrt/inversesqrt are libm's (<= 1 ulp): relative 2^-22.
    let ulp2 = 2.4e-7;
    check("exp2", 130.0, 0.0, ulp2, f64::exp2);
    check("log2", 1e6, 0.0, ulp2, |x| {
        if x < 0.0 {
            f64::NAN
        } else {
            x.log2()
        }
    });
    check("sqrt", 1e6, 0.0, ulp2, |x| {
        if x < 0.0 {
            f64::NAN
        } else {
            x.sqrt()
        }
    });
    check("inversesqrt", 1e6, 0.0, ulp2, |x| {
        if x < 0.0 {
            f64::NAN
        } else {
            1.0 / x.sqrt()
        }
    });
    // exp(x) = exp2(x * log2 e): relative error grows with |x| (2^-24 per unit of x * log2 e).
    check("exp", 80.0, 0.0, 1.2e-5, f64::exp);
    // log(x) = log2(x) * ln 2: near 1 an absolute bound.
    check("log", 1e6, 1e-7, ulp2, |x| {
        if x < 0.0 {
            f64::NAN
        } else {
            x.ln()
        }
    });
}

#[test]
fn trigonometric_and_hyperbolic_functions_are_within_their_bounds() {
    check("radians", 1e4, 0.0, 2.4e-7, |x| {
        x * std::f64::consts::PI / 180.0
    });
    check("degrees", 1e4, 0.0, 2.4e-7, |x| {
        x * 180.0 / std::f64::consts::PI
    });
    // tan = sin / cos away from the poles (|x| < 1.4).
    check("tan", 1.4, 1e-6, 1e-5, f64::tan);
    check("sinh", 80.0, 1e-6, 1.2e-5, f64::sinh);
    check("cosh", 80.0, 0.0, 1.2e-5, f64::cosh);
    // tanh: Mesa's clamp to [-10, 10]; |error| < 1e-6 (infinities give +-1; NaN gives -1,
    // the clamp's MAX returning its non-NaN operand: GLSL leaves it undefined).
    check("tanh", 20.0, 1e-6, 0.0, |x| {
        if x.is_nan() {
            -1.0
        } else {
            x.clamp(-10.0, 10.0).tanh()
        }
    });
    // asinh/acosh use x * x (as Mesa's lowering): beyond |x| = 1.8e19 it overflows to +-inf.
    const SQ_MAX: f64 = 1.8e19;
    check("asinh", 1e4, 1e-6, 1e-5, |x| {
        if x.abs() > SQ_MAX {
            x.signum() * f64::INFINITY
        } else {
            x.asinh()
        }
    });
    check("acosh", 1e4, 1e-6, 1e-5, |x| {
        if x < 1.0 {
            ANY // undefined in GLSL: NaN for |x| < 1, -inf or garbage below -1 (Mesa's formula)
        } else if x > SQ_MAX {
            f64::INFINITY
        } else {
            x.acosh()
        }
    });
    check("atanh", 0.999, 2e-6, 1e-5, |x| {
        if x.abs() > 1.0 {
            f64::NAN
        } else {
            x.atanh()
        }
    });
}

#[test]
fn inverse_trigonometric_functions_are_within_their_bounds() {
    // atan: Mesa's minimax polynomial, |error| < 1e-5; asin/acos: Mesa's form and fitted
    // coefficients (so the results equal llvmpipe's), |error| < 3.9e-4 (asin) and 1.6e-4 (acos)
    // against the true value (undefined outside [-1, 1]: not compared there).
    // atan(NaN) is 0 here (the result takes SIGN(x), 0 for NaN).
    check("atan", 1e4, 1e-5, 0.0, |x| {
        if x.is_nan() {
            0.0
        } else {
            x.atan()
        }
    });
    check("asin", 1.0, 4e-4, 0.0, |x| {
        if x.abs() > 1.0 {
            ANY
        } else {
            x.asin()
        }
    });
    check("acos", 1.0, 1.7e-4, 0.0, |x| {
        if x.abs() > 1.0 {
            ANY
        } else {
            x.acos()
        }
    });
    let s = Shader::new("atan(u.x, u.y), atan(u.zw, vec2(-1.0, 0.5)), 0.0");
    for (y, x) in [
        (1.0f32, 1.0f32),
        (1.0, -1.0),
        (-1.0, -1.0),
        (-2.0, 0.5),
        (0.5, -3.0),
        (3.0, 0.0),
    ] {
        let r = s.run([y, x, y, x]);
        let r = [r[0], r[0], r[1], r[2]];
        let want = (y as f64).atan2(x as f64);
        assert!(
            (r[0] as f64 - want).abs() < 2e-5,
            "atan({}, {}) = {}, want {}",
            y,
            x,
            r[0],
            want
        );
        assert!((r[2] as f64 - (y as f64).atan2(-1.0)).abs() < 2e-5);
    }
}

#[test]
fn inverse_of_mat2_and_mat3() {
    let s = Shader::new("inverse(mat2(u)) * vec2(1.0, 2.0), (inverse(mat3(u.x, 0, 1, 0, u.y, 0, 2, 0, u.z)) * vec3(1.0, 2.0, 3.0)).xy");
    // mat2 (1, 2, 3, 4): M = [1 3; 2 4], M^-1 (1, 2) = (1, 0)... computed below
    let r = s.run([1.0, 2.0, 3.0, 4.0]);
    // M^-1 = 1/(-2) [4 -3; -2 1]; times (1, 2) = (-2/ -2 ... ) = (1, 0)
    assert!((r[0] - 1.0).abs() < 1e-6 && r[1].abs() < 1e-6, "{:?}", r);
    // N = [x 0 2; 0 y 0; 1 0 z] with x=1, y=2, z=3: N v = (1,2,3) for v = (1/1... ) check N r = b
    let (x, y) = (r[2] as f64, r[3] as f64);
    // third component unknown here; check the first two rows: x + 2 v2 = 1, 2 y = 2
    assert!((y - 1.0).abs() < 1e-6, "{:?}", r);
    // v = N^-1 b with det = x*y*z - 2*y = 6 - 4 = 2: v0 = (y z b0 - 2 y b2) / det = (6 - 12) / 2 = -3
    assert!((x + 3.0).abs() < 1e-5, "{:?}", r);
}

#[test]
fn vector_overloads_relational_and_geometric_functions() {
    let s =
        Shader::new("mod(u.x, u.y), mod(u.xy, 3.0).y, step(0.5, u.z), smoothstep(0.0, 2.0, u.w)");
    let r = s.run([7.5, 2.0, 0.5, 0.5]);
    assert_eq!(r, [1.5, 2.0, 1.0, 0.15625]);
    let r = s.run([-7.5, 2.0, 0.25, 3.0]);
    assert_eq!(r, [0.5, 2.0, 0.0, 1.0]);
    let s = Shader::new(
        "vec2(lessThan(u.xy, u.zw)), float(any(greaterThan(u.xyz, vec3(2.0)))) + float(all(equal(u.xy, u.xy))) * 10.0, float(all(not(notEqual(u.zw, u.zw))))",
    );
    assert_eq!(s.run([1.0, 5.0, 2.0, 4.0]), [1.0, 0.0, 11.0, 1.0]);
    assert_eq!(s.run([1.0, 1.0, 0.0, 4.0]), [0.0, 1.0, 10.0, 1.0]);
    let s = Shader::new("float(isnan(u.x)), float(isinf(u.y)), distance(u.zw, vec2(0.0)), 0.0");
    assert_eq!(
        s.run([f32::NAN, f32::NEG_INFINITY, 3.0, 4.0]),
        [1.0, 1.0, 5.0, 0.0]
    );
    assert_eq!(s.run([1.0, 1e38, 0.0, 0.0]), [0.0, 0.0, 0.0, 0.0]);
    let s = Shader::new(
        "faceforward(vec2(1.0, 0.0), u.xy, u.zw), refract(vec2(0.0, -1.0), vec2(0.0, 1.0), u.x)",
    );
    assert_eq!(s.run([1.0, 0.0, -1.0, 0.0]), [1.0, 0.0, 0.0, -1.0]);
    assert_eq!(s.run([1.0, 0.0, 1.0, 0.0]), [-1.0, 0.0, 0.0, -1.0]);
}

#[test]
fn matrix_functions() {
    let s = Shader::new(
        "determinant(mat2(u)), determinant(mat3(u.x, 0, 0, 0, u.y, 0, 1, 2, u.z)), transpose(mat3x2(u.xy, u.zw, 5.0, 6.0))[1].xy",
    );
    assert_eq!(s.run([1.0, 2.0, 3.0, 4.0]), [-2.0, 6.0, 2.0, 4.0]);
    let s = Shader::new(
        "determinant(mat4(u.x, 1, 0, 0,  2, u.y, 0, 0,  0, 0, u.z, 3,  0, 0, 1, u.w)), matrixCompMult(mat2(u), mat2(u))[1], outerProduct(u.xy, u.zw)[1][0]",
    );
    // det = (x*y - 2) * (z*w - 3) for this block matrix
    assert_eq!(s.run([1.0, 3.0, 2.0, 4.0]), [5.0, 4.0, 16.0, 4.0]);
}

/// CSIR v2 round trip of the part-2 goldens (new types and opcodes 36..=43), v1 refused, and a
/// profile-1 blob with an opcode of profile 2 rejected as an unknown opcode.
#[test]
fn csir_v2_keeps_the_new_types_and_opcodes_and_profile_1_refuses_them() {
    use shader::program::csir::{self, CsirError, Version, CSIR_MAX};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in");
    for file in [
        "p2_builtins.frag",
        "p2_types_bvec.frag",
        "p2_types_matrices.vert",
        "p2_types_uint.vert",
    ] {
        let src = std::fs::read(dir.join(file)).unwrap();
        let stage = if file.ends_with(".frag") { 1 } else { 0 };
        let m = compile(stage, &src, file)
            .unwrap_or_else(|_| panic!("{}", file))
            .module;
        let mut buf = vec![0u8; CSIR_MAX];
        let n = csir::save(&m, Version::V2, &mut buf).unwrap();
        let back = csir::load(&buf[..n]).unwrap_or_else(|e| panic!("{}: {}", file, e));
        // Profile 2's integer immediates are bit patterns (some are NaNs as floats): compare
        // the immediates by their bits.
        let imm_bits =
            |m: &shader::ir::Module| m.imms.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(imm_bits(&back), imm_bits(&m), "{}", file);
        let (mut back, mut m) = (back, m.clone());
        back.imms.clear();
        m.imms.clear();
        assert_eq!(back, m, "{}", file);
        let mut v1 = vec![0u8; CSIR_MAX];
        assert_eq!(
            csir::save(&m, Version::V1, &mut v1),
            Err(CsirError::ProfileNotInV1 { profile: 2 })
        );
    }
    // A profile-1 module whose record says FLOOR (36): refused at load.
    let src = b"#version 330\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = abs(u); }\n";
    let mut m = compile(1, src, "p1").unwrap().module;
    let k = m
        .insts
        .iter()
        .position(|i| i.op == shader::ir::Op::Abs)
        .unwrap();
    m.insts[k].op = shader::ir::Op::Floor;
    assert!(shader::ir::verify::verify(&m).is_err());
    let mut buf = vec![0u8; CSIR_MAX];
    let n = csir::save(&m, Version::V2, &mut buf).unwrap();
    assert!(matches!(
        csir::load(&buf[..n]),
        Err(CsirError::BadOpcode { op: 36, .. })
    ));
}

#[test]
fn mix_with_a_bool_selector_picks_exactly_and_uint_min_max_keep_their_type() {
    let s = Shader::new(
        "mix(u.xy, vec2(1e38 * u.x * 10.0, -2.0), bvec2(u.z > 0.0, u.w > 0.0)), float(max(uvec2(u.zw), uvec2(3u)).y), mix(1.0, 2.0, u.x > 5.0)",
    );
    assert_eq!(s.run([7.0, 8.0, 1.0, 0.0]), [f32::INFINITY, 8.0, 3.0, 2.0]);
    assert_eq!(s.run([7.0, 8.0, 0.0, 5.0]), [7.0, -2.0, 5.0, 2.0]);
    assert_eq!(s.run([1.0, 8.0, 0.0, 0.0]), [1.0, 8.0, 3.0, 1.0]);
}

/// f64 inverse of a column-major 4x4 matrix by Gauss-Jordan elimination with pivoting.
fn inverse4_f64(m: &[[f64; 4]; 4]) -> [[f64; 4]; 4] {
    // a[r][c] = m[c][r], augmented with the identity
    let mut a = [[0.0f64; 8]; 4];
    for r in 0..4 {
        for c in 0..4 {
            a[r][c] = m[c][r];
        }
        a[r][4 + r] = 1.0;
    }
    for c in 0..4 {
        let p = (c..4)
            .max_by(|&x, &y| a[x][c].abs().partial_cmp(&a[y][c].abs()).unwrap())
            .unwrap();
        a.swap(c, p);
        let d = a[c][c];
        for k in 0..8 {
            a[c][k] /= d;
        }
        for r in 0..4 {
            if r != c {
                let f = a[r][c];
                for k in 0..8 {
                    a[r][k] -= f * a[c][k];
                }
            }
        }
    }
    let mut inv = [[0.0f64; 4]; 4];
    for r in 0..4 {
        for c in 0..4 {
            inv[c][r] = a[r][4 + c];
        }
    }
    inv
}

#[test]
fn inverse_of_mat4_matches_an_f64_inverse() {
    // M's columns: u-dependent entries over a fixed well-conditioned base.
    let cols = "mat4(u.x + 4.0, 1.0, u.y, -0.5,  0.25, u.z + 3.0, 2.0, u.w,  u.w, -1.0, 5.0 - u.x, 0.75,  1.5, u.y, 0.5, u.z * u.w + 6.0)";
    let shaders: Vec<Shader> = (0..4)
        .map(|c| Shader::new(&format!("inverse({})[{}]", cols, c)))
        .collect();
    let mut seed = 0x1234_5678u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed as f32 / u32::MAX as f32) * 4.0 - 2.0
    };
    for _ in 0..500 {
        let u = [next(), next(), next(), next()];
        let (x, y, z, w) = (u[0], u[1], u[2], u[3]);
        let m32 = [
            [x + 4.0, 1.0, y, -0.5],
            [0.25, z + 3.0, 2.0, w],
            [w, -1.0, 5.0 - x, 0.75],
            [1.5, y, 0.5, z * w + 6.0],
        ];
        let m: [[f64; 4]; 4] = m32.map(|c| c.map(|v| v as f64));
        let want = inverse4_f64(&m);
        for (c, s) in shaders.iter().enumerate() {
            let got = s.run(u);
            for r in 0..4 {
                let e = (got[r] as f64 - want[c][r]).abs();
                assert!(
                    e < 2e-6 + 1e-5 * want[c][r].abs(),
                    "u {:?} col {} row {}: {} vs {}",
                    u,
                    c,
                    r,
                    got[r],
                    want[c][r]
                );
            }
        }
    }
    // inverse(M) * M is the identity, and a singular matrix gives non-finite lanes (GLSL:
    // undefined; Mesa divides by the zero determinant too).
    let s = Shader::new(&format!("(inverse({0}) * {0})[1]", cols));
    let r = s.run([0.3, -1.2, 0.7, 1.9]);
    for (k, v) in r.iter().enumerate() {
        let want = if k == 1 { 1.0 } else { 0.0 };
        assert!((v - want).abs() < 1e-5, "{:?}", r);
    }
    let s = Shader::new("inverse(mat4(u, u, u.wzyx, vec4(1.0)))[0]");
    assert!(s.run([1.0, 2.0, 3.0, 4.0]).iter().all(|v| !v.is_finite()));
}

#[test]
fn modf_writes_the_whole_part_and_clamp_keeps_uint() {
    let s = Shader::body(
        "vec2 w; vec3 v; float f = modf(u.x, v.y); vec2 g = modf(u.zw, w); gl_Position = vec4(f, v.y, g.x, w.x);",
    );
    assert_eq!(s.run([2.75, 0.0, -1.5, 0.0]), [0.75, 2.0, -0.5, -1.0]);
    assert_eq!(s.run([-3.25, 0.0, 7.0, 0.0]), [-0.25, -3.0, 0.0, 7.0]);
    // Mesa's lowering x - trunc(x): an infinite x gives a NaN fraction and an infinite part.
    let r = s.run([f32::INFINITY, 0.0, 0.0, 0.0]);
    assert!(r[0].is_nan() && r[1] == f32::INFINITY, "{:?}", r);
    // clamp of uints stays uint (the division truncates only for ints), abs of a uint is float
    let s = Shader::body(
        "uvec2 k = uvec2(u.xy); uvec2 c = clamp(k, uvec2(2u), uvec2(5u)); uint d = clamp(k.y, 1u, 3u) / 2u; gl_Position = vec4(vec2(c), float(d), abs(k.x) / 2.0);",
    );
    assert_eq!(s.run([1.0, 9.0, 0.0, 0.0]), [2.0, 5.0, 1.0, 0.5]);
    assert_eq!(s.run([3.0, 0.0, 0.0, 0.0]), [3.0, 2.0, 0.0, 1.5]);
}

/// Issue 13 item 2's leftover (run here for this file's executor helper): `out`/`inout`
/// parameters of struct and array type are copied in (inout) and back out whole, including to
/// a struct member and an array element of the caller.
#[test]
fn out_and_inout_struct_and_array_parameters_copy_back() {
    let s = Shader::from_src(
        "#pragma chrisos profile 2
struct Light { vec3 color; float power; };
struct Scene { Light key; float w[2]; };
uniform vec4 u;
void make(out Light l, float p) { l.color = u.xyz; l.power = p; }
void dim(inout Light l) { l.power = l.power * 0.5; }
void fill(out float a[3]) { a[0] = u.x; a[1] = u.y; a[2] = u.z; }
void bump(inout Scene s) { dim(s.key); s.w[1] = s.w[0] + 1.0; }
void main() {
    Light l; make(l, 4.0); dim(l);
    float a[3]; fill(a);
    Light ls[2]; make(ls[1], 2.0);
    Scene s = Scene(l, float[2](0.25, 0.0)); bump(s);
    gl_Position = vec4(l.color.x * l.power, a[1] + a[2], ls[1].power + ls[0].power, s.key.power + s.w[1]);
}
"
        .to_string(),
    );
    // l = (u.xyz, 2); a = u.xyz; ls[1].power = 2, ls[0] zero; s.key.power = 1, s.w[1] = 1.25
    assert_eq!(s.run([3.0, 1.0, 0.5, 0.0]), [6.0, 1.5, 2.0, 2.25]);
}

/// atan(y, x) with x = -0 is sign(y) pi/2, as with +0 and as Mesa gives (found by
/// tools/shc/tests/builtin_accuracy.rs: before, a -0 divisor made it -sign(y) pi/2).
#[test]
fn atan2_of_negative_zero_x_has_the_sign_of_y() {
    let s = Shader::new("atan(u.x, u.y), atan(u.z, u.y), atan(u.x, u.w), atan(u.z, u.w)");
    let half_pi = core::f32::consts::FRAC_PI_2;
    let r = s.run([9.223372e18, -0.0, -1.5, 0.0]);
    assert_eq!(r, [half_pi, -half_pi, half_pi, -half_pi], "{:?}", r);
    // x = -2 and +2 still follow the quadrants.
    let s = Shader::new("atan(1.0, u.x), atan(-1.0, u.x), atan(1.0, u.y), atan(-1.0, u.y)");
    let r = s.run([-2.0, 2.0, 0.0, 0.0]);
    let want = [2.677_945, -2.677_945, 0.463_647_6, -0.463_647_6];
    for k in 0..4 {
        assert!((r[k] - want[k]).abs() < 2e-5, "{:?}", r);
    }
}
