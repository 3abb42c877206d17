//! Golden tests of the frontend: every `tests/in/*.vert|frag` is compiled; a success writes its IR
//! and AST dumps (`tests/out/NAME.ir`, `NAME.ast`), a failure its rendered diagnostics
//! (`tests/out/NAME.err`). Files named `err_*` must fail, every other file must compile, so a rule
//! that silently flips is caught even after re-blessing. `SHADER_BLESS=1` rewrites the expected
//! files; review them as diffs.
use std::fs;
use std::path::{Path, PathBuf};

use shader::front::dump::dump_ast;
use shader::ir::dump::dump_module;
use shader::program::compile::compile;

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(sub)
}

fn check(out: &Path, got: &str, bless: bool, failures: &mut Vec<String>) {
    if bless {
        fs::write(out, got).unwrap();
        return;
    }
    match fs::read_to_string(out) {
        Ok(want) if want == got => {}
        Ok(want) => failures.push(format!(
            "{}: output differs\n--- expected\n{}\n--- got\n{}",
            out.display(),
            want,
            got
        )),
        Err(_) => failures.push(format!(
            "{}: missing (run with SHADER_BLESS=1)",
            out.display()
        )),
    }
}

#[test]
fn golden_corpus() {
    let bless = std::env::var_os("SHADER_BLESS").is_some();
    let mut inputs: Vec<PathBuf> = fs::read_dir(dir("in"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("vert" | "frag")
            )
        })
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 11, "the corpus is missing");
    let mut failures = Vec::new();
    let mut expected_outputs = Vec::new();
    for path in &inputs {
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        let stage = if file.ends_with(".frag") { 1 } else { 0 };
        let src = fs::read(path).unwrap();
        let must_fail = file.starts_with("err_");
        match compile(stage, &src, &file) {
            Ok(sh) => {
                if must_fail {
                    failures.push(format!("{}: compiled but must fail", file));
                }
                if let Err(e) = shader::ir::verify::verify(&sh.module) {
                    failures.push(format!("{}: verifier rejected the output: {}", file, e));
                }
                let mut ir = String::new();
                dump_module(&sh.name, &sh.module, &mut ir).unwrap();
                let mut ast = String::new();
                dump_ast(&src, &file, &mut ast).unwrap();
                let (ir_path, ast_path) = (
                    dir("out").join(format!("{}.ir", file)),
                    dir("out").join(format!("{}.ast", file)),
                );
                check(&ir_path, &ir, bless, &mut failures);
                check(&ast_path, &ast, bless, &mut failures);
                expected_outputs.push(ir_path);
                expected_outputs.push(ast_path);
            }
            Err(d) => {
                if !must_fail {
                    let mut s = String::new();
                    d.render(&src, &mut s).unwrap();
                    failures.push(format!("{}: failed but must compile:\n{}", file, s));
                }
                assert!(!d.is_empty());
                let mut s = String::new();
                d.render(&src, &mut s).unwrap();
                let p = dir("out").join(format!("{}.err", file));
                check(&p, &s, bless, &mut failures);
                expected_outputs.push(p);
            }
        }
    }
    // Stale expected files (an input renamed or flipped between pass and fail) are errors too;
    // other suites keep their own files in subfolders of tests/out.
    for e in fs::read_dir(dir("out")).unwrap() {
        let p = e.unwrap().path();
        let ours = matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("ir" | "ast" | "err")
        );
        if p.is_file() && ours && !expected_outputs.contains(&p) {
            if bless {
                fs::remove_file(&p).unwrap();
            } else {
                failures.push(format!("{}: stale expected file", p.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
