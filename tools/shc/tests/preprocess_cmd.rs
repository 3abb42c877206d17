//! `shc preprocess FILE` as a user runs it: the expanded text, warnings, errors, exit codes.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shc(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shc"))
        .args(args)
        .output()
        .expect("run shc")
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("preprocess_cmd");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn prints_the_expanded_text_and_warnings() {
    let f = tmp(
        "a.frag",
        "#version 330\n#extension GL_X : enable\n#define SQ(x) ((x) * (x))\nout vec4 c;\nvoid main() { c = vec4(SQ(0.5)); }\n",
    );
    let o = shc(&["preprocess".as_ref(), f.as_os_str()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "#version 330\n\n\nout vec4 c;\nvoid main() { c = vec4(((0.5) * (0.5))); }\n"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a.frag:2:12: warning: extension 'GL_X' is not supported"),
        "{}",
        err
    );
}

#[test]
fn errors_exit_1_and_usage_exits_2() {
    let f = tmp("b.frag", "#if 1\nx\n");
    let o = shc(&["preprocess".as_ref(), f.as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("b.frag:1:1: error: unterminated #if: no #endif before the end of the source"));
    assert_eq!(shc(&["preprocess".as_ref()]).status.code(), Some(2));
    assert_eq!(
        shc(&["preprocess".as_ref(), "/nonexistent.frag".as_ref()])
            .status
            .code(),
        Some(2)
    );
}
