//! Profile 2 matrix vertex inputs on the VirGL backend (through vtest against
//! virgl_test_server): the instanced 3x3 grid whose per-instance mat4 comes from four vec4
//! elements with divisor 1 (one TGSI IN and one vertex element per column) draws the software
//! backend's picture; no host errors.
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
mod matrix_attr_data;
use matrix_attr_data::*;

#[test]
fn virgl_instanced_mat4_attribute_matches_software() {
    let server = common::vtest_server();
    let mut g = common::virgl_on(&server);
    let v = instanced_picture(&mut g);
    assert_eq!(g.backend_name(), "virgl", "degraded during the draw");
    let mut s: Gfx3d<Linked> = Gfx3d::new();
    s.boot(BackendMode::Software, None).unwrap();
    let s = instanced_picture(&mut s);
    assert_eq!(v, s, "virgl vs software");
    assert!(v.iter().filter(|&&p| p != 0).count() >= 9 * 25);
    drop(server);
}
