//! TGSI emitter: golden text for the hand-built corpus, virglrenderer's parser rules on every
//! output, exact immediates, the byte bound and the token bound.
#[path = "tgsi_fixtures.rs"]
mod fixtures;

use shader::back::tgsi::{check_tgsi, emit, format_imm, parse_tgsi_float, TgsiError};
use shader::ir::*;
use shader::limits::TGSI_MAX;

fn emit_ok(m: &Module, remap: Option<&[i8]>) -> std::string::String {
    let mut out = shader::back::tgsi::TgsiText::new();
    let info = emit(m, remap, &mut out).unwrap_or_else(|e| panic!("emit failed: {}", e));
    assert_eq!(info.bytes, out.len());
    assert_eq!(shader::back::tgsi::token_bound(&out), info.tokens);
    let stats = check_tgsi(&out).unwrap_or_else(|e| panic!("{}\n{}", e, out.as_str()));
    assert_eq!(stats.instructions, info.instructions);
    // The token bound covers at least one token per operand, instruction, declaration and
    // immediate data word, plus the header.
    let operands = out.as_str().matches("TEMP[").count()
        + out.as_str().matches("IN[").count()
        + out.as_str().matches("OUT[").count();
    let lower =
        2 + stats.instructions + 2 * stats.declarations + 5 * stats.immediates + operands as u32;
    assert!(
        info.tokens >= lower,
        "token bound {} < {}",
        info.tokens,
        lower
    );
    out.as_str().into()
}

/// Compares with tests/out/tgsi/NAME.tgsi; `SHADER_BLESS=1` rewrites the file instead.
fn golden(name: &str, text: &str) {
    let path = format!(
        "{}/tests/out/tgsi/{}.tgsi",
        env!("CARGO_MANIFEST_DIR"),
        name
    );
    if std::env::var_os("SHADER_BLESS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {} (run with SHADER_BLESS=1)", path, e));
    assert_eq!(text, want, "golden mismatch for {}", name);
}

#[test]
fn corpus_matches_golden_and_parses() {
    for (name, m) in fixtures::corpus() {
        let text = emit_ok(&m, None);
        golden(&format!("ir_{}", name), &text);
    }
}

#[test]
fn if_condition_uses_a_four_letter_swizzle() {
    let t = emit_ok(&fixtures::ops_frag(), None);
    assert!(t.contains("IF TEMP[8].xxxx\n"), "{}", t);
    assert!(
        !t.contains(".x\n")
            || t.lines()
                .all(|l| !l.contains(" IF ") || l.ends_with("xxxx"))
    );
    assert!(t.contains("KILL"));
    assert!(t.ends_with("END\n"));
}

#[test]
fn fragment_inputs_follow_the_link_remap() {
    let mut m = fixtures::light_frag();
    m.iface.varyings[0].slot = 0;
    let remap: [i8; 8] = [3, 5, -1, -1, -1, -1, -1, -1];
    let t = emit_ok(&m, Some(&remap));
    assert!(t.contains("DCL IN[0], GENERIC[3], PERSPECTIVE\n"), "{}", t);
    assert!(t.contains("DCL IN[1], GENERIC[5], PERSPECTIVE\n"), "{}", t);
    let standalone = emit_ok(&m, None);
    assert!(standalone.contains("DCL IN[1], GENERIC[1], PERSPECTIVE\n"));
}

#[test]
fn fragcoord_is_declared_only_when_read_and_never_collides() {
    let t = emit_ok(&fixtures::tri_frag(), None);
    assert!(!t.contains("POSITION") && !t.contains("PROPERTY"), "{}", t);
    let t = emit_ok(&fixtures::ops_frag(), None);
    // Varyings use IN[0] and IN[2]; gl_FragCoord goes one past the highest.
    assert!(t.contains("DCL IN[3], POSITION, LINEAR\n"), "{}", t);
    assert!(t.contains(
        "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n"
    ));
    // Read straight from its input register (the load is not copied into a temp).
    assert!(
        t.lines()
            .any(|l| !l.starts_with("DCL") && l.contains("IN[3]")),
        "{}",
        t
    );
}

