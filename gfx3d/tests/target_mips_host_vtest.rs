//! Render-target mip levels built on the host GPU (brief D, session 7; issue 16 item 3, issue
//! 17 item 3): under VirGL `target_generate_mipmaps` sends a host-side copy of level 0 and a
//! linear BLIT per level, and no transfer in either direction (`common::Logged` counts every
//! transfer and every command submitted); the levels sampled with `textureLod` agree with the
//! software backend's chain, for square, odd and float targets.
use std::sync::{Arc, Mutex};

use gfx3d::compare::compare;
use gfx3d::glsl::{PASS_VERT, TRI_FRAG, TRI_VERT};
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, MipFilter, SamplerState, Wrap};
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::protocol::{CCMD_BLIT, CCMD_RESOURCE_COPY_REGION};
use virtio_gpu::vtest::{VtestServer, VtestTransport};

mod common;
use common::{screen_quad, tri_layout, Logged, TransportLog};

type G = Gfx3d<Linked>;
const DST: u32 = 8;

fn lod_frag(level: u32) -> String {
    format!(
        "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2D tex;
out vec4 color;
void main() {{
    color = textureLod(tex, fragUV, {}.0);
}}
",
        level
    )
}

fn quad(g: &mut G, r: [f32; 4], rgba: [f32; 4]) -> MeshId {
    let [x0, y0, x1, y1] = r;
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0]);
        v.extend_from_slice(&rgba);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

/// Draws level 0 of `src`: a cleared background and two rectangles (`bright` scales the
/// colours, above 1 for a float target).
fn render_source(g: &mut G, c: ContextId, src: TargetId, bright: f32) {
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let k = |v: [f32; 3]| [v[0] * bright, v[1] * bright, v[2] * bright, 1.0];
    let a = quad(g, [-1.0, -1.0, 0.25, 0.5], k([0.9, 0.2, 0.1]));
    let b = quad(g, [-0.5, -0.75, 1.0, 1.0], k([0.1, 0.3, 0.9]));
    g.begin(0, c, src).unwrap();
    g.clear(0, c, k([0.2, 0.8, 0.3]), true).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, a).unwrap();
    g.draw(0, c, b).unwrap();
    g.end(0, c).unwrap();
}

/// The program sampling at `level` and the full-screen quad it draws.
fn sampler_pass(g: &mut G, c: ContextId, level: u32) -> (ProgramId, MeshId) {
    let fs = lod_frag(level);
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, &fs, "lod").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    (p, screen_quad(g))
}

/// Draws `src`'s colour over `dst` (nearest) with `pass`, without reading anything back.
fn sample_into(g: &mut G, c: ContextId, src: TargetId, dst: TargetId, pass: (ProgramId, MeshId)) {
    let (p, m) = pass;
    let sampler = SamplerState {
        mip: MipFilter::Nearest,
        ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
    };
    g.begin(0, c, dst).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_target_texture(0, c, 0, src, TargetPlane::Color, sampler)
        .unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    g.bind_texture(0, c, 0, None).unwrap();
}

/// Every level of a generated `w` x `h` chain of `format` on `g`: [picture sampled at level
/// l] as floats (r, g, b, a per pixel of a DST x DST float target).
fn run(g: &mut G, w: u32, h: u32, format: TargetFormat, bright: f32) -> Vec<Vec<[f32; 4]>> {
    let c = g.context_create(0).unwrap();
    let src = g.target_create_format(0, c, w, h, format).unwrap();
    let dst = g
        .target_create_format(0, c, DST, DST, TargetFormat::Rgba32F)
        .unwrap();
    render_source(g, c, src, bright);
    g.target_generate_mipmaps(0, src).unwrap();
    let levels = 32 - w.max(h).leading_zeros();
    let mut out = Vec::new();
    for l in 0..levels {
        let pass = sampler_pass(g, c, l);
        sample_into(g, c, src, dst, pass);
        let mut px = vec![[0.0f32; 4]; (DST * DST) as usize];
        g.target_read_float(0, dst, &mut px).unwrap();
        out.push(px);
    }
    g.context_destroy(0, c).unwrap();
    out
}

