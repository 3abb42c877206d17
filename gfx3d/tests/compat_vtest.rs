//! The profile-2 compatibility suite (`tools/shc/tests/compat/`) drawn by the software backend
//! and by the VirGL backend through vtest (virgl_test_server), batch by batch, as the kernel's
//! `gfx3d::compat::BATCH` guest tests do (`gfx3d::compat`): every pair that is not a known gap
//! compiles with profile 2 and the two pictures agree (at most 1% of the pixels differ by more
//! than 2/255, only along edges). Also: `gfx3d::compat::Scene` reads every suite scene exactly
//! as the `scene` crate (which `shc render` and `mesa-ref` use) does.
use std::path::PathBuf;

mod common;
use common::dir_files;

use gfx3d::compat::{run_batch, Scene, Suite, PASS_PAIRS};
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, MipFilter, Wrap};
use gfx3d::*;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/shc/tests/compat")
}

fn diff_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/shc/tests/diff")
}

/// Every file of the suite as (name, text).
fn suite_files() -> Vec<(String, String)> {
    dir_files(&suite_dir())
}

/// `ours` (gfx3d::compat's reading of a scene, `name`) is `theirs` (the scene crate's), passes
/// included.
fn assert_same_scene(name: &str, ours: &Scene, theirs: &scene::Scene) {
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
    assert_eq!(
        (ours.depth_func.gl(), ours.depth_mask),
        (theirs.pipeline.depth_func, theirs.pipeline.depth_mask),
        "{}",
        name
    );
    assert_eq!(
        ours.polygon_offset.map(f32::to_bits),
        theirs.pipeline.polygon_offset.map(f32::to_bits),
        "{}",
        name
    );
    for ((na, a), (_, b)) in ours.textures.iter().zip(&theirs.textures) {
        let theirs_src = b.source.as_ref().map(|s| {
            let plane = match s.attachment {
                scene::Attachment::Color => TargetPlane::Color,
                scene::Attachment::Depth => TargetPlane::Depth,
            };
            (s.pass, plane, s.compare, s.mipmaps)
        });
        let ours_src = a
            .source
            .map(|s| (s.pass, s.plane, s.compare.map(|c| c.gl()), s.mipmaps));
        assert_eq!(ours_src, theirs_src, "{}: {} source", name, na);
        assert_eq!(
            a.sampler.compare.map(|c| c.gl()),
            b.source.as_ref().and_then(|s| s.compare),
            "{}: {} compare",
            name,
            na
        );
        let mip = match b.mip {
            scene::Mip::None => MipFilter::None,
            scene::Mip::Nearest => MipFilter::Nearest,
            scene::Mip::Linear => MipFilter::Linear,
        };
        assert_eq!(a.sampler.mip, mip, "{}: {} mip filter", name, na);
    }
    assert_eq!(ours.passes.len(), theirs.passes.len(), "{}", name);
    for (a, b) in ours.passes.iter().zip(&theirs.passes) {
        let format = match b.format {
            scene::ColorFormat::Rgba8 => TargetFormat::Rgba8,
            scene::ColorFormat::Rgba32f => TargetFormat::Rgba32F,
        };
        assert_eq!(
            (&a.name, &a.vertex, &a.fragment, a.format),
            (&b.name, &b.vertex, &b.fragment, format),
            "{}",
            name
        );
        assert_same_scene(&format!("{} pass {}", name, a.name), &a.scene, &b.scene);
    }
}

#[test]
fn scenes_are_read_as_the_scene_crate_reads_them() {
    let files = suite_files();
    let mut n = 0;
    // Every scene, the cube_* ones (cube textures) too.
    for (name, text) in files.iter().filter(|(n, _)| n.ends_with(".json")) {
        let ours = Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", name, e));
        let theirs = scene::Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", name, e));
        assert_same_scene(name, &ours, &theirs);
        n += 1;
    }
    assert!(n >= 9, "only {} scenes", n);
}

