//! TGSI texel offsets (brief E, session 4): `textureOffset` & co. emit the texture-offset operand
//! `IMM[k].xyz` of an `IMM[k] INT32 {x, y, 0, 0}` immediate, as Mesa's st does, and the checker
//! follows tgsi_text's grammar for them.
use shader::back::tgsi::{check_tgsi, emit, TgsiText};
use shader::program::compile::compile;

fn tgsi(src: &str) -> String {
    let sh = compile(1, src.as_bytes(), "offs.frag").unwrap_or_else(|d| panic!("{:?}", d));
    let mut t = Box::new(TgsiText::new());
    emit(&sh.module, None, &mut t).unwrap_or_else(|e| panic!("emit: {}", e));
    check_tgsi(&*t).unwrap_or_else(|e| panic!("{}\n{}", e, t.as_str()));
    t.as_str().to_string()
}

const HEAD: &str = "#version 330 core\n#pragma chrisos profile 2\nin vec2 v_uv;\nuniform sampler2D u_tex;\nuniform float u_lod;\nout vec4 frag_color;\nvoid main() {\n";

#[test]
fn every_offset_function_emits_an_int32_offset_operand() {
    for (call, op) in [
        ("textureOffset(u_tex, v_uv, ivec2(-8, 7))", "TEX"),
        ("textureOffset(u_tex, v_uv, ivec2(1, 0), -1.0)", "TXB"),
        ("textureLodOffset(u_tex, v_uv, u_lod, ivec2(-8, 7))", "TXL"),
        (
            "textureGradOffset(u_tex, v_uv, vec2(0.01), vec2(0.02), ivec2(-8, 7))",
            "TXD",
        ),
        (
            "texelFetchOffset(u_tex, ivec2(3, 4), 1, ivec2(-8, 7))",
            "TXF",
        ),
    ] {
        let src = format!("{}    frag_color = {};\n}}\n", HEAD, call);
        let t = tgsi(&src);
        let (x, y) = if op == "TXB" { (1, 0) } else { (-8, 7) };
        let imm = t
            .lines()
            .find(|l| l.contains(&format!("INT32 {{{}, {}, 0, 0}}", x, y)))
            .unwrap_or_else(|| panic!("{}: no INT32 offset immediate\n{}", call, t));
        let k = imm.trim_start_matches("IMM[").split(']').next().unwrap();
        let line = t
            .lines()
            .find(|l| l.starts_with(op))
            .unwrap_or_else(|| panic!("{}: no {}\n{}", call, op, t));
        assert!(
            line.ends_with(&format!(", 2D, IMM[{}].xyz", k)),
            "{}: {}\n{}",
            call,
            line,
            t
        );
    }
}

#[test]
fn the_texture_functions_corpus_file_emits() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/in/p2_texture_functions.frag"
    ))
    .unwrap();
    let t = tgsi(&src);
    assert!(t.contains("INT32 {-8, 7, 0, 0}"), "{}", t);
}

#[test]
fn checker_follows_tgsi_text_for_offsets() {
    let head = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0]\nIMM[0] INT32 {-1, 2, 0, 0}\nIMM[1] FLT32 {1.0, 0.0, 0.0, 0.0}\n";
    let ok = format!(
        "{}TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz\nMOV OUT[0], TEMP[0]\nEND\n",
        head
    );
    check_tgsi(&ok).unwrap_or_else(|e| panic!("{}\n{}", e, ok));
    for (bad, why) in [
        (
            "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[1].xyz",
            "float immediate",
        ),
        ("TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[2].xyz", "undeclared"),
        (
            "TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyzw",
            "four letters",
        ),
        ("TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0]", "no swizzle"),
        ("TEX TEMP[0], IN[0], SAMP[0], 2D, TEMP[0].xyz", "a temp"),
        ("TXQ TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz", "TXQ"),
    ] {
        let text = format!("{}{}\nMOV OUT[0], TEMP[0]\nEND\n", head, bad);
        assert!(check_tgsi(&text).is_err(), "{} accepted:\n{}", why, text);
    }
    let bad_imm = head.replace("INT32 {-1, 2", "INT32 {-1.5, 2");
    assert!(check_tgsi(&format!("{}END\n", bad_imm)).is_err());
}
