//! The compiled form against the interpreter (the reference): each shader runs on random
//! inputs (NaN, infinities, signed zeros, denormals and huge values included) and random
//! active-lane masks, through `Executable::run` and through `jitmem::Code`, and every active
//! lane of every output must have the same bits. Each shader here must compile (a module that
//! fell back to the interpreter would prove nothing), so the test fails if one does not.
//! Every check runs each form of the compiled code: 8 lanes per YMM, then 16 per ZMM where
//! the machine has AVX-512F/DQ (a note is printed where it has not; a module the 16-lane form
//! does not take, with texture ops or DISCARD, runs in the 8-lane form there).
#![cfg(all(target_arch = "x86_64", unix))]

use jitmem::Code;
use shader::back::exec::jit::{Form, Frame, GROUPS};
use shader::back::exec::lanes::{Mask, LANES};
use shader::back::exec::texture::TextureRef;
use shader::back::exec::{Executable, Invocation, Outputs, Regs};
use shader::ir::{Module, Stage};

fn compile(stage: Stage, src: &str) -> Module {
    match shader::program::compile::compile(stage as u32, src.as_bytes(), "test") {
        Ok(s) => s.module,
        Err(d) => panic!("compile failed: {:?}\n{}", d, src),
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn value(&mut self) -> f32 {
        const EDGES: [f32; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -1e-41,
            3.0e38,
            f32::MIN_POSITIVE,
            0.5,
        ];
        let r = self.next();
        if r.is_multiple_of(4) {
            EDGES[(r >> 8) as usize % EDGES.len()]
        } else {
            ((r >> 16) as u32 as f32 / u32::MAX as f32 - 0.5) * 8.0
        }
    }
}

fn have_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// One dispatch of `inputs` (no textures) through the interpreter and through `code` (its
/// outputs starting as `got`): the interpreter's lanes and outputs, then the compiled run's
/// (None: given back) and outputs.
#[allow(clippy::too_many_arguments)]
fn run_both(
    exe: &Executable,
    code: &Code,
    frames: &mut [Frame],
    uniforms: &[f32],
    inputs: &[[[f32; LANES]; 4]; 16],
    fragcoord: &[[f32; LANES]; 4],
    active: Mask,
    mut got: Box<Outputs>,
) -> (Mask, Box<Outputs>, Option<Mask>, Box<Outputs>) {
    let inv = Invocation {
        uniforms,
        textures: &[],
        inputs,
        fragcoord,
    };
    let mut want = Box::new(Outputs::new());
    let wm = exe.run(&mut Regs::new(), &inv, &mut want, active);
    let gm = code.run(exe, frames, &inv, &mut got, active);
    (wm, want, gm, got)
}

/// Runs `m` through both paths on `rounds` random dispatches; panics at the first difference.
fn check(m: &Module, rounds: u32, seed: u64) {
    check_bails(m, rounds, seed, &mut 0);
}

/// [`check`], counting the dispatches the compiled code gave back to the interpreter.
fn check_bails(m: &Module, rounds: u32, seed: u64, bails: &mut u32) {
    check_tex(m, rounds, seed, bails, &[]);
}

/// [`check_bails`] with `textures` bound; with textures, the active masks are whole 2x2
/// quads (as the rasterizer's with derivatives: a sample's level of detail reads its quad's
/// other lanes, which must have run).
fn check_tex(m: &Module, rounds: u32, seed: u64, bails: &mut u32, textures: &[Option<TextureRef>]) {
    for form in forms() {
        check_form(m, rounds, seed, bails, textures, form);
    }
}

/// The forms this machine runs: the 8-lane one, and the 16-lane one where it can.
fn forms() -> Vec<Form> {
    static NOTE: std::sync::Once = std::sync::Once::new();
    if jitmem::available(Form::Zmm) {
        vec![Form::Ymm, Form::Zmm]
    } else {
        NOTE.call_once(|| eprintln!("no AVX-512F/DQ here: the 16-lane form is not tested"));
        vec![Form::Ymm]
    }
}

/// [`check_tex`] of the code made preferring `form`.
fn check_form(
    m: &Module,
    rounds: u32,
    seed: u64,
    bails: &mut u32,
    textures: &[Option<TextureRef>],
    form: Form,
) {
    let exe = Executable::new(m, None).expect("verifies");
    let code = match Code::new_in(&exe, form) {
        Ok(c) => c,
        Err(e) => panic!("not compiled: {e:?}"),
    };
    // The 16-lane form takes every module the 8-lane one does: no silent fallback here.
    assert_eq!(code.form(), form, "not compiled in the {form:?} form");
    let mut r = Rng(seed | 1);
    let mut regs = Regs::new();
    let mut frames = vec![Frame::new(); GROUPS];
    let mut uniforms = [0.0f32; 128];
    for round in 0..rounds {
        if round % 2 == 0 {
            uniforms.iter_mut().for_each(|u| *u = r.value());
        }
        let mut inputs = Box::new([[[0.0f32; LANES]; 4]; 16]);
        for s in inputs.iter_mut() {
            for c in s.iter_mut() {
                c.iter_mut().for_each(|x| *x = r.value());
            }
        }
        let mut fragcoord = [[0.0f32; LANES]; 4];
        for c in fragcoord.iter_mut() {
            c.iter_mut().for_each(|x| *x = r.value());
        }
        let mut active = match round % 3 {
            0 => u32::MAX,
            _ => r.next() as Mask | 1,
        };
        if !textures.is_empty() {
            active = quads(active);
        }
        let inv = Invocation {
            uniforms: &uniforms,
            textures,
            inputs: &inputs,
            fragcoord: &fragcoord,
        };
        let mut want = Box::new(Outputs::new());
        let mut got = Box::new(Outputs::new());
        let wm = exe.run(&mut regs, &inv, &mut want, active);
        // A new draw: new uniforms. Every other round keeps the frame of the previous round
        // with the same uniforms (what dispatches of one draw see: spill slots and all).
        if round % 2 == 0 {
            exe.prepare_frames(&mut frames, &uniforms);
        }
        let gm = match code.run(&exe, &mut frames, &inv, &mut got, active) {
            Some(m) => m,
            None => {
                // Given back (a SIN/COS operand out of the inline range): the interpreter's.
                *bails += 1;
                exe.run(&mut Regs::new(), &inv, &mut got, active)
            }
        };
        assert_eq!(wm, gm, "{form:?} round {round}: active lanes");
        type Pair<'a> = (&'a str, &'a [[f32; LANES]; 4], &'a [[f32; LANES]; 4]);
        let pairs: Vec<Pair> = match m.stage {
            Stage::Fragment => vec![("color", &want.color, &got.color)],
            Stage::Vertex => {
                let mut v = vec![("position", &want.position, &got.position)];
                for s in 0..want.varyings.len() {
                    v.push(("varying", &want.varyings[s], &got.varyings[s]));
                }
                v
            }
        };
        for (name, w, g) in pairs {
            for c in 0..4 {
                for l in 0..LANES {
                    // Any NaN matches any NaN: which one an op on two NaNs gives depends on
                    // its operand order, and the interpreter's own order is LLVM's choice
                    // (it may commute ADD and MUL), so NaN bits are not part of the contract.
                    if wm & (1 << l) != 0 && !(w[c][l].is_nan() && g[c][l].is_nan()) {
                        assert_eq!(
                            w[c][l].to_bits(),
                            g[c][l].to_bits(),
                            "{form:?} round {round}: {name}[{c}] lane {l}: {} vs {}",
                            w[c][l],
                            g[c][l]
                        );
                    }
                }
            }
        }
    }
}

const FS_HEAD: &str =
    "#version 330\nin vec4 a;\nin vec4 b;\nuniform vec4 u;\nuniform vec4 w;\nout vec4 c;\n";

fn frag(body: &str) -> Module {
    compile(
        Stage::Fragment,
        &format!("{FS_HEAD}void main() {{ {body} }}\n"),
    )
}

/// A profile-2 fragment shader (its wider built-in library).
fn frag2(body: &str) -> Module {
    let head = FS_HEAD.replace(
        "#version 330\n",
        "#version 330\n#pragma chrisos profile 2\n",
    );
    compile(
        Stage::Fragment,
        &format!("{head}void main() {{ {body} }}\n"),
    )
}

