//! Helpers shared by the tests that render shader pairs with `shc render` and with Mesa
//! (`differential.rs`, `compat.rs`): the corpus file format, the comparison rule, running the
//! `shc` binary and Mesa, and leaving both pictures (and a diff) in the target's temporary
//! directory for inspection.
//!
//! The comparison rule: at most [`MAX_FRACTION`] of the pixels may differ by more than
//! [`TOLERANCE`] in any channel, and only on triangle edges (pixels next to a change of the
//! winning triangle in Mesa's primitive-id pass).

// Each test binary compiles this module and uses a different part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mesa_ref::{Driver, DriverConfig, Frame, MesaRenderer};
use scene::{compare, diff_image, read_png, write_png, Image, Scene};

/// Largest channel difference that counts as equal (rounding of colours near a half step).
pub const TOLERANCE: u8 = 2;
/// Largest fraction of pixels allowed to differ (all of them on triangle edges).
pub const MAX_FRACTION: f64 = 0.01;

/// One line of a corpus file: a scene and the vertex/fragment pair drawn with it.
pub struct Pair {
    pub scene: PathBuf,
    pub vert: PathBuf,
    pub frag: PathBuf,
}

impl Pair {
    /// `FRAG@SCENE` (file stems): the pair's name in reports, picture names and gap lists.
    pub fn name(&self) -> String {
        format!("{}@{}", name_of(&self.frag), name_of(&self.scene))
    }
}

/// The pairs of `DIR/corpus.txt`: lines `SCENE VERT FRAG` naming files in `dir`; blank lines
/// and lines starting with `#` are skipped.
pub fn corpus(dir: &Path) -> Vec<Pair> {
    corpus_file(dir, "corpus.txt")
}

/// The pairs of one corpus file of `dir` (`corpus.txt`, `host-corpus.txt`).
pub fn corpus_file(dir: &Path, file: &str) -> Vec<Pair> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {}", path.display(), e));
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

/// The file stem of a path.
pub fn name_of(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The directory for this test's pictures, created.
pub fn output_dir(name: &str) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&out).unwrap();
    out
}

/// A Mesa llvmpipe renderer, or a failure that says Mesa is a dependency of the test.
pub fn mesa_renderer() -> MesaRenderer {
    MesaRenderer::new(DriverConfig::new(Driver::Llvmpipe))
        .unwrap_or_else(|e| panic!("Mesa llvmpipe is a dependency of this test: {}", e))
}

/// Run `shc render VERT FRAG --scene SCENE --out OUT [extra...]`.
pub fn shc_render(pair: &Pair, out_png: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shc"))
        .arg("render")
        .arg(&pair.vert)
        .arg(&pair.frag)
        .arg("--scene")
        .arg(&pair.scene)
        .arg("--out")
        .arg(out_png)
        .args(extra)
        .output()
        .expect("run shc")
}

/// Whether a failed `shc` run failed to build the program: a compiler diagnostic
/// (`FILE:LINE:COL: error: ...`) or a link error, as opposed to a scene, render or usage error.
pub fn is_build_failure(run: &Output) -> bool {
    is_build_failure_text(run.status.code(), &String::from_utf8_lossy(&run.stderr))
}

/// [`is_build_failure`] on an exit code and the text `shc` wrote to stderr.
pub fn is_build_failure_text(code: Option<i32>, stderr: &str) -> bool {
    if code != Some(1) {
        return false;
    }
    stderr.lines().any(|line| {
        if line.starts_with("link error") {
            return true;
        }
        let Some((location, _)) = line.split_once(": error: ") else {
            return false;
        };
        // FILE:LINE:COL with a shader file name.
        let mut parts = location.rsplitn(3, ':');
        let (col, row, file) = (parts.next(), parts.next(), parts.next());
        let number = |s: Option<&str>| {
            s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        };
        number(col)
            && number(row)
            && file.is_some_and(|f| f.ends_with(".vert") || f.ends_with(".frag"))
    })
}

/// Render a pair through Mesa (with the triangle-edge flags) and write its picture to
/// `mesa_png`.
pub fn mesa_frame(mesa: &mut MesaRenderer, pair: &Pair, mesa_png: &Path) -> Result<Frame, String> {
    let scene = Scene::load(&pair.scene).map_err(|e| e.to_string())?;
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {}", p.display(), e))
    };
    let (vs, fs) = (read(&pair.vert)?, read(&pair.frag)?);
    let frame = mesa
        .render_frame(&vs, &fs, &scene)
        .map_err(|e| format!("Mesa: {}", e))?;
    write_png(mesa_png, &frame.image).map_err(|e| e.to_string())?;
    Ok(frame)
}

/// Whether every pixel of the picture has the same colour (a scene that tests nothing).
pub fn is_flat(image: &Image) -> bool {
    let first = image.pixel(0, 0);
    image.rgba.chunks_exact(4).all(|p| p == first)
}

/// Compare `shc`'s picture with Mesa's frame by the rule above. `Ok` carries the summary;
/// `Err` the failure, after writing `DIFF_PNG` (red: differences off edges, yellow: on edges).
pub fn compare_pictures(
    soft_png: &Path,
    mesa_png: &Path,
    diff_png: &Path,
    frame: &Frame,
) -> Result<String, String> {
    let soft = read_png(soft_png).map_err(|e| e.to_string())?;
    let c =
        compare(&soft, &frame.image, TOLERANCE, Some(&frame.edges)).map_err(|e| e.to_string())?;
    if c.passes(MAX_FRACTION) {
        return Ok(c.describe());
    }
    let diff = diff_image(&soft, &frame.image, TOLERANCE, Some(&frame.edges))
        .map_err(|e| e.to_string())?;
    write_png(diff_png, &diff).map_err(|e| e.to_string())?;
    Err(format!(
        "{} [{} vs {}]",
        c.describe(),
        soft_png.display(),
        mesa_png.display()
    ))
}
