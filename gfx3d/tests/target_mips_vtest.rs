//! Render-target mip levels (issue 16 item 3, brief C session 6): render into a target's
//! level 0, `target_generate_mipmaps`, then sample a lower level of it with `textureLod`, on
//! the software backend and on VirGL through vtest (the same pictures), plus the misuse rules
//! (a target in its open frame, levels dropped by the next frame; a float target's chain).
use gfx3d::compare::compare;
use gfx3d::glsl::{PASS_VERT, TRI_FRAG, TRI_VERT};
use gfx3d::linked::Linked;
use gfx3d::texture::{box_chain, Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

mod common;
use common::{screen_quad, tri_layout};

type G = Gfx3d<Linked>;
const SRC: u32 = 16;
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

/// Level 0 of the source target: a cleared background and two rectangles (so every level
/// of the chain is a different picture). Returns the source's level 0 as read back.
fn render_source(g: &mut G, c: ContextId, src: TargetId) -> Vec<u32> {
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let a = quad(g, [-1.0, -1.0, 0.25, 0.5], [0.9, 0.2, 0.1, 1.0]);
    let b = quad(g, [-0.5, -0.75, 1.0, 1.0], [0.1, 0.3, 0.9, 1.0]);
    g.begin(0, c, src).unwrap();
    g.clear(0, c, [0.2, 0.8, 0.3, 1.0], true).unwrap();
    g.depth_test(0, c, false).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, a).unwrap();
    g.draw(0, c, b).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; (SRC * SRC) as usize];
    g.target_read(0, src, &mut px).unwrap();
    px
}

/// Samples the source's colour at `level` over a DST x DST target.
fn sample(g: &mut G, c: ContextId, src: TargetId, level: u32) -> Vec<u32> {
    let dst = g.target_create(0, c, DST, DST).unwrap();
    let fs = lod_frag(level);
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, &fs, "lod").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let m = screen_quad(g);
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
    let mut px = vec![0u32; (DST * DST) as usize];
    g.target_read(0, dst, &mut px).unwrap();
    g.bind_texture(0, c, 0, None).unwrap();
    g.target_destroy(0, dst).unwrap();
    g.mesh_destroy(0, m).unwrap();
    px
}

/// Every level of a generated target chain on `g`: (level 0, [picture sampled at level l]).
fn run(g: &mut G) -> (Vec<u32>, Vec<Vec<u32>>) {
    let c = g.context_create(0).unwrap();
    let src = g.target_create(0, c, SRC, SRC).unwrap();
    let level0 = render_source(g, c, src);
    g.target_generate_mipmaps(0, src).unwrap();
    let pics = (0..=4).map(|l| sample(g, c, src, l)).collect();
    g.context_destroy(0, c).unwrap();
    (level0, pics)
}

#[test]
fn a_generated_target_level_is_sampled_as_the_box_chain_on_software() {
    let mut g: G = Gfx3d::new();
    let (level0, pics) = run(&mut g);
    let chain = box_chain(SRC, SRC, &level0);
    // Level 4 is 1x1: the whole picture is the chain's last texel.
    assert!(
        pics[4].iter().all(|&p| p == chain[3][0]),
        "{:08x}",
        pics[4][0]
    );
    // Level 1 (8x8) over an 8x8 target, texel for texel.
    assert_eq!(pics[1], chain[0]);
    // Level 2 (4x4) magnified twice, nearest.
    let up: Vec<u32> = (0..DST * DST)
        .map(|i| chain[1][((i / DST / 2) * 4 + i % DST / 2) as usize])
        .collect();
    assert_eq!(pics[2], up);
    // The levels are different pictures (the rectangles do not align with 4x4 blocks).
    assert_ne!(pics[2], pics[1]);
}

#[test]
fn target_mipmaps_misuse_and_lifetime() {
    let mut g: G = Gfx3d::new();
    let c = g.context_create(0).unwrap();
    let src = g.target_create(0, c, SRC, SRC).unwrap();
    let level0 = render_source(&mut g, c, src);
    let base = g.stats().target_bytes;
    g.target_generate_mipmaps(0, src).unwrap();
    // 8x8 + 4x4 + 2x2 + 1x1 texels counted with the colour.
    assert_eq!(g.stats().target_bytes, base + (64 + 16 + 4 + 1) * 4);
    // In its open frame: refused.
    g.begin(0, c, src).unwrap();
    assert_eq!(
        g.target_generate_mipmaps(0, src),
        Err(Error::SampleTargetInFrame)
    );
    g.end(0, c).unwrap();
    // The frame dropped the levels: level 4 reads level 0 (the max level is 0 now).
    assert_eq!(g.stats().target_bytes, base);
    let pic = sample(&mut g, c, src, 4);
    assert_eq!(pic, sample(&mut g, c, src, 0));
    let _ = level0;
    // A float target gets a float chain (brief D, session 7): 2x2 + 1x1 floats, with a copy
    // of level 0 (16 bytes a texel).
    let f = g
        .target_create_format(0, c, 4, 4, TargetFormat::Rgba32F)
        .unwrap();
    let before = g.stats().target_bytes;
    g.target_generate_mipmaps(0, f).unwrap();
    assert_eq!(g.stats().target_bytes, before + (16 + 4 + 1) * 16);
    // Another owner's handle is not this owner's.
    assert!(g.target_generate_mipmaps(1, src).is_err());
    g.drop_owner(0);
}

#[test]
fn generated_target_levels_on_virgl_equal_software() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: G = Gfx3d::new();
    let (a0, a) = run(&mut sw);
    let (b0, b) = run(&mut hw);
    assert_eq!(hw.backend_name(), "virgl");
    let c0 = compare(&a0, &b0, SRC, SRC);
    assert!(c0.agrees(), "level 0 differs: {c0:?}");
    let mut report = String::new();
    for (l, (x, y)) in a.iter().zip(&b).enumerate() {
        let c = compare(x, y, DST, DST);
        eprintln!(
            "level {l}: differing {} off-edge {} (sw {:08x} virgl {:08x})",
            c.differing, c.off_edge, x[0], y[0]
        );
        if !c.agrees() {
            report.push_str(&format!("level {l}: {c:?}\n"));
        }
    }
    let errors = server.host_errors();
    assert!(
        report.is_empty() && errors.is_empty(),
        "{}host errors: {:?}",
        report,
        errors
    );
}