#[test]
fn arithmetic_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    check(&frag("c = a + b * u;"), 60, 11);
    check(&frag("c = a - b / u;"), 60, 12);
    check(
        &frag("c = (a * vec4(2.0, 0.5, -1.0, 3.0) + vec4(1.0)) * w.x;"),
        60,
        13,
    );
    check(&frag("c = u.y * a - b * w.z;"), 60, 14);
}

#[test]
fn swizzles_dots_and_lanes_match_interpreter() {
    if !have_avx2() {
        return;
    }
    check(&frag("c = a.wzyx * u.x + vec4(dot(a, b));"), 60, 21);
    check(
        &frag("c = vec4(dot(a.xyz, b.xyz), a.x - b.y, a.w / b.z, abs(a.y));"),
        60,
        22,
    );
    check(
        &frag("vec4 t = a; t.y = b.x; t.w = u.z; c = t - u;"),
        60,
        23,
    );
    check(
        &frag("c = vec4(dot(a.xy, b.zw), abs(b.zx), 1.0) + w;"),
        60,
        24,
    );
    check(&frag("c = gl_FragCoord * u + a.yxwz;"), 60, 25);
}

#[test]
fn min_max_and_roots_match_interpreter() {
    if !have_avx2() {
        return;
    }
    check(&frag("c = min(a, b) + max(b, u);"), 120, 51);
    check(&frag("c = clamp(a, b.x, u.y) * max(a.x, w.z);"), 120, 52);
    check(
        &frag2("c = vec4(sqrt(a.xy), inversesqrt(b.z), 1.0 / a.w);"),
        120,
        53,
    );
    check(&frag("c = vec4(normalize(a.xyz), length(b));"), 120, 54);
}

#[test]
fn comparisons_match_interpreter() {
    if !have_avx2() {
        return;
    }
    check(
        &frag(
            "c = vec4(float(a.x < b.x), float(a.y >= b.y), float(a.z == b.z), float(a.w != b.w));",
        ),
        90,
        41,
    );
    check(
        &frag("c = vec4(float(a.x > u.x), float(a.y <= u.y), float(b.z > a.w), 1.0) * w;"),
        90,
        42,
    );
}

#[test]
fn vertex_stage_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    let vs = "#version 330
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform vec4 u;
out vec4 v0;
out vec2 v1;
void main() { gl_Position = p * u + q; v0 = q.zyxw - u; v1 = p.xy * q.w; }
";
    check(&compile(Stage::Vertex, vs), 60, 31);
}

/// More live values than YMM registers (six vec4s = 24 live components): the allocator must
/// spill to the frame and reload, and the spill slots persist across dispatches of a draw.
#[test]
fn register_pressure_spills_match_interpreter() {
    if !have_avx2() {
        return;
    }
    check(
        &frag(
            "vec4 t0 = a * u; vec4 t1 = b * w; vec4 t2 = a + b; vec4 t3 = a - w; \
             vec4 t4 = b * u.x + a; vec4 t5 = t0 * t1 - t2; vec4 t6 = t3 / (t4 + w.y); \
             c = ((t0 + t1) * (t2 - t3) + (t4 * t5 - t6)) * (t0.wzyx + t6.yxwz) - t5 * t1;",
        ),
        90,
        61,
    );
    check(
        &frag(
            "vec4 p = min(a, b); vec4 q = max(a, u); vec4 r = abs(b - w); vec4 s = a * b; \
             vec4 t = vec4(dot(p, q), dot(r, s), dot(p, s), dot(q, r)); \
             c = (p + q) * (r - s) + t * (p - r) + (q * s) / (t + vec4(2.0));",
        ),
        90,
        62,
    );
}

/// Matrix times vector (MULMV): every column count, the result written after every component
/// is computed (the destination may be the vector or a column).
#[test]
fn matrices_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let vs = "#version 330
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform mat4 m;
uniform mat3 n;
out vec4 v0;
out vec3 v1;
out vec2 v2;
void main() {
    gl_Position = m * p;
    v0 = m * (m * q);
    v1 = n * q.xyz + n * p.zyx;
    v2 = (n * q.wzy).xy - p.xy;
}
";
    check(&compile(Stage::Vertex, vs), 90, 71);
    let vs2 = "#version 330
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform vec4 u;
out vec4 v0;
void main() {
    mat4 a = mat4(p, q, p * u, q - u);
    gl_Position = a * q;
    v0 = a * (a * u);
}
";
    check(&compile(Stage::Vertex, vs2), 90, 72);
    // Matrix times matrix (MULMM): every size, a product feeding another, inside an IF.
    let vs3 = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform mat4 m;
uniform mat3 n;
uniform vec4 u;
out vec4 v0;
out vec3 v1;
out vec2 v2;
void main() {
    mat4 a = mat4(p, q, p * u, q - u);
    mat4 b = m * a;
    gl_Position = (b * a) * q;
    v0 = (a * m) * p;
    v1 = (n * mat3(p.xyz, q.xyz, u.xyz)) * q.zyx;
    mat2 c = mat2(p.xy, q.zw) * mat2(u.xy, u.zw);
    v2 = c * p.wz;
    if (p.x > 0.0) { mat2 d = c * c; v2 = d * q.xy; }
}
";
    check(&compile(Stage::Vertex, vs3), 90, 73);
}

/// POW, SIN and COS (inline, POW's cold path calling `jit::Helper::Pow`): operands from
/// YMMs, bank constants, uniforms and inputs, values live across them, and results read by
/// later code.
#[test]
fn math_call_outs_match_interpreter() {
    if !have_avx2() {
        return;
    }
    check(&frag("c = pow(a, b);"), 120, 81);
    check(
        &frag("c = pow(abs(a), vec4(2.0, 0.5, 16.0, 3.0)) + pow(u, w);"),
        120,
        82,
    );
    check(
        &frag("c = vec4(sin(a.xy), cos(b.zw)) * u + sin(w * 100.0);"),
        120,
        83,
    );
    check(
        &frag(
            "vec4 t0 = a * u; vec4 t1 = b * w; vec4 t2 = a + b; vec4 t3 = a - w; \
             vec4 s = sin(t0 + t3); vec4 p = pow(abs(t1), t2.yxwz); \
             c = (t0 + t1) * (t2 - t3) + s * p + cos(t2) - t1 * s;",
        ),
        120,
        84,
    );
    check(
        &frag("float x = max(dot(a.xyz, b.xyz), 0.0); c = vec4(pow(x, 32.0)) * u + cos(x) * w;"),
        120,
        85,
    );
}

