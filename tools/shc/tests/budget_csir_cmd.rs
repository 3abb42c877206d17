//! `shc check`, `shc link` and `shc csir` on the cases a program can never be right in: a stage
//! over the VirGL TGSI budget (issue 11, item 2), and CSIR v1 blobs that cannot hold what the
//! module needs (items 4 and 5).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shc(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shc"))
        .args(args)
        .output()
        .expect("run shc")
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("budget_csir_cmd");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// 64 unrolled `sin` of a vec4: 128 IR instructions, far over 3600 bytes of TGSI.
const OVER_BUDGET: &str = "#version 330 core\nuniform vec4 u;\nvoid main() {\n    vec4 x = u;\n    for (int i = 0; i < 8; i++) {\n        for (int j = 0; j < 8; j++) {\n            x = sin(x) + u;\n        }\n    }\n    gl_Position = x;\n}\n";
const PASS_FS: &str = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

#[test]
fn check_reports_a_stage_over_the_tgsi_budget() {
    let vs = tmp("big.vert", OVER_BUDGET);
    let o = shc(&["check".as_ref(), vs.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("big.vert: error: TGSI exceeds the VirGL command budget (3600 bytes)"),
        "{}",
        text(&o)
    );
}

#[test]
fn link_fails_with_the_specifications_message() {
    let vs = tmp("big2.vert", OVER_BUDGET);
    let fs = tmp("pass.frag", PASS_FS);
    let o = shc(&["link".as_ref(), vs.as_os_str(), fs.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("TGSI emission failed for the vertex shader"),
        "{}",
        text(&o)
    );
}

#[test]
fn the_corpus_shaders_that_were_over_budget_now_fit() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shader/tests/in");
    for f in ["ok_constructors.vert", "ok_instructions.vert"] {
        let o = shc(&["check".as_ref(), dir.join(f).as_os_str()]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", f, text(&o));
    }
}

#[test]
fn csir_save_v1_refuses_div_and_suggests_v2() {
    let vs = tmp(
        "div.vert",
        "#version 330 core\nuniform vec4 u;\nvoid main() { gl_Position = u / u.x; }\n",
    );
    let out = vs.with_extension("csir");
    let _ = std::fs::remove_file(&out);
    let o = shc(&[
        "csir".as_ref(),
        "save".as_ref(),
        vs.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--v1".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("CSIR v1 has no opcode 33 (DIV") && text(&o).contains("--v2"),
        "{}",
        text(&o)
    );
    assert!(!out.exists(), "no blob is written");
    let o = shc(&[
        "csir".as_ref(),
        "save".as_ref(),
        vs.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}
