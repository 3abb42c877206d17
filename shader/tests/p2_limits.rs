//! Profile 2's bounds, each at the limit (compiles) and one past (a located error naming it),
//! with generated sources; and the same sources in profile 1 stop at profile 1's smaller bound.
use shader::limits::*;
use shader::program::compile::{compile_with, CompileOptions};

const PRAGMA: &str = "#pragma chrisos profile 2\n";

fn run(stage: u32, src: &str) -> Result<(), String> {
    let opts = CompileOptions::profile(Profile::P2);
    match compile_with(stage, src.as_bytes(), "p2", &opts) {
        Ok(s) => {
            assert_eq!(s.profile, Profile::P2);
            Ok(())
        }
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            Err(s)
        }
    }
}

fn fails_with(stage: u32, src: &str, message: &str) {
    match run(stage, src) {
        Ok(()) => panic!("compiled; expected '{}'", message),
        Err(e) => assert!(e.contains(message), "expected '{}' in:\n{}", message, e),
    }
}

fn frag(decls: &str, body: &str) -> String {
    format!(
        "{}{}\nout vec4 c;\nvoid main() {{\n{}\n}}\n",
        PRAGMA, decls, body
    )
}

#[test]
fn source_size() {
    let base = frag("", "c = vec4(1.0);");
    let pad = |n: usize| format!("{}{}", " ".repeat(n - base.len()), base);
    run(1, &pad(P2_SRC_MAX - 1)).unwrap();
    fails_with(1, &pad(P2_SRC_MAX), "65535 bytes");
}

#[test]
fn identifier_length() {
    let ok = "a".repeat(P2_NAME_MAX - 1);
    run(
        1,
        &frag(&format!("float {};", ok), &format!("c = vec4({});", ok)),
    )
    .unwrap();
    let long = "a".repeat(P2_NAME_MAX);
    fails_with(
        1,
        &frag(&format!("float {};", long), "c = vec4(1.0);"),
        "identifier is 64 characters long; the limit is 63",
    );
}

#[test]
fn tokens_after_preprocessing() {
    // `c = vec4(1.0);` in main plus N empty statements; each `;` is one token.
    let base = frag("", "c = vec4(1.0);");
    let fixed = {
        // The same tokens through profile 1's lexer (the pragma line is a directive there).
        let mut toks = shader::front::lex::Tokens::new();
        let mut d = shader::Diagnostics::new("count");
        shader::front::lex::lex(base.as_bytes(), &mut d, &mut toks);
        toks.toks.len() - 1 // the EOF
    };
    let body = |n: usize| format!("c = vec4(1.0);{}", ";".repeat(n));
    run(1, &frag("", &body(P2_TOK_MAX - fixed))).unwrap();
    fails_with(
        1,
        &frag("", &body(P2_TOK_MAX - fixed + 1)),
        "too many tokens after preprocessing: the limit is 16384 (PP_TOK_MAX)",
    );
    // A macro expands past the limit: counted after preprocessing.
    let mut decls = String::from("#define X4 ; ; ; ;\n#define X16 X4 X4 X4 X4\n");
    decls
        .push_str("#define X256 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16 X16\n");
    let many = "X256 ".repeat(P2_TOK_MAX / 256 + 1);
    fails_with(
        1,
        &frag(&decls, &format!("c = vec4(1.0); {}", many)),
        "the limit is 16384 (PP_TOK_MAX) (in expansion of macro 'X256')",
    );
}

#[test]
fn nesting() {
    let nested = |n: usize| format!("c = vec4(1.0);{};{}", "{".repeat(n), "}".repeat(n));
    // main's own block is one level.
    run(1, &frag("", &nested(P2_NEST_MAX - 1))).unwrap();
    fails_with(
        1,
        &frag("", &nested(P2_NEST_MAX)),
        "nesting exceeds the limit of 64 levels",
    );
}

#[test]
fn uniform_slots() {
    // mat4s take 4 slots each (and one symbol each: symbols are a separate bound).
    let decls = |n: usize, extra: &str| {
        let mut d: Vec<String> = (0..n).map(|i| format!("uniform mat4 m{};", i)).collect();
        d.push(extra.to_string());
        d.join("\n")
    };
    let n = P2_UNIFORM_VEC4_MAX / 4;
    run(1, &frag(&decls(n, ""), "c = m0[0] + m255[3];")).unwrap();
    fails_with(
        1,
        &frag(&decls(n, "uniform float one_more;"), "c = m0[0];"),
        "'one_more' needs 1 vec4 slot(s) from slot 1024; the limit is 1024 vec4 slots",
    );
}

#[test]
fn samplers() {
    let decls = |n: usize| {
        (0..n)
            .map(|i| format!("uniform sampler2D t{};", i))
            .collect::<Vec<_>>()
            .join("\n")
    };
    run(
        1,
        &frag(&decls(P2_SAMPLER_MAX), "c = texture(t15, vec2(0.5));"),
    )
    .unwrap();
    fails_with(
        1,
        &frag(&decls(P2_SAMPLER_MAX + 1), "c = texture(t0, vec2(0.5));"),
        "too many samplers: 't16' would be sampler 17; the limit is 16",
    );
}