fn virgl() -> (VtestServer, G, Arc<Mutex<TransportLog>>) {
    let server = common::vtest_server();
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let (t, log) = Logged::new(t);
    let mut hw: G = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    (server, hw, log)
}

/// The largest per-channel difference between two float pictures.
fn max_diff(a: &[[f32; 4]], b: &[[f32; 4]]) -> f32 {
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| (0..4).map(move |k| (x[k] - y[k]).abs()))
        .fold(0.0, f32::max)
}

#[test]
fn generating_on_virgl_sends_copy_and_blits_and_no_transfer() {
    let (server, mut g, log) = virgl();
    let c = g.context_create(0).unwrap();
    let src = g.target_create(0, c, 16, 16).unwrap();
    let dst = g.target_create(0, c, DST, DST).unwrap();
    let pass = sampler_pass(&mut g, c, 2);
    // One pass first, so the objects made on first use (the unbound units' black texture,
    // uploaded once) exist before the log starts.
    render_source(&mut g, c, src, 1.0);
    sample_into(&mut g, c, src, dst, pass);
    for round in 0..2 {
        render_source(&mut g, c, src, 1.0);
        // What the draws before queued is not this test's business.
        *log.lock().unwrap() = TransportLog::default();
        let before = g.stats().readbacks;
        g.target_generate_mipmaps(0, src).unwrap();
        sample_into(&mut g, c, src, dst, pass);
        let l = log.lock().unwrap();
        assert_eq!(
            (l.to_host, l.from_host),
            (0, 0),
            "round {round}: a transfer"
        );
        assert_eq!(g.stats().readbacks, before);
        let commands = l.commands();
        let count = |id| commands.iter().filter(|&&c| c == id).count();
        assert_eq!(count(CCMD_RESOURCE_COPY_REGION), 1, "round {round}");
        // 16x16: levels 1..=4, one BLIT each.
        assert_eq!(count(CCMD_BLIT), 4, "round {round}");
        // The chain's resource is made by the first generation only (then reused).
        assert_eq!(l.creates, if round == 0 { 1 } else { 0 }, "round {round}");
    }
    let mut px = vec![0u32; (DST * DST) as usize];
    g.target_read(0, dst, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

/// Level by level, software and VirGL agree within the compat rule (RGBA8 targets).
fn rgba8_agrees(w: u32, h: u32) {
    let (server, mut hw, _log) = virgl();
    let mut sw: G = Gfx3d::new();
    let a = run(&mut sw, w, h, TargetFormat::Rgba8, 1.0);
    let b = run(&mut hw, w, h, TargetFormat::Rgba8, 1.0);
    assert_eq!(hw.backend_name(), "virgl");
    let pack = |p: &[[f32; 4]]| -> Vec<u32> {
        p.iter()
            .map(|c| {
                let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u32;
                q(c[3]) << 24 | q(c[0]) << 16 | q(c[1]) << 8 | q(c[2])
            })
            .collect()
    };
    let mut report = String::new();
    for (l, (x, y)) in a.iter().zip(&b).enumerate() {
        let cmp = compare(&pack(x), &pack(y), DST, DST);
        eprintln!(
            "{w}x{h} level {l}: differing {} max diff {}",
            cmp.differing,
            max_diff(x, y) * 255.0
        );
        if !cmp.agrees() {
            report.push_str(&format!("level {l}: {cmp:?}\n"));
        }
    }
    assert!(report.is_empty(), "{w}x{h}:\n{report}");
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

#[test]
fn square_target_levels_agree() {
    rgba8_agrees(16, 16);
}

#[test]
fn non_square_target_levels_agree() {
    rgba8_agrees(32, 8);
}

#[test]
fn odd_target_levels_agree() {
    rgba8_agrees(13, 7);
}

#[test]
fn gl_chain_is_the_box_chain_on_even_extents_only() {
    use gfx3d::texture::{box_chain, gl_chain, gl_chain_f32};
    let pic = |w: u32, h: u32| -> Vec<u32> {
        (0..w * h)
            .map(|i| i.wrapping_mul(0x9E37_79B9) ^ (i << 7))
            .collect()
    };
    for (w, h) in [(16, 16), (32, 8), (1, 64), (8, 1)] {
        assert_eq!(
            gl_chain(w, h, &pic(w, h)),
            box_chain(w, h, &pic(w, h)),
            "{w}x{h}"
        );
    }
    // 3x1 -> 1x1 is the middle texel (the blit samples the centre), not the box mean.
    let c = gl_chain(3, 1, &[0xFF00_0000, 0xFF80_4020, 0xFFFF_FFFF]);
    assert_eq!(c, vec![vec![0xFF80_4020]]);
    assert_ne!(c, box_chain(3, 1, &[0xFF00_0000, 0xFF80_4020, 0xFFFF_FFFF]));
    // Floats: 2x2 -> the mean, unclamped.
    let f = gl_chain_f32(2, 2, &[[4.0, 0.0, -2.0, 1.0]; 4]);
    assert_eq!(f, vec![vec![[4.0, 0.0, -2.0, 1.0]]]);
    let f = gl_chain_f32(2, 1, &[[8.0, 1.0, 0.0, 1.0], [0.0, 3.0, 0.0, 1.0]]);
    assert_eq!(f, vec![vec![[4.0, 2.0, 0.0, 1.0]]]);
}

/// RGBA32F targets get mips on both backends (software: `gl_chain_f32`; VirGL: the same host
/// copy + linear BLIT path on the float resource), unclamped (HDR values above 1 survive).
fn float_agrees(w: u32, h: u32) {
    let (server, mut hw, log) = virgl();
    let mut sw: G = Gfx3d::new();
    let a = run(&mut sw, w, h, TargetFormat::Rgba32F, 4.0);
    let b = run(&mut hw, w, h, TargetFormat::Rgba32F, 4.0);
    assert_eq!(hw.backend_name(), "virgl");
    assert!(log.lock().unwrap().commands().contains(&CCMD_BLIT));
    for (l, (x, y)) in a.iter().zip(&b).enumerate() {
        let d = max_diff(x, y);
        eprintln!("float {w}x{h} level {l}: max diff {d}");
        assert!(d <= 1e-3, "float {w}x{h} level {l}: max diff {d}");
    }
    // The 1x1 level is the picture's (weighted) mean: a colour above 1 somewhere.
    let last = a.last().unwrap();
    assert!(last[0].iter().take(3).any(|&c| c > 1.0), "{:?}", last[0]);
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}

#[test]
fn float_target_levels_agree() {
    float_agrees(16, 16);
    float_agrees(13, 7);
}

#[test]
fn float_target_level_is_the_float_chain_on_software() {
    use gfx3d::texture::gl_chain_f32;
    let mut g: G = Gfx3d::new();
    let c = g.context_create(0).unwrap();
    let src = g
        .target_create_format(0, c, 16, 16, TargetFormat::Rgba32F)
        .unwrap();
    let dst = g
        .target_create_format(0, c, DST, DST, TargetFormat::Rgba32F)
        .unwrap();
    render_source(&mut g, c, src, 4.0);
    let mut level0 = vec![[0.0f32; 4]; 256];
    g.target_read_float(0, src, &mut level0).unwrap();
    g.target_generate_mipmaps(0, src).unwrap();
    let pass = sampler_pass(&mut g, c, 1);
    sample_into(&mut g, c, src, dst, pass);
    let mut px = vec![[0.0f32; 4]; (DST * DST) as usize];
    g.target_read_float(0, dst, &mut px).unwrap();
    assert_eq!(px, gl_chain_f32(16, 16, &level0)[0]);
    // Level 4 (1x1) is one colour over the whole target, until the next frame drops the
    // chain (then level 4 reads level 0: the rectangles again).
    let pass4 = sampler_pass(&mut g, c, 4);
    let uniform = |g: &mut G| {
        sample_into(g, c, src, dst, pass4);
        let mut px = vec![[0.0f32; 4]; (DST * DST) as usize];
        g.target_read_float(0, dst, &mut px).unwrap();
        px.iter().all(|p| *p == px[0])
    };
    assert!(uniform(&mut g));
    render_source(&mut g, c, src, 4.0);
    assert!(!uniform(&mut g));
    g.drop_owner(0);
}
