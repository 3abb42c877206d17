//! isampler2D/usampler2D through Gfx3D (issue 15): Gfx3D has no integer texture formats yet, so
//! a draw whose program has an integer sampler is the clear error `IntegerSamplerUnsupported`
//! naming the unit (before, it drew the 8-bit texture's float values as integer bits).
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::*;

mod common;
use common::layout;

type G = Gfx3d<Linked>;

const ISAMPLER_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2D plain;
uniform usampler2D words;
out vec4 color;
void main() {
    uvec4 w = texelFetch(words, ivec2(0), 0);
    color = texture(plain, fragUV) + vec4(w & uvec4(1u));
}
";

#[test]
fn a_draw_with_an_integer_sampler_is_refused_naming_its_unit() {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, 4, 4).unwrap();
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, ISAMPLER_FRAG, "t").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let tex = g.tex_create(0, 2, 2).unwrap();
    g.tex_upload(0, tex, &[0xFFFF_FFFF; 4]).unwrap();
    let mut v = Vec::new();
    for (x, y) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0)] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, 0.0, 0.0]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &layout(24, &[(0, 4, 0), (1, 2, 16)]), &v, None)
        .unwrap();
    g.begin(0, c, t).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(tex)).unwrap();
    g.bind_texture(0, c, 1, Some(tex)).unwrap();
    let e = g.draw(0, c, m).unwrap_err();
    assert_eq!(e, Error::IntegerSamplerUnsupported { unit: 1 });
    assert!(e.to_string().contains("unit 1"), "{}", e);
    g.end(0, c).unwrap();
}
