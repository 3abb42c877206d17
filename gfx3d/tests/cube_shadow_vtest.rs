//! VirGL cube textures and shadow (compare) sampler states (brief G, session 5): a skybox and
//! a reflection draw through `samplerCube` over a PIPE_TEXTURE_CUBE resource (six faces as
//! layers, per-face transfers), and a `sampler2DShadow` draw over a target's depth with every
//! compare function, each drawn by the software backend and by VirGL through vtest and compared
//! by the differential rule (before, a cube at a VirGL draw was `CubeUnsupported` and shadow
//! sampler states carried no compare mode, so the host read raw depth).
use gfx3d::compare::compare;
use gfx3d::glsl::{PASS_VERT, TRI_FRAG, TRI_VERT};
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, SamplerState, Wrap};
use gfx3d::*;
use shader::back::raster::state::CompareFunc;

mod common;
use common::{prog, rect, screen_quad};

type G = Gfx3d<Linked>;
const SIZE: u32 = 32;

fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

/// Octahedral directions over the target: every face of the cube shows (+z in the middle,
/// -z in the corners, +-x and +-y along the edges).
const SKYBOX_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform samplerCube sky;
out vec4 color;
void main() {
    vec2 s = fragUV * 3.0 - 1.5;
    vec3 d = vec3(s.x, -s.y, 1.0 - abs(s.x) - abs(s.y));
    color = texture(sky, d);
}
";

/// A mirrored sphere looking down -z: the reflected view direction picks the texel.
const REFLECT_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform samplerCube sky;
out vec4 color;
void main() {
    vec2 s = fragUV * 2.0 - 1.0;
    vec3 n = normalize(vec3(s.x, -s.y, 0.6));
    vec3 r = reflect(vec3(0.0, 0.0, -1.0), n);
    color = texture(sky, r);
}
";

/// A 4x4-texel-per-face cube, every texel distinct (face in red, x and y in green and blue),
/// so a wrong face or a flipped face orientation changes the picture.
fn cube(g: &mut G, sampler: SamplerState) -> TextureId {
    let t = g.tex_create_cube(0, 4, 4).unwrap();
    for f in 0..6u32 {
        let texels: Vec<u32> = (0..16u32)
            .map(|i| 0xFF00_0000 | (0x20 + f * 0x28) << 16 | (i % 4 * 0x50) << 8 | (i / 4 * 0x50))
            .collect();
        g.tex_upload_face(0, t, f, &texels).unwrap();
    }
    g.tex_sampler(0, t, sampler).unwrap();
    t
}

fn cube_draw(g: &mut G, fs: &str, sampler: SamplerState) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let p = prog(g, c, PASS_VERT, fs);
    let quad = screen_quad(g);
    let sky = cube(g, sampler);
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(sky)).unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(g, tg);
    g.context_destroy(0, c).unwrap();
    g.tex_destroy(0, sky).unwrap();
    g.mesh_destroy(0, quad).unwrap();
    px
}

const SHADOW_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DShadow shadowMap;
uniform float ref;
out vec4 color;
void main() {
    float lit = texture(shadowMap, vec3(fragUV, ref));
    color = vec4(lit, 0.0, 0.0, 1.0);
}
";

/// Depth pass (left half at window depth 0.75, the right half cleared to 1.0), then a
/// compare of `r` against that depth under `func`.
fn shadow_draw(g: &mut G, func: CompareFunc, r: f32, filter: Filter) -> Vec<u32> {
    shadow_draw_with(g, SHADOW_FRAG, func, r, filter)
}

