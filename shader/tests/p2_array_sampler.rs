//! Profile 2's sampler2DArray on the software executor (session 6): the layer of `texture`,
//! `textureLod`, `textureOffset` and `textureGrad` is clamp(roundEven(P.z), 0, layers - 1)
//! (GL 3.3 §3.8.10), each layer sampled as its own 2D texture; `texelFetch` takes the ivec3's
//! layer as is (outside the array: zeros); `textureSize` is (width, height, layers); an array
//! under a sampler2D (or a 2D texture under a sampler2DArray) samples as incomplete.
use shader::back::exec::texture::{Filter, SamplerState, Wrap};
use shader::back::raster::*;
mod ircore_util;
use ircore_util::p2::{build, csir_v2_round_trip, leak_layers, link_glsl};

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }";

/// Texel (x, y) of layer l: red 10 + 40 l, green 100 x + 50 y, blue 7, alpha 255.
fn texel(l: u32, x: u32, y: u32) -> u32 {
    0xFF00_0000 | (10 + 40 * l) << 16 | (100 * x + 50 * y) << 8 | 7
}

const FS: &str = "#pragma chrisos profile 2
uniform sampler2DArray u_a;
uniform sampler2D u_2d;
out vec4 c;
// The 8-bit texel a sample read: (layer, x, y) when it is one of ours.
bool is(vec4 t, int l, int x, int y) {
    return all(equal(ivec4(round(t * 255.0)), ivec4(10 + 40 * l, 100 * x + 50 * y, 7, 255)));
}
void main() {
    bool layers = is(texture(u_a, vec3(0.25, 0.25, 0.5)), 0, 0, 0)
        && is(texture(u_a, vec3(0.25, 0.25, 1.5)), 2, 0, 0)
        && is(texture(u_a, vec3(0.75, 0.25, 2.5)), 2, 1, 0)
        && is(texture(u_a, vec3(0.25, 0.75, 1.49)), 1, 0, 1)
        && is(texture(u_a, vec3(0.25, 0.25, -3.0)), 0, 0, 0)
        && is(texture(u_a, vec3(0.25, 0.25, 7.0)), 2, 0, 0);
    bool ops = is(textureLod(u_a, vec3(0.75, 0.75, 1.0), 0.0), 1, 1, 1)
        && is(textureOffset(u_a, vec3(0.25, 0.25, 2.0), ivec2(1, 0)), 2, 1, 0)
        && is(textureGrad(u_a, vec3(0.25, 0.75, 0.7), vec2(0.1, 0.0), vec2(0.0, 0.1)), 1, 0, 1)
        && is(textureLodOffset(u_a, vec3(0.75, 0.75, 0.0), 0.0, ivec2(-1, -1)), 0, 0, 0);
    bool fetch = is(texelFetch(u_a, ivec3(1, 0, 1), 0), 1, 1, 0)
        && is(texelFetchOffset(u_a, ivec3(0, 0, 2), 0, ivec2(1, 1)), 2, 1, 1)
        && all(equal(texelFetch(u_a, ivec3(0, 0, 3), 0), vec4(0.0)))
        && all(equal(texelFetch(u_a, ivec3(0, 0, -1), 0), vec4(0.0)));
    bool size = all(equal(textureSize(u_a, 0), ivec3(2, 2, 3)))
        && all(equal(textureSize(u_a, 1), ivec3(0, 0, 3)))
        && all(equal(texture(u_2d, vec2(0.25)), vec4(0.0, 0.0, 0.0, 1.0)));
    c = vec4(layers, ops, fetch, size);
}";

fn layer(texels: &'static [u32]) -> TextureRef<'static> {
    TextureRef {
        layers: &[],
        faces: &[],
        mips: &[],
        depth: None,
        rgba: None,
        ints: None,
        width: 2,
        height: 2,
        texels,
        sampler: SamplerState::new(Filter::Nearest, Wrap::Repeat),
    }
}

#[test]
fn array_samplers_pick_the_rounded_clamped_layer() {
    let p = link_glsl(VS, FS);
    let (ua, u2) = (
        p.sampler_find("u_a").unwrap() as usize,
        p.sampler_find("u_2d").unwrap() as usize,
    );
    let texels: &'static [[u32; 4]; 3] = Box::leak(Box::new([0, 1, 2].map(|l| {
        [
            texel(l, 0, 0),
            texel(l, 1, 0),
            texel(l, 0, 1),
            texel(l, 1, 1),
        ]
    })));
    let layers = leak_layers(texels.iter().map(|t| layer(t)));
    let array = TextureRef {
        layers,
        ..layer(&texels[0])
    };
    assert_eq!(array.validate(), Ok(()));
    let mut t: [Option<TextureRef>; 4] = [None, None, None, None];
    t[ua] = Some(array);
    // The array bound to the sampler2D as well: incomplete there.
    t[u2] = Some(array);
    let r = soft_fs(&p, &[[0.0; 4]; 16], [0.5, 0.5, 0.5, 1.0], &t).unwrap();
    assert_eq!(r.color, [1.0; 4], "layers, ops, fetch, size");

    // A 2D texture under the sampler2DArray is incomplete (opaque black, size (0, 0, 0)), so
    // every group fails.
    t[ua] = Some(layer(&texels[1]));
    let r = soft_fs(&p, &[[0.0; 4]; 16], [0.5, 0.5, 0.5, 1.0], &t).unwrap();
    assert_eq!(r.color, [0.0; 4]);
}

#[test]
fn array_textures_are_validated() {
    static L: [u32; 4] = [0; 4];
    static ONE: [u32; 1] = [0];
    let small = TextureRef {
        width: 1,
        height: 1,
        ..layer(&ONE)
    };
    let bad = [small];
    let t = TextureRef {
        layers: &bad,
        ..layer(&L)
    };
    assert!(t
        .validate()
        .unwrap_err()
        .to_string()
        .contains("array texture has 1 layers"));
}

#[test]
fn csir_v2_keeps_the_array_sampler_and_its_ops() {
    let m = build(1, FS).module;
    let back = csir_v2_round_trip(&m);
    let ty = |m: &shader::ir::Module| -> Vec<shader::ir::Type> {
        m.iface.samplers.iter().map(|s| s.ty).collect()
    };
    assert!(ty(&back).contains(&shader::ir::Type::Sampler2DArray));
    assert_eq!(ty(&back), ty(&m));
    assert_eq!(back.insts.len(), m.insts.len());
    for op in [
        shader::ir::Op::ArrLod,
        shader::ir::Op::ArrBias,
        shader::ir::Op::ArrGrad,
        shader::ir::Op::ArrFetch,
        shader::ir::Op::ArrSize,
    ] {
        assert!(back.insts.iter().any(|i| i.op == op), "{:?}", op);
    }
}
