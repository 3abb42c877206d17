//! Every differential scene rendered by the software backend and by the VirGL backend (through
//! vtest against virgl_test_server), compared pixel by pixel: at most 1% may differ, and only
//! along edges.
use gfx3d::compare::compare;
use gfx3d::linked::Linked;
use gfx3d::scenes::{self, SCENES, SCENE_HEIGHT, SCENE_WIDTH};
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

mod common;
use common::{layout, tri_layout};

/// A private virgl_test_server and a Gfx3D booted on forced VirGL through it.
fn virgl() -> (VtestServer, Gfx3d<Linked>) {
    let server = common::vtest_server();
    let g = common::virgl_on(&server);
    (server, g)
}

fn assert_no_host_errors(server: &VtestServer) {
    let errors = server.host_errors();
    assert!(errors.is_empty(), "host errors: {:?}", errors);
}

#[test]
fn software_and_virgl_agree_on_every_scene() {
    let (server, mut hw) = virgl();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let mut report = String::new();
    for (name, _) in SCENES {
        let a =
            scenes::run(&mut sw, 1, name).unwrap_or_else(|e| panic!("software {}: {}", name, e));
        let b = match scenes::run(&mut hw, 1, name) {
            Ok(b) => b,
            Err(e) => {
                report.push_str(&format!("{}: virgl failed: {}\n", name, e));
                continue;
            }
        };
        let c = compare(&a, &b, SCENE_WIDTH, SCENE_HEIGHT);
        let distinct = a.iter().filter(|&&p| p != a[0]).count();
        eprintln!(
            "{:20} differing {:4} off-edge {:2} (pixels unlike the first: {})",
            name, c.differing, c.off_edge, distinct
        );
        if !c.agrees() {
            report.push_str(&format!("{}: {:?}\n", name, c));
        }
    }
    assert_eq!(hw.backend_name(), "virgl");
    let errors = server.host_errors();
    assert!(
        report.is_empty() && errors.is_empty(),
        "{}\nhost errors: {:?}\n{}",
        report,
        errors,
        server.stderr_text()
    );
}

#[test]
fn software_and_virgl_agree_on_demo_frames() {
    demo_frames_agree(true);
}

/// Every pass of the demo but the floor's mip levels (tells a mip-level fault from the rest).
#[test]
fn software_and_virgl_agree_on_demo_frames_without_mip_levels() {
    demo_frames_agree(false);
}

fn demo_frames_agree(mipmaps: bool) {
    let (server, mut hw) = virgl();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let (w, h) = (160u32, 120u32);
    let ds = gfx3d::demo::Demo::with_mipmaps(&mut sw, 1, w, h, mipmaps).unwrap();
    let dh = gfx3d::demo::Demo::with_mipmaps(&mut hw, 1, w, h, mipmaps).unwrap();
    // Both scene targets are float (vtest's host renders to RGBA32F).
    assert_eq!(ds.scene_format, TargetFormat::Rgba32F);
    assert_eq!(dh.scene_format, TargetFormat::Rgba32F);
    for frame in [0u32, 17, 90] {
        let mut a = vec![0u32; (w * h) as usize];
        let mut b = vec![0u32; (w * h) as usize];
        ds.frame(&mut sw, frame).unwrap();
        ds.read(&mut sw, &mut a).unwrap();
        dh.frame(&mut hw, frame).unwrap();
        dh.read(&mut hw, &mut b).unwrap();
        let c = compare(&a, &b, w, h);
        eprintln!(
            "demo frame {:3}: differing {} off-edge {}",
            frame, c.differing, c.off_edge
        );
        assert!(c.agrees(), "frame {}: {:?}", frame, c);
    }
    assert_no_host_errors(&server);
}

