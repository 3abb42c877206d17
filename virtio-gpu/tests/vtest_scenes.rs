//! The scenes against the real renderer through vtest. Each test starts a private
//! `virgl_test_server`, runs one scene, and fails on any host context error in its stderr.
use virtio_gpu::scenes::{self, SceneParams};
use virtio_gpu::vtest::{VtestServer, VtestTransport};

fn run(name: &str, p: SceneParams) {
    let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
    let mut t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut why = String::new();
    let ok = scenes::run_scene_with(name, &mut t, &mut why, p);
    let errors = server.host_errors();
    assert!(ok, "scene {} failed: {}\nserver stderr:\n{}", name, why, server.stderr_text());
    assert!(errors.is_empty(), "scene {}: host reported errors: {:?}", name, errors);
}

#[test]
fn clear() {
    run("clear", SceneParams::default());
}
#[test]
fn triangle() {
    run("triangle", SceneParams::default());
}
#[test]
fn cull() {
    run("cull", SceneParams::default());
}
#[test]
fn texture() {
    run("texture", SceneParams::default());
}
#[test]
fn depth() {
    run("depth", SceneParams::default());
}
#[test]
fn constants() {
    run("constants", SceneParams::default());
}
#[test]
fn inline_write() {
    run("inline_write", SceneParams::default());
}
#[test]
fn long_shader() {
    run("long_shader", SceneParams::default());
}
#[test]
fn resource_cycles_1000() {
    run("resource_cycles", SceneParams { resource_cycles: 1000, context_cycles: 0 });
}
#[test]
fn context_cycles() {
    run("context_cycles", SceneParams { resource_cycles: 0, context_cycles: 16 });
}
