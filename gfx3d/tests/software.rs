//! The spec's ABI tests with real compiled programs on the software backend: matrix agreement
//! between the CPU math and shader execution (through the context's matrix state), software
//! rendering of every differential scene with pixel predicates, hot refresh, layout checks
//! against real reflection.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::scenes::{self, SCENE_HEIGHT, SCENE_WIDTH};
use gfx3d::*;
use shader::back::raster::soft_vs;
use shader::program::cache::Compiler;

mod common;
use common::{assert_nothing_live, layout, tri_layout};

type G = Gfx3d<Linked>;

fn mvp() -> Linked {
    Linked::from_glsl(&mut Compiler::new(), MVP_VERT, TRI_FRAG, "mvp")
        .unwrap_or_else(|e| panic!("{}", e))
}

#[test]
fn matrices_agree_between_cpu_and_shader() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let p = g.prog_prepare(0, c, mvp()).unwrap();
    let i = Mat4::IDENTITY;
    let cases: [(&str, Mat4, Mat4, Mat4, [f32; 3]); 11] = [
        ("identity", i, i, i, [0.25, -0.5, 0.75]),
        (
            "translation",
            Mat4::translation(4.0, -2.0, 1.5),
            i,
            i,
            [1.0, 2.0, 3.0],
        ),
        ("rot x", Mat4::rotation_x(90.0), i, i, [0.2, 1.0, 0.0]),
        ("rot y", Mat4::rotation_y(90.0), i, i, [1.0, 0.3, 0.0]),
        ("rot z", Mat4::rotation_z(90.0), i, i, [1.0, 0.0, 0.4]),
        ("scale", Mat4::scale(2.0, 3.0, 4.0), i, i, [1.0, 1.0, 1.0]),
        (
            "camera",
            i,
            Mat4::camera([0.0, 1.5, 5.0], 0.0, 0.0),
            i,
            [0.0, 1.5, 0.0],
        ),
        (
            "yaw",
            i,
            Mat4::camera([0.0; 3], 90.0, 0.0),
            i,
            [1.0, 0.0, -2.0],
        ),
        (
            "pitch",
            i,
            Mat4::camera([0.0; 3], 0.0, 30.0),
            i,
            [0.0, 0.0, -3.0],
        ),
        (
            "perspective",
            Mat4::translation(0.0, 0.0, -5.0),
            i,
            Mat4::perspective(60.0, 1.0, 0.1, 100.0),
            [0.0; 3],
        ),
        (
            "ortho",
            i,
            i,
            Mat4::orthographic(-2.0, 2.0, -2.0, 2.0, 0.1, 50.0),
            [1.0, -1.0, -2.0],
        ),
    ];
    for (name, model, view, proj, pt) in cases {
        g.set_model(0, c, &model).unwrap();
        g.set_view(0, c, &view).unwrap();
        g.set_projection(0, c, &proj).unwrap();
        // Bound after the state was set: the context applies it at use.
        g.use_program(0, c, p).unwrap();
        let want = proj
            .mul(&view)
            .mul(&model)
            .mul_vec4([pt[0], pt[1], pt[2], 1.0]);
        let attrs = [pt[0], pt[1], pt[2], 1.0, 1.0, 1.0, 1.0, 1.0];
        let got = soft_vs(g.program(0, p).unwrap().program(), &attrs)
            .unwrap()
            .position;
        for k in 0..4 {
            assert!(
                (got[k] - want[k]).abs() <= 0.002,
                "{}: shader {:?} cpu {:?}",
                name,
                got,
                want
            );
        }
    }
    // The camera call (perspective from the context's FOV/near/far) agrees too.
    let t = g.target_create(0, c, 64, 32).unwrap();
    g.begin(0, c, t).unwrap();
    g.set_model(0, c, &Mat4::IDENTITY).unwrap();
    g.camera(0, c, [1.0, 2.0, 6.0], 20.0, 10.0).unwrap();
    let (m, v, pr) = g.matrices(0, c).unwrap();
    assert_eq!(pr, Mat4::perspective(60.0, 2.0, 0.1, 200.0));
    let want = pr.mul(&v).mul(&m).mul_vec4([0.5, 1.0, -1.0, 1.0]);
    let got = soft_vs(g.program(0, p).unwrap().program(), &[0.5, 1.0, -1.0, 1.0])
        .unwrap()
        .position;
    for k in 0..4 {
        assert!(
            (got[k] - want[k]).abs() <= 0.002,
            "camera: {:?} {:?}",
            got,
            want
        );
    }
}

