//! Issue 14 item 2: shaders with endless loops draw in bounded time with the documented result
//! (the per-invocation loop budget, docs/LANGUAGE.md) on the software path, and through VirGL
//! (vtest: virglrenderer finishes, no host error, the same pixels).
use gfx3d::compat::Scene;
use gfx3d::linked::Linked;
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

const VS: &str = "#version 330 core\n#pragma chrisos profile 2\nlayout(location = 0) in vec2 a_pos;\nvoid main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";

/// A small full-screen quad (8 x 8 fragments: every one runs its loops to the budget).
const SCENE: &str = r#"{"size": [8, 8], "attributes": [
    {"location": 0, "components": 2, "data": [-1, -1, 1, -1, 1, 1, -1, 1]}], "indices": [0, 1, 2, 0, 2, 3]}"#;

/// Each case: a fragment shader body computing `float n` (and `m`) and the values they must
/// have; the pixel is green when they do, red otherwise.
pub const CASES: [(&str, &str, f32, f32); 4] = [
    (
        "while_true",
        "float n = 0.0; float m = 0.0; while (true) { n += 1.0; }",
        65536.0,
        0.0,
    ),
    (
        "condition_never_changes",
        "float n = 0.0; float m = 0.0; int k = 0; while (k < 10) { n += 1.0; }",
        65536.0,
        0.0,
    ),
    (
        "nested_huge",
        "float n = 0.0; float m = 0.0; for (int i = 0; i < 1000000; i++) { m += 1.0; for (int j = 0; j < 1000000; j++) { n += 1.0; } }",
        65535.0,
        1.0,
    ),
    (
        "do_true_continue",
        "float n = 0.0; float m = 0.0; do { n += 1.0; if (n > 5.0) continue; m += 1.0; } while (true);",
        65536.0,
        5.0,
    ),
];

fn fs(body: &str, n: f32, m: f32) -> String {
    format!(
        "#version 330 core\n#pragma chrisos profile 2\nout vec4 color;\nvoid main() {{\n{}\n\
         color = (n == {:.1} && m == {:.1}) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}}\n",
        body, n, m
    )
}

fn all_green(name: &str, p: &[u32]) {
    let bad: Vec<String> = p
        .iter()
        .enumerate()
        .filter(|(_, &v)| v != 0xff00ff00)
        .take(4)
        .map(|(i, v)| format!("pixel {}: {:08x}", i, v))
        .collect();
    assert!(bad.is_empty(), "{}: {}", name, bad.join(", "));
}

#[test]
fn endless_loops_draw_the_documented_result_on_the_software_path() {
    let scene = Scene::parse(SCENE).unwrap();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    for (name, body, n, m) in CASES {
        let p = gfx3d::compat::render_pair(&mut sw, 1, name, VS, &fs(body, n, m), &scene)
            .unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_eq!(p.len(), 64);
        all_green(name, &p);
    }
}

#[test]
fn endless_loops_finish_on_virgl_and_match_the_software_path() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut hw: Gfx3d<Linked> = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    let scene = Scene::parse(SCENE).unwrap();
    for (name, body, n, m) in CASES {
        let p = gfx3d::compat::render_pair(&mut hw, 1, name, VS, &fs(body, n, m), &scene)
            .unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_eq!(hw.backend_name(), "virgl", "{}", name);
        all_green(name, &p);
    }
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
