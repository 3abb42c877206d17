//! `shc render` and `shc link` as a user runs them: exit codes, messages and the PNG layout.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn diff_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff")
}

fn shc(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shc"))
        .args(args)
        .output()
        .expect("run shc")
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render_link_cmd");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn link_reports_the_merged_interface() {
    let d = diff_dir();
    let o = shc(&[
        "link".as_ref(),
        d.join("matrices.vert").as_os_str(),
        d.join("matrices.frag").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("uniform mat3 u_tint (both stages)"), "{}", out);
    assert!(out.contains("varying vec3 v_color"), "{}", out);
    assert!(out.contains("attribute vec3 a_pos location 0"), "{}", out);
}

#[test]
fn link_failure_exits_1_with_the_log() {
    let vs = tmp("novary.vert");
    let fs = tmp("novary.frag");
    std::fs::write(
        &vs,
        "#version 330\nlayout(location = 0) in vec4 a_pos;\nvoid main() { gl_Position = a_pos; }\n",
    )
    .unwrap();
    std::fs::write(&fs, "#version 330\nin vec3 v_missing;\nout vec4 c;\nvoid main() { c = vec4(v_missing, 1.0); }\n")
        .unwrap();
    let o = shc(&["link".as_ref(), vs.as_os_str(), fs.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("v_missing"), "{}", text(&o));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(shc(&["link".as_ref()]).status.code(), Some(2));
    assert_eq!(
        shc(&["render".as_ref(), "a.vert".as_ref(), "b.frag".as_ref()])
            .status
            .code(),
        Some(2)
    );
    let d = diff_dir();
    let o = shc(&[
        "render".as_ref(),
        d.join("gradient.vert").as_os_str(),
        d.join("gradient.frag").as_os_str(),
        "--scene".as_ref(),
        d.join("gradient.json").as_os_str(),
        "--out".as_ref(),
        "/nonexistent-dir/x.png".as_ref(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn render_writes_the_top_row_first() {
    // A triangle covering the upper-left half (NDC y up) on a blue clear colour.
    let scene = tmp("half.json");
    std::fs::write(
        &scene,
        r#"{"size": [8, 8], "clear": [0, 0, 1, 1],
            "attributes": [{"location": 0, "components": 2, "data": [-1,-1, 1,1, -1,1]},
                           {"location": 1, "components": 4, "data": [1,0,0,1, 1,0,0,1, 1,0,0,1]}]}"#,
    )
    .unwrap();
    let out = tmp("half.png");
    let d = diff_dir();
    let o = shc(&[
        "render".as_ref(),
        d.join("gradient.vert").as_os_str(),
        d.join("gradient.frag").as_os_str(),
        "--scene".as_ref(),
        scene.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let img = scene::read_png(&out).unwrap();
    assert_eq!((img.width, img.height), (8, 8));
    assert_eq!(img.pixel(0, 0), [255, 0, 0, 255]);
    assert_eq!(img.pixel(7, 7), [0, 0, 255, 255]);
}

#[test]
fn scene_errors_exit_1_and_name_the_field() {
    let scene = tmp("bad.json");
    std::fs::write(
        &scene,
        r#"{"size": [8, 8], "attributes": [{"location": 0, "components": 2, "data": [0, 0, 1]}]}"#,
    )
    .unwrap();
    let d = diff_dir();
    let o = shc(&[
        "render".as_ref(),
        d.join("gradient.vert").as_os_str(),
        d.join("gradient.frag").as_os_str(),
        "--scene".as_ref(),
        scene.as_os_str(),
        "--out".as_ref(),
        tmp("bad.png").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("attributes[0].data"), "{}", text(&o));
}

#[test]
fn compile_errors_exit_1_with_diagnostics() {
    let fs = tmp("broken.frag");
    std::fs::write(
        &fs,
        "#version 330\nout vec4 c;\nvoid main() { c = undefined_thing; }\n",
    )
    .unwrap();
    let d = diff_dir();
    let o = shc(&[
        "render".as_ref(),
        d.join("gradient.vert").as_os_str(),
        fs.as_os_str(),
        "--scene".as_ref(),
        d.join("gradient.json").as_os_str(),
        "--out".as_ref(),
        tmp("broken.png").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("broken.frag:3:"), "{}", text(&o));
}

/// `shc render --threads N` writes the same PNG bytes for any N (0: one per core).
#[test]
fn render_threads_give_the_same_picture() {
    let d = diff_dir();
    let mut pictures = vec![];
    for threads in ["1", "2", "3", "0"] {
        let out = tmp(&format!("lit_cube_{}.png", threads));
        let o = shc(&[
            "render".as_ref(),
            d.join("lit_cube.vert").as_os_str(),
            d.join("lit_cube.frag").as_os_str(),
            "--scene".as_ref(),
            d.join("lit_cube.json").as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--threads".as_ref(),
            threads.as_ref(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "--threads {}: {}",
            threads,
            text(&o)
        );
        pictures.push(std::fs::read(&out).unwrap());
    }
    assert!(
        pictures.iter().all(|p| *p == pictures[0]),
        "pictures differ"
    );
}

/// `"instances"` and `"divisor"`: the corpus's instanced grid with a flat shade draws each
/// instance's colour where gl_InstanceID placed it (the size of row r is the divisor-4
/// attribute's element r); a bad instance count is a scene error naming the field.
#[test]
fn render_draws_every_instance_with_its_attributes() {
    let d = diff_dir();
    let base = std::fs::read_to_string(d.join("instanced.json")).unwrap();
    let flat = base.replace("[0.5, 0.8, 1.0, 0.7]", "[1, 1, 1, 1]");
    assert_ne!(flat, base, "instanced.json changed its shade data");
    let run = |name: &str, text: &str| {
        let scene = tmp(&format!("{}.json", name));
        std::fs::write(&scene, text).unwrap();
        let out = tmp(&format!("{}.png", name));
        let o = shc(&[
            "render".as_ref(),
            d.join("instanced.vert").as_os_str(),
            d.join("gradient.frag").as_os_str(),
            "--scene".as_ref(),
            scene.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        (o, out)
    };
    let (o, out) = run("instanced_flat", &flat);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let img = scene::read_png(&out).unwrap();
    // Centres (row 0 = top) of instances 0 (red, size 1), 5 (cyan, size 0.8) and 11
    // ((0.9, 0.2, 0.5), size 0.6), and a gap between instances 0 and 1 (the clear colour).
    for (x, y, want) in [
        (9, 51, [255, 0, 0]),
        (22, 34, [0, 255, 255]),
        (50, 17, [230, 51, 128]),
        (16, 51, [13, 13, 26]),
    ] {
        let p = img.pixel(x, y);
        for c in 0..3 {
            assert!(
                (p[c] as i32 - want[c] as i32).abs() <= 1,
                "pixel ({}, {}) is {:?}, expected {:?}",
                x,
                y,
                p,
                want
            );
        }
    }
    let (o, _) = run(
        "instanced_zero",
        &base.replace("\"instances\": 12", "\"instances\": 0"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("scene: instances: expected 1 to 4096 instances, found 0"),
        "{}",
        text(&o)
    );
}
