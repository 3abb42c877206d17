//! Profile 2's isampler2D/usampler2D on the software executor (issue 15): the texture functions
//! of an integer sampler read the texel words bit-exact into the integer registers (values above
//! 2^24, negatives, INT_MIN and NaN patterns), nearest on level 0 with wrap and offsets;
//! texelFetch outside reads zeros; textureSize gives the size.
use shader::back::exec::texture::{Filter, SamplerState, Wrap};
use shader::back::raster::*;
mod ircore_util;
use ircore_util::p2::link_glsl;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

/// Each output lane is 1.0 when its group of integer-sampler reads gave exactly the words
/// expected (integer compares: any rounding through floats would fail them).
const FS: &str = "#pragma chrisos profile 2
uniform isampler2D u_i;
uniform usampler2D u_u;
out vec4 c;
void main() {
    ivec4 w0 = ivec4(16777217, -3, -2147483647 - 1, 2143289345);
    ivec4 w1 = ivec4(16777217, -1, 2147483647, -16777219);
    ivec4 w3 = ivec4(-559038737, 2139095041, -8388608, 3);
    bool fetch = all(equal(texelFetch(u_i, ivec2(0, 0), 0), w0))
        && all(equal(texelFetch(u_i, ivec2(1, 0), 0), w1))
        && all(equal(texelFetchOffset(u_i, ivec2(0, 0), 0, ivec2(1, 1)), w3));
    // (0.3, 0.3) is texel (0, 0); offset (1, -1) wraps to texel (1, 1) (repeat).
    bool samples = all(equal(textureLodOffset(u_i, vec2(0.3, 0.3), 0.0, ivec2(1, -1)), w3))
        && all(equal(texture(u_i, vec2(0.75, 0.25)), w1))
        && all(equal(textureGrad(u_i, vec2(0.25, 0.75), vec2(0.5, 0.0), vec2(0.0, 0.5)), ivec4(5, 6, 7, 8)))
        && all(equal(textureProj(u_i, vec3(1.5, 0.5, 2.0)), w1));
    bool uns = all(equal(texture(u_u, vec2(0.25, 0.25)) + uvec4(1u), uvec4(16777218u, 4294967294u, 2147483649u, 2143289346u)));
    bool outside = all(equal(texelFetch(u_i, ivec2(2, 0), 0), ivec4(0)))
        && all(equal(texelFetch(u_i, ivec2(0, 0), 1), ivec4(0)))
        && all(equal(textureSize(u_i, 0), ivec2(2, 2)));
    c = vec4(fetch, samples, uns, outside);
}";

const WORDS: [[u32; 4]; 4] = [
    [16_777_217, (-3i32) as u32, 0x8000_0000, 0x7FC0_0001],
    [
        0x0100_0001,
        0xFFFF_FFFF,
        2_147_483_647,
        (-16_777_219i32) as u32,
    ],
    [5, 6, 7, 8],
    [0xDEAD_BEEF, 0x7F80_0001, 0xFF80_0000, 3],
];

fn tex(ints: &'static [[u32; 4]]) -> TextureRef<'static> {
    TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: Some(ints),
        width: 2,
        height: 2,
        texels: &[],
        sampler: SamplerState::new(Filter::Nearest, Wrap::Repeat),
    }
}

#[test]
fn integer_samplers_read_the_texel_words_bit_exact() {
    let p = link_glsl(VS, FS);
    let (ui, uu) = (
        p.sampler_find("u_i").unwrap() as usize,
        p.sampler_find("u_u").unwrap() as usize,
    );
    let mut t: [Option<TextureRef>; 4] = [None, None, None, None];
    t[ui] = Some(tex(&WORDS));
    t[uu] = Some(tex(&WORDS));
    let r = soft_fs(&p, &[[0.0; 4]; 16], [0.5, 0.5, 0.5, 1.0], &t).unwrap();
    assert_eq!(r.color, [1.0; 4], "fetch, samples, unsigned, outside");
}