/// `shadow_draw` with the fragment shader `fs`.
fn shadow_draw_with(g: &mut G, fs: &str, func: CompareFunc, r: f32, filter: Filter) -> Vec<u32> {
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, SIZE, SIZE).unwrap();
    let b = g.target_create(0, c, SIZE, SIZE).unwrap();
    let tri = prog(g, c, TRI_VERT, TRI_FRAG);
    let left = rect(g, [-1.0, -1.0, 0.0, 1.0], 0.5);
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.draw(0, c, left).unwrap();
    g.end(0, c).unwrap();
    let p = prog(g, c, PASS_VERT, fs);
    let quad = screen_quad(g);
    let sampler = SamplerState {
        compare: Some(func),
        ..SamplerState::new(filter, Wrap::ClampToEdge)
    };
    g.begin(0, c, b).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.uniform_f(0, c, "ref", &[r]).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, sampler)
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(g, b);
    g.context_destroy(0, c).unwrap();
    g.mesh_destroy(0, left).unwrap();
    g.mesh_destroy(0, quad).unwrap();
    px
}

fn check(report: &mut String, what: &str, a: &[u32], b: &[u32]) {
    let c = compare(a, b, SIZE, SIZE);
    eprintln!(
        "{:50} differing {:4} off-edge {:3}",
        what, c.differing, c.off_edge
    );
    if !c.agrees() {
        report.push_str(&format!(
            "{}: {:?} sw {:08x} virgl {:08x}\n",
            what, c, a[0], b[0]
        ));
    }
}

#[test]
fn virgl_cube_draws_match_the_software_path() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw = G::new();
    let mut report = String::new();
    for (what, fs) in [("skybox", SKYBOX_FRAG), ("reflection", REFLECT_FRAG)] {
        for filter in [Filter::Nearest, Filter::Linear] {
            let s = SamplerState::new(filter, Wrap::ClampToEdge);
            let a = cube_draw(&mut sw, fs, s);
            let b = cube_draw(&mut hw, fs, s);
            check(&mut report, &format!("{} {:?}", what, filter), &a, &b);
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

#[test]
fn virgl_shadow_compares_match_the_software_path() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw = G::new();
    let mut report = String::new();
    for func in CompareFunc::ALL {
        for r in [0.5f32, 0.75, 0.9] {
            let a = shadow_draw(&mut sw, func, r, Filter::Nearest);
            let b = shadow_draw(&mut hw, func, r, Filter::Nearest);
            check(&mut report, &format!("{:?} ref {}", func, r), &a, &b);
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

const SHADOW_OFFSET_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DShadow shadowMap;
uniform float ref;
out vec4 color;
void main() {
    vec3 p = vec3(fragUV, ref);
    float a = textureOffset(shadowMap, p, ivec2(3, 0));
    float b = textureLodOffset(shadowMap, p, 0.0, ivec2(-2, 1));
    float c = textureGradOffset(shadowMap, p, dFdx(fragUV), dFdy(fragUV), ivec2(5, -1));
    float d = textureProjOffset(shadowMap, vec4(p * 2.0, 2.0), ivec2(-4, 0));
    ivec2 s = textureSize(shadowMap, 0);
    color = vec4(a, b, c * 0.5 + d * 0.5, float(s.x) / 64.0);
}
";

/// Texel offsets of shadow samples (TEX/TXL/TXD/TXB on SHADOW2D with an offset operand),
/// textureGradOffset and textureSize (TXQ on SHADOW2D) of a sampler2DShadow: VirGL draws what
/// the software path draws (before, the TGSI emitter refused shadow offsets and the compiler
/// refused textureGrad of a shadow sampler).
#[test]
fn virgl_shadow_offsets_match_the_software_path() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw = G::new();
    let mut report = String::new();
    for func in [CompareFunc::Less, CompareFunc::GreaterEqual] {
        for r in [0.5f32, 0.9] {
            let a = shadow_draw_with(&mut sw, SHADOW_OFFSET_FRAG, func, r, Filter::Nearest);
            let b = shadow_draw_with(&mut hw, SHADOW_OFFSET_FRAG, func, r, Filter::Nearest);
            check(
                &mut report,
                &format!("offsets {:?} ref {}", func, r),
                &a,
                &b,
            );
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
