//! Property tests of the profile-2 preprocessor on "macro soup": random mixes of directives,
//! macros that refer to each other (recursively, mutually, exponentially), parentheses, commas,
//! `##`, `defined`, continuations and comments, plus random bytes. Every run must end (every
//! loop of the preprocessor consumes the source or a bounded budget, so a run that returns is
//! the "never loops" check), without a panic, within every budget, and every output token and
//! diagnostic must point inside the source. `PP_FUZZ_CASES=100000` runs longer.
use std::sync::Mutex;

use proptest::prelude::*;
use shader::front::diag::Diagnostics;
use shader::front::pp::{PpKind, Preprocessor};
use shader::limits::*;

/// One preprocessor for every case, placed statically (`Preprocessor::new` is const), as the
/// kernel would place it.
static PP: Mutex<Preprocessor> = Mutex::new(Preprocessor::new());

fn cases() -> u32 {
    std::env::var("PP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

fn check(src: &[u8]) -> Result<(), TestCaseError> {
    let mut p = PP.lock().unwrap_or_else(|e| e.into_inner());
    let mut d = Diagnostics::new("soup");
    let ok = p.run(src, &mut d);
    prop_assert_eq!(ok, d.is_empty());
    prop_assert!(p.tokens().len() <= PP_TOK_MAX);
    let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    for t in p.tokens() {
        prop_assert!(
            matches!(
                t.kind,
                PpKind::Ident | PpKind::Number | PpKind::Punct | PpKind::Other
            ),
            "internal token kind {:?} in the output",
            t.kind
        );
        prop_assert!(!p.spelling(src, t).is_empty(), "empty token");
        let o = p.origin(t);
        prop_assert!(
            o.line >= 1 && o.line <= lines,
            "origin line {} of {}",
            o.line,
            lines
        );
        prop_assert!(o.col >= 1);
        if t.flags & shader::front::pp::SYNTH == 0 {
            prop_assert!((t.off as usize + t.len as usize) <= src.len());
        }
    }
    for e in d.errors().chain(d.warnings()) {
        prop_assert!(
            e.line >= 1 && e.line <= lines,
            "diagnostic line {} of {}",
            e.line,
            lines
        );
        prop_assert!(e.column >= 1);
    }
    let mut text = String::new();
    prop_assert!(p.render(src, &mut text).is_ok());
    // Rendering writes at most a line per source line plus the tokens and their spacing.
    prop_assert!(text.len() <= src.len() * 2 + 400 + p.tokens().len() * 260);
    let mut s = String::new();
    prop_assert!(d.render(src, &mut s).is_ok());
    Ok(())
}

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "A", "B", "C", "F", "G", "H", "defined", "__LINE__", "X",
    ])
}

/// A fragment of macro soup.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        (name(), name(), name()).prop_map(|(a, b, c)| format!("\n#define {} {} {}\n", a, b, c)),
        (name(), name(), name())
            .prop_map(|(a, b, c)| format!("\n#define {}(x, y) {}(y, x) {} x\n", a, b, c)),
        (name(), name()).prop_map(|(a, b)| format!("\n#define {}(x) {}(x x) ## x\n", a, b)),
        (name(), name()).prop_map(|(a, b)| format!("\n#define {}() {} ## {}\n", a, a, b)),
        name().prop_map(|a| format!("\n#undef {}\n", a)),
        name().prop_map(|a| format!("\n#ifdef {}\n", a)),
        (name(), name()).prop_map(|(a, b)| format!("\n#if defined({}) || {} + 1 / 2\n", a, b)),
        name().prop_map(|a| format!("\n#elif {} << 3\n", a)),
        Just("\n#else\n".to_string()),
        Just("\n#endif\n".to_string()),
        Just("\n#line 5 2\n".to_string()),
        Just("\n#version 330\n".to_string()),
        Just("\n#pragma chrisos profile 2\n".to_string()),
        Just("\n#extension GL_X : enable\n".to_string()),
        Just("\n#error soup\n".to_string()),
        Just("\n#\n".to_string()),
        name().prop_map(|a| a.to_string()),
        name().prop_map(|a| format!(" {} ", a)),
        prop::sample::select(vec![
            "(", ")", ",", "((", "))", " ## ", "#", "1", "0x7", "2.5", "+", "-", "/", "*", "<<",
            "\\\n", "/*", "*/", "//", "\n", " ", "\t", "\r\n", "@", ";", "{", "}",
        ])
        .prop_map(|s| s.to_string()),
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..80).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn macro_soup_never_panics_and_stays_in_budget(s in soup()) {
        check(s.as_bytes())?;
    }

    #[test]
    fn random_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..400)) {
        check(&b)?;
    }

    #[test]
    fn soup_with_random_bytes_never_panics(
        s in soup(),
        b in prop::collection::vec(any::<u8>(), 0..40),
        at in 0usize..2000,
    ) {
        let mut v = s.into_bytes();
        let at = at.min(v.len());
        v.splice(at..at, b);
        check(&v)?;
    }
}

/// Known blow-ups, deterministic: each ends in a named limit, never a hang.
#[test]
fn exponential_and_recursive_definitions_end_in_a_named_limit() {
    let mut exp = String::from("#define A0 x x\n");
    for i in 1..64 {
        exp.push_str(&format!("#define A{} A{} A{}\n", i, i - 1, i - 1));
    }
    exp.push_str("A63\n");
    let mut nest = String::from("#define F(x) F(x) x x\n");
    nest.push_str(&"F(".repeat(200));
    nest.push_str(&")".repeat(200));
    let mut args = String::from("#define P(x) x x x x\n");
    args.push_str(&"P(".repeat(60));
    args.push('1');
    args.push_str(&")".repeat(60));
    for src in [exp, nest, args] {
        let mut p = PP.lock().unwrap_or_else(|e| e.into_inner());
        let mut d = Diagnostics::new("x");
        assert!(!p.run(src.as_bytes(), &mut d));
        let msg = &d.errors().next().unwrap().message;
        assert!(msg.contains("(PP_"), "{}", msg);
    }
}
