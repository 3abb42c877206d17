//! Profile 2 matrix vertex inputs (GLSL 3.30 §4.3.4) on the software path: a per-instance
//! `in mat4 inst` fed by four vec4 elements at locations L..L+3 with divisor 1 (the instancing
//! tutorials' per-instance transform) draws the same pixels as one draw per instance with the
//! matrix as a uniform; a layout missing one column is refused at draw time.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::layout;

type G = Gfx3d<Linked>;
const W: u32 = 24;
const H: u32 = 24;

const ATTR_VS: &str = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
layout(location = 1) in mat4 inst;
out vec4 vcolor;
void main() {
    vcolor = vec4(inst[3].xy * 0.5 + 0.5, inst[0].x * 2.0, 1.0);
    gl_Position = inst * position;
}
";

const UNIFORM_VS: &str = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
uniform mat4 inst;
out vec4 vcolor;
void main() {
    vcolor = vec4(inst[3].xy * 0.5 + 0.5, inst[0].x * 2.0, 1.0);
    gl_Position = inst * position;
}
";

const CORNERS: [[f32; 4]; 4] = [
    [-1.0, -1.0, 0.0, 1.0],
    [1.0, -1.0, 0.0, 1.0],
    [1.0, 1.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0, 1.0],
];
const QUAD: [u16; 6] = [0, 1, 2, 0, 2, 3];

/// Instance k of a 3x3 grid: a scale, a small shear (every column matters) and the cell's
/// centre, column-major.
fn instance(k: usize) -> [f32; 16] {
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

fn boot() -> (G, ContextId, TargetId) {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    (g, c, t)
}

fn prog(g: &mut G, c: ContextId, vs: &str) -> ProgramId {
    let linked = Linked::from_glsl(g.compiler(), vs, TRI_FRAG, "t").unwrap();
    g.prog_prepare(0, c, linked).unwrap()
}

fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

/// Rows of position (per vertex, rows 0..4) and the instance's matrix columns (per instance).
fn instanced_rows() -> Vec<f32> {
    let mut v = Vec::new();
    for k in 0..9 {
        v.extend_from_slice(&CORNERS[k % 4]);
        v.extend_from_slice(&instance(k));
    }
    v
}

fn instanced_layout(columns: u8) -> VertexLayout {
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

#[test]
fn instanced_mat4_attribute_equals_a_uniform_per_draw() {
    let (mut g, c, t) = boot();
    let p = prog(&mut g, c, ATTR_VS);
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &instanced_layout(4), &instanced_rows(), Some(&QUAD))
        .unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw_instanced(0, c, m, 9).unwrap();
    g.end(0, c).unwrap();
    let a = read(&mut g, t);

    let (mut g, c, t) = boot();
    let p = prog(&mut g, c, UNIFORM_VS);
    let mut v = Vec::new();
    for corner in CORNERS {
        v.extend_from_slice(&corner);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &layout(16, &[(0, 4, 0)]), &v, Some(&QUAD))
        .unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    for k in 0..9 {
        g.uniform_f(0, c, "inst", &instance(k)).unwrap();
        g.draw(0, c, m).unwrap();
    }
    g.end(0, c).unwrap();
    let b = read(&mut g, t);

    assert_eq!(a, b, "instanced mat4 attribute vs uniform per draw");
    // Nine separate cells, each drawn: the centre pixel of every cell is lit with its colour.
    for k in 0..9 {
        let [.., cx, cy, _, _] = instance(k);
        let x = ((cx * 0.5 + 0.5) * W as f32) as u32;
        let y = ((0.5 - cy * 0.5) * H as f32) as u32;
        let px = a[(y * W + x) as usize];
        assert_ne!(px, 0, "instance {} at ({}, {})", k, x, y);
    }
    let lit = a.iter().filter(|&&p| p != 0).count();
    // Nine quads of about 6x6 pixels, gaps between them.
    assert!((9 * 25..9 * 49).contains(&lit), "{} lit", lit);
}

#[test]
fn a_layout_missing_a_matrix_column_is_refused() {
    let (mut g, c, t) = boot();
    let p = prog(&mut g, c, ATTR_VS);
    let m = g.mesh_create(0, Usage::Static).unwrap();
    // Columns 0..2 only: location 4 (column 3 of `inst`) is not supplied.
    g.mesh_upload_f32(0, m, &instanced_layout(3), &instanced_rows(), Some(&QUAD))
        .unwrap();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    let e = g.draw_instanced(0, c, m, 9).unwrap_err();
    assert_eq!(
        e,
        Error::Layout(LayoutError::MissingAttribute { location: 4 }),
        "{}",
        e
    );
}
