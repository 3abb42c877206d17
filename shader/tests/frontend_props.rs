//! Property tests of the frontend on untrusted text: random bytes, token soup and mutated corpus
//! shaders never panic, and always end in a verified shader or at least one diagnostic whose line
//! and column lie inside the source (or just past its end). This doubles as the stable-toolchain
//! fuzz harness: `FRONTEND_FUZZ_CASES=100000 cargo test -p shader --test frontend_props` runs longer.
use proptest::prelude::*;
use shader::limits::WORK_MAX;
use shader::program::compile::{compile, compile_with_stats};

fn cases() -> u32 {
    std::env::var("FRONTEND_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// A compile spends at most this many steps of work per source byte. The work budget is a fixed
/// `WORK_MAX`; a source needs five nested 8-trip loops (about 120 bytes) or the equivalent in
/// calls to spend it, and without loops or calls each node is lowered once.
const WORK_PER_BYTE: usize = 1024;

/// The work of one compile stays within `WORK_PER_BYTE` times the source length and the budget,
/// and a compile that spent the budget fails with the budget's diagnostic.
fn check_work(stage: u32, src: &[u8]) -> Result<(), TestCaseError> {
    let (r, stats) = compile_with_stats(stage, src, "work");
    prop_assert!(stats.work <= WORK_MAX + 1, "work {}", stats.work);
    prop_assert!(
        stats.work as usize <= WORK_PER_BYTE * src.len().max(1),
        "work {} for {} bytes",
        stats.work,
        src.len()
    );
    if stats.work > WORK_MAX {
        let Err(d) = r else {
            return Err(TestCaseError::fail("compiled past the work budget"));
        };
        prop_assert!(
            d.errors()
                .any(|e| e.message.starts_with("compile work budget exceeded")),
            "{:?}",
            d
        );
    }
    Ok(())
}

/// The property every input must satisfy.
fn check(stage: u32, src: &[u8]) -> Result<(), TestCaseError> {
    check_work(stage, src)?;
    match compile(stage, src, "fuzz") {
        Ok(sh) => {
            prop_assert!(stage <= 1);
            prop_assert!(
                shader::ir::verify::verify(&sh.module).is_ok(),
                "verifier rejected compiler output"
            );
            // Within its profile's temporary bound (profile 2's goldens may pass profile 1's).
            prop_assert!(
                sh.module.temps as usize
                    <= shader::limits::limits(sh.module.profile).temporaries_max
            );
            let mut s = String::new();
            shader::ir::dump::dump_module(&sh.name, &sh.module, &mut s).unwrap();
        }
        Err(d) => {
            prop_assert!(!d.is_empty(), "failure without a diagnostic");
            let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            for e in d.errors() {
                prop_assert!(
                    e.line >= 1 && e.line <= lines,
                    "line {} outside 1..={}",
                    e.line,
                    lines
                );
                prop_assert!(e.column >= 1, "column 0");
                // Columns are byte offsets in the raw line (a CR before the newline counts).
                let raw = src
                    .split(|&b| b == b'\n')
                    .nth(e.line as usize - 1)
                    .unwrap_or(&[]);
                let text = shader::front::diag::source_line(src, e.line);
                prop_assert!(text.len() <= raw.len());
                prop_assert!(
                    e.column as usize <= raw.len() + 1,
                    "column {} past the end of line {} ({} bytes): {}",
                    e.column,
                    e.line,
                    raw.len(),
                    e.message
                );
                prop_assert!(!e.message.is_empty());
            }
            let mut s = String::new();
            d.render(src, &mut s).unwrap();
            prop_assert!(s.contains("error:"));
        }
    }
    let _ = shader::front::dump::dump_ast(src, "fuzz", &mut String::new());
    Ok(())
}

fn corpus() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name().unwrap().to_str().unwrap().starts_with("ok_")
                || !p.to_str().unwrap().contains("err_")
        })
        .map(|p| std::fs::read(p).unwrap())
        .filter(|s| !s.is_empty() && s.len() < 4096)
        .collect();
    v.sort();
    assert!(v.len() > 20, "corpus missing");
    v
}

