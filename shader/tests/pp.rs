//! The profile-2 preprocessor (`shader::front::pp`): directives, macro expansion, `#if` arithmetic,
//! predefined macros, limits, and the positions every output token remembers.
use shader::front::diag::Diagnostics;
use shader::front::pp::{PpKind, Preprocessor};

/// What one run produced: the rendered text, the tokens as text, the diagnostics rendered.
struct Run {
    text: String,
    toks: Vec<String>,
    /// (line, col, macro name at that position) of each token's origin.
    origins: Vec<(u32, u32, String)>,
    diag: String,
    ok: bool,
    version: u32,
    profile: Option<u8>,
}

fn pp(src: &str) -> Run {
    let src = src.to_string();
    // The preprocessor is about a megabyte: build it on a roomy thread's stack, then box it.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut p = Box::new(Preprocessor::new());
            let mut d = Diagnostics::new("t.frag");
            let ok = p.run(src.as_bytes(), &mut d);
            let b = src.as_bytes();
            let mut text = String::new();
            p.render(b, &mut text).unwrap();
            let toks = p
                .tokens()
                .iter()
                .map(|t| p.text(b, t).to_string())
                .collect();
            let origins = p
                .tokens()
                .iter()
                .map(|t| {
                    let o = p.origin(t);
                    let name = String::from_utf8_lossy(p.macro_name(b, o.exp)).into_owned();
                    (o.line, o.col, name)
                })
                .collect();
            let mut diag = String::new();
            d.render(b, &mut diag).unwrap();
            Run {
                text,
                toks,
                origins,
                diag,
                ok,
                version: p.version().number,
                profile: p.profile_pragma().map(|p| p.profile),
            }
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The tokens joined by single spaces.
fn out(src: &str) -> String {
    let r = pp(src);
    assert!(r.ok, "unexpected errors for {:?}:\n{}", src, r.diag);
    r.toks.join(" ")
}

/// The first diagnostic line (location and message).
fn err(src: &str) -> String {
    let r = pp(src);
    assert!(!r.ok, "expected an error for {:?}, got {:?}", src, r.toks);
    r.diag.lines().next().unwrap_or("").to_string()
}

#[test]
fn object_and_function_macros() {
    assert_eq!(out("#define N 4\nfloat a[N];"), "float a [ 4 ] ;");
    assert_eq!(
        out("#define SQ(x) ((x)*(x))\nSQ(a+1)"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(out("#define F() 7\nF() F ( ) F"), "7 7 F");
    assert_eq!(out("#define ADD(a, b) a + b\nADD(1, 2)"), "1 + 2");
}

#[test]
fn nested_macros_expand_on_rescan() {
    let src = "#define A B + 1\n#define B C * 2\n#define C 3\nA";
    assert_eq!(out(src), "3 * 2 + 1");
    // A macro defined after another that uses it still expands (expansion is at use).
    assert_eq!(out("#define X Y\n#define Y 5\nX"), "5");
    // Arguments are expanded before substitution, and the result is rescanned.
    assert_eq!(out("#define ID(x) x\n#define TWO 2\nID(ID(TWO))"), "2");
    assert_eq!(
        out("#define f(x) g(x)\n#define g(y) [y]\nf(f(1))"),
        "[ [ 1 ] ]"
    );
    // A function-like macro name produced by an expansion takes its arguments from the text.
    assert_eq!(out("#define G F\n#define F(x) <x>\nG(9)"), "< 9 >");
}

#[test]
fn arguments_with_parentheses_and_commas() {
    let src =
        "#define FIRST(a, b) a\n#define SECOND(a, b) b\nFIRST((1, 2), 3) SECOND(f(x, y), g(z))";
    assert_eq!(out(src), "( 1 , 2 ) g ( z )");
    assert_eq!(
        out("#define P(x) x\nP(vec3(1.0, 2.0, 3.0))"),
        "vec3 ( 1.0 , 2.0 , 3.0 )"
    );
    // Brackets do not protect commas (as in C): two arguments.
    assert_eq!(
        err("#define P(x) x\nP(a[1, 2])"),
        "t.frag:2:1: error: macro 'P' takes 1 argument, but 2 were given"
    );
    // Empty arguments.
    assert_eq!(out("#define T(a, b) [a|b]\nT(,) T(1,)"), "[ | ] [ 1 | ]");
    // Arguments may span lines.
    assert_eq!(out("#define T(a, b) a b\nT(1,\n  2)"), "1 2");
}

#[test]
fn wrong_argument_counts_and_unterminated_calls() {
    assert_eq!(
        err("#define T(a, b) a\nT(1)"),
        "t.frag:2:1: error: macro 'T' takes 2 arguments, but 1 was given"
    );
    assert_eq!(
        err("#define T(a) a\nx T(1, 2"),
        "t.frag:2:3: error: unterminated invocation of macro 'T': no ')' before the next directive or the end of the source"
    );
    assert_eq!(
        err("#define T(a) a\nT(1,\n#define Q\n)"),
        "t.frag:2:1: error: unterminated invocation of macro 'T': no ')' before the next directive or the end of the source"
    );
}

#[test]
fn a_function_like_macro_name_without_arguments_is_left_alone() {
    assert_eq!(out("#define f(x) x\nf + f;"), "f + f ;");
    assert_eq!(out("#define f(x) x\nf"), "f");
    // Space between the name and '(' in the #define makes an object-like macro.
    assert_eq!(out("#define f (x) x\nf(1)"), "( x ) x ( 1 )");
    assert_eq!(out("#define f/**/(x) x\nf"), "( x ) x");
}

#[test]
fn self_reference_never_recurses() {
    assert_eq!(out("#define A A\nA"), "A");
    assert_eq!(out("#define A A + 1\nA"), "A + 1");
    assert_eq!(out("#define f(x) f(x)\nf(1)"), "f ( 1 )");
    assert_eq!(
        out("#define f(x) x + f(x)\nf(f(2))"),
        "2 + f ( 2 ) + f ( 2 + f ( 2 ) )"
    );
    // Mutual recursion stops at the first repeat.
    assert_eq!(out("#define A B\n#define B A\nA B"), "A B");
    assert_eq!(out("#define A a B\n#define B b A\nA"), "a b A");
    // C's "painted blue": a name once left unexpanded stays so when rescanned.
    assert_eq!(out("#define f(x) x\n#define g g\nf(g)"), "g");
}

#[test]
fn token_pasting() {
    assert_eq!(
        out("#define CAT(a, b) a ## b\nCAT(vec, 3) CAT(x, 1)"),
        "vec3 x1"
    );
    assert_eq!(
        out("#define CAT(a, b) a##b\nCAT(, y) CAT(y, ) CAT(,)"),
        "y y"
    );
    // The pasted token is rescanned.
    assert_eq!(out("#define N 4\n#define CAT(a, b) a ## b\nCAT(N, )"), "4");
    // Operands beside '##' are not expanded first.
    assert_eq!(
        out("#define N 4\n#define CAT(a, b) a ## b\nCAT(N, 1)"),
        "N1"
    );
    assert_eq!(out("#define OP(a) a ## =\nx OP(+) 1"), "x += 1");
    assert_eq!(
        err("#define CAT(a, b) a ## b\nCAT(+, -)"),
        "t.frag:2:5: error: pasting '+' and '-' does not give a valid token"
    );
    assert_eq!(
        err("#define BAD(a) a ##\n"),
        "t.frag:1:18: error: '##' cannot be at either end of a macro's replacement"
    );
}

#[test]
fn redefinition_rules() {
    // An identical redefinition is allowed, whitespace amounts aside.
    assert_eq!(out("#define A 1 +  2\n#define A 1 + /* c */ 2\nA"), "1 + 2");
    assert_eq!(out("#define F(x) (x)\n#define F(x)    (x)\nF(1)"), "( 1 )");
    assert_eq!(
        err("#define A 1\n#define A 2\n"),
        "t.frag:2:9: error: macro 'A' redefined differently (only an identical redefinition is allowed: #undef it first)"
    );
    // Whitespace where there was none is a difference.
    assert!(err("#define A 1+2\n#define A 1 + 2\n").contains("redefined differently"));
    // Different parameter names are a difference.
    assert!(err("#define F(x) x\n#define F(y) y\n").contains("redefined differently"));
    assert!(err("#define F(x) x\n#define F x\n").contains("redefined differently"));
    // #undef, then a new definition.
    assert_eq!(out("#define A 1\n#undef A\n#define A 2\nA"), "2");
    assert_eq!(out("#undef NEVER_DEFINED\nx"), "x");
}

#[test]
fn reserved_and_predefined_names() {
    assert_eq!(
        err("#define GL_foo 1\n"),
        "t.frag:1:9: error: cannot define 'GL_foo': macro names beginning with 'GL_' are reserved"
    );
    assert_eq!(
        err("#undef GL_core_profile\n"),
        "t.frag:1:8: error: cannot undefine 'GL_core_profile': macro names beginning with 'GL_' are reserved"
    );
    assert_eq!(
        err("#define __LINE__ 3\n"),
        "t.frag:1:9: error: cannot define the predefined macro '__LINE__'"
    );
    assert_eq!(
        err("#undef __VERSION__\n"),
        "t.frag:1:8: error: cannot undefine the predefined macro '__VERSION__'"
    );
    assert_eq!(
        err("#define defined 1\n"),
        "t.frag:1:9: error: 'defined' cannot be used as a macro name"
    );
    let r = pp("#define MY__NAME 1\nMY__NAME");
    assert!(r.ok);
    assert!(r
        .diag
        .contains("t.frag:1:9: warning: macro names containing '__' are reserved"));
    let long = "a".repeat(64);
    assert!(err(&format!("#define {} 1\n", long)).contains("the limit is 63 (PP_NAME_MAX)"));
    assert_eq!(
        out(&format!("#define {} 1\n{}", &long[..63], &long[..63])),
        "1"
    );
}

#[test]
fn if_arithmetic_and_precedence() {
    let cases = [
        ("1 + 2 * 3 == 7", true),
        ("(1 + 2) * 3 == 9", true),
        ("10 / 3 == 3 && 10 % 3 == 1", true),
        ("-7 / 2 == -3", true),
        ("1 << 4 == 16 && 256 >> 4 == 16", true),
        ("~0 == -1", true),
        ("!0 && !!5", true),
        ("3 > 2 && 2 >= 2 && 1 < 2 && 2 <= 2", true),
        ("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5", true),
        // & binds tighter than ^, ^ than |, | than &&, && than ||.
        ("1 | 2 ^ 3 & 4", true), // 1 | (2 ^ (3 & 4)) = 3
        ("0 || 1 && 0", false),
        ("2 + 3 << 1 == 10", true), // (2 + 3) << 1
        ("1 == 1 == 1", true),
        ("0x10 == 16 && 010 == 8 && 7u == 7", true),
        ("- - 1 == 1 && + 1 == 1", true),
        ("0", false),
        ("UNDEFINED_NAME", false),
        ("UNDEFINED_NAME == 0", true),
    ];
    for (e, want) in cases {
        let got = out(&format!("#if {}\nyes\n#else\nno\n#endif", e));
        assert_eq!(got, if want { "yes" } else { "no" }, "#if {}", e);
    }
}

#[test]
fn if_errors() {
    assert_eq!(
        err("#if 1 / 0\n#endif"),
        "t.frag:1:7: error: division by zero in #if"
    );
    assert_eq!(
        err("#if 1 % 0\n#endif"),
        "t.frag:1:7: error: modulus by zero in #if"
    );
    // As in Mesa, the unevaluated side of && is still checked.
    assert_eq!(
        err("#if 0 && 1 / 0\n#endif"),
        "t.frag:1:12: error: division by zero in #if"
    );
    assert_eq!(
        err("#if\n#endif"),
        "t.frag:1:1: error: #if needs an expression"
    );
    assert_eq!(
        err("#if 1.5\n#endif"),
        "t.frag:1:5: error: '1.5' is not an integer constant: #if takes integers only"
    );
    assert_eq!(
        err("#if (1\n#endif"),
        "t.frag:1:5: error: unbalanced '(' in #if: no ')' before the end"
    );
    assert_eq!(
        err("#if 1 2\n#endif"),
        "t.frag:1:7: error: unexpected '2' after the #if expression"
    );
    assert_eq!(
        err("#if 1 +\n#endif"),
        "t.frag:1:1: error: #if expression ends where a value is expected"
    );
    assert_eq!(
        err("#if 1 << 64\n#endif"),
        "t.frag:1:7: error: shift by 64 in #if: the count must be 0 to 63"
    );
    assert!(err("#if 99999999999999999999\n#endif").contains("too large"));
    let deep = format!("#if {}1{}\n#endif", "(".repeat(80), ")".repeat(80));
    assert!(err(&deep).contains("(PP_EXPR_DEPTH_MAX)"));
    // An error inside a macro used in #if points at the use and names the macro.
    assert_eq!(
        err("#define Z (1/0)\n#if Z\n#endif"),
        "t.frag:2:5: error: division by zero in #if (in expansion of macro 'Z')"
    );
}

#[test]
fn macros_in_if() {
    assert_eq!(out("#define V 3\n#if V * 2 == 6\nok\n#endif"), "ok");
    assert_eq!(out("#define MAX(a, b) ((a) > (b) ? 0 : 0)\n#define M(a) (a + 1)\n#if M(2) == 3\nok\n#endif"), "ok");
}

#[test]
fn defined_operator() {
    let src = "#define A\n#if defined A && defined(A) && !defined B && !defined ( B )\nok\n#endif";
    assert_eq!(out(src), "ok");
    // The operand of defined is not expanded.
    assert_eq!(
        out("#define A B\n#if defined(A) && !defined(B)\nok\n#endif"),
        "ok"
    );
    // defined produced by a macro is evaluated too (as Mesa does).
    assert_eq!(
        out("#define A\n#define HAS_A defined(A)\n#if HAS_A\nok\n#endif"),
        "ok"
    );
    assert_eq!(
        out("#if defined(__LINE__) && defined __FILE__ && defined __VERSION__\nok\n#endif"),
        "ok"
    );
    assert_eq!(
        err("#if defined\n#endif"),
        "t.frag:1:5: error: 'defined' needs a macro name: defined NAME or defined(NAME)"
    );
    assert!(err("#if defined(A\n#endif").contains("'defined' needs a macro name"));
}

#[test]
fn ifdef_ifndef_elif_else_chains() {
    let src = "#define B 2\n\
               #if B == 1\none\n#elif B == 2\ntwo\n#elif B == 2\nagain\n#else\nother\n#endif";
    assert_eq!(out(src), "two");
    let src = "#if 0\na\n#elif 0\nb\n#else\nc\n#endif";
    assert_eq!(out(src), "c");
    assert_eq!(out("#ifdef NOPE\nx\n#else\ny\n#endif"), "y");
    assert_eq!(out("#ifndef NOPE\nx\n#else\ny\n#endif"), "x");
    // Nested, with skipped blocks containing garbage, bad directives and bad expressions.
    let src = "#if 0\n#if 1/0\n#bogus\n#error no\n@ $ `\n#else\nz\n#endif\n#elif 1\nw\n#endif";
    assert_eq!(out(src), "w");
    // An #elif after a taken branch is not evaluated.
    assert_eq!(out("#if 1\na\n#elif 1/0\nb\n#endif"), "a");
    assert_eq!(
        out("#ifdef GL_ES\nprecision mediump float;\n#endif\nx"),
        "x"
    );
}

#[test]
fn conditional_structure_errors() {
    assert_eq!(
        err("#if 1\nx\n"),
        "t.frag:1:1: error: unterminated #if: no #endif before the end of the source"
    );
    assert_eq!(
        err("x\n  #ifdef A\n#if 1\n#endif\n"),
        "t.frag:2:3: error: unterminated #ifdef: no #endif before the end of the source"
    );
    assert_eq!(
        err("#if 1\n#else\n#else\n#endif"),
        "t.frag:3:1: error: #else after #else"
    );
    assert_eq!(
        err("#if 1\n#else\n#elif 1\n#endif"),
        "t.frag:3:1: error: #elif after #else"
    );
    assert_eq!(err("#endif"), "t.frag:1:1: error: #endif without #if");
    assert_eq!(err("#else"), "t.frag:1:1: error: #else without #if");
    assert_eq!(err("#elif 1"), "t.frag:1:1: error: #elif without #if");
    assert_eq!(
        err("#ifdef\n#endif"),
        "t.frag:1:1: error: #ifdef needs a macro name"
    );
    assert_eq!(
        err("#ifdef A B\n#endif"),
        "t.frag:1:10: error: unexpected 'B' after #ifdef"
    );
    assert_eq!(
        err("#if 1\n#endif x"),
        "t.frag:2:8: error: unexpected 'x' after #endif"
    );
    let deep = "#if 1\n".repeat(65) + &"#endif\n".repeat(65);
    assert_eq!(
        err(&deep),
        "t.frag:65:1: error: too many nested #if directives: the limit is 64 (PP_IF_MAX)"
    );
    let ok = "#if 1\n".repeat(64) + "x\n" + &"#endif\n".repeat(64);
    assert_eq!(out(&ok), "x");
}

#[test]
fn error_directive() {
    assert_eq!(
        err("x\n  #error this  shader needs  (a, b)\n"),
        "t.frag:2:3: error: #error this shader needs (a, b)"
    );
    assert_eq!(out("#if 0\n#error skipped\n#endif\nx"), "x");
    // Macros are not expanded in #error.
    assert_eq!(err("#define A 1\n#error A"), "t.frag:2:1: error: #error A");
}

#[test]
fn line_file_and_version_macros() {
    assert_eq!(out("a __LINE__\n\nb __LINE__"), "a 1 b 3");
    assert_eq!(out("__FILE__ __VERSION__"), "0 110");
    assert_eq!(out("#version 330\n__VERSION__ GL_core_profile"), "330 1");
    assert_eq!(
        out("#version 150 compatibility\nGL_compatibility_profile GL_core_profile"),
        "1 GL_core_profile"
    );
    assert_eq!(
        out("#version 140\nGL_core_profile GL_FRAGMENT_PRECISION_HIGH"),
        "GL_core_profile 1"
    );
    assert_eq!(out("GL_ES"), "GL_ES");
    // #line N: the next line is N; a second number sets __FILE__.
    assert_eq!(out("#line 100\n__LINE__\n__LINE__"), "100 101");
    assert_eq!(out("#line 7 3\n__LINE__ __FILE__"), "7 3");
    assert_eq!(out("#define L 20\n#line L\n__LINE__"), "20");
    // __LINE__ inside a macro is the line of the use.
    assert_eq!(out("#define WHERE __LINE__\n\n\nWHERE"), "4");
    // A multi-line invocation: the line of the macro name.
    assert_eq!(out("#define ID(x) x\nID(\n__LINE__)"), "3");
    assert_eq!(
        err("#line\n"),
        "t.frag:1:1: error: #line needs a line number"
    );
    assert_eq!(
        err("#line x\n"),
        "t.frag:1:7: error: #line expects a line number, not 'x'"
    );
    assert_eq!(
        err("#line 1 2 3\n"),
        "t.frag:1:11: error: unexpected '3' after #line"
    );
    // Diagnostics still point at the physical line.
    assert_eq!(
        err("#line 50\n#error here"),
        "t.frag:2:1: error: #error here"
    );
}

#[test]
fn version_rules() {
    assert_eq!(pp("#version 330 core\nx").version, 330);
    assert_eq!(
        pp("// comment\n/* block */ \n  #version 150\nx").version,
        150
    );
    assert_eq!(pp("x").version, 110);
    assert_eq!(
        err("x\n#version 330\n"),
        "t.frag:2:1: error: #version must come first: only comments and whitespace may come before it"
    );
    assert!(err("#define A\n#version 330\n").contains("#version must come first"));
    assert!(err("#\n#version 330\n").contains("#version must come first"));
    assert_eq!(
        err("#version 330\n#version 330\n"),
        "t.frag:2:1: error: #version may appear only once"
    );
    assert_eq!(
        err("#version 450\n"),
        "t.frag:1:10: error: unsupported #version 450: profile 2 accepts 110, 120, 130, 140, 150 and 330"
    );
    assert!(err("#version 200\n").contains("unsupported #version 200"));
    assert!(err("#version 300 es\n").contains("unsupported #version 300"));
    assert!(err("#version 0330\n").contains("expected a decimal version number"));
    assert_eq!(
        err("#version 120 core\n"),
        "t.frag:1:14: error: #version 120 takes no profile: 'core' and 'compatibility' begin at 150"
    );
    assert!(err("#version 330 fancy\n").contains("unknown #version profile 'fancy'"));
    assert!(err("#version 330 core x\n").contains("unexpected 'x' after #version"));
    assert!(err("#version\n").contains("expected a version number"));
}

#[test]
fn pragmas() {
    let r = pp("#version 330\n#pragma chrisos profile 2\nx");
    assert!(r.ok, "{}", r.diag);
    assert_eq!(r.profile, Some(2));
    assert_eq!(pp("#pragma chrisos profile 1\n").profile, Some(1));
    assert_eq!(pp("x").profile, None);
    // Other pragmas are ignored, macros in them are not expanded and not checked.
    assert_eq!(
        out("#pragma optimize(off)\n#pragma STDGL invariant(all)\n#pragma\nx"),
        "x"
    );
    assert!(err("#pragma chrisos profile 3\n").contains("malformed pragma"));
    assert!(err("#pragma chrisos profile\n").contains("malformed pragma"));
    assert_eq!(
        err("float x;\n#pragma chrisos profile 2\n"),
        "t.frag:2:1: error: '#pragma chrisos profile' must come before the first declaration"
    );
    assert!(err("#pragma chrisos profile 2\n#pragma chrisos profile 1\n").contains("conflicting"));
}

#[test]
fn extensions() {
    let r = pp("#extension GL_ARB_foo : enable\nx");
    assert!(r.ok);
    assert_eq!(
        r.diag.lines().next().unwrap(),
        "t.frag:1:12: warning: extension 'GL_ARB_foo' is not supported: '#extension GL_ARB_foo : enable' has no effect"
    );
    let r = pp("#extension GL_ARB_foo : warn\n");
    assert!(r.ok && r.diag.contains("warning"));
    let r =
        pp("#extension GL_ARB_foo : disable\n#extension all : disable\n#extension all : warn\n");
    assert!(r.ok && r.diag.is_empty(), "{}", r.diag);
    assert_eq!(
        err("#extension GL_ARB_foo : require\n"),
        "t.frag:1:12: error: extension 'GL_ARB_foo' is not supported (required by #extension)"
    );
    assert_eq!(
        err("#extension all : enable\n"),
        "t.frag:1:18: error: '#extension all' takes only warn or disable, not 'enable'"
    );
    assert!(err("#extension all : require\n").contains("only warn or disable"));
    assert!(err("#extension GL_ARB_foo : maybe\n").contains("unknown #extension behavior 'maybe'"));
    assert!(err("#extension GL_ARB_foo\n").contains("malformed #extension"));
    assert!(err("x;\n#extension GL_ARB_foo : disable\n")
        .contains("must come before the first declaration"));
}

#[test]
fn line_continuation_and_comments() {
    assert_eq!(out("#define A 1 + \\\n 2\nA"), "1 + 2");
    // A continuation inside a token joins it.
    assert_eq!(out("flo\\\nat x;"), "float x ;");
    assert_eq!(out("#def\\\nine A 3\nA"), "3");
    // CRLF continuations and line ends.
    assert_eq!(out("#define A 1 \\\r\n+ 2\r\nA\r\n"), "1 + 2");
    // A // comment continued by a backslash swallows the next line.
    assert_eq!(out("a // comment \\\nb\nc"), "a c");
    // Comments become spaces before directives are recognised.
    assert_eq!(out("/* x */ # /* y */ define /* z */ A 5\nA"), "5");
    assert_eq!(out("#define A /* multi\nline */ 7\nA"), "7");
    assert_eq!(
        err("x /* open"),
        "t.frag:1:3: error: unterminated comment: '/*' without '*/'"
    );
    assert_eq!(out("#\n# // null directives\nx"), "x");
}

#[test]
fn bad_directives() {
    assert_eq!(err("#foo\n"), "t.frag:1:2: error: unknown directive '#foo'");
    assert_eq!(
        err("#include \"a.h\"\n"),
        "t.frag:1:2: error: unknown directive '#include': #include is not supported"
    );
    assert_eq!(
        err("# 1\n"),
        "t.frag:1:3: error: '#' must be followed by a directive name, not '1'"
    );
    assert_eq!(
        err("#define\n"),
        "t.frag:1:1: error: #define needs a macro name"
    );
    assert_eq!(
        err("#define 1 2\n"),
        "t.frag:1:9: error: #define needs a macro name, not '1'"
    );
    assert!(err("#define F(a, a) a\n").contains("duplicate macro parameter 'a'"));
    assert!(err("#define F(a b) a\n").contains("expected ',' or ')'"));
    assert!(err("#define F(a,) a\n").contains("expected a parameter name"));
    assert!(err("#define F(a\n").contains("missing ')'"));
    assert_eq!(
        err("#undef\n"),
        "t.frag:1:1: error: #undef needs a macro name"
    );
    assert_eq!(
        err("#undef A B\n"),
        "t.frag:1:10: error: unexpected 'B' after #undef"
    );
    // '#' in the middle of a line is an ordinary token (the lexer rejects it).
    assert_eq!(out("a # b"), "a # b");
}

#[test]
fn positions_of_tokens_from_expansions() {
    let src = "#define TWO_X(v) (v * 2.0)\nvoid main() {\n  float y = TWO_X(x);\n}";
    let r = pp(src);
    assert!(r.ok);
    let at = |s: &str| {
        let i = r.toks.iter().position(|t| t == s).unwrap();
        r.origins[i].clone()
    };
    // Tokens of the replacement list point at the invocation and name the macro.
    assert_eq!(at("2.0"), (3, 13, "TWO_X".to_string()));
    assert_eq!(at("*"), (3, 13, "TWO_X".to_string()));
    // An argument is the user's own text: it points at itself.
    assert_eq!(at("x"), (3, 19, String::new()));
    assert_eq!(at("y"), (3, 9, String::new()));
    // Nested: the outermost invocation in the text.
    let r = pp("#define IN 1.0\n#define OUT(a) a + IN\n\n   OUT(b)");
    let i = r.toks.iter().position(|t| t == "1.0").unwrap();
    assert_eq!(r.origins[i], (4, 4, "OUT".to_string()));
}

#[test]
fn diagnostics_in_expansions_name_the_macro() {
    // A later stage reports through Preprocessor::error: the invocation, and the macro's name.
    let src = "#define BAD oops\nfloat x = BAD;\n";
    let res = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let mut p = Box::new(Preprocessor::new());
            let mut d = Diagnostics::new("t.frag");
            assert!(p.run(src.as_bytes(), &mut d));
            let t = *p
                .tokens()
                .iter()
                .find(|t| p.text(src.as_bytes(), t) == "oops")
                .unwrap();
            p.error(
                src.as_bytes(),
                &mut d,
                &t,
                format_args!("undeclared identifier 'oops'"),
            );
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            s
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        res,
        "t.frag:2:11: error: undeclared identifier 'oops' (in expansion of macro 'BAD')\n\
         float x = BAD;\n          ^\n"
    );
}

#[test]
fn token_kinds() {
    let src = "a1 _b 1.5e+3f 0x1Fu .5 <<= >> ^^ ## # @ $";
    let r = pp(src);
    assert_eq!(
        r.toks,
        ["a1", "_b", "1.5e+3f", "0x1Fu", ".5", "<<=", ">>", "^^", "##", "#", "@", "$"]
    );
    let res = std::thread::spawn(move || {
        let mut p = Box::new(Preprocessor::new());
        let mut d = Diagnostics::new("");
        p.run(src.as_bytes(), &mut d);
        p.tokens().iter().map(|t| t.kind).collect::<Vec<_>>()
    });
    let _ = res; // kinds checked below on a small source to keep the thread's stack small
    let kinds = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let mut p = Box::new(Preprocessor::new());
            let mut d = Diagnostics::new("");
            p.run(b"a 1 + @", &mut d);
            p.tokens().iter().map(|t| t.kind).collect::<Vec<_>>()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        kinds,
        [PpKind::Ident, PpKind::Number, PpKind::Punct, PpKind::Other]
    );
}

#[test]
fn rendered_text_keeps_lines() {
    let src = "#version 330\n#define SCALE(v) (v * 2.0)\nout vec4 c;\nvoid main() {\n    c = SCALE(vec4(1.0));\n}\n";
    let r = pp(src);
    assert!(r.ok);
    assert_eq!(
        r.text,
        "#version 330\n\nout vec4 c;\nvoid main() {\n    c = (vec4(1.0) * 2.0);\n}\n"
    );
    // Tokens that would run together are kept apart.
    assert_eq!(pp("#define M -\n-M").text, "\n- -\n");
    assert_eq!(pp("#define A x\nA+A").text, "\nx+x\n");
    assert_eq!(pp("#define A x\n#define B y\nA B AB").text, "\n\nx y AB\n");
    assert_eq!(
        pp("#pragma chrisos profile 2\nx").text,
        "#pragma chrisos profile 2\nx\n"
    );
}

#[test]
fn limits_are_named() {
    // Exponential definitions hit the expansion budget, not the machine.
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{} A{} A{}\n", i, i - 1, i - 1));
    }
    src.push_str("A39\n");
    let e = err(&src);
    assert!(
        e.contains("(PP_TOK_MAX)")
            || e.contains("(PP_EXPAND_MAX)")
            || e.contains("(PP_EXPANSION_MAX)"),
        "{}",
        e
    );
    // A long chain hits the depth limit.
    let mut src = String::new();
    for i in 0..100 {
        src.push_str(&format!("#define C{} C{} +\n", i, i + 1));
    }
    src.push_str("C0\n");
    assert!(err(&src).contains("macro expansion nested too deeply: the limit is 64 (PP_DEPTH_MAX)"));
    // Output tokens: 16384 allowed, one more is an error at that token.
    let ok = "x ".repeat(16384);
    assert_eq!(pp(&ok).toks.len(), 16384);
    let bad = "x ".repeat(16385);
    assert_eq!(err(&bad), "t.frag:1:32769: error: too many tokens after preprocessing: the limit is 16384 (PP_TOK_MAX)");
    // Source size.
    let big = " ".repeat(65536);
    assert_eq!(
        err(&big),
        "t.frag:1:1: error: source is 65536 bytes: the limit is 65535 bytes (PP_SRC_MAX)"
    );
    assert!(pp(&" ".repeat(65535)).ok);
    // Parameters.
    let params: Vec<String> = (0..33).map(|i| format!("p{}", i)).collect();
    assert!(err(&format!("#define F({}) 1\n", params.join(","))).contains("(PP_ARGS_MAX)"));
    let params: Vec<String> = (0..32).map(|i| format!("p{}", i)).collect();
    let args: Vec<String> = (0..32).map(|i| i.to_string()).collect();
    assert_eq!(
        out(&format!(
            "#define F({}) p31\nF({})",
            params.join(","),
            args.join(",")
        )),
        "31"
    );
    // Replacement length.
    assert!(err(&format!("#define B {}\n", "1 ".repeat(1025))).contains("(PP_BODY_MAX)"));
    // Macro count.
    let many: String = (0..600)
        .map(|i| format!("#define M{} {}\n", i, i))
        .collect();
    assert!(err(&many).contains("too many macros: the limit is 512 (PP_MACRO_MAX)"));
}

