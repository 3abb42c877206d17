//! The VirGL backend against the real renderer (virgl_test_server through vtest), with
//! hand-written TGSI so it does not depend on the shader compiler: orientation, viewport
//! sub-rectangles, depth, culling, texture units, residency, readback statistics and device loss.
//! Each test starts a private server and fails on any host context error.
mod common;

use common::*;
use gfx3d::fault::FaultyTransport;
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use virtio_gpu::scenes::{FS_VARYING, VS_POS_ATTR};
use virtio_gpu::vtest::{VtestServer, VtestTransport};

type G = Gfx3d<FakeProgram>;

const RED: u32 = 0xFFFF_0000;
const GREEN: u32 = 0xFF00_FF00;
const BLUE: u32 = 0xFF00_00FF;

/// FS sampling unit 1 with GENERIC[0].
const FS_TEX_UNIT1: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[1]\nDCL SVIEW[1], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[1], 2D\n  1: END\n";

fn start() -> (VtestServer, G) {
    let server = common::vtest_server();
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut g = G::new();
    g.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .expect("virgl boot");
    assert_eq!(g.backend_name(), "virgl");
    (server, g)
}

fn finish(server: VtestServer) {
    let errors = server.host_errors();
    assert!(
        errors.is_empty(),
        "host reported errors: {:?}\n{}",
        errors,
        server.stderr_text()
    );
}

fn program() -> FakeProgram {
    let mut p = FakeProgram::mvp();
    p.tgsi = Some((VS_POS_ATTR, FS_VARYING));
    p
}

/// position xyzw + colour rgba per vertex.
fn tri(v: [[f32; 3]; 3], c: u32) -> Vec<f32> {
    let ch = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
    let mut out = Vec::new();
    for p in v {
        out.extend_from_slice(&[p[0], p[1], p[2], 1.0, ch(16), ch(8), ch(0), 1.0]);
    }
    out
}

fn px(p: &[u32], w: u32, x: u32, y: u32) -> u32 {
    p[(y * w + x) as usize]
}

#[test]
fn triangle_is_upright_and_readback_is_counted() {
    let (server, mut g) = start();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 64, 64).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    // Upper-left triangle (NDC y up).
    g.mesh_upload_f32(
        0,
        m,
        &tri_layout(),
        &tri([[-0.9, 0.9, 0.0], [-0.9, 0.1, 0.0], [-0.1, 0.9, 0.0]], RED),
        None,
    )
    .unwrap();
    let p = g.prog_prepare(0, c, program()).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut out = vec![0u32; 64 * 64];
    g.target_read(0, t, &mut out).unwrap();
    assert_eq!(px(&out, 64, 8, 8), RED, "top-left must be red");
    assert_eq!(
        px(&out, 64, 8, 56),
        BLUE,
        "bottom-left must be clear (flip check)"
    );
    assert_eq!(
        px(&out, 64, 56, 8),
        BLUE,
        "top-right must be clear (mirror check)"
    );
    let s = g.stats();
    assert_eq!(s.readbacks, 1);
    assert!(s.submits >= 1 && s.dwords > 0);
    assert_eq!(s.uploads, 1);
    assert!(s.gpu_backing_bytes >= 64 * 64 * 8);
    assert!(s.virgl_obj_live > 0 && s.virgl_obj_peak >= s.virgl_obj_live);
    g.drop_owner(0);
    finish(server);
}