const VOCAB: &[&str] = &[
    "in",
    "out",
    "uniform",
    "const",
    "layout",
    "(",
    "location",
    "=",
    "0",
    ")",
    "smooth",
    "void",
    "bool",
    "int",
    "float",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "mat3",
    "mat4",
    "sampler2D",
    "if",
    "else",
    "for",
    "return",
    "discard",
    "true",
    "false",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "&&",
    "||",
    "!",
    "++",
    "--",
    "main",
    "x",
    "y",
    "gl_Position",
    "gl_FragCoord",
    "texture",
    "dot",
    "normalize",
    "mix",
    "clamp",
    "1.0",
    "2",
    "0.5e1",
    "xyz",
    "rgba",
    "i",
    "#version 330\n",
    "\n",
    " ",
    "/*",
    "*/",
    "//",
    "while",
    "?",
    ":",
    "+=",
    "attribute",
    "f",
    "a",
    "b",
    "c",
];

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(VOCAB), 0..200)
        .prop_map(|t| t.join(" ").into_bytes())
}

/// A corpus shader with a few random edits: delete, insert vocabulary, duplicate, or flip a byte.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let corpus = corpus();
    let n = corpus.len();
    (
        0..n,
        prop::collection::vec(
            (
                0u8..4,
                any::<u16>(),
                any::<u16>(),
                prop::sample::select(VOCAB),
            ),
            1..6,
        ),
    )
        .prop_map(move |(pick, edits)| {
            let mut s = corpus[pick].clone();
            for (kind, p, q, word) in edits {
                if s.is_empty() {
                    break;
                }
                let at = p as usize % s.len();
                match kind {
                    0 => {
                        let end = (at + q as usize % 12).min(s.len());
                        s.drain(at..end);
                    }
                    1 => {
                        let w = word.as_bytes();
                        s.splice(at..at, w.iter().copied());
                    }
                    2 => {
                        let end = (at + q as usize % 40).min(s.len());
                        let piece: Vec<u8> = s[at..end].to_vec();
                        s.splice(at..at, piece);
                    }
                    _ => s[at] = (q % 128) as u8,
                }
            }
            s
        })
}

/// A statement for a function that may call `f0` .. `f{callable - 1}`: loops of 1 to 8 trips,
/// blocks and `if`s nested up to 6 deep around calls, empty statements, constant code and code
/// that emits IR.
fn statement(callable: usize) -> BoxedStrategy<String> {
    let mut leaves = vec![
        Just(";".to_string()).boxed(),
        Just("{ }".to_string()).boxed(),
        Just("gl_Position = gl_Position + vec4(1.0);".to_string()).boxed(),
        Just("{ const int c = 2 * 3 + 1; }".to_string()).boxed(),
    ];
    if callable > 0 {
        leaves.push((0..callable).prop_map(|j| format!("f{}();", j)).boxed());
        leaves.push((0..callable).prop_map(|j| format!("f{}();", j)).boxed());
    }
    prop::strategy::Union::new(leaves)
        .prop_recursive(6, 48, 4, |inner| {
            prop_oneof![
                4 => (prop_oneof![1u32..=8, Just(8)], inner.clone())
                    .prop_map(|(n, b)| format!("for (int i = 0; i < {}; i++) {}", n, b)),
                2 => prop::collection::vec(inner.clone(), 1..5)
                    .prop_map(|v| format!("{{ {} }}", v.join(" "))),
                1 => inner.prop_map(|b| format!("if (true) {}", b)),
            ]
        })
        .boxed()
}

