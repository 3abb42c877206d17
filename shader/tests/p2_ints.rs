//! Profile 2's 32-bit integers on the software executor (issue 14 item 4): the edge-case table
//! (INT_MIN / -1, INT_MAX + 1, division and remainder by zero, shifts by 0/31/32, uint wrap,
//! NaN/inf/huge floats to int and uint, bit casts), each value computed at run time from
//! uniforms holding exact bit patterns, and the same expressions folded at compile time. The
//! expected bits are what Mesa's llvmpipe gives (measured with `mesa-ref`; the same shaders run
//! through VirGL in the `int_edges` compat pair).
mod ircore_util;
use ircore_util::p2::run_vs_lanes;
use shader::program::compile::compile;

/// Compiles `uniform uvec4 a, b; gl_Position.x = uintBitsToFloat(EXPR)` and runs it with the
/// uniforms' bits `a`, `b`; returns the bits of gl_Position.x.
fn run(expr: &str, a: [u32; 4], b: [u32; 4]) -> u32 {
    let src = format!(
        "#pragma chrisos profile 2\nuniform uvec4 a;\nuniform uvec4 b;\nvoid main() {{\n    uint r = uint({});\n    gl_Position = vec4(uintBitsToFloat(r), 0.0, 0.0, 1.0);\n}}\n",
        expr
    );
    let sh = match compile(0, src.as_bytes(), "t.vert") {
        Ok(s) => s,
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            panic!("{}\n{}", src, s)
        }
    };
    shader::ir::verify::verify(&sh.module).expect("verified");
    let mut uni = [[0.0f32; 4]; shader::limits::UNIFORM_FLOATS / 4];
    // The uniforms are declared in order: a in slot 0, b in slot 1 (when both are used).
    let slot = |name: &str| {
        sh.module
            .iface
            .uniforms
            .iter()
            .find(|u| u.name.as_str() == name)
            .map(|u| u.slot as usize)
    };
    for (name, v) in [("a", a), ("b", b)] {
        if let Some(s) = slot(name) {
            for k in 0..4 {
                uni[s][k] = f32::from_bits(v[k]);
            }
        }
    }
    run_vs_lanes(&sh.module, &uni, |_| [0.0; 4], 1)[0][0].to_bits()
}