/// The multi-pass scenes of the differential corpus (`PASS_PAIRS`, the guest's
/// `gfx3d::compat::passes::*` tests) too: passes, their formats and shader files, pass
/// textures (colour or depth, compare mode, generated mips), depth state and polygon offset.
#[test]
fn multi_pass_scenes_are_read_as_the_scene_crate_reads_them() {
    let files = dir_files(&diff_dir());
    let mut passes = 0;
    for pair in PASS_PAIRS {
        let (_, text) = files
            .iter()
            .find(|(n, _)| n == pair.scene)
            .unwrap_or_else(|| panic!("no {}", pair.scene));
        let ours = Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", pair.scene, e));
        let theirs = scene::Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", pair.scene, e));
        assert!(!ours.passes.is_empty(), "{}", pair.scene);
        assert_same_scene(pair.scene, &ours, &theirs);
        passes += ours.passes.len();
        for p in &ours.passes {
            for f in [&p.vertex, &p.fragment] {
                assert!(
                    files.iter().any(|(n, _)| n == f),
                    "{}: no file {}",
                    pair.scene,
                    f
                );
            }
        }
    }
    assert_eq!(passes, PASS_PAIRS.len());
}

/// Bad `"passes"` are clear errors of the reader, never a picture drawn without them.
#[test]
fn bad_passes_are_clear_errors() {
    let tri = r#""attributes": [{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}]"#;
    let pass = |name: &str, extra: &str| {
        format!(
            r#"{{"name": "{}", "vertex": "a.vert", "fragment": "a.frag", "size": [8, 2], {}{}}}"#,
            name, tri, extra
        )
    };
    let scene = |passes: &str, textures: &str| {
        format!(
            r#"{{"size": [4, 4], {}, "passes": [{}], "textures": {{{}}}}}"#,
            tri, passes, textures
        )
    };
    let cases = [
        (
            scene(&pass("a", ""), r#""t": {"unit": 0, "pass": "b"}"#),
            "unknown pass",
        ),
        (
            scene(
                &pass("a", r#", "textures": {"t": {"unit": 0, "pass": "a"}}"#),
                "",
            ),
            "its own target",
        ),
        (
            scene(
                &format!(
                    "{}, {}",
                    pass("a", r#", "textures": {"t": {"unit": 0, "pass": "b"}}"#),
                    pass("b", "")
                ),
                "",
            ),
            "drawn after this one",
        ),
        (
            scene(
                &pass("a", ""),
                r#""t": {"unit": 0, "pass": "a", "attachment": "depth"}"#,
            ),
            "no depth buffer",
        ),
        (
            scene(
                &pass("a", ""),
                r#""t": {"unit": 0, "pass": "a", "compare": "LESS"}"#,
            ),
            "needs \"attachment\": \"depth\"",
        ),
        (
            scene(
                &pass("a", ""),
                r#""t": {"unit": 0, "pass": "a", "width": 8}"#,
            ),
            "from that pass",
        ),
        (
            scene(&format!("{}, {}", pass("a", ""), pass("a", "")), ""),
            "twice",
        ),
        (scene(&pass("a", r#", "passes": []"#), ""), "do not nest"),
        (
            scene(&pass("a", r#", "format": "rgba16f""#), ""),
            "passes[0].format",
        ),
        (
            scene(
                &pass("a", r#", "format": "rgba32f""#),
                r#""t": {"unit": 0, "pass": "a", "mipmaps": true}"#,
            ),
            "RGBA8",
        ),
        (
            scene(r#"{"name": "x", "fragment": "a.frag"}"#, ""),
            "missing vertex",
        ),
    ];
    // State the scene crate takes but gfx3d::compat does not draw is refused too.
    let unread = [
        (
            scene(&pass("a", r#", "blend": {"src": "ONE", "dst": "ONE"}"#), ""),
            "passes[0].blend",
        ),
        (
            scene(&pass("a", r#", "instances": 2"#), ""),
            "passes[0].instances",
        ),
    ];
    for (text, _) in &unread {
        scene::Scene::parse(text).unwrap_or_else(|e| panic!("{}: {}", text, e.message));
    }
    for (text, want) in cases.iter().chain(&unread) {
        assert!(
            unread.iter().any(|(t, _)| t == text) || scene::Scene::parse(text).is_err(),
            "the scene crate takes {}",
            text
        );
        match Scene::parse(text) {
            Ok(_) => panic!("accepted: {}", text),
            Err(e) => assert!(e.contains(want), "{}: {}", want, e),
        }
    }
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
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: Gfx3d<Linked> = Gfx3d::new();

    let owned = suite_files();
    let files = common::borrowed(&owned);
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
    let mut files = common::borrowed(&owned);
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
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
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