/// POW inline (`jit/pow.rs`: `math::pow_f32` op for op, its +0 shortcuts, and an in-line
/// cold path calling the interpreter's `pow_lanes` for the other lanes): raw inputs (negative
/// bases, zeros of both signs, NaN, infinities, denormals), huge and tiny bases and exponents
/// (results past the f32 range, the shortcuts and the lanes between -151 and -125), integer
/// exponents, a specular term, under IF masks and in loops. POW never gives a dispatch back.
#[test]
fn pow_inline_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    let mut bails = 0;
    for (body, seed) in [
        ("c = pow(a, b);", 201),
        ("c = pow(abs(a), b * 40.0) + pow(abs(b), a * 1e4);", 202),
        (
            "c = pow(abs(a) * 1e-36, b) + pow(abs(b) * 1e30, a) * pow(abs(a) * 1e-39, w);",
            203,
        ),
        (
            "c = pow(abs(a), vec4(2.0, 3.0, -2.0, 5.0)) + pow(a, vec4(2.0, 3.0, 0.0, -1.0));",
            204,
        ),
        (
            "c = pow(abs(a) + 0.01, b * 1e-7) * pow(u, w) - pow(vec4(0.0, -0.0, 1.0, 2.0), b);",
            205,
        ),
        (
            "float x = max(dot(a.xyz, b.xyz), 0.0); \
          c = vec4(pow(x, 32.0), pow(x, u.x), pow(u.y, x), pow(clamp(a.w, 0.0, 1.0), 64.0));",
            206,
        ),
        (
            "vec4 t = a; if (a.w <= u.z) { t = pow(abs(t), w); c = t; } else { c = pow(b, a); } \
          c = c + pow(abs(t), b * 20.0);",
            207,
        ),
        (
            "vec4 t0 = a * u; vec4 t1 = b * w; vec4 t2 = a + b; vec4 t3 = a - w; vec4 t4 = a * b; \
          vec4 p = pow(abs(t1), t2.yxwz) + pow(abs(t0), t3); \
          c = (t0 + t1) * (t2 - t3) + p * t4 + pow(abs(t4), t0) - t1 * t3 + t0 * t4;",
            208,
        ),
    ] {
        check_bails(&frag(body), 200, seed, &mut bails);
    }
    // One POW per output component (no sum to hide a last-bit difference), with y log2 x
    // placed where the core is least exact (its exp polynomial's argument near +-ln2/2) and
    // around the edges: the +0 shortcut at -151, the core's range at +-125, the f32 range.
    for (body, seed) in [
        ("c = pow(vec4(2.0, 0.5, 2.0, 0.5), a * 0.01 + vec4(0.49, -0.49, 3.49, -7.49));", 221),
        ("c = pow(vec4(0.5, 2.0, 0.5, 2.0), a * 0.5 + vec4(149.5, -149.5, 125.0, 125.0));", 222),
        ("c = pow(vec4(0.5, 2.0, 3.0, 0.7), a * 2.0 + b * 0.001 + vec4(-125.0, 126.0, 79.0, 250.0));", 223),
    ] {
        check_bails(&frag(body), 400, seed, &mut bails);
    }
    // Profile 2: integer exponents from FLOOR, loops.
    let p2 = [
        "c = pow(abs(a), floor(b * 3.0)) + pow(a, floor(b * 2.0));",
        "vec4 s = vec4(0.0); for (int i = 0; i < 6; i++) { s += pow(abs(a), b + float(i)); if (s.x > u.x) break; } c = s;",
        "vec4 t = a; for (int i = 0; i < 5; i++) { if (t.y > 0.0) { t = pow(abs(t) + 0.5, b * 8.0); } else { t.y += 1.0; } } c = t;",
        "float s = 0.0; for (int i = 0; i < 4; i++) { vec4 x = a * float(i) + b; s += pow(max(x.x, 0.0), 32.0) + pow(x.y, x.z); } c = vec4(s);",
    ];
    for (k, body) in p2.iter().enumerate() {
        check_bails(&frag2(body), 150, 210 + k as u64, &mut bails);
    }
    assert_eq!(bails, 0, "POW gave a dispatch back");
}

/// SIN/COS inline (the interpreter's reduction and polynomials, op for op): operands in the
/// inline range (clamp turns NaN into the low bound) must never give the dispatch back, and
/// raw inputs (NaN, infinities, huge values in some lanes) must, for the active lanes only.
#[test]
fn trig_inline_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    let mut bails = 0;
    for (body, seed) in [
        ("vec4 x = clamp(a, -3.0, 3.0) * 2000.0; c = vec4(sin(x.xy), cos(x.zw)) + sin(x * 0.001);", 91),
        ("vec4 x = clamp(a * 100.0, vec4(-8191.9), vec4(8191.9)); c = sin(x) * cos(x.wzyx);", 92),
        ("vec4 x = clamp(a, -1.0, 1.0); c = sin(x * 1e-30) + cos(x * 3.14159265) + sin(-x);", 93),
        ("vec4 x = clamp(b, -2.0, 2.0); vec4 t0 = x * clamp(u.x, -4.0, 4.0); vec4 t1 = x + w; \
          c = sin(t0 * 0.0) + cos(clamp(t1, -1e3, 1e3)) * t0 - sin(x.yzwx * 7.0) * t1;", 94),
    ] {
        check_bails(&frag(body), 150, seed, &mut bails);
    }
    assert_eq!(bails, 0, "an in-range dispatch was given back");
    check_bails(&frag("c = sin(a) + cos(b) * u;"), 150, 95, &mut bails);
    assert!(
        bails > 0,
        "out-of-range operands never gave a dispatch back"
    );
}

/// [`check_bails`] of each profile-2 fragment body for `rounds`, seeds from `seed`.
fn check_p2_bodies(bodies: &[&str], rounds: u32, seed: u64) {
    let mut bails = 0;
    for (k, body) in bodies.iter().enumerate() {
        check_bails(&frag2(body), rounds, seed + k as u64, &mut bails);
    }
}

/// Loops (issue 14): divergent breaks (plain and decode's fused conditional forms), CONTINUE,
/// nested loops, loops inside IFs and IFs inside loops, DISCARD and early returns inside loops,
/// loops that run into their budget, all compiled and bit for bit against the interpreter.
#[test]
fn loops_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "vec4 t = a; for (int i = 0; i < 40; i++) { t = t * u + b; } c = t;",
        "vec4 t = a; for (int i = 0; i < 8; i++) { if (t.x > u.x) break; t = t * w; } c = t;",
        "vec4 t = a; for (int i = 0; i < 3; i++) { if (t.y < 0.0) { t.x += 1.0; } else { continue; } t.z = t.x; } c = t;",
        // A uniform bound and a data-dependent exit (the fractal's shape).
        "vec2 z = vec2(0.0); int n = 0; int steps = int(clamp(u.x * 8.0, -2.0, 40.0)); for (int i = 0; i < steps; i++) { z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + a.xy; if (dot(z, z) > 4.0) break; n++; } c = vec4(z, float(n), float(n == steps));",
        // while / do-while, break and continue at several depths.
        "vec4 t = a; int i = 0; while (t.x < 10.0) { t.x += abs(b.x) + 0.5; i++; if (i > 30) break; } c = t + float(i);",
        "vec4 t = b; int i = 0; do { t = t.yzwx * 0.5 + a; i++; if (t.y > u.y) { continue; } t.w -= 1.0; } while (i < 5 && t.x < 3.0); c = t;",
        // Nested loops with inner breaks and outer continues.
        "vec4 t = vec4(0.0); for (int i = 0; i < 6; i++) { if (a[i % 4] > u.x) continue; for (int j = 0; j < 5; j++) { t.x += b.y; if (t.x > w.x + float(j)) break; t.y += 1.0; } t.z += 1.0; } c = t;",
        // A loop inside an IF and an IF inside a loop, with an else.
        "vec4 t = a; if (b.x > 0.0) { for (int i = 0; i < 7; i++) { if (t.y > 0.0) { t.y -= 1.5; } else { t.y += 0.75; t.x *= 2.0; } } } else { t = w; } c = t;",
        // DISCARD and an early return inside a loop.
        "vec4 t = a; for (int i = 0; i < 9; i++) { t += b; if (t.x > u.x) discard; if (t.y > 5.0) { c = t; return; } } c = -t;",
        // Integers: counters, index math, a dynamically indexed local array.
        "vec3 p[4] = vec3[4](vec3(0.1, 0.2, 0.3), vec3(1.0, 2.0, 3.0), vec3(-1.0), vec3(9.0, 8.0, 7.0)); float t = a.x * 3.0; int k = int(t); c = vec4(mix(p[k], p[k + 1], fract(t)), 1.0);",
        // A temp read before any write (the interpreter zeroes it per dispatch) carried
        // round a loop, and an unsigned counter (UCMP exit tests).
        "vec4 s; for (int i = 0; i < 5; i++) { s.x += a.x; s.y = s.x * b.y; } c = s;",
        "uint n = 0u; for (uint i = 0u; i < uint(abs(u.x) * 9.0); i++) { n += 2u; if (float(n) > abs(b.x) * 6.0) break; } c = vec4(float(n));",
        "float s = 0.0; for (int i = 0; i < 20; i++) { s += floor(a.x * float(i)) + ceil(b.y) + trunc(b.z) + roundEven(a.w); if (s > 50.0) break; } c = vec4(s, fract(s), fract(a.y), floor(b.x));",
    ];
    check_p2_bodies(&bodies, 150, 300);
}

