//! Shared by matrix_attributes.rs and matrix_attributes_vtest.rs: a 3x3 grid of quads, each
//! instance's mat4 from an `in mat4` attribute with divisor 1.
#![allow(dead_code)]
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;

use crate::common::layout;

pub type G = Gfx3d<Linked>;
pub const W: u32 = 24;
pub const H: u32 = 24;

pub const ATTR_VS: &str = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
layout(location = 1) in mat4 inst;
out vec4 vcolor;
void main() {
    vcolor = vec4(inst[3].xy * 0.5 + 0.5, inst[0].x * 2.0, 1.0);
    gl_Position = inst * position;
}
";

pub const UNIFORM_VS: &str = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
uniform mat4 inst;
out vec4 vcolor;
void main() {
    vcolor = vec4(inst[3].xy * 0.5 + 0.5, inst[0].x * 2.0, 1.0);
    gl_Position = inst * position;
}
";

pub const CORNERS: [[f32; 4]; 4] = [
    [-1.0, -1.0, 0.0, 1.0],
    [1.0, -1.0, 0.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0, 1.0],
];
pub const QUAD: [u16; 6] = [0, 1, 2, 0, 2, 3];

/// Instance k of a 3x3 grid: a scale, a small shear (every column matters) and the cell's
/// centre, column-major.
pub fn instance(k: usize) -> [f32; 16] {
    let (cx, cy) = (
        (k % 3) as f32 * 0.625 - 0.625,
        (k / 3) as f32 * 0.625 - 0.625,
    );
    let s = 0.2 + 0.01 * k as f32;
    [
        s, 0.03, 0.0, 0.0, // column 0
        -0.04, s, 0.0, 0.0, // column 1
        0.0, 0.0, 1.0, 0.0, // column 2
        cx, cy, 0.0, 1.0, // column 3
    ]
}

pub fn boot() -> (G, ContextId, TargetId) {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    (g, c, t)
}

pub fn prog(g: &mut G, c: ContextId, vs: &str) -> ProgramId {
    let linked = Linked::from_glsl(g.compiler(), vs, TRI_FRAG, "t").unwrap();
    g.prog_prepare(0, c, linked).unwrap()
}

pub fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

/// Rows of position (per vertex, rows 0..4) and the instance's matrix columns (per instance).
pub fn instanced_rows() -> Vec<f32> {
    let mut v = Vec::new();
    for k in 0..9 {
        v.extend_from_slice(&CORNERS[k % 4]);
        v.extend_from_slice(&instance(k));
    }
    v
}

pub fn instanced_layout(columns: u8) -> VertexLayout {
    let mut els = vec![(0u8, 4u8, 0u32)];
    for c in 0..columns {
        els.push((1 + c, 4, 16 + 16 * c as u32));
    }
    let mut l = layout(80, &els);
    for c in 0..columns {
        l = l.instanced(1 + c, 1).unwrap();
    }
    l
}

/// The instanced grid drawn with ATTR_VS on `g` (any backend), read back.
pub fn instanced_picture(g: &mut G) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let p = prog(g, c, ATTR_VS);
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &instanced_layout(4), &instanced_rows(), Some(&QUAD))
        .unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw_instanced(0, c, m, 9).unwrap();
    g.end(0, c).unwrap();
    read(g, t)
}
