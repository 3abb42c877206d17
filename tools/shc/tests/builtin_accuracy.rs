//! The built-in accuracy test (issue 13, Tests item 2): every float built-in of profile 2 on
//! 4096 inputs per function (the edges first: 0, -0, denormals, the largest finite values,
//! infinities, NaN, then a linear sweep of the function's interesting range and values of random
//! magnitude), computed by a fragment shader on the software path (`shc render`) and by Mesa
//! llvmpipe, and compared value by value against the allowed error written down per function
//! (the table [`FUNCS`], copied into docs/LANGUAGE.md, "Built-in accuracy").
//!
//! How the values travel: each pixel (64 x 64) computes its input from its index with integer
//! arithmetic and `uintBitsToFloat` (exact in both implementations), applies the function, and
//! writes the result's 32 bits (`floatBitsToUint`) as the four bytes of its RGBA8 colour
//! (`k / 255.0` stores exactly k), so the readback is the exact result, no float target needed.
//!
//! The comparison, per input: both NaN, or both the same infinity, or both finite and within
//! the function's allowed error: `ulp` units in the last place, or `abs` absolute error (for the
//! functions whose GLSL precision is absolute: sin, cos, ...). Results below FLT_MIN in
//! magnitude compare as zero (llvmpipe flushes denormals; GLSL 3.30 allows it, §4.1.4).
//! Inputs where GLSL leaves the result undefined and the two disagree are listed per function as
//! `undefined` (they are still printed, never silently dropped).

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use common::{mesa_renderer, output_dir};
use scene::{read_png, Image, Scene};

const SIZE: u32 = 64;
const N: usize = (SIZE * SIZE) as usize;

/// One built-in under test. `expr` uses `x` (and `y`, `z`): the inputs. The inputs are
/// generated per argument: `lin` the power-of-two half-width of the linear sweep
/// (`[-2^lin, 2^lin)`, 1024 steps), `exp` the exponent range of the random-magnitude values.
struct Func {
    name: &'static str,
    expr: &'static str,
    args: u8,
    lin: i32,
    exp: (i32, i32),
    /// Allowed error in ULP (`None`: not judged by ULP).
    ulp: Option<u32>,
    /// Allowed absolute error (`None`: not judged by absolute error). A result passes when
    /// either bound holds.
    abs: Option<f32>,
    /// Inputs for which GLSL leaves the result undefined (a disagreement there is reported,
    /// not failed): `"x<0"`-style tags interpreted by [`undefined`].
    undefined: &'static str,
}

const fn f(
    name: &'static str,
    expr: &'static str,
    args: u8,
    lin: i32,
    exp: (i32, i32),
    ulp: Option<u32>,
    abs: Option<f32>,
    undefined: &'static str,
) -> Func {
    Func {
        name,
        expr,
        args,
        lin,
        exp,
        ulp,
        abs,
        undefined,
    }
}