/// Loops at their budget: an unproven loop that never ends by itself runs into the profile-2
/// budget (65535 iterations per invocation), per lane, nested ones included; the lanes leave
/// as if by BREAK and the counts left in the outputs are the interpreter's.
#[test]
fn loops_at_the_budget_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "int n = 0; while (a.x < 1e30) { n++; } c = vec4(float(n));",
        "int n = 0; while (true) { n++; if (n > int(u.x * 70000.0)) break; } c = vec4(float(n));",
        "int n = 0; int m = 0; for (int i = 0; i < 1000 + int(u.y * 0.0); i++) { for (int j = 0; j < 1000 + int(u.z * 0.0); j++) { n++; } m++; } c = vec4(float(n), float(m), 0.0, 1.0);",
        "int n = 0; int m = 0; for (int i = 0; i < int(u.y * 300.0); i++) { for (int j = 0; j < int(u.z * 400.0); j++) { n++; } m++; } c = vec4(float(n), float(m), 0.0, 1.0);",
    ];
    check_p2_bodies(&bodies, 12, 400);
}

/// Integer edge cases: INT_MIN / -1 style wraps, INT_MAX + 1, shifts by 0, 31 and 32 (counts
/// are taken mod 32), unsigned wrap and compares, and conversions of NaN, infinities and huge
/// floats, on random bit patterns and the edges (`floatBitsToInt` reaches every pattern).
#[test]
fn integer_edges_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "ivec4 x = floatBitsToInt(a); ivec4 y = floatBitsToInt(b); c = intBitsToFloat(x + y) + intBitsToFloat(x - y) + intBitsToFloat(x * y);",
        "ivec4 x = floatBitsToInt(a); c = intBitsToFloat(ivec4(x.x + 2147483647, x.y * -1, -x.z, abs(x.w)));",
        "ivec4 x = floatBitsToInt(a); ivec4 y = floatBitsToInt(b); c = intBitsToFloat((x & y) | (x ^ ~y));",
        "ivec4 x = floatBitsToInt(a); ivec4 s = ivec4(0, 31, 32, int(u.x * 40.0)); c = intBitsToFloat((x << s) ^ (x >> s));",
        "uvec4 x = floatBitsToUint(a); uvec4 s = uvec4(0u, 31u, 32u, floatBitsToUint(b.y)); c = uintBitsToFloat((x << s) + (x >> s));",
        "ivec4 x = floatBitsToInt(a); ivec4 y = floatBitsToInt(b); c = vec4(x.x < y.x, x.y >= y.y, x.z == y.z, x.w != y.w) + vec4(x.x > y.x, x.y <= y.y, 0.0, 0.0);",
        "uvec4 x = floatBitsToUint(a); uvec4 y = floatBitsToUint(b); c = vec4(x.x < y.x, x.y >= y.y, x.z > y.z, x.w <= y.w);",
        "c = intBitsToFloat(ivec4(a * 1e9)) + intBitsToFloat(ivec4(b));",
        "c = uintBitsToFloat(uvec4(a * 1e9)) + uintBitsToFloat(uvec4(b * 3e9));",
        "c = vec4(floatBitsToInt(a)) + vec4(floatBitsToUint(b));",
        "ivec4 x = floatBitsToInt(a); ivec4 y = floatBitsToInt(b); c = intBitsToFloat(min(x, y) + max(x, y) * sign(x));",
        "uvec4 x = floatBitsToUint(a); uvec4 y = floatBitsToUint(b); c = uintBitsToFloat(min(x, y) ^ max(x, y));",
    ];
    check_p2_bodies(&bodies, 150, 500);
}

/// IF/ELSE/ENDIF and DISCARD written out: conditions on NaN lanes (ordered compares are
/// false there, != is true), writes under partial masks, outputs stored inside IFs, a POW
/// call-out and SIN inside IFs (their results blended under the mask), discards at several
/// depths.
#[test]
fn if_else_discard_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let mut bails = 0;
    for (body, seed) in [
        ("c = a; if (a.x < u.x) { c = b; }", 101),
        ("vec4 t = a; if (a.y >= b.y) { t = t * u; } else { t = t - w; } c = t + b;", 102),
        ("vec4 t = a; if (a.z != b.z) { t.x = b.y; if (b.w > u.w) { t.yz = a.xw * u.y; } else { t.w = 2.0; } } c = t;", 103),
        ("if (a.x > u.x) discard; c = a * w;", 104),
        ("vec4 t = b; if (a.x < 0.5) { t = t + a; if (b.x == b.x) { discard; } t = t * 3.0; } else { t.y = -1.0; } c = t;", 105),
        ("vec4 t = a; if (a.w <= u.z) { t = pow(abs(t), w); c = t; } else { c = b; } c = c + t;", 106),
        ("vec4 t = clamp(a, -3.0, 3.0); if (b.x > 0.0) { t.xy = sin(t.zw); } c = t;", 107),
        ("vec4 t = a; if (b.x > 0.0) { t = sin(t); } c = t;", 108),
        ("c = a; if (u.x > 0.0) { c = b; if (a.x < b.x) { discard; } } else { c = w; }", 109),
    ] {
        check_bails(&frag(body), 120, seed, &mut bails);
    }
    let vs = "#version 330
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform vec4 u;
out vec4 v0;
void main() {
    gl_Position = p;
    v0 = q;
    if (p.x < u.x) { gl_Position = q * u; if (q.y > 0.0) { v0 = p - q; } } else { v0.zw = u.xy; }
}
";
    check_bails(&compile(Stage::Vertex, vs), 120, 111, &mut bails);
    // SIN under an IF that keeps out the lanes outside its inline range (NaN, huge): those
    // lanes are off the mask, so no dispatch is given back.
    bails = 0;
    check_bails(
        &frag("c = a; if (abs(a.x) < 100.0) { c.xy = vec2(sin(a.x), cos(a.x)); }"),
        150,
        110,
        &mut bails,
    );
    assert_eq!(bails, 0, "a lane off the mask gave the dispatch back");
}

/// A random statement for [`random_nest`] on temps t0, t1 and output c.
fn random_stmt(r: &mut Rng) -> &'static str {
    const S: [&str; 12] = [
        "t0 = t0 * u + b;",
        "t1.xz = t0.yw - a.xy;",
        "t0 = min(t0, t1);",
        "t1 = vec4(dot(t0, a));",
        "t0.w = t1.x / b.z;",
        "c = t0 + t1;",
        "c.y = t1.w;",
        "t1 = pow(abs(t0), w);",
        "t0 = max(t1, a) - u;",
        "t1 = t1.wzyx * w.x;",
        "t0 = sqrt(abs(t1));",
        "t1.x = sin(clamp(t0.y, -10.0, 10.0));",
    ];
    S[r.next() as usize % S.len()]
}

/// A random comparison (NaN inputs make the ordered ones false and != true).
fn random_cond(r: &mut Rng) -> &'static str {
    const C: [&str; 8] = [
        "t0.x < u.y",
        "a.z != b.w",
        "t1.y >= a.x",
        "b.x == b.x",
        "t0.w > 0.0",
        "a.y <= t1.z",
        "u.x < 0.0",
        "t1.x != t0.y",
    ];
    C[r.next() as usize % C.len()]
}

/// A random block of statements and IF/ELSE nests (to `depth` more levels).
fn random_nest(r: &mut Rng, depth: u32, discards: bool, out: &mut String) {
    for _ in 0..1 + r.next() % 3 {
        match r.next() % 8 {
            0..=2 if depth > 0 => {
                out.push_str(&format!("if ({}) {{ ", random_cond(r)));
                random_nest(r, depth - 1, discards, out);
                out.push('}');
                if r.next().is_multiple_of(2) {
                    out.push_str(" else { ");
                    random_nest(r, depth - 1, discards, out);
                    out.push('}');
                }
                out.push(' ');
            }
            3 if discards && r.next().is_multiple_of(3) => out.push_str("discard; "),
            _ => {
                out.push_str(random_stmt(r));
                out.push(' ');
            }
        }
    }
}