#[test]
fn vertex_declares_exactly_the_used_locations() {
    let mut m = fixtures::tri_vert();
    m.iface.attributes[1].location = 3;
    m.insts[1].aux = 3;
    let t = emit_ok(&m, None);
    assert!(t.contains("DCL IN[0]\nDCL IN[3]\n"), "{}", t);
    assert!(!t.contains("DCL IN[1]"));
}

#[test]
fn immediates_read_back_exactly() {
    let special = [
        0.0f32,
        -0.0,
        1.0,
        0.1,
        0.12,
        0.7,
        1e-7,
        -1e-7,
        std::f32::consts::PI,
        1e30,
        -3.4028235e38,
        f32::MIN_POSITIVE,
        1e-45,
        16777217.0,
        123456.79,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    for v in special {
        let s = format_imm(v);
        let back = parse_tgsi_float(&s).unwrap_or_else(|| panic!("{} unparsable", s));
        assert_eq!(back.to_bits(), v.to_bits(), "{} -> {}", v, s);
    }
    // A pseudo-random sweep over bit patterns (xorshift), including NaN payloads.
    let mut x: u32 = 0x1234_5678;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let v = f32::from_bits(x);
        let back = parse_tgsi_float(&format_imm(v)).unwrap();
        assert_eq!(back.to_bits(), x);
    }
}

#[test]
fn immediates_in_text_are_exact_and_deduplicated() {
    let mut b = fixtures::B::new(Stage::Fragment);
    b.m.iface.color_output = Some(fixtures::name("c"));
    b.konst(0, &[0.1, 1e-7, -2.5, 16777216.0])
        .konst(1, &[0.1, 1e-7, -2.5, 16777216.0])
        .konst(2, &[f32::NAN]);
    b.op(Op::Add, 0, 0, 1, 0, 0, 4)
        .op(Op::StoreColor, -1, 0, -1, 0, 0, 4);
    let t = emit_ok(&b.temps(3), None);
    assert_eq!(
        t.lines().filter(|l| l.starts_with("IMM[")).count(),
        2,
        "{}",
        t
    );
    // Both constants are the same immediate, read directly by the ADD.
    assert!(t.contains("ADD TEMP[0], IMM[0], IMM[0]\n"), "{}", t);
    assert!(
        t.contains("IMM[0] FLT32 {0.1, 1e-7, -2.5, 16777216.0}\n"),
        "{}",
        t
    );
    assert!(
        t.contains("IMM[1] FLT32 {0x7fc00000, 0.0, 0.0, 0.0}\n"),
        "{}",
        t
    );
}

#[test]
fn oversized_output_is_a_clean_error() {
    let mut b = fixtures::B::new(Stage::Vertex);
    b.m.iface.writes_position = true;
    for _ in 0..60 {
        b.op(Op::MulMM, 8, 0, 4, 4, 0, 4);
    }
    b.op(Op::StorePos, -1, 8, -1, 0, 0, 4);
    let m = b.temps(12);
    let mut out = shader::back::tgsi::TgsiText::new();
    // A text from an earlier emission is cleared by the failing one.
    emit(&fixtures::tri_frag(), None, &mut out).unwrap();
    assert!(!out.is_empty());
    assert_eq!(
        emit(&m, None, &mut out),
        Err(TgsiError::TooLong { limit: TGSI_MAX })
    );
    assert!(out.is_empty());
}

#[test]
fn malformed_modules_are_errors_not_panics() {
    let mut m = fixtures::tri_frag();
    m.insts[0].dst = 50; // beyond temps
    let mut out = shader::back::tgsi::TgsiText::new();
    assert!(matches!(
        emit(&m, None, &mut out),
        Err(TgsiError::BadInst { inst: 0, .. })
    ));
    assert!(out.is_empty());
    let mut m = fixtures::tri_vert();
    m.insts.push(Inst::new(Op::StoreColor)).unwrap();
    assert!(emit(&m, None, &mut out).is_err());
}