#[test]
fn attributes_and_varyings() {
    let vs = |attrs: usize, vars: usize| {
        let mut s = String::from(PRAGMA);
        for i in 0..attrs {
            s.push_str(&format!("in vec4 a{};\n", i));
        }
        for i in 0..vars {
            s.push_str(&format!("out vec4 v{};\n", i));
        }
        s.push_str("void main() {\n  gl_Position = a0;\n");
        for i in 0..vars {
            s.push_str(&format!("  v{} = a{};\n", i, i % attrs));
        }
        s.push_str("}\n");
        s
    };
    run(0, &vs(P2_ATTR_MAX, P2_VARYING_MAX)).unwrap();
    fails_with(
        0,
        &vs(P2_ATTR_MAX + 1, 1),
        "too many attributes: 'a16' does not fit; the limit is 16",
    );
    fails_with(
        0,
        &vs(1, P2_VARYING_MAX + 1),
        "too many varyings: 'v16' does not fit; the limit is 16",
    );
}

#[test]
fn parameters_and_call_depth() {
    let params = |n: usize| {
        let list: Vec<String> = (0..n).map(|i| format!("float p{}", i)).collect();
        let args: Vec<String> = (0..n).map(|i| format!("{}.0", i)).collect();
        frag(
            &format!("float f({}) {{ return p0; }}", list.join(", ")),
            &format!("c = vec4(f({}));", args.join(", ")),
        )
    };
    run(1, &params(P2_PARAM_MAX)).unwrap();
    fails_with(
        1,
        &params(P2_PARAM_MAX + 1),
        "too many parameters: 'f' has 17; the limit is 16",
    );
    // f1 calls f2 ... : main plus n-1 functions are n nested calls.
    let chain = |n: usize| {
        let mut decls = format!("float f{}(float x) {{ return x; }}\n", n - 1);
        for k in (1..n - 1).rev() {
            decls.push_str(&format!(
                "float f{}(float x) {{ return f{}(x); }}\n",
                k,
                k + 1
            ));
        }
        frag(&decls, "c = vec4(f1(1.0));")
    };
    run(1, &chain(P2_CALL_DEPTH_MAX)).unwrap();
    fails_with(
        1,
        &chain(P2_CALL_DEPTH_MAX + 1),
        "call depth exceeds the limit of 32 nested functions",
    );
}

#[test]
fn errors_reported() {
    let body: String = (0..40).map(|i| format!("float x{} = y;\n", i)).collect();
    let e = run(1, &frag("", &body)).unwrap_err();
    assert_eq!(e.matches(": error: ").count(), P2_ERR_MAX, "{}", e);
}

#[test]
fn profile_1_stops_at_its_own_bounds() {
    // The same generated sources without the pragma are profile 1.
    let decls: String = (0..40).map(|i| format!("uniform vec4 u{};\n", i)).collect();
    let src = format!("{}out vec4 c;\nvoid main() {{ c = u0; }}\n", decls);
    let opts = CompileOptions::default();
    let d = compile_with(1, src.as_bytes(), "p1", &opts).err().unwrap();
    assert!(d
        .errors()
        .any(|e| e.message.contains("the limit is 32 vec4 slots")));
}

#[test]
fn limits_tables_agree_with_the_constants() {
    let p2 = limits(Profile::P2);
    assert_eq!(p2.source_bytes_max, P2_SRC_MAX - 1);
    assert_eq!(p2.tokens_max, 16384);
    assert_eq!(p2.ir_instructions_max, 16384);
    assert_eq!(p2.immediates_max, 4096);
    assert_eq!(p2.temporaries_max, 1024);
    assert_eq!(p2.tgsi_bytes_max, 256 * 1024);
    let p1 = limits(Profile::P1);
    assert_eq!(
        (p1.tokens_max, p1.ir_instructions_max, p1.tgsi_bytes_max),
        (768, 384, 3600)
    );
    assert!(p2
        .entries()
        .iter()
        .zip(p1.entries().iter())
        .all(|(a, b)| a.0 == b.0 && a.1 >= b.1));
}

#[test]
fn symbols() {
    // The built-in variables (gl_Position, gl_FragCoord, gl_VertexID, gl_InstanceID), `c` and
    // `main` take 6 of the 1024.
    let decls = |n: usize| {
        (0..n)
            .map(|i| format!("float g{};", i))
            .collect::<Vec<_>>()
            .join("\n")
    };
    run(1, &frag(&decls(P2_SYM_MAX - 6), "c = vec4(g0);")).unwrap();
    fails_with(
        1,
        &frag(&decls(P2_SYM_MAX - 5), "c = vec4(g0);"),
        "too many symbols: the limit is 1024 names in scope at once",
    );
}

#[test]
fn ir_instructions() {
    // Unrolled loops multiply instructions without spending tokens: 20 blocks of 512 iterations
    // of two instructions pass 16384 (well within the work budget).
    let block = "for (int i = 0; i < 8; i++) { for (int j = 0; j < 8; j++) { for (int k = 0; k < 8; k++) { c = c * u0 + u1; } } }\n";
    let src = frag(
        "uniform vec4 u0;\nuniform vec4 u1;",
        &format!("c = u1;\n{}", block.repeat(20)),
    );
    fails_with(
        1,
        &src,
        "shader exceeds the instruction limit of 16384 IR instructions",
    );
    let src = frag(
        "uniform vec4 u0;\nuniform vec4 u1;",
        &format!("c = u1;\n{}", block.repeat(4)),
    );
    run(1, &src).unwrap();
}
