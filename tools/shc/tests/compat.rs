//! The profile-2 compatibility suite (`tests/compat/`, see its README.md): GLSL 3.30 vertex and
//! fragment pairs in the style of real applications, each drawn with a scene file.
//!
//! - Every pair must compile and render in Mesa (llvmpipe, through `mesa-ref`) to a picture that
//!   is not one flat colour: this validates the suite itself.
//! - Every pair not listed in `known-gaps.txt` must render with `shc render` and match Mesa by
//!   the differential rule (`common/mod.rs`: at most 1% of pixels differ by more than 2/255,
//!   only on triangle edges).
//! - Every pair listed in `known-gaps.txt` must still fail to compile (or link) in
//!   `shc render`; one that builds must be taken off the list, so the list stays honest.
//!
//! Pictures are left in the target's temporary directory (`compat/`): `NAME.mesa.png`,
//! `NAME.soft.png` and, for a pair that differs, `NAME.diff.png`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{
    compare_pictures, corpus, corpus_file, is_build_failure, is_build_failure_text, is_flat,
    mesa_frame, mesa_renderer, name_of, output_dir, shc_render, Pair,
};

/// Extra arguments of every `shc render` run: the suite is profile 2's (issue 12 item 2; the
/// pairs' own `#pragma chrisos profile 2` lines ask for it too).
const SHC_PROFILE_ARGS: &[&str] = &["--profile", "2"];

/// The suite must not shrink below the 60 pairs (it was written with more).
const MIN_PAIRS: usize = 64;

/// The profile-2 parts (issues 12 to 15) a gap can name.
const PARTS: std::ops::RangeInclusive<u8> = 1..=4;

fn suite_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat")
}

/// One line of `known-gaps.txt`: `FRAG@SCENE PART reason...`.
#[derive(Debug)]
struct Gap {
    part: u8,
    reason: String,
}

/// Parse the gap list; every malformed line is an error naming its line number.
fn parse_gaps(text: &str) -> Result<BTreeMap<String, Gap>, Vec<String>> {
    let mut gaps = BTreeMap::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.splitn(3, char::is_whitespace);
        let (name, part, reason) = (fields.next(), fields.next(), fields.next());
        let (Some(name), Some(part), Some(reason)) = (name, part, reason.map(str::trim)) else {
            errors.push(format!(
                "known-gaps.txt:{}: expected 'FRAG@SCENE PART reason': {}",
                i + 1,
                line
            ));
            continue;
        };
        let part = match part.parse::<u8>() {
            Ok(p) if PARTS.contains(&p) => p,
            _ => {
                errors.push(format!(
                    "known-gaps.txt:{}: part must be 1, 2, 3 or 4, found '{}'",
                    i + 1,
                    part
                ));
                continue;
            }
        };
        if reason.is_empty() || !name.contains('@') {
            errors.push(format!(
                "known-gaps.txt:{}: expected 'FRAG@SCENE PART reason': {}",
                i + 1,
                line
            ));
            continue;
        }
        let gap = Gap {
            part,
            reason: reason.to_string(),
        };
        if gaps.insert(name.to_string(), gap).is_some() {
            errors.push(format!(
                "known-gaps.txt:{}: {} is listed twice",
                i + 1,
                name
            ));
        }
    }
    if errors.is_empty() {
        Ok(gaps)
    } else {
        Err(errors)
    }
}

fn load_suite() -> (Vec<Pair>, BTreeMap<String, Gap>) {
    let dir = suite_dir();
    // corpus.txt, then the host-only pairs (compared with Mesa, not drawn by VirGL yet; none today).
    let mut pairs = corpus(&dir);
    pairs.extend(corpus_file(&dir, "host-corpus.txt"));
    let text =
        std::fs::read_to_string(dir.join("known-gaps.txt")).expect("tests/compat/known-gaps.txt");
    let gaps = parse_gaps(&text).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    (pairs, gaps)
}