/// The functions and their allowed errors (docs/LANGUAGE.md lists the same numbers).
const FUNCS: &[Func] = &[
    f("abs", "abs(x)", 1, 4, (-126, 127), Some(0), None, ""),
    f("sign", "sign(x)", 1, 4, (-126, 127), Some(0), None, ""),
    f("floor", "floor(x)", 1, 4, (-20, 30), Some(0), None, ""),
    f("ceil", "ceil(x)", 1, 4, (-20, 30), Some(0), None, ""),
    f("trunc", "trunc(x)", 1, 4, (-20, 30), Some(0), None, ""),
    f("round", "round(x)", 1, 4, (-20, 30), Some(0), None, "half"),
    f(
        "roundEven",
        "roundEven(x)",
        1,
        4,
        (-20, 30),
        Some(0),
        None,
        "",
    ),
    f("fract", "fract(x)", 1, 4, (-20, 30), Some(1), None, ""),
    f("radians", "radians(x)", 1, 9, (-30, 30), Some(1), None, ""),
    f("degrees", "degrees(x)", 1, 3, (-30, 30), Some(2), None, ""),
    f("sqrt", "sqrt(x)", 1, 6, (-126, 127), Some(2), None, "x<0"),
    f(
        "inversesqrt",
        "inversesqrt(x)",
        1,
        6,
        (-126, 126),
        Some(2),
        None,
        "x<=0",
    ),
    f("exp", "exp(x)", 1, 6, (-20, 6), Some(3), None, ""),
    f("exp2", "exp2(x)", 1, 7, (-20, 7), Some(3), None, ""),
    f(
        "log",
        "log(x)",
        1,
        6,
        (-126, 127),
        Some(3),
        Some(2e-7),
        "x<=0",
    ),
    f(
        "log2",
        "log2(x)",
        1,
        6,
        (-126, 127),
        Some(3),
        Some(2e-7),
        "x<=0",
    ),
    f("sin", "sin(x)", 1, 3, (-20, 4), None, Some(2e-6), "huge"),
    f("cos", "cos(x)", 1, 3, (-20, 4), None, Some(2e-6), "huge"),
    f("tan", "tan(x)", 1, 1, (-20, 0), Some(4), Some(4e-6), "huge"),
    f(
        "asin",
        "asin(x)",
        1,
        0,
        (-20, 0),
        Some(2),
        Some(1e-6),
        "|x|>1",
    ),
    f(
        "acos",
        "acos(x)",
        1,
        0,
        (-20, 0),
        Some(2),
        Some(1e-6),
        "|x|>1",
    ),
    f("atan", "atan(x)", 1, 5, (-30, 30), Some(4), Some(2e-6), ""),
    f(
        "atan2",
        "atan(x, y)",
        2,
        3,
        (-30, 30),
        Some(4),
        Some(2e-6),
        "x=y=0",
    ),
    f("sinh", "sinh(x)", 1, 3, (-20, 6), Some(4), Some(1e-6), ""),
    f("cosh", "cosh(x)", 1, 3, (-20, 6), Some(4), None, ""),
    f("tanh", "tanh(x)", 1, 3, (-20, 5), Some(4), Some(1e-6), ""),
    f(
        "asinh",
        "asinh(x)",
        1,
        6,
        (-20, 60),
        Some(4),
        Some(1e-6),
        "",
    ),
    f(
        "acosh",
        "acosh(x)",
        1,
        6,
        (-20, 60),
        Some(4),
        Some(1e-6),
        "x<1",
    ),
    f(
        "atanh",
        "atanh(x)",
        1,
        0,
        (-20, 0),
        Some(4),
        Some(1e-6),
        "|x|>=1",
    ),
    f("pow", "pow(x, y)", 2, 3, (-10, 6), Some(256), None, "pow"),
    f(
        "mod",
        "mod(x, y)",
        2,
        5,
        (-10, 10),
        Some(2),
        Some(1e-6),
        "mod",
    ),
    f("min", "min(x, y)", 2, 5, (-126, 127), Some(0), None, "nan"),
    f("max", "max(x, y)", 2, 5, (-126, 127), Some(0), None, "nan"),
    f("step", "step(x, y)", 2, 3, (-10, 10), Some(0), None, ""),
    f(
        "clamp",
        "clamp(x, -0.5, y)",
        2,
        1,
        (-10, 10),
        Some(0),
        None,
        "lo>hi",
    ),
    f(
        "mix",
        "mix(x, y, 0.3)",
        2,
        5,
        (-20, 20),
        Some(2),
        Some(1e-6),
        "mix",
    ),
    f(
        "smoothstep",
        "smoothstep(-0.5, 0.75, x)",
        1,
        1,
        (-10, 4),
        Some(4),
        Some(1e-6),
        "",
    ),
    f(
        "length",
        "length(vec2(x, y))",
        2,
        5,
        (-60, 60),
        Some(2),
        None,
        "",
    ),
    f(
        "distance",
        "distance(vec2(x, 1.0), vec2(0.5, y))",
        2,
        5,
        (-30, 30),
        Some(2),
        None,
        "",
    ),
    f(
        "dot",
        "dot(vec2(x, 0.75), vec2(1.25, y))",
        2,
        5,
        (-30, 30),
        Some(2),
        Some(1e-6),
        "",
    ),
    f(
        "normalize",
        "normalize(vec2(x, y)).x",
        2,
        5,
        (-60, 60),
        Some(3),
        Some(1e-6),
        "x=y=0",
    ),
    f(
        "cross",
        "cross(vec3(x, 0.5, y), vec3(0.25, y, x)).y",
        2,
        5,
        (-30, 30),
        Some(2),
        Some(1e-6),
        "",
    ),
    f(
        "reflect",
        "reflect(vec2(x, 0.5), normalize(vec2(0.6, 0.8))).x",
        1,
        5,
        (-30, 30),
        Some(3),
        Some(1e-6),
        "huge",
    ),
    f(
        "refract",
        "refract(normalize(vec2(x, -1.0)), vec2(0.0, 1.0), 0.7).y",
        1,
        3,
        (-30, 30),
        Some(4),
        Some(1e-6),
        "",
    ),
    f(
        "faceforward",
        "faceforward(vec2(1.0, x), vec2(y, 1.0), vec2(1.0, 0.0)).y",
        2,
        3,
        (-30, 30),
        Some(0),
        None,
        "",
    ),
    f(
        "determinant",
        "determinant(mat2(x, 0.5, y, 1.5))",
        2,
        5,
        (-30, 30),
        Some(2),
        Some(1e-6),
        "",
    ),
    f(
        "inverse",
        "inverse(mat2(x, 0.5, y, 1.5))[0][0]",
        2,
        3,
        (-30, 30),
        Some(4),
        Some(1e-6),
        "det0",
    ),
    f(
        "isnan",
        "float(isnan(x))",
        1,
        4,
        (-126, 127),
        Some(0),
        None,
        "",
    ),
    f(
        "isinf",
        "float(isinf(x))",
        1,
        4,
        (-126, 127),
        Some(0),
        None,
        "",
    ),
    f(
        "floatBitsToInt",
        "intBitsToFloat(floatBitsToInt(x) ^ 0x1)",
        1,
        4,
        (-126, 127),
        Some(0),
        None,
        "nan",
    ),
    f(
        "uintBitsToFloat",
        "uintBitsToFloat(floatBitsToUint(x) + 1u)",
        1,
        4,
        (-126, 127),
        Some(0),
        None,
        "nan",
    ),
];

