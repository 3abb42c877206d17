//! The demo frame uses every pass profile 2 and Gfx3D offer (issue 16 item 6): the mock log of
//! `Demo::new` and one frame shows the float scene target, the sky cube, the mipmapped floor
//! textures, the shadow pass (colour writes off, polygon offset) whose depth the scene pass
//! samples with a compare, blending and the instanced draws; the software picture is
//! deterministic (two demos, the same frame, the same pixels), shows the sky at the top and
//! light 0's shadow on the floor.
use gfx3d::demo::{Demo, DEMO_RING, DEMO_SHADOW_SIZE};
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::assert_nothing_live;

type G = Gfx3d<Linked>;

#[test]
fn demo_frame_logs_every_pass_on_the_mock_backend() {
    let mut g = G::new();
    g.boot(BackendMode::Mock, None).unwrap();
    let demo = Demo::new(&mut g, 2, 320, 240).unwrap();
    assert_eq!(demo.scene_format, TargetFormat::Rgba32F);
    demo.frame(&mut g, 0).unwrap();
    let log = g.mock_log().to_string();
    let has = |line: &str| log.lines().filter(|l| *l == line).count();
    // The float scene target.
    assert_eq!(has("target rgba32f 320x240"), 1, "{log}");
    // The sky cube: created, six faces (face 0 is `tex_upload`, unlogged), a linear
    // clamp-to-edge sampler.
    assert_eq!(has("tex-cube"), 1, "{log}");
    assert_eq!(has("tex-face"), 5, "{log}");
    assert_eq!(
        has("tex-sampler 2601,2601 812f,812f lod 0,-1000,1000 off"),
        1,
        "{log}"
    );
    // The floor's albedo and normal map: 64x64 with 6 levels below, trilinear.
    assert_eq!(has("tex-mipmaps 64x64 6"), 2, "{log}");
    assert_eq!(
        has("tex-sampler 2601,2703 2901,2901 lod 0,-1000,1000 off"),
        2,
        "{log}"
    );
    // The shadow pass: colour writes off, a polygon offset, then both back on.
    assert_eq!(has("mask ----"), 1, "{log}");
    assert_eq!(has("offset 2 2"), 1, "{log}");
    assert_eq!(has("offset 0 0"), 1, "{log}");
    assert_eq!(has("mask rgba"), 1, "{log}");
    // The shadow pass's depth sampled with LEQUAL (0x203) on unit 1, the scene on unit 0.
    assert_eq!(has("tex-target 1 depth compare 203"), 1, "{log}");
    assert_eq!(has("tex-target 0 color"), 1, "{log}");
    // The ring twice (shadow and scene pass), the glass cube blended.
    let ring = format!("draw instances={}", DEMO_RING);
    assert_eq!(has(&ring), 2, "{log}");
    assert_eq!(
        has("blend 302,303,8006 302,303,8006 [0.0, 0.0, 0.0, 0.0]"),
        1,
        "{log}"
    );
    // Three Gfx3D frames per demo frame, in order: shadow, scene, post.
    assert_eq!(has("begin"), 3, "{log}");
    let frame = log.split("begin\n").collect::<Vec<_>>();
    assert!(frame[1].contains("mask ----") && !frame[1].contains("tex-target"));
    assert!(frame[2].contains("tex-target 1 depth compare 203"));
    assert!(frame[3].contains("tex-target 0 color"));
    demo.destroy(&mut g);
    assert_nothing_live(&g.stats(), "after destroy");
}

