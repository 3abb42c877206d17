//! VirGL mip levels (brief C, session 6): a Gfx3D texture's levels 1.. become levels of the
//! VirGL resource (`last_level`, one transfer per level and layer, a sampler view over all the
//! levels). `textureLod` at each level of a 2D texture with uploaded levels, of a generated
//! chain, and of a mipmapped cube must give that level's colour on VirGL exactly as on the
//! software backend (before, VirGL resources were level 0 only: every level read level 0).
use gfx3d::compare::compare;
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

mod common;
use common::screen_quad;

type G = Gfx3d<Linked>;
const SIZE: u32 = 16;

fn lod_frag(cube: bool, level: u32) -> String {
    if cube {
        format!(
            "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform samplerCube tex;
out vec4 color;
void main() {{
    vec2 s = fragUV * 2.0 - 1.0;
    color = textureLod(tex, vec3(s.x, -s.y, 1.0), {}.0);
}}
",
            level
        )
    } else {
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
}

fn mip_sampler() -> SamplerState {
    SamplerState {
        mip: MipFilter::Nearest,
        ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
    }
}

/// Draws the quad with `textureLod(tex, uv, level)` over `tex`.
fn draw(g: &mut G, tex: TextureId, cube: bool, level: u32) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let fs = lod_frag(cube, level);
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

/// Level colours of the uploaded 8x4 chain (8x4, 4x2, 2x1, 1x1).
const LEVEL_COLORS: [u32; 4] = [0xFFC0_2010, 0xFF20_C010, 0xFF10_20C0, 0xFFC0_C020];

fn uploaded(g: &mut G) -> TextureId {
    let t = g.tex_create(0, 8, 4).unwrap();
    g.tex_upload(0, t, &[LEVEL_COLORS[0]; 32]).unwrap();
    g.tex_levels(
        0,
        t,
        &[
            &[LEVEL_COLORS[1]; 8],
            &[LEVEL_COLORS[2]; 2],
            &[LEVEL_COLORS[3]; 1],
        ],
    )
    .unwrap();
    g.tex_sampler(0, t, mip_sampler()).unwrap();
    t
}

/// A 4x4 texture of distinct texels with its generated (box-filtered) chain: each level a
/// different picture.
fn generated(g: &mut G) -> TextureId {
    let t = g.tex_create(0, 4, 4).unwrap();
    let texels: Vec<u32> = (0..16u32)
        .map(|i| 0xFF00_0000 | (i * 16) << 16 | (255 - i * 16) << 8 | (i % 4 * 60))
        .collect();
    g.tex_upload(0, t, &texels).unwrap();
    g.tex_generate_mipmaps(0, t).unwrap();
    g.tex_sampler(0, t, mip_sampler()).unwrap();
    t
}

/// A 4x4-per-face cube of distinct texels with generated levels.
fn cube(g: &mut G) -> TextureId {
    let t = g.tex_create_cube(0, 4, 4).unwrap();
    for f in 0..6u32 {
        let texels: Vec<u32> = (0..16u32)
            .map(|i| 0xFF00_0000 | (0x20 + f * 0x28) << 16 | (i % 4 * 0x50) << 8 | (i / 4 * 0x50))
            .collect();
        g.tex_upload_face(0, t, f, &texels).unwrap();
    }
    g.tex_generate_mipmaps(0, t).unwrap();
    g.tex_sampler(0, t, mip_sampler()).unwrap();
    t
}

#[test]
fn texture_lod_reads_each_level_on_virgl_as_on_software() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: G = Gfx3d::new();
    let mut report = String::new();
    type Make = fn(&mut G) -> TextureId;
    let cases: [(&str, Make, bool, u32); 3] = [
        ("uploaded 8x4 chain", uploaded, false, 3),
        ("generated 4x4 chain", generated, false, 2),
        ("generated 4x4 cube chain", cube, true, 2),
    ];
    for (what, make, is_cube, top) in cases {
        let (ts, th) = (make(&mut sw), make(&mut hw));
        for level in 0..=top {
            let a = draw(&mut sw, ts, is_cube, level);
            let b = draw(&mut hw, th, is_cube, level);
            if what.starts_with("uploaded") {
                // The software path itself: every pixel is that level's colour.
                assert!(
                    a.iter().all(|&p| p == LEVEL_COLORS[level as usize]),
                    "software level {level}: {:08x}",
                    a[0]
                );
            }
            let c = compare(&a, &b, SIZE, SIZE);
            eprintln!(
                "{what:28} level {level}: differing {:3} off-edge {:3} (sw {:08x} virgl {:08x})",
                c.differing, c.off_edge, a[0], b[0]
            );
            if !c.agrees() || a != b {
                report.push_str(&format!(
                    "{what} level {level}: {:?} sw {:08x} virgl {:08x}\n",
                    c, a[0], b[0]
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
