//! `shc render` with `"passes"`: an earlier pass's target sampled in GL's orientation, and the
//! errors of a pass (its shaders, its files) named by the pass.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn diff_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff")
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("passes_cmd");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SAMPLE_FRAG: &str = "#version 330\nin vec2 v_uv;\nuniform sampler2D u_t;\nout vec4 frag;\n\
    void main() { frag = texture(u_t, v_uv); }\n";

/// A pass drawing `gradient` shaders (a red triangle over the upper-left half on blue), and
/// the picture: a full-screen quad sampling the pass's colour (nearest) with `frag`.
fn render(name: &str, pass_frag: &Path, frag: &str) -> (Output, PathBuf) {
    let d = diff_dir();
    let frag_path = tmp(&format!("{}.frag", name));
    std::fs::write(&frag_path, frag).unwrap();
    let scene = tmp(&format!("{}.json", name));
    let text = format!(
        r#"{{"size": [8, 8],
            "passes": [{{"name": "a", "vertex": {:?}, "fragment": {:?}, "size": [8, 8],
                "clear": [0, 0, 1, 1],
                "attributes": [{{"location": 0, "components": 2, "data": [-1,-1, 1,1, -1,1]}},
                    {{"location": 1, "components": 4, "data": [1,0,0,1, 1,0,0,1, 1,0,0,1]}}]}}],
            "attributes": [{{"location": 0, "components": 2, "data": [-1,-1, 1,-1, 1,1, -1,1]}}],
            "indices": [0, 1, 2, 0, 2, 3],
            "textures": {{"u_t": {{"unit": 0, "pass": "a"}}}}}}"#,
        d.join("gradient.vert").display().to_string(),
        pass_frag.display().to_string()
    );
    std::fs::write(&scene, text).unwrap();
    let out = tmp(&format!("{}.png", name));
    let o = Command::new(env!("CARGO_BIN_EXE_shc"))
        .args([
            "render".as_ref(),
            d.join("fullscreen.vert").as_os_str(),
            frag_path.as_os_str(),
            "--scene".as_ref(),
            scene.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ])
        .output()
        .expect("run shc");
    (o, out)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_pass_target_samples_upright() {
    // The pass's picture has red at the top left; sampled with v_uv (t = 0 at the bottom,
    // GL's row 0 of a target) the picture shows it there too, not mirrored.
    let (o, out) = render("upright", &diff_dir().join("gradient.frag"), SAMPLE_FRAG);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let img = scene::read_png(&out).unwrap();
    assert_eq!(img.pixel(0, 0), [255, 0, 0, 255]);
    assert_eq!(img.pixel(7, 7), [0, 0, 255, 255]);
    assert_eq!(img.pixel(0, 6), [255, 0, 0, 255]);
    assert_eq!(img.pixel(7, 1), [0, 0, 255, 255]);
}

#[test]
fn pass_errors_name_the_pass() {
    let bad = tmp("bad_pass.frag");
    std::fs::write(
        &bad,
        "#version 330\nout vec4 frag;\nvoid main() { frag = nope; }\n",
    )
    .unwrap();
    let (o, _) = render("bad_shader", &bad, SAMPLE_FRAG);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("pass \"a\": ") && text(&o).contains("nope"),
        "{}",
        text(&o)
    );

    let (o, _) = render("missing", &tmp("no_such.frag"), SAMPLE_FRAG);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("cannot read") && text(&o).contains("no_such.frag"),
        "{}",
        text(&o)
    );
}