/// A random block for [`random_loops_match_interpreter`]: statements, IF/ELSE nests and loops
/// (constant, uniform and data-dependent bounds) with BREAK / CONTINUE under random conditions,
/// to `depth` more levels; `inside` tells whether a loop is open (BREAK allowed).
fn random_loop_nest(r: &mut Rng, depth: u32, inside: bool, out: &mut String) {
    for _ in 0..1 + r.next() % 3 {
        match r.next() % 10 {
            0..=2 if depth > 0 => {
                const BOUND: [&str; 4] = [
                    "4",
                    "int(abs(u.z) * 5.0)",
                    "7",
                    "int(clamp(a.w * 3.0, -1.0, 9.0))",
                ];
                let b = BOUND[r.next() as usize % BOUND.len()];
                out.push_str(&format!(
                    "for (int i{depth} = 0; i{depth} < {b}; i{depth}++) {{ "
                ));
                random_loop_nest(r, depth - 1, true, out);
                out.push_str("} ");
            }
            3 if depth > 0 => {
                out.push_str(&format!("if ({}) {{ ", random_cond(r)));
                random_loop_nest(r, depth - 1, inside, out);
                out.push('}');
                if r.next().is_multiple_of(2) {
                    out.push_str(" else { ");
                    random_loop_nest(r, depth - 1, inside, out);
                    out.push('}');
                }
                out.push(' ');
            }
            4 if inside => out.push_str(&format!("if ({}) break; ", random_cond(r))),
            5 if inside && r.next().is_multiple_of(2) => {
                out.push_str(&format!("if ({}) continue; ", random_cond(r)))
            }
            6 if r.next().is_multiple_of(4) => out.push_str("if (t0.z > 3.0) discard; "),
            _ => {
                out.push_str(random_stmt(r));
                out.push(' ');
            }
        }
    }
}

/// Random structured programs with loops (up to 4 levels of loops and IFs), bit for bit
/// against the interpreter under random active masks.
#[test]
fn random_loops_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let mut r = Rng(0x1009_5EED);
    let mut bails = 0;
    for k in 0..40u64 {
        let mut body = String::from("vec4 t0 = a; vec4 t1 = b; c = a; ");
        random_loop_nest(&mut r, 1 + (k % 4) as u32, false, &mut body);
        body.push_str("c = c + t0 - t1;");
        let m = frag2(&body);
        let exe = Executable::new(&m, None).expect("verifies");
        if let Err(e) = Code::new(&exe) {
            panic!("not compiled: {e:?}\n{body}");
        }
        check_bails(&m, 30, 600 + k, &mut bails);
    }
}

/// Random IF/ELSE nests (up to 5 deep) with and without DISCARD, bit for bit against the
/// interpreter under random active masks.
#[test]
fn random_if_nests_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let mut r = Rng(0x5EED_1F1F);
    let mut bails = 0;
    for k in 0..48u64 {
        let mut body = String::from("vec4 t0 = a; vec4 t1 = b; c = a; ");
        random_nest(&mut r, 1 + (k % 5) as u32, k % 3 != 0, &mut body);
        body.push_str("c = c + t0 - t1;");
        let m = frag2(&body);
        let exe = Executable::new(&m, None).expect("verifies");
        if let Err(e) = Code::new(&exe) {
            panic!("not compiled: {e:?}\n{body}");
        }
        check_bails(&m, 40, 200 + k, &mut bails);
    }
}

/// Every lane of each 2x2 quad (lanes `l, l+1, l+4, l+5` of each 8-lane block, `l` = 0 or 2)
/// that has a lane in `m`.
fn quads(m: Mask) -> Mask {
    let mut out = 0;
    for b in (0..LANES).step_by(8) {
        for c in [0, 2] {
            let q: Mask = 0b11_0011 << (b + c);
            if m & q != 0 {
                out |= q;
            }
        }
    }
    out
}

/// Texels of a `w` x `h` level: pseudo-random colours (every channel varies).
fn texels(w: u32, h: u32, seed: u32) -> Vec<u32> {
    (0..w * h)
        .map(|i| (i.wrapping_mul(0x9E37_79B9) ^ seed).wrapping_mul(0x85EB_CA6B) ^ (i << 5))
        .collect()
}

/// The texture data the sampling tests bind: an 8x8 2D texture with its mip chain, six cube
/// faces with levels, three array layers, and a 4x4 depth texture.
struct TexData {
    level0: Vec<u32>,
    levels: Vec<Vec<u32>>,
    faces: Vec<Vec<u32>>,
    depth: Vec<f32>,
}

impl TexData {
    fn new() -> TexData {
        TexData {
            level0: texels(8, 8, 1),
            levels: vec![texels(4, 4, 2), texels(2, 2, 3), texels(1, 1, 4)],
            faces: (0..6).map(|f| texels(8, 8, 10 + f)).collect(),
            depth: (0..16).map(|i| (i as f32 * 0.37) % 1.0).collect(),
        }
    }
}

/// Every sampler state the sampling tests go through: each filter, wrap and mip choice, with
/// and without a bias, a clamped level range, a split min filter and t wrap.
fn sampler_states() -> Vec<shader::back::exec::texture::SamplerState> {
    use shader::back::exec::texture::{Filter, MipFilter, SamplerState, Wrap};
    let mut v = Vec::new();
    for (i, filter) in [Filter::Nearest, Filter::Linear].into_iter().enumerate() {
        for (j, wrap) in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat]
            .into_iter()
            .enumerate()
        {
            for (k, mip) in [MipFilter::None, MipFilter::Nearest, MipFilter::Linear]
                .into_iter()
                .enumerate()
            {
                let n = i * 9 + j * 3 + k;
                v.push(SamplerState {
                    filter,
                    wrap,
                    mip,
                    min_filter: (n % 4 == 1).then_some(Filter::Linear),
                    wrap_t: (n % 5 == 2).then_some(Wrap::ClampToEdge),
                    lod_bias: if n % 3 == 0 { 0.0 } else { 0.75 },
                    min_lod: if n % 7 == 3 { 0.5 } else { -1000.0 },
                    max_lod: if n % 7 == 3 { 1.5 } else { 1000.0 },
                    compare: None,
                });
            }
        }
    }
    v
}

/// Checks `m` with every sampler state of [`sampler_states`], each unit bound as `kinds`
/// says: `2` a mipmapped 2D texture, `c` a cube, `a` a 2D array, `s` a depth texture with a
/// compare function, `_` nothing (unbound: opaque black). The module must compile.
fn check_sampling(m: &Module, kinds: &str, rounds: u32, seed: u64) {
    use shader::back::exec::texture::CompareFunc;
    let data = TexData::new();
    let mips: Vec<&[u32]> = data.levels.iter().map(|l| l.as_slice()).collect();
    for (n, st) in sampler_states().into_iter().enumerate() {
        let base = TextureRef {
            width: 8,
            height: 8,
            texels: &data.level0,
            sampler: st,
            depth: None,
            rgba: None,
            ints: None,
            mips: &mips,
            faces: &[],
            layers: &[],
        };
        let faces: Vec<TextureRef> = data
            .faces
            .iter()
            .map(|f| TextureRef { texels: f, ..base })
            .collect();
        let layers: Vec<TextureRef> = faces.iter().take(3).copied().collect();
        let shadow = TextureRef {
            width: 4,
            height: 4,
            depth: Some(&data.depth),
            mips: &[],
            sampler: shader::back::exec::texture::SamplerState {
                mip: shader::back::exec::texture::MipFilter::None,
                compare: Some(CompareFunc::ALL[n % 8]),
                ..st
            },
            ..base
        };
        let units: Vec<Option<TextureRef>> = kinds
            .chars()
            .map(|k| match k {
                '2' => Some(base),
                'c' => Some(TextureRef {
                    faces: &faces,
                    ..base
                }),
                'a' => Some(TextureRef {
                    layers: &layers,
                    ..base
                }),
                's' => Some(shadow),
                _ => None,
            })
            .collect();
        let mut bails = 0;
        check_tex(m, rounds, seed + n as u64 * 1000, &mut bails, &units);
        assert_eq!(bails, 0, "a sampling shader gave a dispatch back");
    }
}

const SAMPLE_HEAD: &str = "#version 330\n#pragma chrisos profile 2\nin vec4 a;\nin vec4 b;\nuniform vec4 u;\nuniform vec4 w;\nout vec4 c;\n";

fn frag_tex(decls: &str, body: &str) -> Module {
    compile(
        Stage::Fragment,
        &format!("{SAMPLE_HEAD}{decls}\nvoid main() {{ {body} }}\n"),
    )
}

