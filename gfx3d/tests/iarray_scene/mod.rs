//! The integer array texture scene shared by `integer_array_textures.rs` (software) and
//! `integer_array_textures_vtest.rs` (VirGL = software): RGBA32UI and RGBA32I 2D array
//! textures of 3 layers of 4x2 texels (words above 2^24, negatives, edge patterns), read by
//! usampler2DArray/isampler2DArray and written into an RGBA32F target as their high or low
//! 16 bits (exact in a float). Target row pair k shows layer k; every read mode draws the
//! same picture: texelFetch, texture() at the layer, texture() at a layer coordinate outside
//! the array for layers 0 and 2 (clamped back), textureLodOffset and textureGrad.
#![allow(dead_code)]
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::*;

pub type G = Gfx3d<Linked>;
/// Texels of a layer (and pixels of the target across).
pub const TW: u32 = 4;
pub const TH: u32 = 2;
pub const LAYERS: u32 = 3;
/// The target: one row pair per layer.
pub const W: u32 = TW;
pub const H: u32 = TH * LAYERS;
pub const N: usize = (TW * TH) as usize;
/// How many read modes `frag` has.
pub const MODES: u32 = 5;

/// Layer z's words: 4 a texel, row 0 first.
pub fn words(z: u32) -> Vec<u32> {
    let mut v = vec![
        0xFFFF_FFFF - z,
        0x8000_0000 + z,
        0x0100_0001 + (z << 20),
        0x7FFF_FFFF,
        0x89AB_CDEF ^ (z << 8),
        0xFFFF_FFFE,
        z,
        0x1234_5678,
    ];
    let mut x = 0x9E37_79B9u32.wrapping_add(z.wrapping_mul(0x0101_0101));
    while v.len() < N * 4 {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        v.push(x);
    }
    v
}

/// `signed`: isampler2DArray (RGBA32I) else usampler2DArray (RGBA32UI); `mode` (0..MODES)
/// the read; `hi`: the words' high 16 bits (arithmetic for ivec4), else the low 16.
pub fn frag(signed: bool, mode: u32, hi: bool) -> String {
    let (ty, vt, s16, mask) = if signed {
        ("isampler2DArray", "ivec4", "ivec4(16)", "ivec4(65535)")
    } else {
        ("usampler2DArray", "uvec4", "uvec4(16u)", "uvec4(65535u)")
    };
    let read = match mode {
        0 => "texelFetch(words, ivec3(p.x, p.y % 2, z), 0)",
        1 => "texture(words, vec3(uv, float(z) + 0.3))",
        // Layers 0, 1, 2 at -3, 1, 5: clamp(roundEven) gives 0, 1, 2 again.
        2 => "texture(words, vec3(uv, float(z) * 4.0 - 3.0))",
        3 => {
            "textureLodOffset(words, vec3(uv - vec2(0.25, 0.0), float(z) - 0.4), 0.0, ivec2(1, 0))"
        }
        _ => "textureGrad(words, vec3(uv, float(z)), vec2(0.25, 0.0), vec2(0.0, 0.5))",
    };
    let op = if hi {
        format!("w >> {}", s16)
    } else {
        format!("w & {}", mask)
    };
    format!(
        "#version 330 core
#pragma chrisos profile 2
uniform {ty} words;
out vec4 color;
void main() {{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int z = p.y / 2;
    vec2 uv = (vec2(p.x, p.y % 2) + 0.5) / vec2(4.0, 2.0);
    {vt} w = {read};
    color = vec4({op});
}}
"
    )
}

/// What `frag(signed, _, hi)` writes, in `target_read_float` order (top row first).
pub fn expected(signed: bool, hi: bool) -> Vec<[f32; 4]> {
    let layers: Vec<Vec<u32>> = (0..LAYERS).map(words).collect();
    (0..(W * H) as usize)
        .map(|q| {
            let (x, top) = (q % W as usize, q / W as usize);
            let fy = H as usize - 1 - top;
            let (z, ty) = (fy / TH as usize, fy % TH as usize);
            let p = ty * TW as usize + x;
            let mut o = [0.0f32; 4];
            for (c, d) in o.iter_mut().enumerate() {
                let word = layers[z][p * 4 + c];
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

/// An integer array texture of the scene's layers.
pub fn array(g: &mut G, signed: bool) -> TextureId {
    let format = if signed {
        TextureFormat::Rgba32I
    } else {
        TextureFormat::Rgba32UI
    };
    let t = g
        .tex_create_array_format(0, TW, TH, LAYERS, format)
        .unwrap();
    for z in 0..LAYERS {
        g.tex_upload_layer_ints(0, t, z, &words(z)).unwrap();
    }
    t
}

/// Draws every (signed, mode, hi) combination and returns each float target's pixels, in
/// that order (signed outermost).
pub fn draw_all(g: &mut G) -> Vec<Vec<[f32; 4]>> {
    let c = g.context_create(0).unwrap();
    let m = crate::common::screen_quad(g);
    let ut = array(g, false);
    let it = array(g, true);
    let mut out = Vec::new();
    for signed in [false, true] {
        for mode in 0..MODES {
            for hi in [true, false] {
                let linked =
                    Linked::from_glsl(g.compiler(), PASS_VERT, &frag(signed, mode, hi), "t")
                        .unwrap_or_else(|e| panic!("{:?}", e));
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
                let mut px = vec![[0.0f32; 4]; (W * H) as usize];
                g.target_read_float(0, t, &mut px).unwrap();
                out.push(px);
                g.target_destroy(0, t).unwrap();
                g.program_destroy(0, p).unwrap();
            }
        }
    }
    out
}