#[test]
fn checker_rejects_what_virglrenderer_rejects() {
    let good: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..1]\nIMM[0] FLT32 {1.0, 0.0, 0.0, 0.0}\n  0: MOV TEMP[0], IN[0]\n  1: IF TEMP[0].xxxx\n  2: MOV TEMP[1].x, IMM[0].xxxx\n  3: ENDIF\n  4: MOV OUT[0], TEMP[0]\n  5: END\n";
    check_tgsi(good).unwrap();
    // Labels are optional (the emitter leaves them out), but must count up when present.
    let unlabeled: std::string::String = good
        .lines()
        .map(|l| l.split_once(": ").map_or(l, |(_, r)| r))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(check_tgsi(&unlabeled).unwrap().instructions, 6);
    let e = check_tgsi(&good.replace("  4: MOV", "  7: MOV")).unwrap_err();
    assert!(e.message.contains("count up"), "{}", e.message);
    let bad = [
        (good.replace("TEMP[0].xxxx", "TEMP[0].x"), "swizzle"),
        (good.replace("IMM[0].xxxx", "IMM[0].xy"), "swizzle"),
        (
            good.replace("MOV TEMP[0], IN[0]", "MOV TEMP[0], IN[1]"),
            "not declared",
        ),
        (
            good.replace("MOV OUT[0], TEMP[0]", "MOV OUT[0], TEMP[2]"),
            "not declared",
        ),
        (
            good.replace("MOV TEMP[1].x, IMM[0]", "MOV TEMP[1].x, IMM[1]"),
            "not declared",
        ),
        (good.replace("  5: END\n", ""), "missing END"),
        (
            good.replace("  3: ENDIF\n", "")
                .replace("  4:", "  3:")
                .replace("  5:", "  4:"),
            "unbalanced",
        ),
        (
            good.replace("MOV TEMP[0], IN[0]", "MOVE TEMP[0], IN[0]"),
            "unknown opcode",
        ),
        (good.replace("FRAG", "PIXL"), "header"),
        (
            good.replace("DCL TEMP[0..1]", "DCL TEMP[0..1]\nDCL IN[0], GENERIC[1]"),
            "more than once",
        ),
        (good.replace("{1.0,", "{1.0f,"), "float"),
        (
            good.replace("  5: END\n", "  5: END\n  6: END\n"),
            "after END",
        ),
        (good.replace("TEMP[1].x,", "TEMP[1].yx,"), "write mask"),
        (good.replace("IMM[0] FLT32", "IMM[1] FLT32"), "sorted"),
    ];
    for (text, why) in bad {
        let e = check_tgsi(&text).expect_err(&text);
        assert!(
            e.message.contains(why),
            "{}: expected '{}', got '{}'",
            text,
            why,
            e.message
        );
    }
}

mod random_modules {
    //! Random modules: whatever the verifier accepts, the emitter turns into text that passes
    //! the checker (or reports TooLong), and never panics.
    use super::*;
    use fixtures::random::{arb_inst, module, with_blocks};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
        #[test]
        fn verified_modules_always_emit(frag in any::<bool>(), insts in proptest::collection::vec(arb_inst(12), 1..40)) {
            let m = module(frag, with_blocks(insts));
            let mut out = shader::back::tgsi::TgsiText::new();
            let r = emit(&m, None, &mut out);
            if shader::ir::verify::verify(&m).is_ok() {
                match r {
                    Ok(_) => {
                        if let Err(e) = check_tgsi(&out) {
                            panic!("{}\n{}", e, out.as_str());
                        }
                    }
                    Err(TgsiError::TooLong { .. }) => prop_assert!(out.is_empty()),
                    Err(e) => panic!("verified module rejected by the emitter: {}", e),
                }
            }
        }
    }

    #[test]
    fn most_random_modules_verify() {
        // The property above only says something if the generator mostly produces modules the
        // verifier accepts.
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strat = (
            any::<bool>(),
            proptest::collection::vec(arb_inst(12), 1..40),
        );
        let mut ok = 0;
        for _ in 0..200 {
            let (frag, insts) = strat.new_tree(&mut runner).unwrap().current();
            ok += shader::ir::verify::verify(&module(frag, with_blocks(insts))).is_ok() as u32;
        }
        assert!(ok > 150, "only {} of 200 random modules verify", ok);
    }
}