/// SAMPLE (2D) at seams: coordinates from inputs (NaN, infinities, huge values), scaled for
/// magnification and minification, values live across the seam, two samples of one texture,
/// an unbound unit, every filter / wrap / mip mode, under random whole-quad masks.
#[test]
fn sampling_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    let t = "uniform sampler2D t;";
    check_sampling(&frag_tex(t, "c = texture(t, a.xy) * u + b;"), "2", 12, 101);
    check_sampling(
        &frag_tex(
            t,
            "vec4 k = a * w + b; vec4 s = texture(t, a.xy * 0.05 + b.zw); \
             vec4 s2 = texture(t, k.yx * 7.0); c = s * k + s2 * u - k.wzyx;",
        ),
        "2",
        12,
        102,
    );
    // Constant and uniform coordinates (bank registers: stored to their slots at the seam).
    check_sampling(
        &frag_tex(t, "c = texture(t, vec2(0.3, 0.7)) + texture(t, u.xy) * a;"),
        "2",
        6,
        105,
    );
    // Unbound: opaque black.
    check_sampling(&frag_tex(t, "c = texture(t, a.xy) + b;"), "_", 4, 103);
    // The result feeding the next sample's coordinates.
    check_sampling(
        &frag_tex(
            "uniform sampler2D t; uniform sampler2D t2;",
            "vec4 s = texture(t, a.xy); c = texture(t2, s.xy * 3.0 + a.zw) * s + w;",
        ),
        "22",
        12,
        104,
    );
}

/// Samples inside IF / ELSE and after DISCARD: the seam writes only the lanes of the saved
/// mask (the others keep their value), and the mask survives the seam.
#[test]
fn sampling_under_masks_matches_interpreter() {
    if !have_avx2() {
        return;
    }
    let t = "uniform sampler2D t;";
    check_sampling(
        &frag_tex(
            t,
            "vec4 s = b; if (a.z > 0.0) { s = texture(t, a.xy * 2.0); } else { s = texture(t, b.yx) * w; } \
             c = s + a;",
        ),
        "2",
        12,
        111,
    );
    check_sampling(
        &frag_tex(
            t,
            "vec4 s = u; if (a.w < 0.5) { if (b.x > 0.0) { s = texture(t, a.xy) - b; } s = s * 2.0; } \
             c = s;",
        ),
        "2",
        12,
        112,
    );
    // The sample's destination a variable live after the IF: its lanes off the mask keep
    // the value from before.
    check_sampling(
        &frag_tex(
            t,
            "vec4 s = u * a; if (a.z > 0.0) s = texture(t, a.xy); c = s;",
        ),
        "2",
        12,
        114,
    );
    check_sampling(
        &frag_tex(
            t,
            "if (a.z < -1.0) discard; vec4 s = texture(t, a.xy + b.zw); \
             if (s.x > 0.5) discard; c = s * u;",
        ),
        "2",
        12,
        113,
    );
}

/// The other texture ops the corpus uses: explicit level, bias, gradients, offsets, cube,
/// shadow (2D and cube) and array samples, and a vertex stage's sample (level 0).
#[test]
fn texture_ops_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let t = "uniform sampler2D t;";
    check_sampling(
        &frag_tex(t, "c = textureLod(t, a.xy, b.x * 2.0) + u;"),
        "2",
        8,
        121,
    );
    check_sampling(&frag_tex(t, "c = texture(t, a.xy, b.y) * w;"), "2", 8, 122);
    check_sampling(
        &frag_tex(t, "c = textureGrad(t, a.xy, b.xy * 0.3, b.zw) - u;"),
        "2",
        8,
        123,
    );
    check_sampling(
        &frag_tex(t, "c = textureOffset(t, a.xy, ivec2(1, -2)) + textureLodOffset(t, b.xy, a.w, ivec2(-1, 3));"),
        "2",
        8,
        124,
    );
    check_sampling(
        &frag_tex(
            "uniform samplerCube q;",
            "c = texture(q, a.xyz) + textureLod(q, b.xyz, a.w) * u;",
        ),
        "c",
        8,
        125,
    );
    check_sampling(
        &frag_tex(
            "uniform sampler2DShadow s;",
            "c = vec4(texture(s, a.xyz), textureLod(s, b.xyz, a.w), 0.0, 1.0) + w;",
        ),
        "s",
        8,
        126,
    );
    check_sampling(
        &frag_tex(
            "uniform sampler2DArray r;",
            "c = texture(r, vec3(a.xy, b.x * 3.0)) + textureLod(r, b.xyz, a.w);",
        ),
        "a",
        8,
        127,
    );
    // The wrong kind of texture under each op: incomplete (black) in both.
    check_sampling(
        &frag_tex(
            "uniform sampler2D t; uniform samplerCube q; uniform sampler2DArray r;",
            "c = texture(t, a.xy) + texture(q, a.xyz) + texture(r, a.xyz);",
        ),
        "ac2",
        6,
        128,
    );
    let vs = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 p;
layout(location = 1) in vec4 q;
uniform sampler2D t;
out vec4 v0;
void main() { gl_Position = p; v0 = textureLod(t, q.xy, 0.0) * p + texture(t, p.zw); }
";
    check_sampling(&compile(Stage::Vertex, vs), "2", 8, 129);
}

/// Copies compiled as aliases (session 12, `jit/copy.rs`): struct and vector arguments passed
/// by value (the p2 lights shape: uniforms and values copied per call), copies still read
/// after their source is rewritten (must stay moves), swizzled copies, copies read across a
/// seam and as a seam's coordinates, as an integer division's operands (a call-out reads its
/// frame slots), copies written again inside an IF (a masked write keeps the copy's value in
/// the other lanes) and more live copies than YMMs.
#[test]
fn copies_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let lights = "struct L { vec3 p; vec3 k; float s; }; uniform L ls[3]; \
        vec3 f(L l, vec3 x, vec3 n) { vec3 d = l.p - x; float r = length(d); \
        return l.k * max(dot(n, d / r), 0.0) / (l.s + r); } \
        vec3 g(vec3 x, vec3 y) { vec3 r = x * y; x = x + y; return r + x; }";
    let bodies = [
        "vec3 s = vec3(0.0); for (int i = 0; i < 3; ++i) { s += f(ls[i], a.xyz, b.xyz); } \
         c = vec4(s, 1.0);",
        // The source rewritten while the copy is still read (vec3 copies stay MOVs in the
        // decoded code; whole vec4 copies the decoder already folds).
        "vec3 t = a.xyz; vec3 k = t; t = t * u.xyz + b.xyz; c = vec4(g(k, t) + k, t.x); \
         c.x += k.y;",
        "vec3 t = a.xyz; vec3 k = t; t.y = b.x; vec3 m = k; k.z = t.x; \
         c = vec4(k + t.yxz + m, m.y);",
        // Swizzled copies and copies of copies; a copy of a uniform rewritten in part.
        "vec3 k = a.wzy; vec3 j = k; vec2 m = j.xy; c = vec4(m, j.z, k.x) * b + vec4(g(j, k), 1.0);",
        "vec3 k = u.xyz; k.x = a.x; vec3 j = k; c = vec4(g(j, w.xyz), 1.0) + vec4(k.yz, j.x, 1.0);",
        // Written again inside an IF: the other lanes keep the copy's value.
        "vec3 k = a.xyz; vec3 t = b.xyz; if (a.x > u.x) { k = k * t; t = w.xyz; } \
         else { k.y = 3.0; } c = vec4(k + t, 1.0);",
        "vec3 k = a.xyz; vec3 m = k; if (b.y > 0.0) { m.x = u.x; } else { k.z = b.x; } \
         c = vec4(m * k, m.x);",
        // More live copies than YMMs (they spill through their sources).
        "vec3 p = a.xyz; vec3 q = b.xyz; vec3 r = u.xyz; vec3 s = w.xyz; vec3 t = a.yzw; \
         vec3 v = b.wxy; vec3 x = p * q; vec3 y = r * s; vec3 z = x; \
         vec3 o = g(p, q) * g(r, s) + g(t, v) - g(x, y) + z; c = vec4(o + p * z - q * r, s.x);",
    ];
    for (k, body) in bodies.iter().enumerate() {
        check(&frag_tex(lights, body), 40, 1200 + k as u64);
    }
    // Integer division (a call-out reading its operands' slots) of copies.
    check(
        &frag2(
            "ivec3 i = ivec3(a.xyz * 50.0); ivec3 j = i; ivec3 q = ivec3(b.xzw * 9.0) + 1; \
             ivec3 r = q; i.x = 7; c = vec4(vec3(j / r) + vec3(j % r), float(i.x / q.y));",
        ),
        40,
        1220,
    );
    // Copies across a seam and as its coordinates.
    let t = "uniform sampler2D t;";
    check_sampling(
        &frag_tex(
            t,
            "vec3 k = a.xyz * w.xyz; vec2 uv = k.xy; vec3 m = k; vec4 s = texture(t, uv); \
             vec2 uv2 = uv.yx; k.x = s.y; \
             c = s * vec4(m, 1.0) + texture(t, uv2 * 3.0) + vec4(uv, k.zx);",
        ),
        "2",
        8,
        1230,
    );
}