#[test]
fn relinked_programs_are_refreshed_on_the_device() {
    use gfx3d::glsl::{TRI_FRAG, TRI_VERT};
    let (server, mut g) = virgl();
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, 16, 16).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (3.0, -1.0), (-1.0, 3.0)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0]);
    }
    let l = tri_layout();
    g.mesh_upload_f32(0, m, &l, &v, None).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let mut px = vec![0u32; 256];
    let mut frame = |g: &mut Gfx3d<Linked>| {
        g.begin(0, c, tg).unwrap();
        g.clear(0, c, [0.0; 4], true).unwrap();
        g.use_program(0, c, p).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        g.target_read(0, tg, &mut px).unwrap();
        px[0]
    };
    assert_eq!(frame(&mut g), 0xFFFF_0000);
    let vs = shader::program::compile::compile(0, TRI_VERT.as_bytes(), "tri").unwrap();
    let green = "#version 330\nin vec4 vcolor;\nout vec4 fragColor;\nvoid main() {\n    fragColor = vec4(0.0, vcolor.x, 0.0, 1.0);\n}\n";
    let fs = shader::program::compile::compile(1, green.as_bytes(), "green").unwrap();
    g.program_mut(0, p)
        .unwrap()
        .program_mut()
        .link(Some(&vs.module), Some(&fs.module))
        .unwrap();
    assert_eq!(
        frame(&mut g),
        0xFF00_FF00,
        "the relinked program is used without a new instance"
    );
    assert_no_host_errors(&server);
}

#[test]
fn one_mesh_and_texture_serve_two_device_contexts() {
    use gfx3d::glsl::{TEX_FRAG, TEX_VERT};
    let (server, mut g) = virgl();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (3.0, -1.0), (-1.0, 3.0)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, (x + 1.0) * 0.5, (1.0 - y) * 0.5]);
    }
    let l = layout(24, &[(0, 4, 0), (1, 2, 16)]);
    g.mesh_upload_f32(0, m, &l, &v, None).unwrap();
    let tex = g.tex_create(0, 2, 2).unwrap();
    g.tex_upload(
        0,
        tex,
        &[0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0x80FF_FFFF],
    )
    .unwrap();
    let mut pictures = Vec::new();
    let mut ctxs = Vec::new();
    for _ in 0..2 {
        let c = g.context_create(0).unwrap();
        let tg = g.target_create(0, c, 16, 16).unwrap();
        let linked = Linked::from_glsl(g.compiler(), TEX_VERT, TEX_FRAG, "tex").unwrap();
        let p = g.prog_prepare(0, c, linked).unwrap();
        ctxs.push((c, tg, p));
    }
    // Interleaved frames on the two contexts.
    for (c, tg, p) in &ctxs {
        g.begin(0, *c, *tg).unwrap();
        g.clear(0, *c, [0.0; 4], true).unwrap();
        g.use_program(0, *c, *p).unwrap();
        g.bind_texture(0, *c, 0, Some(tex)).unwrap();
    }
    for (c, _, _) in &ctxs {
        g.draw(0, *c, m).unwrap();
        g.end(0, *c).unwrap();
    }
    for (_, tg, _) in &ctxs {
        let mut px = vec![0u32; 256];
        g.target_read(0, *tg, &mut px).unwrap();
        pictures.push(px);
    }
    assert_eq!(pictures[0], pictures[1]);
    assert_eq!(pictures[0][0], 0xFFFF_0000, "texel (0, 0) at the top-left");
    assert_eq!(pictures[0][255], 0x80FF_FFFF, "alpha preserved");
    assert_eq!(
        g.stats().uploads,
        4,
        "mesh and texture uploaded once per device context"
    );
    assert_no_host_errors(&server);
}

#[test]
fn the_guest_suite_runner_reports_every_scene() {
    let (_server, mut hw) = virgl();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let mut out = String::new();
    let (passed, failed) = scenes::differential_suite(&mut sw, &mut hw, 4, &mut out);
    assert_eq!((passed as usize, failed), (SCENES.len(), 0), "{}", out);
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("test gfx3d::diff::") && l.contains(" ... ok"))
            .count(),
        SCENES.len()
    );
    // A broken "other" backend is reported per scene, not hidden.
    let mut lost: Gfx3d<Linked> = Gfx3d::new();
    let _ = lost.boot(BackendMode::Virgl, None);
    let mut out = String::new();
    let (passed, failed) = scenes::differential_suite(&mut sw, &mut lost, 4, &mut out);
    assert_eq!((passed, failed as usize), (0, SCENES.len()));
    assert!(
        out.contains("FAILED (virgl-lost: forced virgl unavailable)"),
        "{}",
        out
    );
}

