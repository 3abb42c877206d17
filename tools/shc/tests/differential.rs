//! Differential test: every vertex/fragment pair of `tests/diff/corpus.txt` is rendered by
//! `shc render` (the software path) and by Mesa's GLSL on llvmpipe (`mesa-ref`), and the pictures
//! must agree: at most 1% of pixels may differ by more than 2/255 in any channel, and only on
//! triangle edges (pixels next to a change of the winning triangle in Mesa's primitive-id
//! pass). Mesa's EGL and llvmpipe are test dependencies: when they are missing the test fails
//! and says what is missing. Both pictures of every pair are left in the target's temporary
//! directory for inspection, with a `.diff.png` for a failed pair (red: differences off edges,
//! yellow: on edges). The corpus format, the rule and the helpers live in `common/mod.rs`.

mod common;

use std::path::Path;

use common::{
    compare_pictures, corpus, is_flat, mesa_frame, mesa_renderer, output_dir, shc_render,
};

#[test]
fn software_renderer_matches_mesa_on_every_corpus_pair() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let out = output_dir("differential");
    let pairs = corpus(&dir);
    assert!(pairs.len() >= 15, "the corpus lost pairs: {}", pairs.len());

    let mut mesa = mesa_renderer();
    let mut failures = Vec::new();
    for pair in &pairs {
        let name = pair.name();
        let soft_png = out.join(format!("{}.soft.png", name));
        let mesa_png = out.join(format!("{}.mesa.png", name));
        let run = shc_render(pair, &soft_png, &[]);
        if !run.status.success() {
            failures.push(format!(
                "{}: shc render failed ({}):\n{}",
                name,
                run.status,
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        let frame = match mesa_frame(&mut mesa, pair, &mesa_png) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{}: {}", name, e));
                continue;
            }
        };
        // A scene that draws nothing would compare equal without testing anything.
        if is_flat(&frame.image) {
            failures.push(format!(
                "{}: Mesa's picture is one flat colour; the scene tests nothing",
                name
            ));
            continue;
        }
        let diff_png = out.join(format!("{}.diff.png", name));
        match compare_pictures(&soft_png, &mesa_png, &diff_png, &frame) {
            Ok(summary) => eprintln!("{}: ok ({})", name, summary),
            Err(e) => failures.push(format!("{}: {}", name, e)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} pairs differ from Mesa:\n{}",
        failures.len(),
        pairs.len(),
        failures.join("\n")
    );
}
