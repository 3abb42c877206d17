//! Nearest-mipmap level choice at exactly .5 (issue 15): `textureLod(tex, uv, L)` with a
//! `*_MIPMAP_NEAREST` filter at L = 0.5, 1.5, 2.5 (and just off them) must pick the same level
//! on the software backend as on VirGL (virglrenderer on llvmpipe). llvmpipe rounds the lod to
//! the nearest level with ties to even (1.5 and 3.5 read the level above, 0.5 and 2.5 the one
//! below), where GL's ceil(lod + 1/2) - 1 rounds every tie down; before the software backend
//! followed GL and read level 1 at 1.5 and level 3 at 3.5.
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

mod common;
use common::screen_quad;

type G = Gfx3d<Linked>;
const SIZE: u32 = 8;

fn lod_frag(lod: &str) -> String {
    format!(
        "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2D tex;
out vec4 color;
void main() {{
    color = textureLod(tex, fragUV, {lod});
}}
"
    )
}

/// Draws the quad with `textureLod(tex, uv, lod)` over `tex`.
fn draw(g: &mut G, tex: TextureId, lod: &str) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let fs = lod_frag(lod);
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, &fs, "lod").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let quad = screen_quad(g);
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(tex)).unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, tg, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    g.mesh_destroy(0, quad).unwrap();
    px
}

/// Level colours of a 16x16 chain (16x16, 8x8, 4x4, 2x2, 1x1), one flat colour per level.
const LEVEL_COLORS: [u32; 5] = [
    0xFFC0_2010,
    0xFF20_C010,
    0xFF10_20C0,
    0xFFC0_C020,
    0xFF40_4040,
];

fn chain(g: &mut G, min: Filter) -> TextureId {
    let t = g.tex_create(0, 16, 16).unwrap();
    g.tex_upload(0, t, &[LEVEL_COLORS[0]; 256]).unwrap();
    g.tex_levels(
        0,
        t,
        &[
            &[LEVEL_COLORS[1]; 64],
            &[LEVEL_COLORS[2]; 16],
            &[LEVEL_COLORS[3]; 4],
            &[LEVEL_COLORS[4]; 1],
        ],
    )
    .unwrap();
    let mut s = SamplerState::new(Filter::Nearest, Wrap::ClampToEdge);
    s.mip = MipFilter::Nearest;
    s.min_filter = Some(min);
    g.tex_sampler(0, t, s).unwrap();
    t
}

fn level_of(px: u32) -> String {
    match LEVEL_COLORS.iter().position(|&c| c == px) {
        Some(l) => format!("level {l}"),
        None => format!("{px:08x}"),
    }
}

#[test]
fn nearest_mip_level_at_half_lods_matches_virgl() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: G = Gfx3d::new();
    let mut report = String::new();
    let lods = [
        "0.0", "0.25", "0.5", "0.5001", "1.0", "1.4999", "1.5", "1.5001", "2.0", "2.5", "2.5001",
        "3.4999", "3.5", "4.5", "-0.5",
    ];
    for min in [Filter::Nearest, Filter::Linear] {
        let (ts, th) = (chain(&mut sw, min), chain(&mut hw, min));
        for lod in lods {
            let a = draw(&mut sw, ts, lod);
            let b = draw(&mut hw, th, lod);
            eprintln!(
                "min {min:?} lod {lod:7}: sw {} virgl {}",
                level_of(a[0]),
                level_of(b[0])
            );
            if a != b {
                report.push_str(&format!(
                    "min {min:?} lod {lod}: sw {} virgl {}\n",
                    level_of(a[0]),
                    level_of(b[0])
                ));
            }
        }
        sw.tex_destroy(0, ts).unwrap();
        hw.tex_destroy(0, th).unwrap();
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