#[test]
fn compile_errors_are_reported_and_failed_relinks_keep_the_program() {
    let e = Linked::from_glsl(
        &mut Compiler::new(),
        "#version 330\nvoid main(){ no_such(); }\n",
        TRI_FRAG,
        "bad",
    );
    assert!(
        matches!(
            e,
            Err(linked::BuildError::Compile {
                stage: "vertex",
                ..
            })
        ),
        "{:?}",
        e.err()
    );
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let p = g.prog_prepare(0, c, mvp()).unwrap();
    let gen = g.program(0, p).unwrap().generation();
    let fs = shader::program::compile::compile(1, TEX_FRAG.as_bytes(), "tex").unwrap();
    let vs = shader::program::compile::compile(0, TRI_VERT.as_bytes(), "tri").unwrap();
    // tex.frag reads fragUV, which tri.vert does not write: the relink fails.
    assert!(g
        .program_mut(0, p)
        .unwrap()
        .program_mut()
        .link(Some(&vs.module), Some(&fs.module))
        .is_err());
    assert!(g.program(0, p).unwrap().is_linked());
    assert_eq!(g.program(0, p).unwrap().generation(), gen);
    // A successful relink bumps the generation (hot refresh picks it up).
    let fs2 = shader::program::compile::compile(1, TRI_FRAG.as_bytes(), "tri").unwrap();
    g.program_mut(0, p)
        .unwrap()
        .program_mut()
        .link(Some(&vs.module), Some(&fs2.module))
        .unwrap();
    assert_ne!(g.program(0, p).unwrap().generation(), gen);
}

#[test]
fn real_reflection_drives_layout_checks() {
    let mut g = G::new();
    let c = g.context_create(1).unwrap();
    let t = g.target_create(1, c, 16, 16).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(1, c, linked).unwrap();
    let m = g.mesh_create(1, Usage::Static).unwrap();
    let good = tri_layout();
    let bad = layout(32, &[(0, 1, 0), (1, 4, 16)]);
    let data = [0.0f32; 24];
    g.begin(1, c, t).unwrap();
    g.use_program(1, c, p).unwrap();
    g.mesh_upload_f32(1, m, &good, &data, None).unwrap();
    g.draw(1, c, m).unwrap();
    g.mesh_upload_f32(1, m, &bad, &data, None).unwrap();
    assert!(matches!(
        g.draw(1, c, m),
        Err(Error::Layout(LayoutError::TooFewComponents {
            location: 0,
            ..
        }))
    ));
    g.end(1, c).unwrap();
}

fn count(p: &[u32], f: impl Fn(u32) -> bool) -> usize {
    p.iter().filter(|&&x| f(x)).count()
}

fn ch(p: u32, shift: u32) -> u32 {
    (p >> shift) & 0xFF
}

fn at(p: &[u32], x: u32, y: u32) -> u32 {
    p[(y * SCENE_WIDTH + x) as usize]
}

fn render(name: &str) -> Vec<u32> {
    let mut g = G::new();
    let px = scenes::run(&mut g, 7, name).unwrap_or_else(|e| panic!("{}: {}", name, e));
    assert_nothing_live(&g.stats(), name);
    assert_eq!(px.len(), (SCENE_WIDTH * SCENE_HEIGHT) as usize);
    px
}

const RED: u32 = 0xFFFF_0000;
const BLUE: u32 = 0xFF00_00FF;
const GREEN: u32 = 0xFF00_FF00;

