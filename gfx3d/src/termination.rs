//! Issue 14 item 2: shaders with endless loops, drawn with the documented result (profile 2's
//! per-invocation loop budget, docs/LANGUAGE.md). Shared by `gfx3d/tests/loop_termination.rs`
//! (software and vtest) and the kernel's `gfx3d::loops::termination` guest test (software
//! against VirGL): every pixel is green when the loops ended where the budget says.
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compat::Scene;
use crate::linked::Linked;
use crate::Gfx3d;

/// The vertex shader: a full-screen quad.
pub const VS: &str = "#version 330 core\n#pragma chrisos profile 2\nlayout(location = 0) in vec2 a_pos;\nvoid main() { gl_Position = vec4(a_pos, 0.0, 1.0); }\n";

/// A small full-screen quad (8 x 8 fragments, each running its loops to the budget).
pub const SCENE: &str = r#"{"size": [8, 8], "attributes": [
    {"location": 0, "components": 2, "data": [-1, -1, 1, -1, 1, 1, -1, 1]}], "indices": [0, 1, 2, 0, 2, 3]}"#;

/// The colour of a pixel whose loops ended as documented (0xAARRGGBB).
pub const GREEN: u32 = 0xff00ff00;

/// Each case: its name, a fragment-shader body computing `float n` and `float m`, and the
/// values they must have (65535 = `P2_LOOP_BUDGET`).
pub const CASES: [(&str, &str, f32, f32); 4] = [
    (
        "while_true",
        "float n = 0.0; float m = 0.0; while (true) { n += 1.0; }",
        65535.0,
        0.0,
    ),
    (
        "condition_never_changes",
        "float n = 0.0; float m = 0.0; int k = 0; while (k < 10) { n += 1.0; }",
        65535.0,
        0.0,
    ),
    (
        // Neither loop's trip count is within the limit: both spend the one budget. The outer
        // loop's first iteration costs one, the inner loop runs the other 65534.
        "nested_huge",
        "float n = 0.0; float m = 0.0; for (int i = 0; i < 1000000; i++) { m += 1.0; for (int j = 0; j < 1000000; j++) { n += 1.0; } }",
        65534.0,
        1.0,
    ),
    (
        "do_true_continue",
        "float n = 0.0; float m = 0.0; do { n += 1.0; if (n > 5.0) continue; m += 1.0; } while (true);",
        65535.0,
        5.0,
    ),
];

/// The fragment shader of case `i`: green where `n` and `m` have the documented values.
pub fn fragment_shader(i: usize) -> String {
    let (_, body, n, m) = CASES.get(i).copied().unwrap_or(CASES[0]);
    format!(
        "#version 330 core\n#pragma chrisos profile 2\nout vec4 color;\nvoid main() {{\n{}\n\
         color = (n == {:.1} && m == {:.1}) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}}\n",
        body, n, m
    )
}

/// Draws case `i` on `g` (owner `owner`, dropped after); the picture, or why it failed.
pub fn render(g: &mut Gfx3d<Linked>, owner: u32, i: usize) -> Result<Vec<u32>, String> {
    let scene = Scene::parse(SCENE)?;
    let name = CASES.get(i).map(|c| c.0).unwrap_or("?");
    crate::compat::render_pair(g, owner, name, VS, &fragment_shader(i), &scene)
        .map_err(|e| format!("{}: {}", name, e))
}

/// Ok when every pixel of case `i`'s picture is [`GREEN`].
pub fn check(i: usize, p: &[u32]) -> Result<(), String> {
    let name = CASES.get(i).map(|c| c.0).unwrap_or("?");
    if p.len() != 64 {
        return Err(format!("{}: {} pixels, not 64", name, p.len()));
    }
    match p.iter().position(|&v| v != GREEN) {
        None => Ok(()),
        Some(k) => Err(format!(
            "{}: pixel {} is {:08x}, not {:08x}",
            name,
            k,
            p.get(k).copied().unwrap_or(0),
            GREEN
        )),
    }
}
