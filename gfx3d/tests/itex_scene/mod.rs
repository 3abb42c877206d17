//! The integer-texture scene shared by `integer_samplers.rs` (software) and
//! `integer_textures_vtest.rs` (VirGL = software): RGBA32UI and RGBA32I textures of words
//! above 2^24, negatives and edge patterns, read by usampler2D/isampler2D (texelFetch and
//! NEAREST texture()) and written into an RGBA32F target as their high and low 16 bits
//! (exact in a float).
#![allow(dead_code)]
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::*;

pub type G = Gfx3d<Linked>;
pub const W: u32 = 4;
pub const H: u32 = 2;
pub const N: usize = (W * H) as usize;

/// The texture's words: 4 a texel, row 0 first.
pub fn words() -> Vec<u32> {
    let mut v = vec![
        0xFFFF_FFFF,
        0x8000_0000,
        0x0100_0001,
        0x7FFF_FFFF,
        0x89AB_CDEF,
        0xFFFF_FFFE,
        0x0000_0000,
        0x1234_5678,
    ];
    let mut x = 0x9E37_79B9u32;
    while v.len() < N * 4 {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        v.push(x);
    }
    v
}

/// `signed`: isampler2D (RGBA32I) else usampler2D (RGBA32UI); `fetch`: texelFetch at the
/// pixel, else texture() at fragUV; `hi`: the words' high 16 bits (arithmetic for ivec4),
/// else the low 16.
pub fn frag(signed: bool, fetch: bool, hi: bool) -> String {
    let (ty, vt, s16, mask) = if signed {
        ("isampler2D", "ivec4", "ivec4(16)", "ivec4(65535)")
    } else {
        ("usampler2D", "uvec4", "uvec4(16u)", "uvec4(65535u)")
    };
    let read = if fetch {
        "texelFetch(words, ivec2(gl_FragCoord.xy), 0)"
    } else {
        "texture(words, fragUV)"
    };
    let op = if hi {
        format!("w >> {}", s16)
    } else {
        format!("w & {}", mask)
    };
    format!(
        "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform {ty} words;
out vec4 color;
void main() {{
    {vt} w = {read};
    color = vec4({op});
}}
"
    )
}

/// What `frag(signed, _, hi)` writes, in `target_read_float` order (top row first): the
/// bottom row (gl_FragCoord.y 0.5, fragUV v near 0) reads texture row 0.
pub fn expected(signed: bool, hi: bool) -> Vec<[f32; 4]> {
    let w = words();
    (0..N)
        .map(|q| {
            let (x, top) = (q % W as usize, q / W as usize);
            let p = (H as usize - 1 - top) * W as usize + x;
            let mut o = [0.0f32; 4];
            for (c, d) in o.iter_mut().enumerate() {
                let word = w[p * 4 + c];
                *d = match (signed, hi) {
                    (true, true) => ((word as i32) >> 16) as f32,
                    (false, true) => (word >> 16) as f32,
                    (_, false) => (word & 0xFFFF) as f32,
                };
            }
            o
        })
        .collect()
}

/// A full-target quad whose fragUV is (x, y) in 0..1 with v = 0 at the bottom row (so a
/// pixel's fragUV is its texel's centre, row 0 at the bottom, like gl_FragCoord).
pub fn quad(g: &mut G) -> MeshId {
    let mut v = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, x * 0.5 + 0.5, y * 0.5 + 0.5]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let layout = VertexLayout::new(
        24,
        &[
            Element {
                location: 0,
                components: 4,
                offset: 0,
            },
            Element {
                location: 1,
                components: 2,
                offset: 16,
            },
        ],
    )
    .unwrap();
    g.mesh_upload_f32(0, m, &layout, &v, None).unwrap();
    m
}

/// Draws the 8 combinations (signed, fetch, hi) and returns each float target's pixels, in
/// that order (signed outermost).
pub fn draw_all(g: &mut G) -> Vec<Vec<[f32; 4]>> {
    let c = g.context_create(0).unwrap();
    let m = quad(g);
    let ut = g
        .tex_create_format(0, W, H, TextureFormat::Rgba32UI)
        .unwrap();
    let it = g
        .tex_create_format(0, W, H, TextureFormat::Rgba32I)
        .unwrap();
    g.tex_upload_ints(0, ut, &words()).unwrap();
    g.tex_upload_ints(0, it, &words()).unwrap();
    let mut out = Vec::new();
    for signed in [false, true] {
        for fetch in [true, false] {
            for hi in [true, false] {
                let linked =
                    Linked::from_glsl(g.compiler(), PASS_VERT, &frag(signed, fetch, hi), "t")
                        .unwrap();
                let p = g.prog_prepare(0, c, linked).unwrap();
                let t = g
                    .target_create_format(0, c, W, H, TargetFormat::Rgba32F)
                    .unwrap();
                g.begin(0, c, t).unwrap();
                g.use_program(0, c, p).unwrap();
                g.bind_texture(0, c, 0, Some(if signed { it } else { ut }))
                    .unwrap();
                g.draw(0, c, m).unwrap();
                g.end(0, c).unwrap();
                let mut px = vec![[0.0f32; 4]; N];
                g.target_read_float(0, t, &mut px).unwrap();
                out.push(px);
            }
        }
    }
    out
}
