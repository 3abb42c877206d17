//! Destroying a mesh right after the frame that drew it (before anything else reaches the
//! device) must not lose that draw on VirGL: the picture equals the software backend's and
//! the one drawn with the mesh kept.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::*;
use virtio_gpu::vtest::VtestServer;

mod common;
use common::tri_layout;

type G = Gfx3d<Linked>;
const W: u32 = 16;
const H: u32 = 12;

fn virgl() -> (VtestServer, G) {
    let server = common::vtest_server();
    let g = common::virgl_on(&server);
    (server, g)
}

/// One frame: a red triangle over a blue clear; the mesh destroyed after `end` when `free`.
fn frame(g: &mut G, free: bool) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "t").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let v: [f32; 24] = [
        -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, //
        1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, //
        0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
    ];
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    if free {
        g.mesh_destroy(0, m).unwrap();
    }
    let mut px = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

#[test]
fn a_mesh_destroyed_after_its_frame_keeps_the_draw() {
    let mut sw = G::new();
    let want = frame(&mut sw, true);
    assert!(want.iter().any(|&p| p == 0xFFFF_0000), "software draws red");
    let (server, mut hw) = virgl();
    let kept = frame(&mut hw, false);
    let freed = frame(&mut hw, true);
    assert_eq!(kept, want, "VirGL with the mesh kept");
    assert_eq!(freed, want, "VirGL with the mesh destroyed after end");
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