#[test]
fn gap_lines_are_parsed_and_checked() {
    let gaps = parse_gaps("# comment\n\nfog@ground 2 exp (built-in library)\n").unwrap();
    assert_eq!(gaps["fog@ground"].part, 2);
    assert_eq!(gaps["fog@ground"].reason, "exp (built-in library)");
    let errors = parse_gaps("a@b 5 why\nc@d 1\na@b 1 x\nplain 1 why\n").unwrap_err();
    assert_eq!(
        errors,
        vec![
            "known-gaps.txt:1: part must be 1, 2, 3 or 4, found '5'",
            "known-gaps.txt:2: expected 'FRAG@SCENE PART reason': c@d 1",
            "known-gaps.txt:4: expected 'FRAG@SCENE PART reason': plain 1 why",
        ]
    );
    assert_eq!(
        parse_gaps("a@b 1 x\na@b 2 y\n").unwrap_err(),
        vec!["known-gaps.txt:2: a@b is listed twice"]
    );
}

#[test]
fn build_failures_are_told_from_other_failures() {
    let diag = "a.frag:2:1: error: unsupported preprocessor directive '#pragma'\n#pragma x\n^\n";
    assert!(is_build_failure_text(Some(1), diag));
    assert!(is_build_failure_text(
        Some(1),
        "link error: missing varying v_uv"
    ));
    assert!(
        !is_build_failure_text(Some(2), diag),
        "usage and I/O errors exit with 2"
    );
    assert!(!is_build_failure_text(
        Some(1),
        "scene: size: missing (in s.json)"
    ));
    assert!(!is_build_failure_text(
        Some(1),
        "render: the target is too large"
    ));
    assert!(!is_build_failure_text(
        Some(1),
        "uniform u_x: expected 3 floats, found 4"
    ));
    assert!(
        !is_build_failure_text(None, diag),
        "a crash is not a compile error"
    );
}