/// The group loop (`jit::groups`, session 13): one call runs every group with an active lane
/// and leaves the others' outputs alone; a SIN/COS operand out of the inline range in an
/// inactive lane gives nothing back (even in a group that runs), one in an active lane gives
/// the dispatch back; code that loops over the groups is entered for group 0 only.
#[test]
fn group_loop_runs_the_active_groups() {
    if !have_avx2() {
        return;
    }
    let exe = Executable::new(&frag("c = sin(a) + cos(b) * u;"), None).expect("verifies");
    for form in forms() {
        let code = Code::new_in(&exe, form).expect("compiles");
        assert_eq!(code.form(), form);
        let uniforms = [0.5f32; 128];
        let mut frames = vec![Frame::new(); GROUPS];
        exe.prepare_frames(&mut frames, &uniforms);
        let fragcoord = [[0.0f32; LANES]; 4];
        let masks = [
            0u32,
            0x0000_00FF,
            0xFF00_0000,
            0x00FF_0000,
            0x0F00_F001,
            0x8000_0100,
            u32::MAX,
        ];
        let gl = form.lanes();
        let group_active =
            |active: u32, l: usize| (active >> (l / gl * gl)) & ((1u32 << gl) - 1) != 0;
        for active in masks {
            let mut inputs = Box::new([[[0.0f32; LANES]; 4]; 16]);
            // In range where active, out of SIN/COS's range where not.
            for c in inputs.iter_mut().flatten() {
                for (l, x) in c.iter_mut().enumerate() {
                    *x = if (active >> l) & 1 != 0 {
                        l as f32 * 0.25 - 3.0
                    } else {
                        1e9
                    };
                }
            }
            let mut got = Box::new(Outputs::new());
            got.color = [[7.0; LANES]; 4];
            let (wm, want, gm, got) = run_both(
                &exe,
                &code,
                &mut frames,
                &uniforms,
                &inputs,
                &fragcoord,
                active,
                got,
            );
            let gm = gm.expect("no active lane is out of range");
            assert_eq!(wm, gm, "active {active:#x}");
            for c in 0..4 {
                for l in 0..LANES {
                    if (active >> l) & 1 != 0 {
                        assert_eq!(
                            want.color[c][l].to_bits(),
                            got.color[c][l].to_bits(),
                            "active {active:#x}, lane {l}"
                        );
                    } else if !group_active(active, l) {
                        assert_eq!(got.color[c][l], 7.0, "active {active:#x}, lane {l} written");
                    }
                }
            }
            // One active lane out of range: the dispatch goes back to the interpreter.
            if let Some(l) = (0..LANES).rev().find(|l| (active >> l) & 1 != 0) {
                for c in inputs.iter_mut().flatten() {
                    c[l] = 1e9;
                }
                let got = Box::new(Outputs::new());
                let run = run_both(
                    &exe,
                    &code,
                    &mut frames,
                    &uniforms,
                    &inputs,
                    &fragcoord,
                    active,
                    got,
                );
                assert!(
                    run.2.is_none(),
                    "active {active:#x}: lane {l} out of range not given back"
                );
            }
        }
        // Another group's call does nothing, whatever the frame's group word says.
        let inputs = Box::new([[[0.25f32; LANES]; 4]; 16]);
        let mut got = Box::new(Outputs::new());
        got.color = [[7.0; LANES]; 4];
        frames[0].bail[shader::back::exec::jit::groups::BAIL_GROUPS] = u32::MAX;
        for g in 1..form.groups() {
            code.call(&mut frames[..1], &inputs, &fragcoord, &mut got, g, 0);
        }
        assert!(got.color.iter().flatten().all(|&x| x == 7.0));
        code.call(&mut frames[..1], &inputs, &fragcoord, &mut got, 0, 0);
        assert!(got.color.iter().flatten().all(|&x| x != 7.0));
    }
}

/// Bank registers (uniforms and constants, broadcast into their frame slots per draw) read as
/// memory operands: as either operand of ADD/SUB/MUL/DIV and their splat forms, in DOT, MULMV,
/// CMP, MIN/MAX and ABS, inside IF/ELSE and loops (where writes blend), as loop residents, in
/// an integer division (a call-out reading its operands' slots) and across a seam.
#[test]
fn bank_operands_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "c = vec4(u.x - a.x, a.y / u.y, u.z * a.z + w.w, 2.5 / a.w) + u * 0.25 - 1.5;",
        "c = vec4(dot(u.xyz, a.xyz), dot(a, w), min(u.x, a.y), max(a.z, w.y)) \
         + vec4(abs(u.z), u.w < a.w ? 1.0 : 0.0, a.x >= w.x ? 3.0 : -1.0, u.x * u.x);",
        "vec4 s = a; if (a.x > u.y) { s = s * u + w.yxwz; s.y = u.z - s.x; } \
         else { s = w / s; if (b.y < w.x) s.z = 0.5 * u.w; } c = s + u;",
        "vec4 s = a; for (int i = 0; i < 4; ++i) { s = s * u + w.yxwz - u.x; \
         if (s.x > w.y) s = u - s / w; } c = s;",
        "vec4 s = b; int n = int(abs(a.x) * 3.0); for (int i = 0; i < n; ++i) { \
         if (s.y > u.x) break; s = s * 0.5 + u * w.x; } c = s + 1.0;",
        "ivec3 i = ivec3(a.xyz * 50.0); ivec3 q = ivec3(u.xyz * 9.0) + 3; \
         c = vec4(vec3(i / q), u.w) + vec4(vec3(ivec3(7, -5, 11) % q), w.x);",
    ];
    let mut bails = 0;
    for (k, body) in bodies.iter().enumerate() {
        check_bails(&frag2(body), 40, 1300 + k as u64, &mut bails);
    }
    let mat = "uniform mat4 m; uniform mat3 n3;";
    check(
        &frag_tex(
            mat,
            "c = m * a + vec4(n3 * b.xyz, 1.0) - m[2] * u.y + (m * w) / (w.x + 2.0);",
        ),
        40,
        1310,
    );
    // A uniform as the coordinates of a sample and live across the seam.
    check_sampling(
        &frag_tex(
            "uniform sampler2D t;",
            "vec4 s = texture(t, u.xy + a.xy); c = s * u - w.x + texture(t, w.yx) / (u + 2.0);",
        ),
        "2",
        8,
        1320,
    );
}

/// SAMPLEs whose result is read only in part: the seam writes only the components some later
/// instruction reads (the decoder's `n`), under IF and with components written again later.
#[test]
fn partial_samples_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let t = "uniform sampler2D t;";
    let bodies = [
        "vec3 s = texture(t, a.xy).rgb; c = vec4(s * u.xyz, b.w);",
        "float r = texture(t, a.xy * 3.0).g; c = vec4(r) + a;",
        "c = b * texture(t, a.yx).a;",
        "vec4 s = u; if (a.z > 0.0) s.xz = texture(t, a.xy).yw; c = s;",
        "vec4 s = texture(t, a.xy); s.w = b.x; if (a.x > 0.0) s.y = 2.0; c = s;",
        "vec4 s = texture(t, a.xy); vec2 q = texture(t, s.zx + b.xy).xw; c = vec4(q, s.y, 1.0);",
        "vec4 s = b; if (a.w < 0.5) { s.yz = texture(t, a.xy).xz; } c = s * w;",
    ];
    for (k, body) in bodies.iter().enumerate() {
        check_sampling(&frag_tex(t, body), "2", 8, 1400 + k as u64);
    }
}