#[test]
fn viewport_depth_and_cull_are_honoured() {
    let (server, mut g) = start();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 64, 64).unwrap();
    let full = g.mesh_create(0, Usage::Static).unwrap();
    // A full-viewport quad (two CCW triangles), green at z=0.5.
    let mut quad = tri(
        [[-1.0, -1.0, 0.5], [1.0, -1.0, 0.5], [1.0, 1.0, 0.5]],
        GREEN,
    );
    quad.extend(tri(
        [[-1.0, -1.0, 0.5], [1.0, 1.0, 0.5], [-1.0, 1.0, 0.5]],
        GREEN,
    ));
    g.mesh_upload_f32(0, full, &tri_layout(), &quad, None)
        .unwrap();
    // A red quad behind it (z=0.8) and a CW (back-facing) red quad in front (z=-0.5).
    let behind = g.mesh_create(0, Usage::Static).unwrap();
    let mut q2 = tri([[-1.0, -1.0, 0.8], [1.0, -1.0, 0.8], [1.0, 1.0, 0.8]], RED);
    q2.extend(tri(
        [[-1.0, -1.0, 0.8], [1.0, 1.0, 0.8], [-1.0, 1.0, 0.8]],
        RED,
    ));
    g.mesh_upload_f32(0, behind, &tri_layout(), &q2, None)
        .unwrap();
    let back = g.mesh_create(0, Usage::Static).unwrap();
    let mut q3 = tri(
        [[-1.0, -1.0, -0.5], [1.0, 1.0, -0.5], [1.0, -1.0, -0.5]],
        RED,
    );
    q3.extend(tri(
        [[-1.0, -1.0, -0.5], [-1.0, 1.0, -0.5], [1.0, 1.0, -0.5]],
        RED,
    ));
    g.mesh_upload_f32(0, back, &tri_layout(), &q3, Some(&[0, 1, 2, 3, 4, 5]))
        .unwrap();
    let p = g.prog_prepare(0, c, program()).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
    g.use_program(0, c, p).unwrap();
    // Lower-left quarter only (GL: x, y from the bottom-left).
    g.viewport(0, c, 0, 0, 32, 32).unwrap();
    g.draw(0, c, full).unwrap();
    g.draw(0, c, behind).unwrap();
    g.cull_back(0, c, true).unwrap();
    g.draw(0, c, back).unwrap();
    g.end(0, c).unwrap();
    let mut out = vec![0u32; 64 * 64];
    g.target_read(0, t, &mut out).unwrap();
    assert_eq!(
        px(&out, 64, 16, 48),
        GREEN,
        "lower-left quarter drawn, depth kept green in front"
    );
    assert_eq!(px(&out, 64, 16, 16), BLUE, "upper-left untouched");
    assert_eq!(px(&out, 64, 48, 48), BLUE, "lower-right untouched");
    // Without depth test, the red quad behind wins.
    g.begin(0, c, t).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.draw(0, c, full).unwrap();
    g.draw(0, c, behind).unwrap();
    g.end(0, c).unwrap();
    g.target_read(0, t, &mut out).unwrap();
    assert_eq!(px(&out, 64, 10, 10), RED);
    g.drop_owner(0);
    finish(server);
}

#[test]
fn texture_unit_one_is_sampled() {
    let (server, mut g) = start();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 32, 32).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    // uv in the colour slot (x, y used by the FS as texture coordinates).
    let mut quad = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        quad.extend_from_slice(&[x, y, 0.0, 1.0, (x + 1.0) * 0.5, (1.0 - y) * 0.5, 0.0, 1.0]);
    }
    g.mesh_upload_f32(0, m, &tri_layout(), &quad, None).unwrap();
    let mut prog = FakeProgram::mvp();
    prog.tgsi = Some((VS_POS_ATTR, FS_TEX_UNIT1));
    let p = g.prog_prepare(0, c, prog).unwrap();
    let red = g.tex_solid(0, RED).unwrap();
    // 2x2: alpha must survive.
    let tex = g.tex_create(0, 2, 2).unwrap();
    g.tex_upload(
        0,
        tex,
        &[0x80FF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FFFF],
    )
    .unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(red)).unwrap();
    g.bind_texture(0, c, 1, Some(tex)).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut out = vec![0u32; 32 * 32];
    g.target_read(0, t, &mut out).unwrap();
    // v = 0 (first texel row) at the top, alpha preserved.
    assert_eq!(px(&out, 32, 4, 4), 0x80FF_0000);
    assert_eq!(px(&out, 32, 28, 4), 0xFF00_FF00);
    assert_eq!(px(&out, 32, 4, 28), 0xFF00_00FF);
    assert_eq!(px(&out, 32, 28, 28), 0xFFFF_FFFF);
    g.drop_owner(0);
    finish(server);
}

#[test]
fn meshes_upload_once_per_context_and_resize_works() {
    let (server, mut g) = start();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 16, 16).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(
        0,
        m,
        &tri_layout(),
        &tri(
            [[-1.0, -1.0, 0.0], [3.0, -1.0, 0.0], [-1.0, 3.0, 0.0]],
            GREEN,
        ),
        None,
    )
    .unwrap();
    let p1 = g.prog_prepare(0, c, program()).unwrap();
    let p2 = g.prog_prepare(0, c, program()).unwrap();
    for (w, h) in [(16, 16), (320, 200), (640, 480), (800, 600), (64, 32)] {
        g.target_resize(0, t, w, h).unwrap();
        g.begin(0, c, t).unwrap();
        g.clear(0, c, [1.0, 0.0, 0.0, 1.0], true).unwrap();
        g.use_program(0, c, p1).unwrap();
        g.draw(0, c, m).unwrap();
        g.use_program(0, c, p2).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        let mut out = vec![0u32; (w * h) as usize];
        g.target_read(0, t, &mut out).unwrap();
        assert!(out.iter().all(|&p| p == GREEN), "{}x{}", w, h);
    }
    assert_eq!(
        g.stats().uploads,
        1,
        "one vertex upload for every frame and both programs"
    );
    g.drop_owner(0);
    finish(server);
}

