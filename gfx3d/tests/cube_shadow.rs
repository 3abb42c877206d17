//! Cube textures and depth compare on the software backend (issue 15 items 3-4, issue 16 item
//! 3's shadow maps): `tex_create_cube`/`tex_upload_face` validation, statistics, the mock log,
//! drop_owner, a `samplerCube` draw reading the right faces, a `sampler2DShadow` draw over a
//! target's depth with every compare function, and cube/compare misuse never panicking.
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::texture::{Filter, SamplerState, Wrap};
use gfx3d::*;
use shader::back::raster::state::CompareFunc;

mod common;
use common::{prog, rect, screen_quad};

type G = Gfx3d<Linked>;
const W: u32 = 8;
const H: u32 = 8;

fn boot(mode: BackendMode) -> G {
    let mut g = G::new();
    g.boot(mode, None).unwrap();
    g
}

fn read(g: &mut G, t: TargetId) -> Vec<u32> {
    let mut px = vec![0u32; (W * H) as usize];
    g.target_read(0, t, &mut px).unwrap();
    px
}

#[test]
fn cube_textures_are_validated_counted_logged_and_dropped() {
    let mut g: Gfx3d = Gfx3d::new();
    g.boot(BackendMode::Mock, None).unwrap();
    assert_eq!(
        g.tex_create_cube(1, 4, 2),
        Err(Error::CubeNotSquare {
            width: 4,
            height: 2
        })
    );
    assert!(matches!(
        g.tex_create_cube(1, 0, 0),
        Err(Error::BadTextureSize { .. })
    ));
    assert!(matches!(
        g.tex_create_cube(1, 4096, 4096),
        Err(Error::BadTextureSize { .. })
    ));
    let before = g.stats().cpu_texture_bytes;
    let t = g.tex_create_cube(1, 4, 4).unwrap();
    assert!(g.tex_is_cube(1, t).unwrap());
    assert_eq!(g.stats().cpu_texture_bytes - before, 6 * 16 * 4);
    for f in 0..6 {
        g.tex_upload_face(1, t, f, &[f; 16]).unwrap();
    }
    assert_eq!(
        g.tex_upload_face(1, t, 6, &[0; 16]),
        Err(Error::BadCubeFace {
            face: 6,
            cube: true
        })
    );
    assert_eq!(
        g.tex_upload_face(1, t, 2, &[0; 15]),
        Err(Error::PixelCount {
            found: 15,
            expected: 16
        })
    );
    assert!(matches!(
        g.tex_levels(1, t, &[]),
        Err(Error::CubeUnsupported { .. })
    ));
    // Every face's chain: 4x4 -> 2x2 -> 1x1.
    g.tex_generate_mipmaps(1, t).unwrap();
    assert_eq!(g.stats().cpu_texture_bytes - before, 6 * (16 + 4 + 1) * 4);
    let flat = g.tex_create(1, 2, 2).unwrap();
    assert!(!g.tex_is_cube(1, flat).unwrap());
    assert_eq!(
        g.tex_upload_face(1, flat, 1, &[0; 4]),
        Err(Error::BadCubeFace {
            face: 1,
            cube: false
        })
    );
    g.tex_upload_face(1, flat, 0, &[7; 4]).unwrap();
    // Another owner's handle.
    assert!(g.tex_upload_face(2, t, 0, &[0; 16]).is_err());
    assert!(g.mock_log().contains("tex-cube"));
    assert!(g.mock_log().contains("tex-face"));
    assert!(!Error::CubeNotSquare {
        width: 1,
        height: 2
    }
    .to_string()
    .is_empty());
    g.drop_owner(1);
    assert_eq!(g.stats().cpu_texture_bytes, before);
}

const CUBE_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform samplerCube sky;
out vec4 color;
void main() {
    // Left half looks along +x, right half along -z; textureSize is the face size.
    vec3 d = fragUV.x < 0.5 ? vec3(1.0, 0.1, 0.2) : vec3(0.1, -0.2, -1.0);
    ivec2 s = textureSize(sky, 0);
    color = vec4(texture(sky, d).rgb, float(s.x) / 4.0);
}
";