/// A real shader over the 3600-byte TGSI budget on forced VirGL and on AUTO through vtest: a
/// program error, never a device loss (the same check runs in the guest).
#[test]
fn over_budget_program_is_not_a_device_loss() {
    for mode in [BackendMode::Virgl, BackendMode::Auto] {
        let server = VtestServer::start().unwrap_or_else(|e| panic!("{}", e));
        let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
        let mut g: Gfx3d<Linked> = Gfx3d::new();
        g.boot(mode, Some(Box::new(VirglBackend::new(t)))).unwrap();
        scenes::over_budget_program(&mut g, 1).unwrap_or_else(|e| panic!("{:?}: {}", mode, e));
        assert_eq!(g.backend_name(), "virgl");
        assert_no_host_errors(&server);
    }
    // The software backend prepares it (no TGSI needed) unless the link refuses it.
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    scenes::over_budget_program(&mut sw, 1).unwrap();
}

/// A profile-2 fragment shader of 900 locals (over 900 temps: the software executor renumbers
/// them into its 96 registers) whose TGSI is well over 100 KiB (uploaded in first + continuation
/// packets over several submits): software and VirGL agree pixel for pixel (the usual rule),
/// with nothing in the host's stderr.
#[test]
fn software_and_virgl_agree_on_a_long_profile_2_shader() {
    use gfx3d::glsl::TRI_VERT;
    let mut fs = String::from(
        "#version 330\n#pragma chrisos profile 2\nin vec4 vcolor;\nout vec4 fragColor;\nvoid main() {\n    vec4 a0 = vcolor * 0.5 + 0.25;\n",
    );
    let n: usize = 900;
    for i in 1..n {
        let p = |d: usize| i.saturating_sub(d);
        fs.push_str(&format!(
            "    vec4 a{} = (a{} + a{} * a{} + a{} + a0) * 0.25;\n",
            i,
            p(1),
            p(2),
            p(5),
            p(3)
        ));
    }
    // The recurrence settles on 1 - sqrt(1 - a0), which still follows vcolor.
    fs.push_str(&format!("    fragColor = a{} * 2.0;\n}}\n", n - 1));
    let sh = shader::program::compile::compile(1, fs.as_bytes(), "long").unwrap();
    assert!(sh.module.temps > 900, "{} temps", sh.module.temps);
    let (w, h) = (48u32, 40u32);
    let render = |g: &mut Gfx3d<Linked>| -> Vec<u32> {
        let c = g.context_create(0).unwrap();
        let tg = g.target_create(0, c, w, h).unwrap();
        let m = g.mesh_create(0, Usage::Static).unwrap();
        let mut v = Vec::new();
        for (x, y, col) in [
            (-1.0f32, -1.0f32, [1.0f32, 0.2, 0.0, 1.0]),
            (3.0, -1.0, [0.0, 1.0, 0.3, 1.0]),
            (-1.0, 3.0, [0.2, 0.0, 1.0, 0.5]),
        ] {
            v.extend_from_slice(&[x, y, 0.0, 1.0]);
            v.extend_from_slice(&col);
        }
        g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
        let linked = Linked::from_glsl(g.compiler(), TRI_VERT, &fs, "long").unwrap();
        let tgsi = linked.program().tgsi(shader::ir::Stage::Fragment).len();
        assert!(tgsi > 100 * 1024, "fragment TGSI is {} bytes", tgsi);
        eprintln!("fragment TGSI: {} bytes", tgsi);
        let p = g.prog_prepare(0, c, linked).unwrap();
        g.begin(0, c, tg).unwrap();
        g.clear(0, c, [0.0, 0.0, 0.0, 1.0], true).unwrap();
        g.use_program(0, c, p).unwrap();
        g.draw(0, c, m).unwrap();
        g.end(0, c).unwrap();
        let mut px = vec![0u32; (w * h) as usize];
        g.target_read(0, tg, &mut px).unwrap();
        px
    };
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let a = render(&mut sw);
    let (server, mut hw) = virgl();
    let b = render(&mut hw);
    assert_eq!(hw.backend_name(), "virgl");
    let distinct = a.iter().filter(|&&p| p != a[0]).count();
    assert!(distinct > (w * h) as usize / 2, "the picture varies");
    let c = compare(&a, &b, w, h);
    eprintln!(
        "long profile-2 shader: {} temps, {:?}, {} pixels unlike the first",
        sh.module.temps, c, distinct
    );
    assert!(c.agrees(), "{:?}\n{}", c, server.stderr_text());
    assert_no_host_errors(&server);
}
