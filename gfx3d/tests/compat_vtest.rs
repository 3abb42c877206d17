//! The profile-2 compatibility suite (`tools/shc/tests/compat/`) drawn by the software backend
//! and by the VirGL backend through vtest (virgl_test_server), batch by batch, as the kernel's
//! `gfx3d::compat::BATCH` guest tests do (`gfx3d::compat`): every pair that is not a known gap
//! compiles with profile 2 and the two pictures agree (at most 1% of the pixels differ by more
//! than 2/255, only along edges). Also: `gfx3d::compat::Scene` reads every suite scene exactly
//! as the `scene` crate (which `shc render` and `mesa-ref` use) does.
use std::path::PathBuf;

use gfx3d::compat::{run_batch, Scene, Suite};
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, Wrap};
use gfx3d::virgl::VirglBackend;
use gfx3d::*;
use virtio_gpu::vtest::{VtestServer, VtestTransport};

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/shc/tests/compat")
}

/// Every file of the suite as (name, text).
fn suite_files() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(suite_dir())
        .expect("tools/shc/tests/compat")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn scenes_are_read_as_the_scene_crate_reads_them() {
    let files = suite_files();
    let mut n = 0;
    // Every scene, the cube_* ones (cube textures) too.
    for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".json")) {
        let ours = Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", name, e));
        let theirs = scene::Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_eq!(
            (ours.width, ours.height),
            (theirs.width, theirs.height),
            "{}",
            name
        );
        assert_eq!(
            ours.clear.map(f32::to_bits),
            theirs.clear.map(f32::to_bits),
            "{}",
            name
        );
        assert_eq!(
            (ours.depth, ours.cull),
            (theirs.depth, theirs.cull),
            "{}",
            name
        );
        assert_eq!(ours.viewport, theirs.viewport, "{}", name);
        assert_eq!(ours.vertex_count, theirs.vertex_count, "{}", name);
        assert_eq!(ours.indices, theirs.indices, "{}", name);
        assert_eq!(ours.attributes.len(), theirs.attributes.len(), "{}", name);
        for (a, b) in ours.attributes.iter().zip(&theirs.attributes) {
            assert_eq!(a.location as u32, b.location, "{}", name);
            assert_eq!(a.components as u32, b.components, "{}", name);
            let bits = |d: &[f32]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a.data), bits(&b.data), "{}", name);
        }
        let bits = |u: &[(String, Vec<f32>)]| -> Vec<(String, Vec<u32>)> {
            u.iter()
                .map(|(n, v)| (n.clone(), v.iter().map(|x| x.to_bits()).collect()))
                .collect()
        };
        let (ub, tb) = (bits(&ours.uniforms), bits(&theirs.uniforms));
        assert_eq!(ub, tb, "{}", name);
        assert_eq!(ours.textures.len(), theirs.textures.len(), "{}", name);
        for ((na, a), (nb, b)) in ours.textures.iter().zip(&theirs.textures) {
            assert_eq!(na, nb, "{}", name);
            assert_eq!((a.width, a.height), (b.width, b.height), "{}", name);
            assert_eq!(a.texels, b.to_argb(), "{}: {}", name, na);
            let filter = match b.filter {
                scene::Filter::Nearest => Filter::Nearest,
                scene::Filter::Linear => Filter::Linear,
            };
            let w = |w: scene::Wrap| match w {
                scene::Wrap::Repeat => Wrap::Repeat,
                scene::Wrap::ClampToEdge => Wrap::ClampToEdge,
                scene::Wrap::MirroredRepeat => Wrap::MirroredRepeat,
            };
            let (wrap, wrap_t) = (w(b.wrap), w(b.wrap_t));
            assert_eq!(
                (a.sampler.filter, a.sampler.wrap, a.sampler.wrap_t()),
                (filter, wrap, wrap_t),
                "{}: {}",
                name,
                na
            );
            assert_eq!(
                (a.sampler.lod_bias, a.sampler.min_lod, a.sampler.max_lod),
                (b.lod_bias, b.min_lod, b.max_lod),
                "{}: {}",
                name,
                na
            );
            let levels: Vec<Vec<u32>> = b
                .levels
                .iter()
                .map(|l| {
                    l.chunks_exact(4)
                        .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
                        .collect()
                })
                .collect();
            assert_eq!(a.levels, levels, "{}: {} mip levels", name, na);
            let argb = |l: &Vec<u8>| -> Vec<u32> {
                l.chunks_exact(4)
                    .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
                    .collect()
            };
            let faces: Vec<Vec<u32>> = b.faces.iter().map(argb).collect();
            assert_eq!(a.faces, faces, "{}: {} cube faces", name, na);
            // A cube's face chains: what tex_generate_mipmaps builds is the scene's.
            let chains: Vec<Vec<Vec<u32>>> = a
                .faces
                .iter()
                .map(|f| gfx3d::texture::box_chain(a.width, a.height, f))
                .filter(|_| !a.levels.is_empty())
                .collect();
            let theirs: Vec<Vec<Vec<u32>>> = b
                .face_levels
                .iter()
                .map(|f| f.iter().map(argb).collect())
                .collect();
            assert_eq!(chains, theirs, "{}: {} cube face levels", name, na);
        }
        n += 1;
    }
    assert!(n >= 9, "only {} scenes", n);
}