#[test]
fn samplercube_draw_reads_the_faces_gl_picks() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let cube = g.tex_create_cube(0, 4, 4).unwrap();
    for f in 0..6u32 {
        // Face f is one colour: blue channel 0x10 * (f + 1).
        g.tex_upload_face(0, cube, f, &[0xFF00_0000 | (0x10 * (f + 1)); 16])
            .unwrap();
    }
    let p = prog(&mut g, c, PASS_VERT, CUBE_FRAG);
    let quad = screen_quad(&mut g);
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(cube)).unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(&mut g, t);
    // +x is face 0 (0x10), -z face 5 (0x60); alpha = 4 / 4.
    assert_eq!(px[0], 0xFF00_0010);
    assert_eq!(px[(W - 1) as usize], 0xFF00_0060);
    // A 2D texture under samplerCube samples as incomplete (opaque black).
    let flat = g.tex_create(0, 4, 4).unwrap();
    g.tex_upload(0, flat, &[0xFFFF_FFFF; 16]).unwrap();
    g.begin(0, c, t).unwrap();
    g.clear(0, c, [1.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.bind_texture(0, c, 0, Some(flat)).unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(&mut g, t);
    assert_eq!(px[0] & 0x00FF_FFFF, 0, "{:08x}", px[0]);
}

const SHADOW_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DShadow shadowMap;
uniform float ref;
out vec4 color;
void main() {
    float lit = texture(shadowMap, vec3(fragUV, ref));
    float proj = textureProj(shadowMap, vec4(fragUV * 2.0, ref * 2.0, 2.0));
    color = vec4(lit, proj, 0.0, 1.0);
}
";

#[test]
fn sampler2dshadow_compares_a_targets_depth() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let b = g.target_create(0, c, W, H).unwrap();
    // Depth pass: the left half at window depth 0.75, the right half cleared to 1.0.
    let tri = prog(&mut g, c, TRI_VERT, TRI_FRAG);
    let left = rect(&mut g, [-1.0, -1.0, 0.0, 1.0], 0.5);
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.draw(0, c, left).unwrap();
    g.end(0, c).unwrap();
    let p = prog(&mut g, c, PASS_VERT, SHADOW_FRAG);
    let quad = screen_quad(&mut g);
    for func in CompareFunc::ALL {
        for r in [0.5f32, 0.75, 0.9] {
            let sampler = SamplerState {
                compare: Some(func),
                ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
            };
            g.begin(0, c, b).unwrap();
            g.clear(0, c, [0.0; 4], true).unwrap();
            g.use_program(0, c, p).unwrap();
            g.uniform_f(0, c, "ref", &[r]).unwrap();
            g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, sampler)
                .unwrap();
            g.draw(0, c, quad).unwrap();
            g.end(0, c).unwrap();
            let px = read(&mut g, b);
            for (x, d) in [(0usize, 0.75f32), ((W - 1) as usize, 1.0)] {
                let pass = match func {
                    CompareFunc::Never => false,
                    CompareFunc::Less => r < d,
                    CompareFunc::Equal => r == d,
                    CompareFunc::LessEqual => r <= d,
                    CompareFunc::Greater => r > d,
                    CompareFunc::NotEqual => r != d,
                    CompareFunc::GreaterEqual => r >= d,
                    CompareFunc::Always => true,
                };
                let want = if pass { 0xFF } else { 0 };
                let got = px[x + W as usize * 3];
                assert_eq!(
                    (got >> 16) & 0xFF,
                    want,
                    "{func:?} ref {r} depth {d}: {got:08x}"
                );
                // textureProj: (uv * 2, ref * 2) / 2 is the same sample.
                assert_eq!((got >> 8) & 0xFF, want, "proj {func:?} ref {r} depth {d}");
            }
        }
    }
    // Sampling the target being drawn into is still an error.
    g.begin(0, c, a).unwrap();
    assert_eq!(
        g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, SamplerState::default()),
        Err(Error::SampleTargetInFrame)
    );
    g.end(0, c).unwrap();
}

