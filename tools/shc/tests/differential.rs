//! Differential test: every vertex/fragment pair of `tests/diff/corpus.txt` is rendered by
//! `shc render` (the software path) and by Mesa's GLSL on llvmpipe (`mesa-ref`), and the pictures
//! must agree: at most 1% of pixels may differ by more than 2/255 in any channel, and only on
//! triangle edges (pixels next to a change of the winning triangle in Mesa's primitive-id
//! pass). Mesa's EGL and llvmpipe are test dependencies: when they are missing the test fails
//! and says what is missing. Both pictures of every pair are left in the target's temporary
//! directory for inspection, with a `.diff.png` for a failed pair (red: differences off edges,
//! yellow: on edges).

use std::path::{Path, PathBuf};
use std::process::Command;

use mesa_ref::{Driver, DriverConfig, MesaRenderer};
use scene::{compare, diff_image, read_png, write_png, Scene};

/// Largest channel difference that counts as equal (rounding of colours near a half step).
const TOLERANCE: u8 = 2;
/// Largest fraction of pixels allowed to differ (all of them on triangle edges).
const MAX_FRACTION: f64 = 0.01;

struct Pair {
    scene: PathBuf,
    vert: PathBuf,
    frag: PathBuf,
}

fn corpus(dir: &Path) -> Vec<Pair> {
    let text = std::fs::read_to_string(dir.join("corpus.txt")).expect("tests/diff/corpus.txt");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 3, "corpus line needs SCENE VERT FRAG: {}", l);
            Pair {
                scene: dir.join(f[0]),
                vert: dir.join(f[1]),
                frag: dir.join(f[2]),
            }
        })
        .collect()
}

fn name_of(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn software_renderer_matches_mesa_on_every_corpus_pair() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("differential");
    std::fs::create_dir_all(&out).unwrap();
    let pairs = corpus(&dir);
    assert!(pairs.len() >= 15, "the corpus lost pairs: {}", pairs.len());

    let mut mesa = MesaRenderer::new(DriverConfig::new(Driver::Llvmpipe))
        .unwrap_or_else(|e| panic!("Mesa llvmpipe is a dependency of this test: {}", e));
    let mut failures = Vec::new();
    for pair in &pairs {
        let name = format!("{}@{}", name_of(&pair.frag), name_of(&pair.scene));
        let soft_png = out.join(format!("{}.soft.png", name));
        let mesa_png = out.join(format!("{}.mesa.png", name));
        let run = Command::new(env!("CARGO_BIN_EXE_shc"))
            .arg("render")
            .arg(&pair.vert)
            .arg(&pair.frag)
            .arg("--scene")
            .arg(&pair.scene)
            .arg("--out")
            .arg(&soft_png)
            .output()
            .expect("run shc");
        if !run.status.success() {
            failures.push(format!(
                "{}: shc render failed ({}):\n{}",
                name,
                run.status,
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        let soft = read_png(&soft_png).unwrap();
        let scene = Scene::load(&pair.scene).unwrap();
        let vs = std::fs::read_to_string(&pair.vert).unwrap();
        let fs = std::fs::read_to_string(&pair.frag).unwrap();
        let frame = match mesa.render_frame(&vs, &fs, &scene) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{}: Mesa: {}", name, e));
                continue;
            }
        };
        write_png(&mesa_png, &frame.image).unwrap();
        // A scene that draws nothing would compare equal without testing anything.
        let clear = frame.image.pixel(0, 0);
        if frame.image.rgba.chunks_exact(4).all(|p| p == clear) {
            failures.push(format!(
                "{}: Mesa's picture is one flat colour; the scene tests nothing",
                name
            ));
            continue;
        }
        let c = compare(&soft, &frame.image, TOLERANCE, Some(&frame.edges)).unwrap();
        if c.passes(MAX_FRACTION) {
            eprintln!("{}: ok ({})", name, c.describe());
        } else {
            let diff_png = out.join(format!("{}.diff.png", name));
            write_png(
                &diff_png,
                &diff_image(&soft, &frame.image, TOLERANCE, Some(&frame.edges)).unwrap(),
            )
            .unwrap();
            failures.push(format!(
                "{}: {} [{} vs {}]",
                name,
                c.describe(),
                soft_png.display(),
                mesa_png.display()
            ));
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