/// The input edges: bit patterns every function sees first.
const EDGES: [u32; 32] = [
    0x0000_0000, // 0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007f_ffff, // largest denormal
    0x807f_ffff,
    0x0080_0000, // FLT_MIN
    0x8080_0000,
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff,
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0xbf00_0000, // -0.5
    0x4000_0000, // 2
    0x3fc0_0000, // 1.5
    0xbfc0_0000, // -1.5
    0x4040_0000, // 3
    0x4049_0fdb, // pi
    0xc049_0fdb, // -pi
    0x3fc9_0fdb, // pi/2
    0x4b00_0000, // 2^23
    0x4b80_0000, // 2^24
    0x5f00_0000, // 2^63
    0x3f7f_ffff, // 1 - ulp
    0x3f80_0001, // 1 + ulp
    0x3e99_999a, // 0.3
    0x42b0_0000, // 88
    0x3400_0000, // 2^-23
];

/// The input generator, in GLSL and in Rust (the Rust copy is what the report prints; the two
/// agree because it is integer arithmetic). `arg` picks a different stream per argument.
fn input(i: u32, arg: u32, lin: i32, exp: (i32, i32)) -> u32 {
    if i < 64 {
        // x runs through the edges; y through them in another order, so that pairs mix.
        let k = (i + arg * 7 * (i / 32 + 1)) % 32;
        return EDGES[k as usize];
    }
    if i < 2048 {
        // Linear sweep over [-2^lin, 2^lin): (i - 1024 + shift) * 2^(lin - 10), exact.
        let j = ((i + 3968 - 1024 + arg * 333) % 1984) as i32 - 992;
        return (j as f32 * f32::from_bits(((lin - 10 + 127) as u32) << 23)).to_bits();
    }
    let h = hash(i ^ (arg.wrapping_mul(0x9e37_79b9)));
    let span = (exp.1 - exp.0 + 1) as u32;
    let e = exp.0 + ((h >> 9) % span) as i32;
    let sign = h & 0x8000_0000;
    let mant = hash(h) & 0x007f_ffff;
    sign | (((e + 127) as u32) << 23) | mant
}

fn hash(v: u32) -> u32 {
    let mut h = v.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    h
}

fn glsl_input() -> String {
    let mut s = String::from("const uint EDGES[32] = uint[](");
    for (k, e) in EDGES.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "0x{:08x}u", e);
    }
    s.push_str(");\n");
    s.push_str(
        "uint hash(uint v) {
    uint h = v * 0x2c1b3c6du;
    h ^= h >> 12;
    h = h * 0x297a2d39u;
    h ^= h >> 15;
    return h;
}
float gen(uint i, uint arg, int lin, int elo, int ehi) {
    if (i < 64u) {
        uint k = (i + arg * 7u * (i / 32u + 1u)) % 32u;
        return uintBitsToFloat(EDGES[k]);
    }
    if (i < 2048u) {
        int j = int((i + 3968u - 1024u + arg * 333u) % 1984u) - 992;
        return float(j) * uintBitsToFloat(uint(lin - 10 + 127) << 23);
    }
    uint h = hash(i ^ (arg * 0x9e3779b9u));
    uint span = uint(ehi - elo + 1);
    int e = elo + int((h >> 9) % span);
    uint sgn = h & 0x80000000u;
    uint mant = hash(h) & 0x007fffffu;
    return uintBitsToFloat(sgn | (uint(e + 127) << 23) | mant);
}
",
    );
    s
}

