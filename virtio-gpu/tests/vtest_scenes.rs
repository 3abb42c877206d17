//! The scenes against the real renderer through vtest. Each test starts a private
//! `virgl_test_server`, runs one scene, and fails on any host context error in its stderr.
use virtio_gpu::scenes::{self, SceneParams};
use virtio_gpu::vtest::{VtestServer, VtestTransport};

/// A private server and a transport connected to it.
fn connect() -> (VtestServer, VtestTransport) {
    let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    (server, t)
}

fn run(name: &str, p: SceneParams) {
    let (server, mut t) = connect();
    let mut why = String::new();
    let ok = scenes::run_scene_with(name, &mut t, &mut why, p);
    let errors = server.host_errors();
    assert!(
        ok,
        "scene {} failed: {}\nserver stderr:\n{}",
        name,
        why,
        server.stderr_text()
    );
    assert!(
        errors.is_empty(),
        "scene {}: host reported errors: {:?}",
        name,
        errors
    );
}

/// One test per scene, run with the default knobs.
macro_rules! default_scene_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run(stringify!($name), SceneParams::default());
            }
        )*
    };
}

default_scene_tests!(
    clear,
    triangle,
    cull,
    texture,
    depth,
    constants,
    inline_write,
    long_shader,
    longest_shader,
    texture_units,
    indexed
);

#[test]
fn resource_cycles_1000() {
    run(
        "resource_cycles",
        SceneParams {
            resource_cycles: 1000,
            context_cycles: 0,
        },
    );
}
#[test]
fn context_cycles() {
    run(
        "context_cycles",
        SceneParams {
            resource_cycles: 0,
            context_cycles: 16,
        },
    );
}

/// A stream the host rejects must not go unnoticed: the connection drops (the transport becomes
/// lost) and the server's stderr names the failure.
#[test]
fn host_rejection_is_detected() {
    use virtio_gpu::protocol::*;
    use virtio_gpu::GpuTransport3d;
    let (server, mut t) = connect();
    let ctx = t.ctx_create().unwrap();
    // CLEAR with 7 payload dwords instead of 8.
    let r = t.submit_3d(
        ctx,
        &[cmd0(CCMD_CLEAR, 0, 7), CLEAR_COLOR0, 0, 0, 0, 0, 0, 0],
    );
    assert!(r.is_err(), "submit of a bad stream reported success");
    assert!(t.is_lost());
    drop(t);
    // The forked server child logs asynchronously; give it a moment.
    let mut errors = server.host_errors();
    for _ in 0..50 {
        if !errors.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        errors = server.host_errors();
    }
    assert!(
        !errors.is_empty(),
        "no host error logged; stderr:\n{}",
        server.stderr_text()
    );
}

/// The capabilities read over vtest are plausible for virglrenderer on Mesa.
#[test]
fn vtest_caps() {
    use virtio_gpu::GpuTransport3d;
    let (_server, t) = connect();
    let c = *t.caps();
    assert!(c.glsl_level >= 130, "{:?}", c);
    assert!(c.max_texture_2d_size >= 2048, "{:?}", c);
    assert!(c
        .sampler_formats
        .supports(virtio_gpu::protocol::FORMAT_B8G8R8A8_UNORM));
    assert!(c
        .render_formats
        .supports(virtio_gpu::protocol::FORMAT_B8G8R8A8_UNORM));
    println!(
        "host caps: glsl {} tex {} feature version {} link_shader {}",
        c.glsl_level, c.max_texture_2d_size, c.host_feature_check_version, c.supports_link_shader
    );
}
