//! VirGL 2D array textures (issue 15, session 8): sampler2DArray draws over a
//! PIPE_TEXTURE_2D_ARRAY resource (array_size layers, one transfer per layer and level with the
//! layer as the box's z, a sampler view over every layer and level), each drawn by the software
//! backend and by VirGL through vtest and compared by the differential rule: texelFetch of
//! every texel of every layer at levels 0 and 1, filtered and mipmapped sampling, and layer
//! coordinates outside the array (clamped as GL does). The host must report no context error.
use gfx3d::compare::compare;
use gfx3d::glsl::PASS_VERT;
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, MipFilter, SamplerState, Wrap};
use gfx3d::*;

mod common;
use common::screen_quad;

type G = Gfx3d<Linked>;
const SIZE: u32 = 32;
const LAYERS: u32 = 5;

/// Texel (x, y) of layer z: red from the layer, green from x, blue from y, all distinct.
fn texel(z: u32, x: u32, y: u32) -> u32 {
    0xFF00_0000 | (0x10 + z * 0x30) << 16 | (x * 0x20) << 8 | (y * 0x20)
}

/// A `LAYERS`-layer 8x8 array, every layer with its box chain.
fn array(g: &mut G, sampler: SamplerState) -> TextureId {
    let t = g.tex_create_array(0, 8, 8, LAYERS).unwrap();
    for z in 0..LAYERS {
        let l: Vec<u32> = (0..64).map(|i| texel(z, i % 8, i / 8)).collect();
        g.tex_upload_layer(0, t, z, &l).unwrap();
    }
    g.tex_generate_mipmaps(0, t).unwrap();
    g.tex_sampler(0, t, sampler).unwrap();
    t
}

/// texelFetch of every texel of levels 0 and 1 of every layer (row bands of 6 by layer),
/// with textureSize's layer count in alpha.
const FETCH_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DArray layers;
out vec4 color;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec3 size = textureSize(layers, 0);
    int z = min(p.y / 6, size.z - 1);
    vec4 c = p.x < 16 ? texelFetch(layers, ivec3(p.x / 2, p.y % 8, z), 0)
                      : texelFetch(layers, ivec3((p.x - 16) / 4, p.y % 4, z), 1);
    color = vec4(c.rgb, float(size.z) / 8.0);
}
";

/// Filtered sampling across the layers: the layer coordinate runs from -1.5 to 6.5 across
/// the top half (the outer columns read layers clamped to 0 and 4); below, textureLod at a
/// blend of levels 1 and 2 (lod 1.3: off the nearest-mip boundary at .5) and textureGrad with the layer from the row.
const FILTER_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DArray layers;
out vec4 color;
void main() {
    vec4 a = texture(layers, vec3(fragUV * 1.3 + 0.05, fragUV.x * 8.0 - 1.5));
    vec4 b = textureLod(layers, vec3(fragUV.yx * 2.0, fragUV.y * 6.0 - 0.7), 1.3);
    vec4 c = textureGrad(layers, vec3(fragUV, 9.0 - fragUV.x * 12.0),
                         dFdx(fragUV) * 3.0, dFdy(fragUV));
    color = fragUV.y < 0.5 ? a : (fragUV.x < 0.5 ? b : c);
}
";

fn draw(g: &mut G, fs: &str, sampler: SamplerState) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let linked = Linked::from_glsl(g.compiler(), PASS_VERT, fs, "t").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    let quad = screen_quad(g);
    let tex = array(g, sampler);
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(tex)).unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, tg, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    g.tex_destroy(0, tex).unwrap();
    g.mesh_destroy(0, quad).unwrap();
    px
}

#[test]
fn virgl_array_draws_match_the_software_path() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw = G::new();
    let mut report = String::new();
    let nearest = SamplerState::new(Filter::Nearest, Wrap::Repeat);
    let trilinear = SamplerState {
        min_filter: Some(Filter::Linear),
        mip: MipFilter::Linear,
        ..SamplerState::new(Filter::Linear, Wrap::Repeat)
    };
    let clamp_nearest_mip = SamplerState {
        mip: MipFilter::Nearest,
        ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
    };
    for (what, fs, s) in [
        ("texelFetch levels 0 and 1", FETCH_FRAG, nearest),
        ("filtered, trilinear", FILTER_FRAG, trilinear),
        (
            "filtered, nearest mip nearest",
            FILTER_FRAG,
            clamp_nearest_mip,
        ),
    ] {
        let a = draw(&mut sw, fs, s);
        let b = draw(&mut hw, fs, s);
        let c = compare(&a, &b, SIZE, SIZE);
        eprintln!(
            "{:40} differing {:4} off-edge {:3}",
            what, c.differing, c.off_edge
        );
        if fs == FETCH_FRAG && a != b {
            report.push_str(&format!("{}: texelFetch pictures differ ({:?})\n", what, c));
        }
        if !c.agrees() {
            report.push_str(&format!(
                "{}: {:?} sw {:08x} virgl {:08x}\n",
                what, c, a[0], b[0]
            ));
        }
        // Every layer shows up in the picture (its red), so no layer was lost on the way.
        if fs == FETCH_FRAG {
            for z in 0..LAYERS {
                let red = 0x10 + z * 0x30;
                if !b.iter().any(|p| (p >> 16) & 0xFF == red) {
                    report.push_str(&format!("{}: layer {} missing on VirGL\n", what, z));
                }
            }
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