fn faulty(server: &VtestServer, mode: BackendMode) -> (G, Arc<AtomicBool>) {
    let dead = Arc::new(AtomicBool::new(false));
    let t = FaultyTransport::new(
        VtestTransport::connect(server.socket_path()).unwrap(),
        dead.clone(),
    );
    let mut g = G::new();
    g.boot(mode, Some(Box::new(VirglBackend::new(t)))).unwrap();
    assert_eq!(g.backend_name(), "virgl");
    (g, dead)
}

fn lost_setup(g: &mut G) -> (ContextId, TargetId, MeshId, ProgramId) {
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, 8, 8).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &red_triangle(), None)
        .unwrap();
    let mut prog = program();
    prog.fill = Some(GREEN);
    let p = g.prog_prepare(0, c, prog).unwrap();
    (c, tg, m, p)
}

#[test]
fn auto_survives_a_lost_device() {
    let server = VtestServer::start().unwrap();
    let (mut g, dead) = faulty(&server, BackendMode::Auto);
    let (c, tg, m, p) = lost_setup(&mut g);
    g.begin(0, c, tg).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    dead.store(true, Ordering::SeqCst);
    // The frame's submit fails: AUTO degrades and the call still succeeds.
    g.end(0, c).unwrap();
    assert_eq!(g.backend_name(), "software");
    assert!(g.stats().degraded);
    // Later frames are rendered on the CPU.
    let mut out = vec![0u32; 64];
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    g.target_read(0, tg, &mut out).unwrap();
    assert!(out.iter().all(|&p| p == GREEN));
    // New objects work too.
    let t2 = g.target_create(0, c, 4, 4).unwrap();
    g.target_resize(0, t2, 8, 8).unwrap();
    finish(server);
}

#[test]
fn forced_virgl_reports_a_lost_device() {
    let server = VtestServer::start().unwrap();
    let (mut g, dead) = faulty(&server, BackendMode::Virgl);
    let (c, tg, m, p) = lost_setup(&mut g);
    g.begin(0, c, tg).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    dead.store(true, Ordering::SeqCst);
    assert!(matches!(g.end(0, c), Err(Error::Device { .. })));
    assert_eq!(g.backend_name(), "virgl-lost");
    assert_eq!(g.begin(0, c, tg), Err(Error::ForcedVirglUnavailable));
    let mut out = vec![0u32; 64];
    assert!(g.target_read(0, tg, &mut out).is_err() || g.is_lost());
    assert!(
        g.program(0, p).unwrap().draws.borrow().is_empty(),
        "forced virgl never falls back to the CPU"
    );
    finish(server);
}

/// Shaders the encoder refuses (TGSI longer than the encoder's limit) and a program without TGSI
/// are program errors: the device is not lost, its handles are not leaked, and the next program
/// draws, on forced VirGL and on AUTO.
#[test]
fn refused_shaders_are_program_errors() {
    let long: &'static str = Box::leak(
        format!(
            "VERT\n{}END\n",
            "DCL TEMP[0]\n".repeat(virtio_gpu::limits::MAX_SHADER_TEXT_BYTES / 12 + 1)
        )
        .into_boxed_str(),
    );
    for mode in [BackendMode::Virgl, BackendMode::Auto] {
        let server = VtestServer::start().unwrap();
        let t = VtestTransport::connect(server.socket_path()).unwrap();
        let mut g = G::new();
        g.boot(mode, Some(Box::new(VirglBackend::new(t)))).unwrap();
        let (c, tg, m, p) = lost_setup(&mut g);
        let live = g.stats().virgl_obj_live;
        let mut big = program();
        big.tgsi = Some((long, FS_VARYING));
        assert!(matches!(
            g.prog_prepare(0, c, big),
            Err(Error::ProgramUnsupported { .. })
        ));
        let mut none = program();
        none.tgsi_error = Some("no TGSI");
        assert_eq!(
            g.prog_prepare(0, c, none),
            Err(Error::ProgramUnsupported { what: "no TGSI" })
        );
        assert_eq!(
            g.stats().virgl_obj_live,
            live,
            "refused shaders left handles behind"
        );
        assert_eq!(g.backend_name(), "virgl");
        g.begin(0, c, tg).unwrap();
        g.clear(0, c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
        g.use_program(0, c, p).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        let mut out = vec![0u32; 64];
        g.target_read(0, tg, &mut out).unwrap();
        assert_eq!(px(&out, 8, 4, 4), RED, "{:?}", mode);
        assert_eq!(g.backend_name(), "virgl");
        assert!(!g.stats().degraded);
        finish(server);
    }
}
