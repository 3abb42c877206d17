//! Profile 2 matrix vertex inputs (GLSL 3.30 §4.3.4) on the software path: a per-instance
//! `in mat4 inst` fed by four vec4 elements at locations L..L+3 with divisor 1 (the instancing
//! tutorials' per-instance transform) draws the same pixels as one draw per instance with the
//! matrix as a uniform; a layout missing one column is refused at draw time.
use gfx3d::*;

mod common;
use common::layout;
mod matrix_attr_data;
use matrix_attr_data::*;

#[test]
fn instanced_mat4_attribute_equals_a_uniform_per_draw() {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    let a = instanced_picture(&mut g);

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
