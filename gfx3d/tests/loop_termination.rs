//! Issue 14 item 2: shaders with endless loops (`gfx3d::termination`) draw in bounded time with
//! the documented result (the per-invocation loop budget, docs/LANGUAGE.md) on the software
//! path, and through VirGL (vtest: virglrenderer finishes, no host error, the same pixels).
use gfx3d::linked::Linked;
use gfx3d::termination::{check, render, CASES};
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

#[test]
fn endless_loops_draw_the_documented_result_on_the_software_path() {
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    for i in 0..CASES.len() {
        let p = render(&mut sw, 1, i).unwrap();
        check(i, &p).unwrap();
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
    for i in 0..CASES.len() {
        let p = render(&mut hw, 1, i).unwrap();
        assert_eq!(hw.backend_name(), "virgl", "{}", CASES[i].0);
        check(i, &p).unwrap();
    }
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