#[test]
fn the_scene_reader_rejects_bad_text_without_panicking() {
    for bad in [
        "",
        "[",
        "{\"size\": [64]}",
        "{\"size\": [64, 64], \"attributes\": []}",
        "{\"size\": [64, 64], \"attributes\": [{\"location\": 0, \"components\": 2, \"data\": [1, 2, 3]}]}",
        "{\"size\": [64, 64], \"attributes\": [{\"location\": 0, \"components\": 1, \"data\": [0, 1, 2]}], \"indices\": [0, 1, 3]}",
        "{\"a\": 1, \"a\": 2}",
        "{\"s\": \"\\n\"}",
        &"[".repeat(100),
    ] {
        assert!(Scene::parse(bad).is_err(), "{:?}", bad);
    }
}

#[test]
fn software_and_virgl_agree_on_the_compat_suite() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut hw: Gfx3d<Linked> = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();

    let owned = suite_files();
    let files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let suite = Suite::new(&files).unwrap();
    let (mut passed, mut gaps, mut failed) = (0, 0, Vec::new());
    for batch in suite.batches() {
        let r = run_batch(&suite, batch, &mut sw, &mut hw, 1)
            .unwrap_or_else(|e| panic!("batch {}: {}", batch, e));
        eprintln!(
            "compat batch {:9} {} agree, {} fail, {} known gaps",
            batch,
            r.passed.len(),
            r.failed.len(),
            r.gaps
        );
        passed += r.passed.len();
        gaps += r.gaps;
        failed.extend(r.failed);
    }
    eprintln!(
        "compat on vtest: {} pairs; {} agree; {} fail; {} known gaps",
        suite.pairs.len(),
        passed,
        failed.len(),
        gaps
    );
    assert_eq!(hw.backend_name(), "virgl");
    let errors = server.host_errors();
    let list: Vec<String> = failed
        .iter()
        .map(|(n, m)| format!("{}: {}", n, m))
        .collect();
    assert!(
        failed.is_empty() && errors.is_empty(),
        "{} pairs disagree:\n{}\nhost errors: {:?}",
        failed.len(),
        list.join("\n"),
        errors
    );
    assert_eq!(passed + gaps, suite.pairs.len());
}

/// A pair that fails (here: one added to the corpus whose fragment shader does not compile) is
/// reported by name with its reason; the other pairs of the batch still run.
#[test]
fn a_failing_pair_is_reported_by_name() {
    let owned = suite_files();
    let mut files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let corpus = owned
        .iter()
        .find(|(n, _)| n == "corpus.txt")
        .map(|(_, t)| format!("{}\nground.json mesh.vert broken.frag\n", t))
        .unwrap();
    for f in files.iter_mut().filter(|(n, _)| *n == "corpus.txt") {
        f.1 = &corpus;
    }
    files.push((
        "broken.frag",
        "#version 330 core\n#pragma chrisos profile 2\nout vec4 c;\nvoid main() { c = no_such_function(); }\n",
    ));
    let suite = Suite::new(&files).unwrap();
    let (mut a, mut b): (Gfx3d<Linked>, Gfx3d<Linked>) = (Gfx3d::new(), Gfx3d::new());
    let r = run_batch(&suite, "ground", &mut a, &mut b, 1).unwrap();
    assert_eq!(r.failed.len(), 1, "{:?}", r);
    assert_eq!(r.failed[0].0, "broken@ground");
    assert!(
        r.failed[0].1.contains("did not compile"),
        "{}",
        r.failed[0].1
    );
    assert!(!r.passed.is_empty());
    let ground = suite.pairs.iter().filter(|p| p.batch() == "ground").count();
    assert_eq!(r.passed.len() + r.failed.len() + r.gaps, ground);
}

/// Profile 2's integer edge cases (issue 14 item 4) give the same bits on VirGL as on the
/// software path: `int_edges.frag` writes each case's 32-bit result as the four bytes of a
/// block, so the two pictures must be identical, not just within the suite's tolerance.
#[test]
fn integer_edge_cases_are_bit_exact_on_virgl() {
    let server =
        VtestServer::start().unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e));
    let t = VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut hw: Gfx3d<Linked> = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let dir = suite_dir();
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let scene = Scene::parse(&read("quad.json")).unwrap();
    let (vs, fs) = (read("fullscreen.vert"), read("int_edges.frag"));
    let a = gfx3d::compat::render_pair(&mut sw, 1, "int_edges", &vs, &fs, &scene).unwrap();
    let b = gfx3d::compat::render_pair(&mut hw, 1, "int_edges", &vs, &fs, &scene).unwrap();
    assert_eq!(hw.backend_name(), "virgl");
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
    let w = scene.width as usize;
    let bad: Vec<String> = (0..a.len())
        .filter(|&i| a[i] != b[i])
        .take(8)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            format!(
                "({}, {}) case {}: software {:08x}, VirGL {:08x}",
                x,
                y,
                x / 4 + 16 * (y / 16),
                a[i],
                b[i]
            )
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
