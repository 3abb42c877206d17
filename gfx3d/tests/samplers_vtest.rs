//! VirGL sampler states carry Gfx3D's whole `SamplerState` (brief E, session 4): per-axis and
//! mirrored wraps, separate min/mag filters and the LOD fields. Each case is drawn by the
//! software backend and by VirGL through vtest and compared by the differential rule (before,
//! VirGL kept one filter and one wrap mode: mirrored repeat read as repeat, so these differed).
use gfx3d::compare::compare;
use gfx3d::glsl::{TEX_FRAG, TEX_VERT};
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::layout;

const SIZE: u32 = 32;

/// A full-target triangle whose uv spans [-1.5, 2.5] on both axes, textured with an n x n
/// texture of distinct texels under `sampler`.
fn draw(g: &mut Gfx3d<Linked>, n: u32, sampler: SamplerState) -> Vec<u32> {
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (3.0, -1.0), (-1.0, 3.0)] {
        let (u, t) = ((x + 1.0) * 0.5, (1.0 - y) * 0.5);
        v.extend_from_slice(&[x, y, 0.0, 1.0, u * 4.0 - 1.5, t * 4.0 - 1.5]);
    }
    g.mesh_upload_f32(0, m, &layout(24, &[(0, 4, 0), (1, 2, 16)]), &v, None)
        .unwrap();
    let tex = g.tex_create(0, n, n).unwrap();
    let texels: Vec<u32> = (0..n * n)
        .map(|i| 0xFF00_0000 | (i * 37 % 256) << 16 | (i * 91 % 256) << 8 | (i * 13 % 256))
        .collect();
    g.tex_upload(0, tex, &texels).unwrap();
    g.tex_sampler(0, tex, sampler).unwrap();
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TEX_VERT, TEX_FRAG, "tex").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(tex)).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, tg, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    g.tex_destroy(0, tex).unwrap();
    g.mesh_destroy(0, m).unwrap();
    px
}

#[test]
fn virgl_sampler_states_match_the_software_path() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: Gfx3d<Linked> = Gfx3d::new();
    let cases = [
        (
            "mirrored s, clamp t, nearest",
            4,
            SamplerState {
                wrap: Wrap::MirroredRepeat,
                wrap_t: Some(Wrap::ClampToEdge),
                ..SamplerState::default()
            },
        ),
        (
            "clamp s, mirrored t, linear",
            4,
            SamplerState {
                filter: Filter::Linear,
                wrap: Wrap::ClampToEdge,
                wrap_t: Some(Wrap::MirroredRepeat),
                ..SamplerState::default()
            },
        ),
        (
            "minified: linear min, nearest mag, mirrored",
            64,
            SamplerState {
                filter: Filter::Nearest,
                min_filter: Some(Filter::Linear),
                wrap: Wrap::MirroredRepeat,
                ..SamplerState::default()
            },
        ),
        (
            "minified: nearest min, linear mag, min lod 0.5 (always minify)",
            4,
            SamplerState {
                filter: Filter::Linear,
                min_filter: Some(Filter::Nearest),
                min_lod: 0.5,
                ..SamplerState::default()
            },
        ),
    ];
    let mut report = String::new();
    for (what, n, s) in cases {
        let a = draw(&mut sw, n, s);
        let b = draw(&mut hw, n, s);
        let c = compare(&a, &b, SIZE, SIZE);
        eprintln!(
            "{:60} differing {:4} off-edge {:3}",
            what, c.differing, c.off_edge
        );
        if !c.agrees() {
            report.push_str(&format!("{}: {:?}\n", what, c));
        }
    }
    assert_eq!(hw.backend_name(), "virgl");
    let errors = server.host_errors();
    assert!(
        report.is_empty() && errors.is_empty(),
        "{}host errors: {:?}",
        report,
        errors
    );
}
