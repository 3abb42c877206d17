//! Issue 12 items 2 and 6 as a user runs `shc`: `--help` for every command, `--profile` on the
//! compiling commands, `shc limits --profile N`, `--format json` on `check` and `link`, warnings
//! of shaders that compile (exit 0), and `csir save --v1` refusing a profile-2 module.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shc<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shc"))
        .args(args)
        .output()
        .expect("run shc")
}

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("profile_cmd");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    out(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {}", e, l)))
        .collect()
}

/// Profile 2 only (`#define`), with an `#extension ... : enable` warning.
const P2_FRAG: &str = "#version 330\n#extension GL_X : enable\n#define C vec4(1.0)\nout vec4 c;\nvoid main() { c = C; }\n";
const VERT: &str = "#version 330\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";

#[test]
fn every_command_has_help() {
    for cmd in [
        &["--help"][..],
        &["check", "--help"],
        &["dump", "--help"],
        &["dump", "ast", "--help"],
        &["dump", "ir", "--help"],
        &["dump", "tgsi", "--help"],
        &["limits", "--help"],
        &["builtins", "--help"],
        &["preprocess", "--help"],
        &["link", "--help"],
        &["render", "--help"],
        &["csir", "--help"],
        &["csir", "save", "--help"],
        &["csir", "load", "--help"],
    ] {
        let o = shc(cmd);
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", cmd, err(&o));
        assert!(out(&o).contains("Usage: shc"), "{:?}: {}", cmd, out(&o));
    }
    let o = shc(&["check", "--help"]);
    assert!(out(&o).contains("--profile") && out(&o).contains("--format"));
    // No command: the help on stderr and the usage exit code.
    let o = shc::<&str>(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("Usage: shc"), "{}", err(&o));
}