#[test]
fn software_scenes_look_right() {
    let p = render("clear");
    assert!(p.iter().all(|&x| x == 0xFF33_6699));

    let p = render("triangle");
    assert!(count(&p, |x| x == RED) > 500);
    assert_eq!(at(&p, 32, 40), RED, "centre-bottom inside");
    assert_eq!(at(&p, 2, 2), BLUE, "top-left outside");
    assert_eq!(at(&p, 32, 8), RED, "apex region is at the top (upright)");
    assert_eq!(at(&p, 32, 62), BLUE);

    let p = render("depth");
    let (r, gr) = (count(&p, |x| x == RED), count(&p, |x| x == GREEN));
    assert!(r > 500 && gr > 40 && gr < r, "red {} green {}", r, gr);
    assert_eq!(
        at(&p, 28, 40),
        RED,
        "the near triangle wins where both cover"
    );

    let p = render("indexed_cube_cull");
    let lit = count(&p, |x| x != 0xFF1A_1A1A);
    assert!(
        lit > 400 && lit < 3000,
        "cube covers part of the picture: {}",
        lit
    );

    let p = render("textured_cube");
    assert!(count(&p, |x| x == RED) > 100 && count(&p, |x| x == BLUE) > 100);

    let p = render("vertex_colors");
    assert!(count(&p, |x| ch(x, 16) > 170 && ch(x, 8) < 60) > 5);
    assert!(count(&p, |x| ch(x, 8) > 170 && ch(x, 16) < 60) > 5);
    assert!(count(&p, |x| ch(x, 0) > 170 && ch(x, 16) < 60) > 5);

    let p = render("lighting");
    assert!(count(&p, |x| ch(x, 16) > 170) > 50, "bright faces");
    assert!(
        count(&p, |x| (15..90).contains(&ch(x, 16)) && ch(x, 8) < 90) > 15,
        "dim faces"
    );

    let p = render("shader_switch");
    assert_eq!(at(&p, 14, 56), RED, "first draw, lower left");
    assert_eq!(at(&p, 34, 37), RED, "second draw, moved up and right");
    assert_eq!(at(&p, 60, 4), BLUE);

    let p = render("lit_textured_mesh");
    assert!(
        count(&p, |x| ch(x, 16) > 100 && ch(x, 0) < 40) > 5,
        "red texels lit"
    );
    assert!(
        count(&p, |x| ch(x, 0) > 100 && ch(x, 16) < 40) > 5,
        "blue texels lit"
    );

    let p = render("viewport");
    // GL viewport (8, 16, 32, 24): rows 64-16-24 = 24 ..= 47 from the top, columns 8 ..= 39.
    assert_eq!(count(&p, |x| x == RED), 32 * 24);
    assert_eq!(at(&p, 8, 24), RED);
    assert_eq!(at(&p, 39, 47), RED);
    assert_eq!(at(&p, 7, 30), BLUE);
    assert_eq!(at(&p, 20, 48), BLUE);
    assert_eq!(at(&p, 20, 23), BLUE);

    let p = render("fragcoord");
    assert_eq!(at(&p, 2, 62), RED, "gl_FragCoord.y counts from the bottom");
    assert_eq!(at(&p, 2, 2), BLUE);
    assert_eq!(at(&p, 60, 2), GREEN);
    // Pixel centres are at half integers: column 40 is x = 40.5, row 40 is y = 23.5.
    assert_eq!(at(&p, 40, 40), GREEN);
    assert_eq!(at(&p, 39, 40), RED);
    assert_eq!(at(&p, 39, 39), BLUE);

    let p = render("unbound_texture");
    assert_eq!(
        at(&p, 32, 32),
        0xFF00_0000,
        "an unbound sampler reads opaque black"
    );
    assert_eq!(at(&p, 2, 2), BLUE);

    let p = render("two_texture_units");
    assert!(
        count(&p, |x| x == 0xFFFF_FF00) > 1500,
        "red from unit 0 and green from unit 1 give yellow"
    );
}

#[test]
fn software_renders_the_red_triangle_of_the_abi_test() {
    let mut g = G::new();
    let c = g.context_create(3).unwrap();
    let t = g.target_create(3, c, 32, 32).unwrap();
    let m = g.mesh_create(3, Usage::Static).unwrap();
    #[rustfmt::skip]
    let v = [
        -0.8, -0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
         0.8, -0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
         0.0,  0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
    ];
    let l = tri_layout();
    g.mesh_upload_f32(3, m, &l, &v, None).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(3, c, linked).unwrap();
    g.begin(3, c, t).unwrap();
    g.clear(3, c, [0.0, 1.0, 0.0, 1.0], true).unwrap();
    g.use_program(3, c, p).unwrap();
    g.draw(3, c, m).unwrap();
    g.end(3, c).unwrap();
    let mut px = vec![0u32; 32 * 32];
    g.target_read(3, t, &mut px).unwrap();
    assert!(count(&px, |x| ch(x, 16) > 200) > 10);
    for (w, h) in [(320, 200), (640, 480), (800, 600), (640, 480)] {
        g.target_resize(3, t, w, h).unwrap();
        g.begin(3, c, t).unwrap();
        g.clear(3, c, [0.0, 1.0, 0.0, 1.0], true).unwrap();
        g.draw(3, c, m).unwrap();
        g.end(3, c).unwrap();
        let mut px = vec![0u32; (w * h) as usize];
        g.target_read(3, t, &mut px).unwrap();
        assert!(count(&px, |x| x == RED) > (w * h / 4) as usize);
    }
    g.drop_owner(3);
    assert_nothing_live(&g.stats(), "after drop_owner(3)");
}