fn shader(func: &Func) -> String {
    format!(
        "#version 330 core
#pragma chrisos profile 2
// Built-in accuracy: {name} on 4096 inputs, its result's bits written as the pixel's RGBA8.
out vec4 frag_color;
{input}
void main() {{
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint i = p.y * 64u + p.x;
    float x = gen(i, 0u, {lin}, {elo}, {ehi});
    float y = gen(i, 1u, {lin}, {elo}, {ehi});
    float r = {expr};
    uint b = floatBitsToUint(r);
    frag_color = vec4(uvec4(b, b >> 8u, b >> 16u, b >> 24u) & 255u) / 255.0;
}}
",
        name = func.name,
        input = glsl_input(),
        lin = func.lin,
        elo = func.exp.0,
        ehi = func.exp.1,
        expr = func.expr
    )
}

const VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec2 a_pos;
void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }
";

const SCENE: &str = r#"{"size": [64, 64], "attributes": [
    {"location": 0, "components": 2, "data": [-1, -1, 1, -1, 1, 1, -1, 1]}],
    "indices": [0, 1, 2, 0, 2, 3]}"#;

/// The result bits of every input, by input index (the picture's row 0 is the top).
fn results(img: &Image) -> Vec<u32> {
    let mut out = vec![0u32; N];
    for r in 0..SIZE {
        for x in 0..SIZE {
            let p = img.pixel(x, r);
            let i = ((SIZE - 1 - r) * SIZE + x) as usize;
            out[i] = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        }
    }
    out
}

/// Float bits to a line where adjacent floats are adjacent integers (-0 and +0 both 0).
fn ordered(b: u32) -> i64 {
    if b & 0x8000_0000 != 0 {
        -((b & 0x7fff_ffff) as i64)
    } else {
        b as i64
    }
}

/// The spacing of floats at `v` (one ulp).
fn ulp_of(v: f32) -> f32 {
    if !v.is_finite() {
        return f32::INFINITY;
    }
    f32::from_bits(v.abs().to_bits() + 1) - v.abs()
}

fn flush(v: f32) -> f32 {
    if v.is_finite() && v.abs() < f32::MIN_POSITIVE {
        0.0
    } else {
        v
    }
}

/// Whether GLSL leaves `func` undefined at these inputs.
fn undefined(tag: &str, x: f32, y: f32) -> bool {
    let nan = x.is_nan() || y.is_nan() || x.is_infinite() || y.is_infinite();
    match tag {
        "x<0" => x < 0.0 || nan,
        "x<=0" => x <= 0.0 || nan,
        "|x|>1" => x.abs() > 1.0 || nan,
        "|x|>=1" => x.abs() >= 1.0 || nan,
        "x<1" => x < 1.0 || nan,
        "x=y=0" => (x == 0.0 && y == 0.0) || nan,
        "y=0" => y == 0.0 || nan,
        "pow" => x < 0.0 || (x == 0.0 && y <= 0.0) || nan,
        "lo>hi" => y < -0.5 || nan,
        "det0" => nan || (x * 1.5 - 0.5 * y).abs() < 1e-30,
        // sin/cos/tan (and reflect's overflowing products) of huge arguments: GLSL gives no
        // precision there; llvmpipe and the software path reduce the argument differently.
        "huge" => nan || x.abs() > 1_048_576.0,
        // mod: y = 0, or x / y in the denormal range (llvmpipe flushes it to 0 and returns x).
        "mod" => {
            nan || y == 0.0 || {
                let q = (x / y).abs();
                q != 0.0 && q < f32::MIN_POSITIVE
            }
        }
        // NaN or infinite inputs: GLSL 3.30 (§4.1.4) does not require NaN/inf support.
        _ => nan,
    }
}

struct Outcome {
    checked: usize,
    undefined_diff: usize,
    max_ulp: i64,
    max_abs: f32,
    failures: Vec<String>,
}

