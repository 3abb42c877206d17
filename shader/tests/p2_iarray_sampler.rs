//! Profile 2's isampler2DArray/usampler2DArray on the software executor (session 9): every
//! texel word of every layer comes back bit-exact through texelFetch (values above 2^24,
//! negatives, INT_MIN); texture/textureLod/textureOffset/textureGrad pick the layer
//! clamp(roundEven(P.z), 0, layers - 1) as for sampler2DArray and read it nearest on level 0;
//! texelFetch of a layer outside the array reads zeros; textureSize is (width, height, layers);
//! a 2D integer texture under an integer array sampler is incomplete.
use shader::back::exec::texture::{Filter, SamplerState, Wrap};
use shader::back::raster::*;
mod ircore_util;
use ircore_util::p2::{build, csir_v2_round_trip, leak_layers, link_glsl};

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

/// The words of texel (x, y) of layer l (the shader's `word` computes the same).
fn word(l: i32, x: i32, y: i32) -> [u32; 4] {
    let r = 16_777_217 + 65_536 * l + 256 * x + y;
    [
        r as u32,
        (-r - 1_000_000) as u32,
        (i32::MIN + l + x + 2 * y) as u32,
        (7 * l + x) as u32,
    ]
}

const FS: &str = "#pragma chrisos profile 2
uniform isampler2DArray u_i;
uniform usampler2DArray u_u;
uniform isampler2DArray u_flat;
out vec4 c;
ivec4 word(int l, int x, int y) {
    int r = 16777217 + 65536 * l + 256 * x + y;
    return ivec4(r, -r - 1000000, -2147483647 - 1 + l + x + 2 * y, 7 * l + x);
}
void main() {
    // texelFetch of every texel of every layer, bit-exact (integer compares).
    bool fetch = true;
    for (int l = 0; l < 3; l++) {
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < 2; x++) {
                fetch = fetch && all(equal(texelFetch(u_i, ivec3(x, y, l), 0), word(l, x, y)));
                fetch = fetch && all(equal(texelFetch(u_u, ivec3(x, y, l), 0), uvec4(word(l, x, y))));
            }
        }
    }
    fetch = fetch && all(equal(texelFetchOffset(u_i, ivec3(0, 0, 2), 0, ivec2(1, 1)), word(2, 1, 1)))
        && all(equal(texelFetch(u_i, ivec3(0, 0, 3), 0), ivec4(0)))
        && all(equal(texelFetch(u_i, ivec3(0, 0, -1), 0), ivec4(0)))
        && all(equal(texelFetch(u_u, ivec3(1, 1, 0), 1), uvec4(0u)));
    // Layer clamp(roundEven(z)): 0.5 -> 0, 1.5 -> 2, 1.49 -> 1, -3 -> 0, 7 -> 2.
    bool layers = all(equal(texture(u_i, vec3(0.25, 0.25, 0.5)), word(0, 0, 0)))
        && all(equal(texture(u_i, vec3(0.25, 0.25, 1.5)), word(2, 0, 0)))
        && all(equal(texture(u_i, vec3(0.75, 0.75, 1.49)), word(1, 1, 1)))
        && all(equal(texture(u_i, vec3(0.75, 0.25, -3.0)), word(0, 1, 0)))
        && all(equal(texture(u_u, vec3(0.25, 0.75, 7.0)), uvec4(word(2, 0, 1))));
    bool ops = all(equal(textureLod(u_i, vec3(0.75, 0.75, 1.0), 0.0), word(1, 1, 1)))
        && all(equal(texture(u_i, vec3(0.75, 0.25, 2.0), 1.0), word(2, 1, 0)))
        && all(equal(textureOffset(u_i, vec3(0.25, 0.25, 2.0), ivec2(1, 0)), word(2, 1, 0)))
        && all(equal(textureLodOffset(u_u, vec3(0.75, 0.75, 0.0), 0.0, ivec2(-1, -1)), uvec4(word(0, 0, 0))))
        && all(equal(textureGrad(u_i, vec3(0.25, 0.75, 0.7), vec2(0.5, 0.0), vec2(0.0, 0.5)), word(1, 0, 1)))
        && all(equal(textureGradOffset(u_u, vec3(0.25, 0.25, 1.2), vec2(0.0), vec2(0.0), ivec2(1, 1)), uvec4(word(1, 1, 1))));
    bool size = all(equal(textureSize(u_i, 0), ivec3(2, 2, 3)))
        && all(equal(textureSize(u_u, 0), ivec3(2, 2, 3)))
        && all(equal(textureSize(u_flat, 0), ivec3(0)));
    c = vec4(fetch, layers, ops, size);
}";

fn layer(ints: &'static [[u32; 4]]) -> TextureRef<'static> {
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
fn integer_array_samplers_read_every_layer_bit_exact() {
    let p = link_glsl(VS, FS);
    let (ui, uu, uf) = (
        p.sampler_find("u_i").unwrap() as usize,
        p.sampler_find("u_u").unwrap() as usize,
        p.sampler_find("u_flat").unwrap() as usize,
    );
    let words: &'static [[[u32; 4]; 4]; 3] =
        Box::leak(Box::new([0, 1, 2].map(|l| {
            [word(l, 0, 0), word(l, 1, 0), word(l, 0, 1), word(l, 1, 1)]
        })));
    let layers = leak_layers(words.iter().map(|w| layer(w)));
    let array = TextureRef {
        layers,
        ..layer(&words[0])
    };
    assert_eq!(array.validate(), Ok(()));
    let mut t: [Option<TextureRef>; 4] = [None, None, None, None];
    t[ui] = Some(array);
    t[uu] = Some(array);
    // A 2D integer texture under an isampler2DArray: incomplete (size 0).
    t[uf] = Some(layer(&words[1]));
    let r = soft_fs(&p, &[[0.0; 4]; 16], [0.5, 0.5, 0.5, 1.0], &t).unwrap();
    assert_eq!(r.color, [1.0; 4], "fetch, layers, ops, size");
}

#[test]
fn csir_v2_keeps_the_integer_array_samplers() {
    use shader::ir::Type;
    let m = build(1, FS).module;
    let back = csir_v2_round_trip(&m);
    let ty =
        |m: &shader::ir::Module| -> Vec<Type> { m.iface.samplers.iter().map(|s| s.ty).collect() };
    assert!(ty(&back).contains(&Type::ISampler2DArray));
    assert!(ty(&back).contains(&Type::USampler2DArray));
    assert_eq!(ty(&back), ty(&m));
    assert_eq!(back.insts.len(), m.insts.len());
    // Profile 1 (CSIR v1) has no such types.
    assert_eq!(Type::from_u8(35), Some(Type::ISampler2DArray));
    assert_eq!(Type::from_u8(36), Some(Type::USampler2DArray));
    assert!(Type::ISampler2DArray as u8 > Type::P1_LAST);
}