/// Frame `frame` of a `w` x `h` demo on the software backend: the picture, the statistics,
/// the scene target's largest float channel, and the shadow map's depth as 8-bit grey
/// (read through a depth sampler into a target of the shadow map's size).
fn render(frame: u32, w: u32, h: u32) -> (Vec<u32>, Stats, f32, Vec<u32>) {
    let mut g = G::new();
    let o = 4;
    let demo = Demo::new(&mut g, o, w, h).unwrap_or_else(|e| panic!("{}", e));
    assert_eq!(demo.scene_format, TargetFormat::Rgba32F);
    demo.frame(&mut g, frame).unwrap();
    let mut px = vec![0u32; (w * h) as usize];
    demo.read(&mut g, &mut px).unwrap();
    let s = g.stats();
    let mut hdr = vec![[0.0f32; 4]; (w * h) as usize];
    g.target_read_float(o, demo.scene, &mut hdr).unwrap();
    let brightest = hdr
        .iter()
        .flat_map(|p| p[..3].iter().copied())
        .fold(0.0, f32::max);
    let (c, n) = (demo.ctx, DEMO_SHADOW_SIZE);
    let grey = g.target_create(o, c, n, n).unwrap();
    let linked = Linked::from_glsl(g.compiler(), gfx3d::glsl::PASS_VERT, DEPTH_COPY, "copy")
        .unwrap_or_else(|e| panic!("{}", e));
    let p = g.prog_prepare(o, c, linked).unwrap();
    let mut q = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        q.extend_from_slice(&[x, y, 0.0, 1.0, x * 0.5 + 0.5, 0.5 - y * 0.5]);
    }
    let el = |location: u8, components: u8, offset: u32| Element {
        location,
        components,
        offset,
    };
    let quad = g.mesh_create(o, Usage::Static).unwrap();
    let layout = VertexLayout::new(24, &[el(0, 4, 0), el(1, 2, 16)]).unwrap();
    g.mesh_upload_f32(o, quad, &layout, &q, None).unwrap();
    g.begin(o, c, grey).unwrap();
    g.set_depth(
        o,
        c,
        gfx3d::state::DepthDesc {
            test: false,
            ..Default::default()
        },
    )
    .unwrap();
    g.use_program(o, c, p).unwrap();
    g.bind_target_texture(
        o,
        c,
        0,
        demo.shadow,
        TargetPlane::Depth,
        SamplerState::default(),
    )
    .unwrap();
    g.draw(o, c, quad).unwrap();
    g.end(o, c).unwrap();
    let mut depth = vec![0u32; (n * n) as usize];
    g.target_read(o, grey, &mut depth).unwrap();
    demo.destroy(&mut g);
    assert_nothing_live(&g.stats(), "after destroy");
    (px, s, brightest, depth)
}

const DEPTH_COPY: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2D depth;
out vec4 color;
void main() {
    color = texture(depth, fragUV);
}
";

#[test]
fn demo_frame_is_deterministic_and_shows_sky_and_shadow() {
    let (w, h) = (160u32, 120u32);
    let (a, s, brightest, depth) = render(17, w, h);
    let (b, _, _, _) = render(17, w, h);
    assert!(a == b, "two demos draw frame 17 differently");
    // Per demo frame: shadow pass (crate, pyramid, ring), scene pass (sky, floor, crate,
    // pyramid, ring, glass), post pass (quad).
    let ring = DEMO_RING as u64;
    assert_eq!((s.draws, s.frames), (3 + 6 + 1, 3));
    assert_eq!(
        s.triangles,
        (12 + 6 + ring * 12) + (2 + 2 + 12 + 6 + ring * 12 + 12) + 2
    );
    let rgb = |p: u32| ((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF);
    // The sky: the top row is blue, not the clear colour's darkness.
    let top = a[(w / 2) as usize];
    assert!(
        rgb(top).2 > 120 && rgb(top).2 > rgb(top).0,
        "top centre {:06x}",
        top
    );
    // The scene target holds HDR values (the sun, highlights) for the tone mapping.
    assert!(brightest > 1.5, "brightest scene channel {}", brightest);
    // The shadow map: the casters near its centre, cleared depth 1.0 at its corners.
    let n = DEMO_SHADOW_SIZE as usize;
    assert_eq!(depth[0] & 0xFF, 0xFF);
    assert_eq!(depth[n * n - 1] & 0xFF, 0xFF);
    let near = depth.iter().filter(|&&d| d & 0xFF < 0xF0).count();
    assert!(
        near > n * n / 50,
        "casters cover {} of {} shadow texels",
        near,
        n * n
    );
}