fn s(v: i32) -> u32 {
    v as u32
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// (expression over a.x and b.x, a.x bits, b.x bits, expected bits)
const MIN: u32 = 0x8000_0000;
fn table() -> Vec<(&'static str, u32, u32, u32)> {
    vec![
        // int division: INT_MIN / -1 wraps, x / 0 = 0 (llvmpipe), truncation toward zero.
        ("int(a.x) / int(b.x)", MIN, s(-1), MIN),
        ("int(a.x) / int(b.x)", 7, 0, 0),
        ("int(a.x) / int(b.x)", s(-7), 0, 0),
        ("int(a.x) / int(b.x)", s(-7), 2, s(-3)),
        ("int(a.x) / int(b.x)", 7, s(-2), s(-3)),
        // uint division by zero: all ones.
        ("a.x / b.x", 7, 0, u32::MAX),
        ("a.x / b.x", u32::MAX, 2, 0x7fff_ffff),
        // Remainders: of the unsigned bit patterns (Mesa's int %), x % 0 = all ones.
        ("int(a.x) % int(b.x)", 7, 0, u32::MAX),
        ("int(a.x) % int(b.x)", s(-7), 2, 1),
        ("int(a.x) % int(b.x)", 7, s(-2), 7),
        ("int(a.x) % int(b.x)", MIN, s(-1), MIN),
        ("int(a.x) % int(b.x)", 17, 5, 2),
        ("a.x % b.x", 7, 0, u32::MAX),
        ("a.x % b.x", u32::MAX, 10, 5),
        // Wrapping arithmetic.
        ("int(a.x) + int(b.x)", 0x7fff_ffff, 1, MIN),
        ("int(a.x) - int(b.x)", MIN, 1, 0x7fff_ffff),
        ("int(a.x) * int(b.x)", 0x10000, 0x10000, 0),
        ("a.x - b.x", 0, 1, u32::MAX),
        ("a.x + b.x", u32::MAX, 2, 1),
        ("a.x * b.x", 0x8000_0001, 3, 0x8000_0003),
        ("-int(a.x)", MIN, 0, MIN),
        ("abs(int(a.x))", MIN, 0, MIN),
        ("sign(int(a.x))", MIN, 0, s(-1)),
        ("sign(int(a.x))", 0, 0, 0),
        ("~a.x", 0x0f0f_0f0f, 0, 0xf0f0_f0f0),
        // Shifts: the count is taken mod 32.
        ("a.x << b.x", 1, 0, 1),
        ("a.x << b.x", 1, 31, MIN),
        ("a.x << b.x", 1, 32, 1),
        ("a.x << b.x", 1, 33, 2),
        ("int(a.x) >> int(b.x)", s(-8), 33, s(-4)),
        ("int(a.x) >> int(b.x)", MIN, 31, u32::MAX),
        ("a.x >> b.x", MIN, 31, 1),
        ("a.x >> b.x", MIN, 32, MIN),
        // Compares: signed and unsigned.
        ("int(a.x) < int(b.x)", s(-1), 1, 1),
        ("a.x < b.x", u32::MAX, 1, 0),
        ("int(a.x) >= int(b.x)", MIN, 0x7fff_ffff, 0),
        ("a.x == b.x", u32::MAX, u32::MAX, 1),
        ("min(int(a.x), int(b.x))", s(-5), 3, s(-5)),
        ("min(a.x, b.x)", s(-5), 3, 3),
        ("max(int(a.x), int(b.x))", MIN, s(-1), s(-1)),
        ("clamp(int(a.x), -3, 3)", s(-100), 0, s(-3)),
        // Float to int: NaN, infinities and out-of-range values give INT_MIN's bits.
        ("int(uintBitsToFloat(a.x))", 0x7fc0_0000, 0, MIN),
        ("int(uintBitsToFloat(a.x))", f(f32::INFINITY), 0, MIN),
        ("int(uintBitsToFloat(a.x))", f(f32::NEG_INFINITY), 0, MIN),
        ("int(uintBitsToFloat(a.x))", f(3.0e9), 0, MIN),
        ("int(uintBitsToFloat(a.x))", f(-3.7), 0, s(-3)),
        ("int(uintBitsToFloat(a.x))", f(2147483520.0), 0, 0x7fff_ff80),
        // Float to uint as llvmpipe computes it.
        ("uint(uintBitsToFloat(a.x))", f(3.0e9), 0, 3_000_000_000),
        (
            "uint(uintBitsToFloat(a.x))",
            f(4294967040.0),
            0,
            0xffff_ff00,
        ),
        ("uint(uintBitsToFloat(a.x))", f(4294967296.0), 0, MIN),
        ("uint(uintBitsToFloat(a.x))", f(-3.7), 0, s(-3)),
        ("uint(uintBitsToFloat(a.x))", f(-0.5), 0, 0),
        ("uint(uintBitsToFloat(a.x))", 0x7fc0_0000, 0, MIN),
        ("uint(uintBitsToFloat(a.x))", f(f32::INFINITY), 0, MIN),
        ("uint(uintBitsToFloat(a.x))", f(-3.0e9), 0, MIN),
        // Int and uint to float, and bit casts.
        ("floatBitsToUint(float(a.x))", u32::MAX, 0, f(4294967296.0)),
        ("floatBitsToUint(float(int(a.x)))", s(-1), 0, f(-1.0)),
        ("floatBitsToUint(float(int(a.x)))", MIN, 0, f(-2147483648.0)),
        ("floatBitsToInt(uintBitsToFloat(a.x))", 0x8000_0000, 0, MIN),
        ("floatBitsToUint(intBitsToFloat(int(a.x)))", 1, 0, 1),
        ("uint(bool(a.x))", MIN, 0, 1),
        ("uint(bool(int(a.x)))", 0, 0, 0),
    ]
}

#[test]
fn edge_cases_at_run_time_match_mesa() {
    let mut bad = Vec::new();
    for (expr, a, b, want) in table() {
        let got = run(expr, [a, 0, 0, 0], [b, 0, 0, 0]);
        if got != want {
            bad.push(format!(
                "{} with a.x = {:#010x}, b.x = {:#010x}: got {:#010x}, want {:#010x}",
                expr, a, b, got, want
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The same expressions with the operands as constants: folding gives the run-time bits.
#[test]
fn edge_cases_fold_to_the_run_time_bits() {
    let mut bad = Vec::new();
    for (expr, a, b, want) in table() {
        // Division and remainder by a constant zero are compile errors (as in profile 1).
        if b == 0 && (expr.contains('/') || expr.contains('%')) {
            continue;
        }
        let folded = expr
            .replace("a.x", &format!("{}u", a))
            .replace("b.x", &format!("{}u", b));
        let got = run(&folded, [0; 4], [0; 4]);
        if got != want {
            bad.push(format!(
                "{}: got {:#010x}, want {:#010x}",
                folded, got, want
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn int_uniforms_of_profile_2_programs_hold_bits() {
    use shader::program::link::Program;
    let vs = compile(
        0,
        b"#pragma chrisos profile 2\nuniform int k;\nuniform uint u;\nvoid main() { gl_Position = vec4(float(k), float(u), 0.0, 1.0); }\n",
        "u.vert",
    )
    .expect("vertex shader");
    let fs = compile(
        1,
        b"#pragma chrisos profile 2\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
        "u.frag",
    )
    .expect("fragment shader");
    let mut p = Box::new(Program::new());
    p.link(Some(&vs.module), Some(&fs.module)).expect("link");
    let k = p.uniform_find("k").expect("k");
    let u = p.uniform_find("u").expect("u");
    p.set_uniform(k, &[-3.0]).unwrap();
    p.set_uniform_bits(u, &[0xffff_fffe]).unwrap();
    let mut out = [0.0f32];
    p.uniform_value(k, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), (-3i32) as u32);
    p.uniform_value(u, &mut out).unwrap();
    assert_eq!(out[0].to_bits(), 0xffff_fffe);
}