/// A vertex shader of up to 5 void functions, each calling earlier ones inside loops, and a
/// `main` that calls them: the shapes whose unrolled and inlined work multiplies.
fn looping_program() -> impl Strategy<Value = Vec<u8>> {
    (0usize..6)
        .prop_flat_map(|n| (0..=n).map(statement).collect::<Vec<_>>())
        .prop_map(|bodies| {
            let n = bodies.len() - 1;
            let mut s = String::from("#version 330 core\n");
            for (j, b) in bodies.iter().take(n).enumerate() {
                s.push_str(&format!("void f{}() {{ {} }}\n", j, b));
            }
            s.push_str(&format!(
                "void main() {{ gl_Position = vec4(0.0); {} }}\n",
                bodies[n]
            ));
            s.into_bytes()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Every compile finishes within a fixed number of steps per source byte, however its loops
    /// and calls nest.
    #[test]
    fn compile_work_is_linear_in_the_source(src in looping_program()) {
        check_work(0, &src)?;
    }

    #[test]
    fn random_bytes_never_panic(stage in 0u32..5, src in prop::collection::vec(any::<u8>(), 0..600)) {
        check(stage, &src)?;
    }

    #[test]
    fn token_soup_never_panics(stage in 0u32..2, src in soup()) {
        check(stage, &src)?;
    }

    #[test]
    fn mutated_corpus_never_panics(stage in 0u32..2, src in mutated()) {
        check(stage, &src)?;
    }
}

#[test]
fn corpus_shaders_verify_in_both_stages() {
    // Compiling every valid shader in the wrong stage too must fail cleanly or verify.
    for src in corpus() {
        for stage in 0..2 {
            check(stage, &src).unwrap();
        }
    }
}

/// The kernel compiles on a fixed stack with the compiler's tables in a boxed `Workspace` and
/// the result in caller storage: the deepest shaders the limits allow (call depth 8 with deeply
/// nested expressions in every function) must fit this budget, recursion only (measured on a
/// debug build, whose frames are several times a release build's). Raised from 320 KiB to 512
/// KiB when profile 2's integer and dynamic-indexing lowering merged (the debug build then needed
/// between 384 and 512 KiB); the kernel's compile stacks are 4 MiB.
const STACK_BUDGET: usize = 512 * 1024;

#[test]
fn deepest_shaders_fit_the_stack_budget() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/in");
    let names = [
        "ok_stack_stress.vert",
        "ok_call_depth_8.vert",
        "err_call_depth_9.vert",
        "ok_nesting_32_parens.vert",
        "ok_nesting_32_blocks.vert",
        "ok_expression_height_32.vert",
        "ok_expression_chain_33.vert",
        "ok_expression_chain_long.vert",
        "ok_expression_chain_nested.vert",
        "ok_tokens_768.vert",
        "ok_ast_nodes_512.vert",
    ];
    let mut sources: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    // The longest chains the node table allows: constants (no temporaries) and swizzles.
    let sum = vec!["1.0"; 250].join("+");
    sources.push(format!("void main(){{gl_Position=vec4({});}}", sum).into_bytes());
    let swz = ".x".repeat(250);
    sources.push(format!("void main(){{gl_Position=vec4(1.0{});}}", swz).into_bytes());
    // The compiler's tables live in a caller-owned workspace and its result in a caller-owned
    // slot (the kernel boxes both): only the recursion uses the stack. Boxed here: a debug
    // build's `Box::new` passes the value through the current thread's stack.
    use shader::program::compile::{compile_into, CompileOptions, Shader, Workspace};
    let mut ws = Box::new(Workspace::new());
    let mut out = Box::new(Shader::EMPTY);
    let mut diag = Box::new(shader::Diagnostics::new("stack"));
    let handle = std::thread::Builder::new()
        .stack_size(STACK_BUDGET)
        .spawn(move || {
            let opts = CompileOptions::default();
            for src in &sources {
                compile_into(&mut ws, &mut out, &mut diag, 0, src, "stack", &opts);
                let _ = shader::front::dump::dump_ast_in(&mut ws, src, "stack", &mut String::new());
            }
        })
        .unwrap();
    handle.join().expect("compile overflowed the stack budget");
}

/// The shapes that took exponential time before the work budget (nested empty loops; loops
/// around calls of looping functions) stop at the budget with its diagnostic, at every depth.
#[test]
fn nested_loops_and_calls_stop_at_the_work_budget() {
    for depth in 1..=16 {
        let mut loops = String::new();
        for k in 0..depth {
            loops.push_str(&format!("for (int i{k} = 0; i{k} < 8; i{k}++) "));
        }
        let src = format!("void main() {{ {} {{ }} gl_Position = vec4(0.0); }}", loops);
        check_work(0, src.as_bytes()).unwrap();
        let (r, stats) = compile_with_stats(0, src.as_bytes(), "loops");
        // 8^5 iterations are past the budget; 8^3 are far below it.
        assert_eq!(
            r.is_ok(),
            depth <= 4,
            "depth {}: {} steps",
            depth,
            stats.work
        );
    }
    for depth in 1..=8 {
        let mut src = String::from("void f0() { for (int i = 0; i < 8; i++) { } }\n");
        for d in 1..depth {
            let c = d - 1;
            src.push_str(&format!(
                "void f{d}() {{ for (int i = 0; i < 8; i++) {{ f{c}(); f{c}(); f{c}(); f{c}(); }} }}\n"
            ));
        }
        let c = depth - 1;
        src.push_str(&format!(
            "void main() {{ for (int i = 0; i < 8; i++) {{ f{c}(); f{c}(); f{c}(); f{c}(); }} gl_Position = vec4(0.0); }}\n"
        ));
        check_work(0, src.as_bytes()).unwrap();
    }
}

/// Profile 2: lines of preprocessor directives (recursive, self-referring and exponential macros,
/// conditionals, errors) mixed with token soup.
const PP_LINES: &[&str] = &[
    "#define A(x) x x",
    "#define B A(A(A(A(A(A(B))))))",
    "#define C C C",
    "#define D(x, y) x ## y",
    "#define E(...) __VA_ARGS__",
    "#define F(x) F(x) x",
    "#define G G(1)",
    "#define H(x) #x",
    "#define V vec4(1.0)",
    "#undef A",
    "#if A(1) + 2 * (3 - 1) > 2",
    "#ifdef B",
    "#ifndef GL_ES",
    "#elif defined(C) && __VERSION__ >= 330",
    "#else",
    "#endif",
    "#error oops",
    "#line 7 3",
    "#extension GL_ARB_foo : enable",
    "#extension all : warn",
    "#pragma optimize(off)",
    "#version 330 core",
    "A(B) C D(1, 2) F(V) G H(x)",
    "out vec4 c; void main() { c = V; }",
    "float f(float x) { return x > 0.0 ? x : -x; }",
    "\\",
];

fn pp_soup() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(prop::sample::select(PP_LINES), 0..24),
        soup(),
    )
        .prop_map(|(lines, tail)| {
            let mut s = b"#pragma chrisos profile 2\n".to_vec();
            for l in lines {
                s.extend_from_slice(l.as_bytes());
                s.push(b'\n');
            }
            s.extend_from_slice(&tail);
            s
        })
}