const SHADOW_OFFSET_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 fragUV;
uniform sampler2DShadow shadowMap;
uniform float ref;
out vec4 color;
void main() {
    vec3 p = vec3(fragUV, ref);
    float a = textureOffset(shadowMap, p, ivec2(2, 0));
    float b = textureGradOffset(shadowMap, p, dFdx(fragUV), dFdy(fragUV), ivec2(-1, 0));
    float c = textureGrad(shadowMap, p, vec2(0.0), vec2(0.0));
    color = vec4(a, b, c, 1.0);
}
";

/// Texel offsets and textureGrad/textureGradOffset of a sampler2DShadow (issue 15 shadow
/// leftovers): the offset moves the compare's depth boundary by whole texels.
#[test]
fn sampler2dshadow_offsets_and_grad_move_the_compare() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let a = g.target_create(0, c, W, H).unwrap();
    let b = g.target_create(0, c, W, H).unwrap();
    // Depth: texels x < 4 at 0.75, the others 1.0.
    let tri = prog(&mut g, c, TRI_VERT, TRI_FRAG);
    let left = rect(&mut g, [-1.0, -1.0, 0.0, 1.0], 0.5);
    g.begin(0, c, a).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, tri).unwrap();
    g.draw(0, c, left).unwrap();
    g.end(0, c).unwrap();
    let p = prog(&mut g, c, PASS_VERT, SHADOW_OFFSET_FRAG);
    let quad = screen_quad(&mut g);
    let sampler = SamplerState {
        compare: Some(CompareFunc::Less),
        ..SamplerState::new(Filter::Nearest, Wrap::ClampToEdge)
    };
    g.begin(0, c, b).unwrap();
    g.clear(0, c, [0.0; 4], true).unwrap();
    g.use_program(0, c, p).unwrap();
    // 0.9 < d passes only where d = 1.0.
    g.uniform_f(0, c, "ref", &[0.9]).unwrap();
    g.bind_target_texture(0, c, 0, a, TargetPlane::Depth, sampler)
        .unwrap();
    g.draw(0, c, quad).unwrap();
    g.end(0, c).unwrap();
    let px = read(&mut g, b);
    for x in 0..W as usize {
        let got = px[x + W as usize * 3];
        let lit = |texel: i32| if texel >= 4 { 0xFF } else { 0 };
        let xi = x as i32;
        assert_eq!(
            (got >> 16) & 0xFF,
            lit(xi + 2),
            "offset (2, 0) at x {x}: {got:08x}"
        );
        assert_eq!(
            (got >> 8) & 0xFF,
            lit(xi - 1),
            "grad offset (-1, 0) at x {x}: {got:08x}"
        );
        assert_eq!(got & 0xFF, lit(xi), "grad at x {x}: {got:08x}");
    }
}

#[test]
fn cube_and_compare_fuzz_never_panics() {
    let mut g = boot(BackendMode::Software);
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let p = prog(&mut g, c, PASS_VERT, CUBE_FRAG);
    let quad = screen_quad(&mut g);
    let mut s = 0x9E37_79B9u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    for _ in 0..200 {
        let (w, h) = (next() % 40, next() % 40);
        let Ok(cube) = g.tex_create_cube(0, w, h) else {
            continue;
        };
        for _ in 0..4 {
            let face = next() % 8;
            let n = (next() % 2000) as usize;
            let _ = g.tex_upload_face(0, cube, face, &vec![next(); n]);
        }
        if next() % 2 == 0 {
            g.tex_generate_mipmaps(0, cube).unwrap();
        }
        let sampler = SamplerState {
            compare: [None, Some(CompareFunc::ALL[(next() % 8) as usize])][(next() % 2) as usize],
            ..SamplerState::new(Filter::Linear, Wrap::MirroredRepeat)
        };
        let _ = g.tex_sampler(0, cube, sampler);
        if next() % 4 == 0 {
            g.begin(0, c, t).unwrap();
            g.use_program(0, c, p).unwrap();
            g.bind_texture(0, c, 0, Some(cube)).unwrap();
            g.draw(0, c, quad).unwrap();
            g.end(0, c).unwrap();
        }
        g.tex_destroy(0, cube).unwrap();
    }
}