/// DOT's and MULMV's sums start from +0.0 (the interpreter's order): products that are all
/// -0.0 sum to +0.0, which the compiled form's first add (`a0 * b0 + 0.0`) must keep.
#[test]
fn signed_zero_sums_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "vec4 z = a * 0.0; c = vec4(dot(z.xy, b.xy), dot(z.xyz, -b.zyx), dot(z, b), z.w);",
        "vec4 z = a * 0.0; mat2 m = mat2(z.xy, -z.zw); \
         c = vec4(m * b.xy, mat2(b.xy, b.zw) * z.yx);",
    ];
    for (k, body) in bodies.iter().enumerate() {
        check(&frag2(body), 40, 1500 + k as u64);
    }
}

/// One quadrant parity per group or not (session 14): the compiled SIN/COS evaluates one
/// polynomial when every lane's k0 = round(x 2/pi) is even or every one odd, and both with a
/// per-lane pick otherwise. Each 8-lane group here is built as one of: every k0 even, every
/// k0 odd (each with quadrant bit 1 varying, so the sign flip differs between lanes), random
/// (mixed parity), or one of those with edge values in some lanes (signed zeros, denormals,
/// values next to 8192, and where inactive NaN, infinities and |x| >= 8192); plain, scaled,
/// negated and under IF/ELSE (whose inactive lanes keep any parity). Every active lane must
/// have the interpreter's bits; a dispatch with an active lane out of range must be given back.
#[test]
fn trig_parity_paths_match_interpreter() {
    if !have_avx2() {
        return;
    }
    const HALF_PI: f32 = core::f32::consts::FRAC_PI_2;
    let bodies = [
        "c = vec4(sin(a.x), cos(a.y), sin(a.z * 1.0), cos(-a.w));",
        "c = vec4(sin(a.xy) * cos(a.zw), cos(a.xy + b.xy * 0.0));",
        "if (b.x > 0.0) { c = sin(a); } else { c = cos(a.yzwx) + 1.0; }",
        "vec4 s = a; if (b.y > 0.25) { s = sin(a * 1.0); } c = s + cos(s.wzyx);",
    ];
    let mut r = Rng(0x7126);
    let mut given_back = 0;
    let mut compared = 0;
    for (k, body) in bodies.iter().enumerate() {
        let exe = Executable::new(&frag(body), None).expect("verifies");
        let code = Code::new(&exe).expect("compiles");
        let uniforms = [0.5f32; 128];
        let mut frames = vec![Frame::new(); GROUPS];
        exe.prepare_frames(&mut frames, &uniforms);
        let fragcoord = [[0.0f32; LANES]; 4];
        for round in 0..200 {
            let active = match round % 4 {
                0 => u32::MAX,
                _ => r.next() as u32 | 1,
            };
            let mut inputs = Box::new([[[0.0f32; LANES]; 4]; 16]);
            let mut out_of_range = false;
            for c in 0..4 {
                for g in 0..GROUPS {
                    // 0: every k0 even, 1: every k0 odd, 2: mixed, 3: even or odd with edges.
                    let mode = (r.next() % 4) as u32;
                    let parity = if mode == 3 {
                        (r.next() & 1) as i32
                    } else {
                        mode as i32
                    };
                    for l in g * 8..g * 8 + 8 {
                        let m = (r.next() % 41) as i32 - 20;
                        let d = ((r.next() >> 11) as f32 / (1u64 << 53) as f32 - 0.5) * 1.4;
                        let mut x = match mode {
                            2 => ((r.next() >> 16) as u32 as f32 / u32::MAX as f32 - 0.5) * 40.0,
                            _ => (2 * m + parity) as f32 * HALF_PI + d,
                        };
                        if mode == 3 && r.next().is_multiple_of(3) {
                            const EDGES: [f32; 10] = [
                                0.0,
                                -0.0,
                                1e-40,
                                -1e-41,
                                f32::MIN_POSITIVE,
                                8191.9,
                                -8191.9,
                                f32::NAN,
                                f32::INFINITY,
                                8192.0,
                            ];
                            let e = EDGES[(r.next() % EDGES.len() as u64) as usize];
                            // Out of the inline range only where inactive, but now and then.
                            if e.abs() < 8192.0 || (active >> l) & 1 == 0 || r.next() % 8 == 0 {
                                x = e;
                            }
                        }
                        if !(x.abs() < 8192.0) && (active >> l) & 1 != 0 {
                            out_of_range = true;
                        }
                        inputs[0][c][l] = x;
                        inputs[1][c][l] = ((r.next() >> 16) as u32 as f32 / u32::MAX as f32) - 0.5;
                    }
                }
            }
            let got = Box::new(Outputs::new());
            let (wm, want, gm, got) = run_both(
                &exe,
                &code,
                &mut frames,
                &uniforms,
                &inputs,
                &fragcoord,
                active,
                got,
            );
            let Some(gm) = gm else {
                // Only an active lane out of range gives it back (every body reads every
                // component of `a` in a SIN or COS, in each lane).
                assert!(out_of_range, "body {k} round {round}: given back");
                given_back += 1;
                continue;
            };
            assert!(!out_of_range, "body {k} round {round}: not given back");
            assert_eq!(wm, gm, "body {k} round {round}: active lanes");
            for c in 0..4 {
                for l in 0..LANES {
                    let (w, g) = (want.color[c][l], got.color[c][l]);
                    if wm & (1 << l) != 0 && !(w.is_nan() && g.is_nan()) {
                        assert_eq!(
                            w.to_bits(),
                            g.to_bits(),
                            "body {k} round {round}: color[{c}] lane {l}: {w} vs {g}"
                        );
                    }
                }
            }
            compared += 1;
        }
    }
    assert!(
        given_back > 0 && compared > 600,
        "{given_back} given back, {compared} compared"
    );
}

/// Constant operands known when compiling (session 14, `jit/fold.rs`): identities (`x * 1.0`,
/// `x / 1.0`, `x - 0.0`, `x + -0.0`) become aliases, ops of two constants fold to a bank
/// constant holding the result, MIN/MAX with a constant are one op (k neither zero nor NaN)
/// or a compare and an AND (k = +0.0, either side); `x + 0.0`, `-0.0` bounds, masked writes
/// and loops keep the general forms. Inputs include NaN, infinities, signed zeros and
/// denormals.
#[test]
fn constant_operands_match_interpreter() {
    if !have_avx2() {
        return;
    }
    let bodies = [
        "c = vec4(a.x * 1.0, 1.0 * a.y, a.z / 1.0, a.w - 0.0) + b * 0.0;",
        "c = vec4(a.x + -0.0, -0.0 + a.y, a.z + 0.0, 0.0 + a.w);",
        "float k = 1.0; vec4 s = a * k; k = k + 1.0; s = s + b * k; k = k + 1.0; \
         c = s + a.yzwx * k + u * 2.0 + w * 3.0;",
        "c = vec4(clamp(a.x, 0.0, 1.0), max(0.0, a.y), min(a.z, 0.0), min(0.0, a.w));",
        "c = vec4(max(a.x, -0.0), min(-2.5, a.y), max(a.z, 3.0), min(a.w, 1e-40)) \
         + vec4(max(-0.0, b.x), max(1e-40, b.y), min(b.z, 0.5), max(b.w, 0.0));",
        "if (b.x > 0.0) { c = vec4(a.x * 1.0, max(a.y, 0.0), min(1.0, a.z), a.w + -0.0); } \
         else { c = vec4(min(a.x, 0.0), a.y / 1.0, 2.0 * 0.5 * a.z, max(0.0, a.w)); }",
        "vec4 t = a * 1.0; t.x = b.x; vec4 q = t - 0.0; q.y = a.w; c = t + q * 2.0 + a;",
        "c = a; for (int i = 0; i < 3; i++) { c = max(c * 1.0, 0.0) + min(b, 1.0); }",
        "float p = 3.0; float q = p - 1.0; float r = q / 4.0; float m = q * 1.5; \
         c = a * q + b * 2.0 + u * r + w * 0.5 + vec4(m, p, a.x * m, 0.0);",
    ];
    for (k, body) in bodies.iter().enumerate() {
        check(&frag(body), 60, 1600 + k as u64);
        check(&frag2(body), 20, 1700 + k as u64);
    }
}