#[test]
fn suite_files_are_consistent() {
    let (pairs, gaps) = load_suite();
    assert!(
        pairs.len() >= MIN_PAIRS,
        "the compatibility suite lost pairs: {} (at least {})",
        pairs.len(),
        MIN_PAIRS
    );
    let mut problems = Vec::new();
    let mut names = BTreeMap::new();
    for p in &pairs {
        for (file, ext) in [(&p.scene, "json"), (&p.vert, "vert"), (&p.frag, "frag")] {
            if file.extension().and_then(|e| e.to_str()) != Some(ext) {
                problems.push(format!(
                    "{}: {} should end in .{}",
                    p.name(),
                    file.display(),
                    ext
                ));
            }
            if !file.is_file() {
                problems.push(format!("{}: {} is missing", p.name(), file.display()));
            }
        }
        for shader in [&p.vert, &p.frag] {
            let text = std::fs::read_to_string(shader).unwrap_or_default();
            let mut lines = text.lines();
            if lines.next() != Some("#version 330 core")
                || lines.next() != Some("#pragma chrisos profile 2")
            {
                problems.push(format!(
                    "{}: must start with '#version 330 core' then '#pragma chrisos profile 2'",
                    name_of(shader)
                ));
            }
        }
        if names.insert(p.name(), ()).is_some() {
            problems.push(format!(
                "{} is in corpus.txt twice (FRAG@SCENE must be unique)",
                p.name()
            ));
        }
    }
    for name in gaps.keys() {
        if !names.contains_key(name) {
            problems.push(format!(
                "known-gaps.txt lists {}, which is not a pair of corpus.txt",
                name
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 14 asks for at least 40 pairs that need profile 2 part 3; `part3.txt` lists them.
const MIN_PART3_PAIRS: usize = 40;

/// The features a `part3.txt` line can name (see the file's header).
const PART3_FEATURES: &[&str] = &[
    "loop", "while", "do", "break", "continue", "switch", "index", "bits", "mod", "wrap",
];

/// Parse `part3.txt` (`FRAG@SCENE FEATURE...`): the names with their features, or every
/// malformed line (unknown feature, no feature, a name listed twice) as an error.
fn parse_part3(text: &str) -> Result<BTreeMap<String, Vec<String>>, Vec<String>> {
    let mut listed = BTreeMap::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let name = fields.next().unwrap_or_default();
        let features: Vec<String> = fields.map(str::to_string).collect();
        if !name.contains('@') || features.is_empty() {
            errors.push(format!(
                "part3.txt:{}: expected 'FRAG@SCENE FEATURE...': {}",
                i + 1,
                line
            ));
            continue;
        }
        for f in &features {
            if !PART3_FEATURES.contains(&f.as_str()) {
                errors.push(format!("part3.txt:{}: unknown feature '{}'", i + 1, f));
            }
        }
        if listed.insert(name.to_string(), features).is_some() {
            errors.push(format!("part3.txt:{}: {} is listed twice", i + 1, name));
        }
    }
    if errors.is_empty() {
        Ok(listed)
    } else {
        Err(errors)
    }
}

/// GLSL text without `//` and `/* */` comments.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |n| &r[n..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |n| &r[n + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Whether a syntactic part-3 feature appears in the (comment-free) shader text; `None` for
/// the features a text search cannot tell (`loop`, `index`, `wrap`).
fn has_feature(code: &str, feature: &str) -> Option<bool> {
    let word = |w: &str| {
        code.match_indices(w).any(|(at, _)| {
            let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let before = code[..at].chars().next_back().is_none_or(|c| !ident(c));
            let after = code[at + w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !ident(c));
            before && after
        })
    };
    match feature {
        "while" | "do" | "break" | "continue" | "switch" => Some(word(feature)),
        "mod" => Some(code.contains('%')),
        "bits" => {
            let logical = code
                .replace("&&", " ")
                .replace("||", " ")
                .replace("^^", " ");
            Some(
                logical.contains(['&', '|', '^', '~'])
                    || code.contains("<<")
                    || code.contains(">>"),
            )
        }
        _ => None,
    }
}

#[test]
fn part3_list_is_parsed_and_features_are_found() {
    let listed = parse_part3("# c\n\na@b loop break\n").unwrap();
    assert_eq!(listed["a@b"], vec!["loop", "break"]);
    assert_eq!(
        parse_part3("a@b\nc@d jump\na@b loop\na@b bits\n").unwrap_err(),
        vec![
            "part3.txt:1: expected 'FRAG@SCENE FEATURE...': a@b",
            "part3.txt:2: unknown feature 'jump'",
            "part3.txt:4: a@b is listed twice",
        ]
    );
    let code = strip_comments("x = a && b; // break\n/* switch */ y = c >> 2; breaks = 1;");
    assert_eq!(has_feature(&code, "break"), Some(false));
    assert_eq!(has_feature(&code, "switch"), Some(false));
    assert_eq!(has_feature(&code, "bits"), Some(true));
    assert_eq!(has_feature("if (a || b) discard;", "bits"), Some(false));
    assert_eq!(has_feature("do { i++; } while (i < n);", "do"), Some(true));
    assert_eq!(has_feature("int k = i % 4;", "mod"), Some(true));
    assert_eq!(has_feature("a[i] = x;", "index"), None);
}

/// Issue 14's claim, tested: at least 40 pairs of corpus.txt (drawn by Mesa, `shc render` and
/// VirGL) need part 3, each with the features it uses, the syntactic ones found in its shaders.
#[test]
fn at_least_40_corpus_pairs_need_part3() {
    let dir = suite_dir();
    let text = std::fs::read_to_string(dir.join("part3.txt")).expect("tests/compat/part3.txt");
    let listed = parse_part3(&text).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let pairs: BTreeMap<String, Pair> = corpus(&dir).into_iter().map(|p| (p.name(), p)).collect();
    let mut problems = Vec::new();
    for (name, features) in &listed {
        let Some(pair) = pairs.get(name) else {
            problems.push(format!(
                "part3.txt lists {}, which is not a pair of corpus.txt",
                name
            ));
            continue;
        };
        let code: String = [&pair.vert, &pair.frag]
            .iter()
            .map(|p| strip_comments(&std::fs::read_to_string(p).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n");
        for f in features {
            if has_feature(&code, f) == Some(false) {
                problems.push(format!(
                    "{}: part3.txt names '{}', not found in its shaders",
                    name, f
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        listed.len() >= MIN_PART3_PAIRS,
        "part3.txt lists {} corpus pairs that need part 3 (issue 14 asks for at least {})",
        listed.len(),
        MIN_PART3_PAIRS
    );
}

#[test]
fn every_pair_renders_in_mesa_and_in_shc_unless_a_known_gap() {
    let (pairs, gaps) = load_suite();
    let out = output_dir("compat");

    // (a) The suite itself: Mesa compiles every shader and draws something. One renderer (one
    // GL context) serves every pair.
    let mut mesa = mesa_renderer();
    let mut invalid = Vec::new();
    let mut frames = BTreeMap::new();
    for pair in &pairs {
        let name = pair.name();
        let mesa_png = out.join(format!("{}.mesa.png", name));
        match mesa_frame(&mut mesa, pair, &mesa_png) {
            Ok(frame) if is_flat(&frame.image) => invalid.push(format!(
                "{}: Mesa's picture is one flat colour; the pair tests nothing",
                name
            )),
            Ok(frame) => {
                frames.insert(name, frame);
            }
            Err(e) => invalid.push(format!("{}: {}", name, e)),
        }
    }
    drop(mesa);
    assert!(
        invalid.is_empty(),
        "{} of {} pairs are not valid GLSL 3.30 scenes for Mesa:\n{}",
        invalid.len(),
        pairs.len(),
        invalid.join("\n")
    );

    // (b) and (c): shc renders every pair; known gaps must still fail to build.
    let mut failures = Vec::new();
    let (mut matched, mut still_gaps) = (0usize, BTreeMap::<u8, usize>::new());
    for pair in &pairs {
        let name = pair.name();
        let soft_png = out.join(format!("{}.soft.png", name));
        let mesa_png = out.join(format!("{}.mesa.png", name));
        let diff_png = out.join(format!("{}.diff.png", name));
        let _ = std::fs::remove_file(&soft_png);
        let _ = std::fs::remove_file(&diff_png);
        let frame = &frames[&name];
        let run = shc_render(pair, &soft_png, SHC_PROFILE_ARGS);
        let stderr = String::from_utf8_lossy(&run.stderr);
        match gaps.get(&name) {
            Some(gap) if run.status.success() => {
                let verdict = match compare_pictures(&soft_png, &mesa_png, &diff_png, frame) {
                    Ok(summary) => format!("it matches Mesa: {}", summary),
                    Err(e) => format!("but it does not match Mesa yet: {}", e),
                };
                failures.push(format!(
                    "{}: compiles now; remove it from known-gaps.txt (part {}: {}); {}",
                    name, gap.part, gap.reason, verdict
                ));
            }
            Some(gap) if !is_build_failure(&run) => failures.push(format!(
                "{}: a known gap (part {}) should fail to compile, but shc render failed otherwise ({}):\n{}",
                name, gap.part, run.status, stderr
            )),
            Some(gap) => *still_gaps.entry(gap.part).or_default() += 1,
            None if !run.status.success() => failures.push(format!(
                "{}: shc render failed ({}); fix it or list it in known-gaps.txt:\n{}",
                name, run.status, stderr
            )),
            None => match compare_pictures(&soft_png, &mesa_png, &diff_png, frame) {
                Ok(summary) => {
                    matched += 1;
                    eprintln!("{}: ok ({})", name, summary);
                }
                Err(e) => failures.push(format!("{}: {}", name, e)),
            },
        }
    }
    eprintln!(
        "compat: {} pairs; {} match Mesa; known gaps by part: {:?}",
        pairs.len(),
        matched,
        still_gaps
    );
    assert!(
        failures.is_empty(),
        "{} of {} pairs fail:\n{}",
        failures.len(),
        pairs.len(),
        failures.join("\n")
    );
}