#[test]
fn demo_renders_and_animates() {
    let mut g = G::new();
    let demo = gfx3d::demo::Demo::new(&mut g, 9, 160, 120).unwrap_or_else(|e| panic!("{}", e));
    let mut a = vec![0u32; 160 * 120];
    let mut b = vec![0u32; 160 * 120];
    demo.frame(&mut g, 0).unwrap();
    demo.read(&mut g, &mut a).unwrap();
    demo.frame(&mut g, 10).unwrap();
    demo.read(&mut g, &mut b).unwrap();
    let sky = a[0];
    assert!(
        count(&a, |x| x != sky) > 160 * 120 / 4,
        "objects and floor cover the picture"
    );
    assert!(
        a.iter().zip(&b).filter(|(x, y)| x != y).count() > 200,
        "the scene moves"
    );
    let s = g.stats();
    // Per demo frame: three frames (the shadow pass, the scene pass, the post-processing
    // pass); draws: crate, pyramid and ring into the shadow map; sky, floor, crate, pyramid,
    // the instanced ring, the glass cube; the full-screen quad.
    assert_eq!((s.draws, s.frames), (2 * 10, 2 * 3));
    let ring = gfx3d::demo::DEMO_RING as u64;
    assert_eq!(
        s.triangles,
        2 * ((12 + 6 + ring * 12) + (2 + 2 + 12 + 6 + ring * 12 + 12) + 2)
    );
    demo.destroy(&mut g);
    assert_eq!(g.stats().live_mesh, 0);
}

#[test]
fn a_relink_keeps_the_context_matrices() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let p = g.prog_prepare(0, c, mvp()).unwrap();
    let model = Mat4::translation(0.5, 0.25, 0.0);
    g.set_model(0, c, &model).unwrap();
    let t = g.target_create(0, c, 8, 8).unwrap();
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let l = tri_layout();
    g.mesh_upload_f32(0, m, &l, &[0.0; 24], None).unwrap();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    let vs = shader::program::compile::compile(0, MVP_VERT.as_bytes(), "mvp").unwrap();
    let fs = shader::program::compile::compile(1, TRI_FRAG.as_bytes(), "tri").unwrap();
    g.program_mut(0, p)
        .unwrap()
        .program_mut()
        .link(Some(&vs.module), Some(&fs.module))
        .unwrap();
    g.draw(0, c, m).unwrap();
    let got = soft_vs(g.program(0, p).unwrap().program(), &[0.0, 0.0, 0.0, 1.0])
        .unwrap()
        .position;
    assert_eq!(got, [0.5, 0.25, 0.0, 1.0]);
}

#[test]
fn gfx3d_can_live_behind_a_kernel_lock() {
    fn send<T: Send>() {}
    send::<Gfx3d>();
    send::<gfx3d::virgl::VirglBackend<virtio_gpu::vtest::VtestTransport>>();
}

#[test]
fn demo_runs_on_the_mock_backend() {
    let mut g = G::new();
    g.boot(BackendMode::Mock, None).unwrap();
    let demo = gfx3d::demo::Demo::new(&mut g, 2, 640, 480).unwrap();
    demo.frame(&mut g, 0).unwrap();
    // `Demo::new`: the float scene target, the crate's linear sampler, the floor's two
    // mipmapped textures with trilinear samplers, the sky cube's faces and sampler. Then the
    // shadow pass (colour writes off, polygon offset; crate, pyramid, the instanced ring),
    // the scene pass (the sky without depth test, the shadow map's depth bound with a LEQUAL
    // compare; the normal-mapped floor, crate, pyramid, the ring, the blended glass cube
    // without depth writes), then the post-processing pass sampling the scene target.
    assert_eq!(
        g.mock_log(),
        "target rgba32f 640x480\n\
         tex-sampler 2601,2601 2901,2901 lod 0,-1000,1000 off\n\
         tex-mipmaps 64x64 6\ntex-sampler 2601,2703 2901,2901 lod 0,-1000,1000 off\n\
         tex-mipmaps 64x64 6\ntex-sampler 2601,2703 2901,2901 lod 0,-1000,1000 off\n\
         tex-cube\ntex-face\ntex-face\ntex-face\ntex-face\ntex-face\n\
         tex-sampler 2601,2601 812f,812f lod 0,-1000,1000 off\n\
         begin\nblend off\ndepth on 201 write=1 clear=1\nclear\nmask ----\noffset 2 2\n\
         use\ndraw\ndraw\nuse\ndraw instances=8\noffset 0 0\nmask rgba\nend\n\
         begin\nblend off\ndepth on 201 write=1 clear=1\nclear\nuse\ntex\n\
         depth off 201 write=0 clear=1\ndraw\ndepth on 201 write=1 clear=1\n\
         tex-target 1 depth compare 203\nuse\ntex\ntex\ndraw\ntex\nuse\ntex\ndraw\n\
         tex\ndraw\nuse\ntex\ndraw instances=8\nuse\n\
         blend 302,303,8006 302,303,8006 [0.0, 0.0, 0.0, 0.0]\ndepth on 201 write=0 clear=1\n\
         tex\ndraw\nblend off\ndepth on 201 write=1 clear=1\ntex\nend\n\
         begin\nclear\nuse\ntex-target 0 color\ndraw\ntex\nend\n"
    );
    assert_eq!(demo.present(&mut g), Err(Error::NotVirgl));
    demo.destroy(&mut g);
}