/// Blanks and comment bodies are skipped as runs: positions after blanks, `//` and `/* */`
/// comments (with stars, backslashes and line continuations inside them and right after
/// blanks) are the ones the byte-at-a-time scanner gave.
#[test]
fn positions_after_blank_runs_and_comments() {
    let src = "a  \t b // one \\ two\n c /* x * y ** \\\n z \\ */ d\n   \\\n  e//\\\n f\n\t\t/***/g /*\n*\n*/ h \x0b\x0c i";
    let r = pp(src);
    let got: Vec<(String, u32, u32)> = r
        .toks
        .iter()
        .zip(&r.origins)
        .map(|(t, o)| (t.clone(), o.0, o.1))
        .collect();
    let want: Vec<(String, u32, u32)> = WANT_POSITIONS
        .iter()
        .map(|&(t, l, c)| (t.to_string(), l, c))
        .collect();
    assert_eq!(got, want, "{}", r.diag);
}

/// As the byte-at-a-time scanner gave them (checked against it).
const WANT_POSITIONS: &[(&str, u32, u32)] = &[
    ("a", 1, 1),
    ("b", 1, 6),
    ("c", 2, 2),
    ("d", 3, 9),
    ("e", 5, 3),
    ("g", 7, 8),
    ("h", 9, 4),
    ("i", 9, 9),
];