/// Profile 2's property: no panic, a verified module or a diagnostic inside the source, and the
/// work within profile 2's budget.
fn check_p2(stage: u32, src: &[u8]) -> Result<(), TestCaseError> {
    use shader::limits::{limits, Profile};
    use shader::program::compile::{compile_with_stats_in, CompileOptions, Workspace};
    let opts = CompileOptions::profile(Profile::P2);
    let mut ws = Box::new(Workspace::new());
    let (r, stats) = compile_with_stats_in(&mut ws, stage, src, "p2", &opts);
    let max = limits(Profile::P2).compile_work_steps_max as u32;
    prop_assert!(stats.work <= max + 1, "work {}", stats.work);
    match r {
        Ok(sh) => {
            prop_assert_eq!(sh.profile, Profile::P2);
            prop_assert!(shader::ir::verify::verify(&sh.module).is_ok());
        }
        Err(d) => {
            prop_assert!(d.total() > 0);
            let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
            for e in d.errors() {
                prop_assert!(
                    e.line >= 1 && e.line <= lines,
                    "line {} of {}",
                    e.line,
                    lines
                );
            }
            let mut s = String::new();
            d.render(src, &mut s).unwrap();
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Random macro soup in profile 2 never panics, never loops, and stays within its budgets.
    #[test]
    fn profile_2_macro_soup_never_panics(stage in 0u32..2, src in pp_soup()) {
        check_p2(stage, &src)?;
    }

    #[test]
    fn profile_2_random_bytes_never_panic(stage in 0u32..2, src in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut s = b"#pragma chrisos profile 2\n".to_vec();
        s.extend_from_slice(&src);
        check_p2(stage, &s)?;
    }

    #[test]
    fn profile_2_mutated_corpus_never_panics(stage in 0u32..2, src in mutated()) {
        let mut s = b"#pragma chrisos profile 2\n".to_vec();
        s.extend_from_slice(&src);
        check_p2(stage, &s)?;
    }
}