#[test]
fn programs_compile_through_the_compile_cache() {
    let mut g: G = Gfx3d::new();
    g.boot(BackendMode::Software, None).unwrap();
    let c = g.context_create(1).unwrap();
    for round in 0..2 {
        let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
        let p = g.prog_prepare(1, c, linked).unwrap();
        let s = g.stats();
        // The first build compiles both stages; the second finds both in the cache.
        assert_eq!(
            (s.compile_misses, s.compile_hits),
            (2, 2 * round),
            "round {}",
            round
        );
        g.program_destroy(1, p).unwrap();
    }
    g.drop_owner(1);
}

/// Issue 12 item 2: `Linked::from_glsl_with` passes the profile to the compiler. This pair uses
/// `#define` (profile 2's preprocessor): profile 1 rejects it, profile 2 builds it, and the
/// program draws the red triangle; a rebuild in profile 2 hits the compile cache.
#[test]
fn profile_2_programs_build_and_draw_through_from_glsl_with() {
    use shader::limits::Profile;
    use shader::program::compile::CompileOptions;
    const VS: &str = "#version 330\n#define POS position\nlayout(location = 0) in vec4 position;\nlayout(location = 1) in vec4 color;\nout vec4 vcolor;\nvoid main() { vcolor = color; gl_Position = POS; }\n";
    let mut g: G = Gfx3d::new();
    g.boot(BackendMode::Software, None).unwrap();
    let e = Linked::from_glsl(g.compiler(), VS, TRI_FRAG, "p1");
    assert!(
        matches!(
            e,
            Err(gfx3d::linked::BuildError::Compile {
                stage: "vertex",
                ..
            })
        ),
        "profile 1 has no #define"
    );
    let p2 = CompileOptions::profile(Profile::P2);
    let linked = Linked::from_glsl_with(g.compiler(), VS, TRI_FRAG, "p2", &p2)
        .unwrap_or_else(|e| panic!("{}", e));
    assert_eq!(
        linked
            .program()
            .module(shader::ir::Stage::Vertex)
            .map(|m| m.profile),
        Some(Profile::P2)
    );
    let c = g.context_create(1).unwrap();
    let t = g.target_create(1, c, 32, 32).unwrap();
    let m = g.mesh_create(1, Usage::Static).unwrap();
    g.mesh_upload_f32(1, m, &tri_layout(), &common::red_triangle(), None)
        .unwrap();
    let p = g.prog_prepare(1, c, linked).unwrap();
    g.begin(1, c, t).unwrap();
    g.clear(1, c, [0.0, 1.0, 0.0, 1.0], true).unwrap();
    g.use_program(1, c, p).unwrap();
    g.draw(1, c, m).unwrap();
    g.end(1, c).unwrap();
    let mut px = vec![0u32; 32 * 32];
    g.target_read(1, t, &mut px).unwrap();
    assert!(count(&px, |x| x == RED) > 100);
    // The failed profile-1 vertex compile missed (failures are not cached), and so did both
    // profile-2 stages.
    assert_eq!((g.stats().compile_hits, g.stats().compile_misses), (0, 3));
    // Built again in profile 2: both stages are hits (the profile is part of the key).
    let again = Linked::from_glsl_with(g.compiler(), VS, TRI_FRAG, "p2", &p2).unwrap();
    assert_eq!(g.stats().compile_hits, 2);
    drop(again);
    g.drop_owner(1);
    assert_nothing_live(&g.stats(), "after drop_owner(1)");
}