#[test]
fn profile_option_on_every_compiling_command() {
    let fs = tmp("p2.frag", P2_FRAG);
    let vs = tmp("p.vert", VERT);
    let png = fs.with_extension("png");
    let blob = fs.with_extension("csir");
    let scene = tmp(
        "s.json",
        r#"{"size": [4, 4], "clear": [0, 0, 0, 1], "attributes": [{"location": 0, "components": 2, "data": [-1, -1, 1, -1, 0, 1]}]}"#,
    );
    // Profile 1 (the default) rejects `#define`; `--profile 2` accepts it.
    let runs: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec!["check".as_ref(), fs.as_os_str()],
        vec!["dump".as_ref(), "ast".as_ref(), fs.as_os_str()],
        vec!["dump".as_ref(), "ir".as_ref(), fs.as_os_str()],
        vec!["dump".as_ref(), "tgsi".as_ref(), fs.as_os_str()],
        vec!["link".as_ref(), vs.as_os_str(), fs.as_os_str()],
        vec![
            "csir".as_ref(),
            "save".as_ref(),
            fs.as_os_str(),
            "-o".as_ref(),
            blob.as_os_str(),
        ],
        vec![
            "render".as_ref(),
            vs.as_os_str(),
            fs.as_os_str(),
            "--scene".as_ref(),
            scene.as_os_str(),
            "--out".as_ref(),
            png.as_os_str(),
        ],
    ];
    for args in runs {
        let o = shc(&args);
        assert_eq!(o.status.code(), Some(1), "{:?}: {}", args, err(&o));
        assert!(
            err(&o).contains("unsupported preprocessor directive"),
            "{:?}: {}",
            args,
            err(&o)
        );
        let mut p2 = args.clone();
        p2.push(std::ffi::OsStr::new("--profile"));
        p2.push(std::ffi::OsStr::new("2"));
        let o = shc(&p2);
        let code = o.status.code();
        assert_eq!(code, Some(0), "{:?}: {}{}", p2, out(&o), err(&o));
        assert!(
            err(&o).contains("warning: extension 'GL_X' is not supported"),
            "{:?}: the warning is printed: {}",
            p2,
            err(&o)
        );
    }
    // The saved blob is profile 2 and loads back.
    let o = shc(&["csir".as_ref(), "load".as_ref(), blob.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).starts_with("csir version 2\nprofile 2\n"),
        "{}",
        out(&o)
    );
    // A bad profile is a usage error.
    let o = shc(&[
        "check".as_ref(),
        fs.as_os_str(),
        "--profile".as_ref(),
        "3".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn csir_save_v1_refuses_profile_2_with_the_reason() {
    let fs = tmp(
        "v1.frag",
        "#version 330\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let blob = fs.with_extension("csir");
    let _ = std::fs::remove_file(&blob);
    let o = shc(&[
        "csir".as_ref(),
        "save".as_ref(),
        fs.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
        "--v1".as_ref(),
        "--profile".as_ref(),
        "2".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("CSIR v1 holds profile-1 modules only")
            && err(&o).contains("profile 2; save it as CSIR v2 (--v2)"),
        "{}",
        err(&o)
    );
    assert!(!blob.exists());
    // Profile 1 still saves as v1.
    let o = shc(&[
        "csir".as_ref(),
        "save".as_ref(),
        fs.as_os_str(),
        "-o".as_ref(),
        blob.as_os_str(),
        "--v1".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn limits_per_profile() {
    let classic: serde_json::Value = serde_json::from_slice(&shc(&["limits"]).stdout).unwrap();
    for p in [1u32, 2] {
        let o = shc(&["limits", "--profile", &p.to_string()]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let lim = shader::limits::limits(shader::limits::Profile::from_u32(p).unwrap());
        for (name, value) in lim.entries() {
            assert_eq!(
                v[name].as_u64(),
                Some(value as u64),
                "profile {} {}",
                p,
                name
            );
        }
        // Every key of the classic list is there too.
        for (k, _) in classic.as_object().unwrap() {
            assert!(v.get(k).is_some(), "profile {} lacks {}", p, k);
            if p == 1 {
                assert_eq!(v[k], classic[k], "profile 1 {}", k);
            }
        }
    }
    let v: serde_json::Value =
        serde_json::from_slice(&shc(&["limits", "--profile", "2"]).stdout).unwrap();
    assert_eq!(v["tokens_max"].as_u64(), Some(16384));
    assert_eq!(v["uniform_vec4_slots_max"].as_u64(), Some(1024));
    // Without --profile: exactly the keys of before profiles existed.
    let keys: Vec<&String> = classic.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 26, "{:?}", keys);
    assert!(classic.get("profile").is_none());
}

#[test]
fn check_format_json_has_one_object_per_diagnostic() {
    // Profile 1: two errors on lines 2 and 3.
    let fs = tmp("j.frag", P2_FRAG);
    let o = shc(&[
        "check".as_ref(),
        fs.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).is_empty(), "json goes to stdout only: {}", err(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), 2, "{}", out(&o));
    assert_eq!(v[0]["file"], fs.to_str().unwrap());
    assert_eq!(v[0]["line"], 2);
    assert_eq!(v[0]["column"], 1);
    assert_eq!(v[0]["severity"], "error");
    assert!(v[0]["message"]
        .as_str()
        .unwrap()
        .contains("unsupported preprocessor directive '#extension'"));
    assert!(v[0]["limit"].is_null());
    // Profile 2: it compiles, with one warning.
    let o = shc(&[
        "check".as_ref(),
        fs.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
        "--profile".as_ref(),
        "2".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json_lines(&o);
    assert_eq!(v.len(), 1, "{}", out(&o));
    assert_eq!(v[0]["severity"], "warning");
    assert_eq!(
        (v[0]["line"].as_u64(), v[0]["column"].as_u64()),
        (Some(2), Some(12))
    );
    // A clean shader: no output at all.
    let ok = tmp("ok.vert", VERT);
    let o = shc(&[
        "check".as_ref(),
        ok.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

#[test]
fn limit_errors_name_their_limit() {
    let cases: Vec<(&str, String, &str)> = vec![
        // 769 tokens in profile 1.
        (
            "tok.vert",
            format!(
                "void main() {{ float a = 0.0; {} gl_Position = vec4(a); }}\n",
                "a = a;".repeat(190)
            ),
            "tokens_max",
        ),
        // 4096 bytes in profile 1.
        ("src.vert", " ".repeat(4096), "source_bytes_max"),
        // A 40-character identifier in profile 1.
        (
            "id.vert",
            format!("void main() {{ float {}; gl_Position = vec4(0.0); }}\n", "a".repeat(40)),
            "identifier_chars_max",
        ),
        // 9 loop iterations.
        (
            "unroll.vert",
            "void main() { float s = 0.0; for (int i = 0; i < 9; i++) { s = s + 1.0; } gl_Position = vec4(s); }\n".to_string(),
            "unroll_iterations_max",
        ),
        // 5 samplers in profile 1.
        (
            "samp.frag",
            format!(
                "{}out vec4 c;\nvoid main() {{ c = texture(s4, vec2(0.0)); }}\n",
                (0..5).map(|i| format!("uniform sampler2D s{};\n", i)).collect::<String>()
            ),
            "samplers_max",
        ),
        // Macro expansion past its depth in profile 2.
        (
            "deep.frag",
            format!(
                "#pragma chrisos profile 2\n{}out vec4 c;\nvoid main() {{ c = vec4(M0); }}\n",
                (0..70)
                    .map(|i| format!("#define M{} M{}\n", i, i + 1))
                    .collect::<String>()
            ),
            "pp_expansion_depth_max",
        ),
    ];
    for (name, src, limit) in cases {
        let f = tmp(name, &src);
        let o = shc(&[
            "check".as_ref(),
            f.as_os_str(),
            "--format".as_ref(),
            "json".as_ref(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{}", name);
        let v = json_lines(&o);
        assert!(
            v.iter().any(|d| d["limit"] == limit),
            "{}: no diagnostic names {}: {}",
            name,
            limit,
            out(&o)
        );
    }
}

#[test]
fn link_format_json() {
    let vs = tmp("l.vert", VERT);
    let fs = tmp("l.frag", P2_FRAG);
    let o = shc(&[
        "link".as_ref(),
        vs.as_os_str(),
        fs.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
        "--profile".as_ref(),
        "2".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v = json_lines(&o);
    assert_eq!(v.len(), 1, "{}", out(&o));
    assert_eq!(v[0]["severity"], "warning");
    // A link error: no file, line or column.
    let bad = tmp(
        "missing.frag",
        "#version 330\nin vec4 v_missing;\nout vec4 c;\nvoid main() { c = v_missing; }\n",
    );
    let o = shc(&[
        "link".as_ref(),
        vs.as_os_str(),
        bad.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_lines(&o);
    assert!(!v.is_empty());
    assert!(v.iter().all(|d| d["file"].is_null() && d["line"].is_null()));
    assert!(out(&o).contains("v_missing"), "{}", out(&o));
    // A compile error in json names the file and line.
    let o = shc(&[
        "link".as_ref(),
        vs.as_os_str(),
        fs.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_lines(&o);
    assert_eq!(v[0]["file"], "l.frag");
    assert_eq!(v[0]["line"], 2);
}

/// 4096 unrolled `sin` of a vec4: far over profile 2's 256 KiB of TGSI. Profile 1 reports a
/// stage over its budget as an error (as before: `budget_csir_cmd.rs`); in profile 2 it is a
/// warning and `check` exits 0.
#[test]
fn profile_2_tgsi_over_the_virgl_budget_is_a_warning() {
    let vs = tmp(
        "huge.vert",
        "#version 330 core\n#pragma chrisos profile 2\nuniform vec4 u;\nvoid main() {\n    vec4 x = u;\n    for (int i = 0; i < 8; i++) {\n    for (int j = 0; j < 8; j++) {\n    for (int k = 0; k < 8; k++) {\n    for (int l = 0; l < 8; l++) {\n        x = sin(x) + u;\n    }}}}\n    gl_Position = x;\n}\n",
    );
    let o = shc(&["check".as_ref(), vs.as_os_str()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o)
            .contains("huge.vert: warning: TGSI exceeds the VirGL command budget (262144 bytes)"),
        "{}",
        err(&o)
    );
    let o = shc(&[
        "check".as_ref(),
        vs.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json_lines(&o);
    assert_eq!(v.len(), 1, "{}", out(&o));
    assert_eq!(v[0]["severity"], "warning");
    assert_eq!(v[0]["limit"], "tgsi_bytes_max");
    assert!(v[0]["line"].is_null());
}

/// Issue 13 item 5: `shc builtins --profile 2` lists profile 2's library with every overload;
/// without `--profile` the profile-1 list is unchanged.
#[test]
fn builtins_lists_the_profile_2_library() {
    let names = |o: &Output| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(&out(o)).expect("json");
        v["functions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_string())
            .collect()
    };
    let p1 = shc(&["builtins"]);
    assert!(p1.status.success());
    let p2 = shc(&["builtins", "--profile", "2"]);
    assert!(p2.status.success());
    let (n1, n2) = (names(&p1), names(&p2));
    assert!(!n1.contains(&"smoothstep".to_string()));
    assert_eq!(
        &n2[..n1.len()],
        &n1[..],
        "profile 1's entries come first, unchanged"
    );
    for f in [
        "smoothstep",
        "floor",
        "transpose",
        "lessThan",
        "any",
        "determinant",
        "tanh",
    ] {
        assert!(n2.contains(&f.to_string()), "{}", f);
    }
    let v: serde_json::Value = serde_json::from_str(&out(&p2)).unwrap();
    let op = v["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "outerProduct")
        .unwrap();
    assert_eq!(op["signatures"].as_array().unwrap().len(), 9);
    assert_eq!(v["genUType"][0], "uint");
}

/// Issue 13 item 5 / issue 15: `shc builtins --profile 2` lists the texture functions too, each
/// once with all its overloads (`texture` with profile 2's bias form in profile 1's place), and
/// the derivative functions; profile 1's `texture` entry stays profile 1's.
#[test]
fn builtins_profile_2_lists_the_texture_functions() {
    let list = |args: &[&str]| -> Vec<serde_json::Value> {
        let o = shc(args);
        assert!(o.status.success(), "{}", err(&o));
        let v: serde_json::Value = serde_json::from_str(&out(&o)).expect("json");
        v["functions"].as_array().unwrap().clone()
    };
    let p1 = list(&["builtins"]);
    let p2 = list(&["builtins", "--profile", "2"]);
    let find = |l: &[serde_json::Value], n: &str| l.iter().filter(|f| f["name"] == n).count();
    for f in [
        "texture",
        "textureLod",
        "textureOffset",
        "textureLodOffset",
        "textureProj",
        "textureProjOffset",
        "textureGrad",
        "textureGradOffset",
        "texelFetch",
        "texelFetchOffset",
        "textureSize",
        "dFdx",
        "dFdy",
        "fwidth",
    ] {
        assert_eq!(find(&p2, f), 1, "{} listed once in profile 2", f);
    }
    assert_eq!(find(&p1, "textureLod"), 0);
    let sigs = |l: &[serde_json::Value], n: &str| -> String {
        let f = l.iter().find(|f| f["name"] == n).unwrap();
        format!("{}", f["signatures"])
    };
    assert!(
        sigs(&p2, "texture").contains("bias"),
        "{}",
        sigs(&p2, "texture")
    );
    assert!(!sigs(&p1, "texture").contains("bias"));
    assert_eq!(
        p2.iter().find(|f| f["name"] == "textureProj").unwrap()["signatures"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
