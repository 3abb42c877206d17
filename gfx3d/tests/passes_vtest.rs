//! The multi-pass scene files of the differential corpus (`tools/shc/tests/diff/mp_*.json`,
//! which `shc render` matches with Mesa; `gfx3d::compat::PASS_PAIRS`) drawn through Gfx3D by
//! `gfx3d::compat` (the reader and renderer of the guest's `gfx3d::compat::passes::*` tests):
//! every pass into its own target (`target_create_format`), sampled by the later ones with
//! `bind_target_texture` (colour or depth, compare mode, generated mips), by the software
//! backend and by VirGL through vtest (virgl_test_server); the two pictures agree
//! (`gfx3d::compare`: at most 1% of the pixels differ, only along edges).
use std::path::PathBuf;

mod common;

use gfx3d::compat::{render_scene, run_batch, Scene, Suite, PASS_PAIRS};
use gfx3d::linked::Linked;
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

type G = Gfx3d<Linked>;

/// Every file of the differential corpus as (name, text).
fn diff_files() -> Vec<(String, String)> {
    common::dir_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/shc/tests/diff"))
}

/// A vtest server and Gfx3D on software and on VirGL through it.
fn backends() -> (VtestServer, G, G) {
    let server = common::vtest_server();
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut virgl = G::new();
    virgl
        .boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    assert_eq!(virgl.backend_name(), "virgl");
    let mut soft = G::new();
    soft.boot(BackendMode::Software, None).unwrap();
    (server, soft, virgl)
}

#[test]
fn software_and_virgl_agree_on_the_multi_pass_scenes() {
    let (server, mut soft, mut virgl) = backends();
    let owned = diff_files();
    let files = common::borrowed(&owned);
    let suite = Suite::passes(&files);
    assert_eq!(suite.batches().len(), PASS_PAIRS.len());
    let mut failed = Vec::new();
    for batch in suite.batches() {
        let r = run_batch(&suite, batch, &mut soft, &mut virgl, 0)
            .unwrap_or_else(|e| panic!("{}: {}", batch, e));
        assert_eq!(r.passed.len() + r.failed.len(), 1, "{}: {:?}", batch, r);
        failed.extend(r.failed);
    }
    assert_eq!(virgl.backend_name(), "virgl");
    let errors = server.host_errors();
    assert!(
        failed.is_empty() && errors.is_empty(),
        "{:?}\nhost errors: {:?}",
        failed,
        errors
    );
}

/// A sampled target reads in GL's orientation on both backends: the row drawn at window y = 0
/// (the bottom of the pass's picture) is t = 0, so a pass sampled with uv = (x, y) * 0.5 + 0.5
/// over a full-screen quad shows upright, as in `shc render` and Mesa. mp_post's pass has its
/// green triangle at the top right (NDC y 0.6 to 0.95); the final picture (read back top row
/// first) must show it there and not at the bottom right, on software and on VirGL.
#[test]
fn a_sampled_target_is_upright_as_in_gl_on_both_backends() {
    let (server, mut soft, mut virgl) = backends();
    let owned = diff_files();
    let files = common::borrowed(&owned);
    let file = |n: &str| files.iter().find(|(f, _)| *f == n).unwrap().1;
    let scene = Scene::parse(file("mp_post.json")).unwrap();
    let shaders = (file("fullscreen.vert"), file("mp_post.frag"));
    for (name, g) in [("software", &mut soft), ("virgl", &mut virgl)] {
        let px = render_scene(g, 0, "mp_post", shaders, &scene, &files).unwrap();
        let (w, h) = (scene.width, scene.height);
        let at = |x: u32, y: u32| px[(y * w + x) as usize].to_be_bytes();
        let green = |p: [u8; 4]| p[2] > p[1] && p[2] > p[3];
        assert!(
            green(at(50, 8)),
            "{}: top right is not green: {:?}",
            name,
            at(50, 8)
        );
        assert!(
            !green(at(50, h - 9)),
            "{}: bottom right is green (the mirror of GL): {:?}",
            name,
            at(50, h - 9)
        );
    }
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