fn judge(func: &Func, soft: &[u32], mesa: &[u32]) -> Outcome {
    let mut o = Outcome {
        checked: 0,
        undefined_diff: 0,
        max_ulp: 0,
        max_abs: 0.0,
        failures: Vec::new(),
    };
    for i in 0..N {
        let x = f32::from_bits(input(i as u32, 0, func.lin, func.exp));
        let y = f32::from_bits(input(i as u32, 1, func.lin, func.exp));
        let (s, m) = (f32::from_bits(soft[i]), f32::from_bits(mesa[i]));
        let (s, m) = (flush(s), flush(m));
        let same = (s.is_nan() && m.is_nan()) || s == m;
        let ulp = (ordered(s.to_bits()) - ordered(m.to_bits())).abs();
        let abs = (s - m).abs();
        let ok = same
            || (s.is_finite()
                && m.is_finite()
                && (func.ulp.is_some_and(|u| ulp <= u as i64)
                    || func.abs.is_some_and(|a| abs <= a)));
        // The tag "half": round() of a value halfway between two integers may go either way.
        let half = func.undefined == "half" && x.fract().abs() == 0.5;
        // Denormal inputs: llvmpipe flushes them to zero (GLSL 3.30 §4.1.4 allows it), the
        // software path computes with them.
        let denormal = |v: f32| v != 0.0 && v.abs() < f32::MIN_POSITIVE;
        let lenient = half || denormal(x) || (func.args > 1 && denormal(y));
        // The tag "mix": x (1 - a) + y a cancels; the error is allowed in ulps of the larger
        // input (2 ulp of max(|x|, |y|)).
        let ok = ok
            || (func.undefined == "mix"
                && s.is_finite()
                && m.is_finite()
                && abs <= 2.0 * ulp_of(x.abs().max(y.abs())));
        // Every function: NaN and infinite inputs are undefined (GLSL 3.30 §4.1.4); with a tag,
        // more inputs are.
        if (undefined(func.undefined, x, if func.args > 1 { y } else { 0.0 })
            || undefined("", x, if func.args > 1 { y } else { 0.0 })
            || lenient)
            && !ok
        {
            o.undefined_diff += 1;
            continue;
        }
        o.checked += 1;
        if s.is_finite() && m.is_finite() {
            o.max_ulp = o.max_ulp.max(ulp);
            o.max_abs = o.max_abs.max(abs);
        }
        if !ok && o.failures.len() < 8 {
            o.failures.push(format!(
                "  x = {:e} ({:#010x}), y = {:e}: shc {:e} ({:#010x}), Mesa {:e} ({:#010x}): {} ulp, abs {:e}",
                x,
                x.to_bits(),
                y,
                s,
                soft[i],
                m,
                mesa[i],
                ulp,
                abs
            ));
        } else if !ok {
            o.failures.push(String::new());
        }
    }
    o
}

#[test]
fn every_builtin_agrees_with_mesa_within_its_allowed_error() {
    let out = output_dir("builtin_accuracy");
    let scene_path = out.join("accuracy.json");
    std::fs::write(&scene_path, SCENE).unwrap();
    let vert_path = out.join("accuracy.vert");
    std::fs::write(&vert_path, VERT).unwrap();
    let scene = Scene::load(&scene_path).unwrap();
    let mut mesa = mesa_renderer();
    let mut report = String::new();
    let mut failed = Vec::new();
    for func in FUNCS {
        let src = shader(func);
        let frag_path = out.join(format!("{}.frag", func.name));
        std::fs::write(&frag_path, &src).unwrap();
        let mesa_img = mesa
            .render(VERT, &src, &scene)
            .unwrap_or_else(|e| panic!("{}: Mesa: {}", func.name, e));
        let png = out.join(format!("{}.soft.png", func.name));
        let run = Command::new(env!("CARGO_BIN_EXE_shc"))
            .arg("render")
            .arg(&vert_path)
            .arg(&frag_path)
            .arg("--scene")
            .arg(&scene_path)
            .arg("--out")
            .arg(&png)
            .args(["--profile", "2"])
            .output()
            .expect("run shc");
        assert!(
            run.status.success(),
            "{}: shc render failed:\n{}",
            func.name,
            String::from_utf8_lossy(&run.stderr)
        );
        let soft = results(&read_png(Path::new(&png)).unwrap());
        let mesa_r = results(&mesa_img);
        let o = judge(func, &soft, &mesa_r);
        let _ = writeln!(
            report,
            "{:16} checked {:4}, undefined and different {:4}, max {:>8} ulp, max abs {:9.2e}, failing {}",
            func.name,
            o.checked,
            o.undefined_diff,
            o.max_ulp,
            o.max_abs,
            o.failures.len()
        );
        if !o.failures.is_empty() {
            let shown: Vec<&String> = o.failures.iter().filter(|l| !l.is_empty()).collect();
            failed.push(format!(
                "{} ({} inputs outside ulp {:?} / abs {:?}):\n{}",
                func.name,
                o.failures.len(),
                func.ulp,
                func.abs,
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    eprintln!("{}", report);
    assert!(
        failed.is_empty(),
        "{} of {} built-ins disagree with Mesa beyond their allowed error:\n{}",
        failed.len(),
        FUNCS.len(),
        failed.join("\n")
    );
}
