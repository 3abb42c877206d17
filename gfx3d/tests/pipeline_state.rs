//! Pipeline state on the software backend with exact expected values computed here from GL's
//! formulas (blend factors and equations on UNORM8, depth functions, colour and depth masks,
//! depth clear value, scissor, polygon offset, front face and culling), the mock log of the new
//! calls, and API misuse (bad values, wrong owner, stale handles, drop_owner resets the state).
use gfx3d::glsl::*;
use gfx3d::linked::Linked;
use gfx3d::state::*;
use gfx3d::*;

mod common;
use common::{assert_nothing_live, tri_layout};

type G = Gfx3d<Linked>;
const W: u32 = 8;
const H: u32 = 8;

struct Rig {
    g: G,
    c: ContextId,
    t: TargetId,
}

fn rig() -> Rig {
    let mut g = G::new();
    g.boot(BackendMode::Software, None).unwrap();
    let c = g.context_create(0).unwrap();
    let t = g.target_create(0, c, W, H).unwrap();
    let linked = Linked::from_glsl(g.compiler(), TRI_VERT, TRI_FRAG, "tri").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    g.use_program(0, c, p).unwrap();
    Rig { g, c, t }
}

/// Rectangle in NDC at depth z with one colour, as a mesh.
fn rect(g: &mut G, r: [f32; 4], z: f32, c: [f32; 4]) -> MeshId {
    let [x0, y0, x1, y1] = r;
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, z, 1.0, c[0], c[1], c[2], c[3]]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

fn tri(g: &mut G, p: [[f32; 2]; 3], c: [f32; 4]) -> MeshId {
    let mut v = Vec::new();
    for q in p {
        v.extend_from_slice(&[q[0], q[1], 0.0, 1.0, c[0], c[1], c[2], c[3]]);
    }
    let m = g.mesh_create(0, Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}

const FULL: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];

fn read(r: &mut Rig) -> Vec<u32> {
    let mut px = vec![0u32; (W * H) as usize];
    r.g.target_read(0, r.t, &mut px).unwrap();
    px
}

/// The byte a clear writes (the contract: clamp, then v * 255 + 0.5 truncated).
fn clear_byte(v: f32) -> u32 {
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u32
}

fn argb(c: [u32; 4]) -> u32 {
    c[3] << 24 | c[0] << 16 | c[1] << 8 | c[2]
}

/// GL's factor for channel ch (3 = alpha), in single precision like the fragment colour.
fn gl_factor(f: BlendFactor, ch: usize, s: [f32; 4], d: [f32; 4], k: [f32; 4]) -> f32 {
    use BlendFactor::*;
    match f {
        Zero => 0.0,
        One => 1.0,
        SrcColor => s[ch],
        OneMinusSrcColor => 1.0 - s[ch],
        DstColor => d[ch],
        OneMinusDstColor => 1.0 - d[ch],
        SrcAlpha => s[3],
        OneMinusSrcAlpha => 1.0 - s[3],
        DstAlpha => d[3],
        OneMinusDstAlpha => 1.0 - d[3],
        ConstantColor => k[ch],
        OneMinusConstantColor => 1.0 - k[ch],
        ConstantAlpha => k[3],
        OneMinusConstantAlpha => 1.0 - k[3],
        SrcAlphaSaturate if ch == 3 => 1.0,
        SrcAlphaSaturate => s[3].min(1.0 - d[3]),
    }
}

/// GL's blend on a UNORM8 target: source, destination and constant clamped to [0, 1], the
/// equation in f32, the result clamped, then v * 255 rounded to nearest (ties to even, the
/// project's conversion for every colour write).
fn gl_blend(b: &Blend, src: [f32; 4], dst: [u32; 4]) -> u32 {
    let s = src.map(|v| v.clamp(0.0, 1.0));
    let d = dst.map(|v| v as f32 / 255.0);
    let k = b.constant.map(|v| v.clamp(0.0, 1.0));
    let mut out = [0u32; 4];
    for ch in 0..4 {
        let part = if ch == 3 { &b.alpha } else { &b.color };
        let x = s[ch] * gl_factor(part.src, ch, s, d, k);
        let y = d[ch] * gl_factor(part.dst, ch, s, d, k);
        let v = match part.op {
            BlendOp::Add => x + y,
            BlendOp::Subtract => x - y,
            BlendOp::ReverseSubtract => y - x,
            BlendOp::Min => s[ch].min(d[ch]),
            BlendOp::Max => s[ch].max(d[ch]),
        };
        out[ch] = (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32;
    }
    argb(out)
}

/// (source colour, destination clear colour) pairs.
const PAIRS: [([f32; 4], [f32; 4]); 3] = [
    ([0.2, 0.6, 1.0, 0.4], [0.8, 0.4, 0.2, 0.6]),
    ([0.9, 0.1, 0.55, 0.75], [0.1, 0.7, 0.3, 0.2]),
    ([1.0, 0.3, 0.0, 1.0], [0.0, 0.5, 1.0, 0.0]),
];
const CONSTANT: [f32; 4] = [0.3, 0.5, 0.7, 0.25];

fn blend_case(r: &mut Rig, b: &Blend, src: [f32; 4], dst: [f32; 4]) -> (u32, u32) {
    let m = rect(&mut r.g, FULL, 0.0, src);
    r.g.begin(0, r.c, r.t).unwrap();
    r.g.clear(0, r.c, dst, true).unwrap();
    r.g.set_blend(0, r.c, Some(*b)).unwrap();
    r.g.draw(0, r.c, m).unwrap();
    r.g.end(0, r.c).unwrap();
    r.g.mesh_destroy(0, m).unwrap();
    let got = read(r)[(W * H / 2 + W / 2) as usize];
    (got, gl_blend(b, src, dst.map(clear_byte)))
}

#[test]
fn every_blend_factor_matches_gl() {
    let mut r = rig();
    let mut bad = Vec::new();
    let mut n = 0;
    for &sf in &BlendFactor::ALL {
        for &df in &BlendFactor::ALL {
            for (src, dst) in PAIRS {
                // Colour and alpha use the pair crosswise, so each factor is seen on both.
                let b = Blend {
                    color: BlendComponent {
                        src: sf,
                        dst: df,
                        op: BlendOp::Add,
                    },
                    alpha: BlendComponent {
                        src: df,
                        dst: sf,
                        op: BlendOp::Add,
                    },
                    constant: CONSTANT,
                };
                let (got, want) = blend_case(&mut r, &b, src, dst);
                n += 1;
                if got != want {
                    bad.push(format!(
                        "{:?}/{:?} {:?} over {:?}: {:08x} want {:08x}",
                        sf, df, src, dst, got, want
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} wrong:\n{}",
        bad.len(),
        n,
        bad.join("\n")
    );
}

#[test]
fn every_blend_equation_matches_gl() {
    let mut r = rig();
    let mut bad = Vec::new();
    for &op in &BlendOp::ALL {
        for &aop in &BlendOp::ALL {
            for (src, dst) in PAIRS {
                let b = Blend {
                    color: BlendComponent {
                        src: BlendFactor::SrcAlpha,
                        dst: BlendFactor::OneMinusSrcColor,
                        op,
                    },
                    alpha: BlendComponent {
                        src: BlendFactor::One,
                        dst: BlendFactor::ConstantAlpha,
                        op: aop,
                    },
                    constant: CONSTANT,
                };
                let (got, want) = blend_case(&mut r, &b, src, dst);
                if got != want {
                    bad.push(format!(
                        "{:?}/{:?} {:?} over {:?}: {:08x} want {:08x}",
                        op, aop, src, dst, got, want
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn blending_off_again_is_opaque_and_constant_is_clamped() {
    let mut r = rig();
    let b = Blend {
        color: BlendComponent {
            src: BlendFactor::ConstantColor,
            dst: BlendFactor::Zero,
            op: BlendOp::Add,
        },
        alpha: BlendComponent::REPLACE,
        constant: [2.0, -1.0, 0.5, 1.0],
    };
    let (got, want) = blend_case(&mut r, &b, [1.0, 1.0, 1.0, 1.0], [0.0; 4]);
    assert_eq!(got, want);
    assert_eq!(
        got & 0x00FF_FF00,
        0x00FF_0000,
        "constant clamped to [0, 1]: {:08x}",
        got
    );
    let m = rect(&mut r.g, FULL, 0.0, [0.2, 0.4, 0.6, 0.5]);
    r.g.begin(0, r.c, r.t).unwrap();
    r.g.clear(0, r.c, [0.0; 4], true).unwrap();
    r.g.set_blend(0, r.c, None).unwrap();
    r.g.draw(0, r.c, m).unwrap();
    r.g.end(0, r.c).unwrap();
    assert_eq!(read(&mut r)[0], gfx3d::pack_color([0.2, 0.4, 0.6, 0.5]));
}

#[test]
fn every_depth_function_compares_fragment_to_stored() {
    let mut r = rig();
    // Window depths 0.25, 0.5, 0.75 against a buffer cleared to 0.5.
    for &func in &CompareFunc::ALL {
        for (z, wz) in [(-0.5f32, 0.25f32), (0.0, 0.5), (0.5, 0.75)] {
            let m = rect(&mut r.g, FULL, z, [1.0, 0.0, 0.0, 1.0]);
            r.g.begin(0, r.c, r.t).unwrap();
            r.g.set_depth(
                0,
                r.c,
                DepthDesc {
                    clear: 0.5,
                    ..DepthDesc::DEFAULT
                },
            )
            .unwrap();
            r.g.clear(0, r.c, [0.0, 0.0, 1.0, 1.0], true).unwrap();
            r.g.set_depth(
                0,
                r.c,
                DepthDesc {
                    func,
                    clear: 0.5,
                    ..DepthDesc::DEFAULT
                },
            )
            .unwrap();
            r.g.draw(0, r.c, m).unwrap();
            r.g.end(0, r.c).unwrap();
            r.g.mesh_destroy(0, m).unwrap();
            let want = match func {
                CompareFunc::Never => false,
                CompareFunc::Less => wz < 0.5,
                CompareFunc::Equal => wz == 0.5,
                CompareFunc::LessEqual => wz <= 0.5,
                CompareFunc::Greater => wz > 0.5,
                CompareFunc::NotEqual => wz != 0.5,
                CompareFunc::GreaterEqual => wz >= 0.5,
                CompareFunc::Always => true,
            };
            let px = read(&mut r);
            let drawn = px.iter().all(|&p| p == 0xFFFF_0000);
            let kept = px.iter().all(|&p| p == 0xFF00_00FF);
            assert!(
                if want { drawn } else { kept },
                "{:?} at {}: {:08x}",
                func,
                wz,
                px[0]
            );
        }
    }
}

#[test]
fn depth_test_off_ignores_the_function_and_write_mask_off_keeps_depth() {
    let mut r = rig();
    let near = rect(&mut r.g, FULL, -0.5, [1.0, 0.0, 0.0, 1.0]);
    let far = rect(&mut r.g, FULL, 0.5, [0.0, 1.0, 0.0, 1.0]);
    r.g.begin(0, r.c, r.t).unwrap();
    r.g.clear(0, r.c, [0.0; 4], true).unwrap();
    r.g.set_depth(
        0,
        r.c,
        DepthDesc {
            write: false,
            ..DepthDesc::DEFAULT
        },
    )
    .unwrap();
    r.g.draw(0, r.c, near).unwrap();
    r.g.draw(0, r.c, far).unwrap();
    r.g.end(0, r.c).unwrap();
    assert_eq!(
        read(&mut r)[0],
        0xFF00_FF00,
        "far passes: near wrote no depth"
    );
    r.g.begin(0, r.c, r.t).unwrap();
    r.g.clear(0, r.c, [0.0; 4], true).unwrap();
    r.g.set_depth(
        0,
        r.c,
        DepthDesc {
            test: false,
            func: CompareFunc::Never,
            ..DepthDesc::DEFAULT
        },
    )
    .unwrap();
    r.g.draw(0, r.c, near).unwrap();
    r.g.draw(0, r.c, far).unwrap();
    r.g.end(0, r.c).unwrap();
    assert_eq!(read(&mut r)[0], 0xFF00_FF00, "test off: every draw lands");
}

#[test]
fn every_colour_mask_keeps_the_masked_channels() {
    let mut r = rig();
    let m = rect(&mut r.g, FULL, 0.0, [1.0, 1.0, 1.0, 1.0]);
    for bits in 0..16u32 {
        let mask = ColorMask {
            r: bits & 1 != 0,
            g: bits & 2 != 0,
            b: bits & 4 != 0,
            a: bits & 8 != 0,
        };
        r.g.begin(0, r.c, r.t).unwrap();
        r.g.set_color_mask(0, r.c, ColorMask::ALL).unwrap();
        r.g.clear(0, r.c, [0.2, 0.4, 0.6, 0.8], true).unwrap();
        r.g.set_color_mask(0, r.c, mask).unwrap();
        r.g.draw(0, r.c, m).unwrap();
        r.g.end(0, r.c).unwrap();
        let dst = gfx3d::pack_color([0.2, 0.4, 0.6, 0.8]);
        let keep = mask.bits();
        assert_eq!(read(&mut r)[0], keep | (dst & !keep), "mask {:04b}", bits);
    }
}

#[test]
fn scissor_clips_to_a_lower_left_rectangle() {
    let mut r = rig();
    let m = rect(&mut r.g, FULL, 0.0, [1.0, 0.0, 0.0, 1.0]);
    for s in [
        Scissor {
            x: 1,
            y: 2,
            width: 3,
            height: 4,
        },
        Scissor {
            x: -3,
            y: 5,
            width: 5,
            height: 9,
        },
        Scissor {
            x: 2,
            y: 2,
            width: 0,
            height: 3,
        },
    ] {
        r.g.begin(0, r.c, r.t).unwrap();
        r.g.set_scissor(0, r.c, Some(s)).unwrap();
        r.g.clear(0, r.c, [0.0; 4], true).unwrap();
        r.g.draw(0, r.c, m).unwrap();
        r.g.end(0, r.c).unwrap();
        let px = read(&mut r);
        for row in 0..H as i32 {
            let y = H as i32 - 1 - row; // GL row from the bottom
            for x in 0..W as i32 {
                let inside =
                    x >= s.x && x < s.x + s.width as i32 && y >= s.y && y < s.y + s.height as i32;
                let p = px[(row * W as i32 + x) as usize];
                assert_eq!(
                    p == 0xFFFF_0000,
                    inside,
                    "{:?} at ({}, {}) = {:08x}",
                    s,
                    x,
                    y,
                    p
                );
            }
        }
    }
    // The clear is not scissored, and None turns it off.
    r.g.begin(0, r.c, r.t).unwrap();
    r.g.set_scissor(0, r.c, None).unwrap();
    r.g.clear(0, r.c, [0.0; 4], true).unwrap();
    r.g.draw(0, r.c, m).unwrap();
    r.g.end(0, r.c).unwrap();
    assert!(read(&mut r).iter().all(|&p| p == 0xFFFF_0000));
}

#[test]
fn polygon_offset_units_use_the_float_depth_resolution() {
    // At window depth 0.5 (exponent -1) r = 2^-24. The buffer holds 0.5 + 2 r.
    let mut r = rig();
    let m = rect(&mut r.g, FULL, 0.0, [1.0, 0.0, 0.0, 1.0]);
    let stored = 0.5f32 + 2.0 * 2f32.powi(-24);
    for (units, pass) in [
        (0.0f32, true),
        (1.0, true),
        (1.4, true),
        (2.0, false),
        (3.0, false),
        (-5.0, true),
    ] {
        r.g.begin(0, r.c, r.t).unwrap();
        r.g.set_depth(
            0,
            r.c,
            DepthDesc {
                clear: stored,
                ..DepthDesc::DEFAULT
            },
        )
        .unwrap();
        r.g.clear(0, r.c, [0.0; 4], true).unwrap();
        r.g.set_polygon_offset(0, r.c, 0.0, units).unwrap();
        r.g.draw(0, r.c, m).unwrap();
        r.g.end(0, r.c).unwrap();
        assert_eq!(read(&mut r)[0] == 0xFFFF_0000, pass, "units {}", units);
    }
    // The factor scales the largest depth slope: z_ndc = x here, so window dz/dx = 0.5 * 2 / W.
    let slope = 1.0 / W as f32;
    assert_eq!(
        shader::back::raster::state::polygon_offset(2.0, 0.0, slope, 0.0, 0.5),
        2.0 * slope
    );
    assert_eq!(
        shader::back::raster::state::polygon_offset(0.0, 1.0, 0.0, 0.0, 0.75),
        2f32.powi(-24)
    );
    assert_eq!(
        shader::back::raster::state::polygon_offset(0.0, 1.0, 0.0, -0.3, 1.0),
        2f32.powi(-23) + 0.0
    );
    assert_eq!(
        shader::back::raster::state::polygon_offset(0.0, 1.0, 0.0, 0.0, 0.0),
        0.0
    );
    // On a sloped plane a negative factor pulls a coplanar copy in front.
    let mut v = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        v.extend_from_slice(&[x, y, x * 0.5, 1.0, 0.0, 1.0, 0.0, 1.0]);
    }
    let plane = r.g.mesh_create(0, Usage::Static).unwrap();
    r.g.mesh_upload_f32(0, plane, &tri_layout(), &v, None)
        .unwrap();
    for c in v.chunks_mut(8) {
        c[4..8].copy_from_slice(&[1.0, 0.0, 0.0, 1.0]);
    }
    let copy = r.g.mesh_create(0, Usage::Static).unwrap();
    r.g.mesh_upload_f32(0, copy, &tri_layout(), &v, None)
        .unwrap();
    for (factor, front) in [(-1.0f32, true), (1.0, false)] {
        r.g.begin(0, r.c, r.t).unwrap();
        r.g.set_depth(0, r.c, DepthDesc::DEFAULT).unwrap();
        r.g.clear(0, r.c, [0.0; 4], true).unwrap();
        r.g.set_polygon_offset(0, r.c, 0.0, 0.0).unwrap();
        r.g.draw(0, r.c, plane).unwrap();
        r.g.set_polygon_offset(0, r.c, factor, 0.0).unwrap();
        r.g.draw(0, r.c, copy).unwrap();
        r.g.end(0, r.c).unwrap();
        let px = read(&mut r);
        let red = px.iter().filter(|&&p| p == 0xFFFF_0000).count();
        assert_eq!(red == px.len(), front, "factor {}: {} red", factor, red);
        assert_eq!(red == 0, !front, "factor {}: {} red", factor, red);
    }
}

#[test]
fn front_face_and_cull_combinations() {
    let mut r = rig();
    // Counter-clockwise in GL window space (y up) and its mirror.
    let ccw = tri(
        &mut r.g,
        [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]],
        [1.0, 0.0, 0.0, 1.0],
    );
    let cw = tri(
        &mut r.g,
        [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0]],
        [1.0, 0.0, 0.0, 1.0],
    );
    for front in [FrontFace::Ccw, FrontFace::Cw] {
        for cull in [
            CullFace::None,
            CullFace::Front,
            CullFace::Back,
            CullFace::FrontAndBack,
        ] {
            for (mesh, is_ccw) in [(ccw, true), (cw, false)] {
                r.g.begin(0, r.c, r.t).unwrap();
                r.g.clear(0, r.c, [0.0; 4], true).unwrap();
                r.g.set_raster(0, r.c, front, cull).unwrap();
                r.g.draw(0, r.c, mesh).unwrap();
                r.g.end(0, r.c).unwrap();
                let is_front = is_ccw == (front == FrontFace::Ccw);
                let culled = match cull {
                    CullFace::None => false,
                    CullFace::Front => is_front,
                    CullFace::Back => !is_front,
                    CullFace::FrontAndBack => true,
                };
                let drawn = read(&mut r)[(H - 1) as usize * W as usize] == 0xFFFF_0000;
                assert_eq!(drawn, !culled, "{:?} {:?} ccw={}", front, cull, is_ccw);
            }
        }
    }
    // cull_back is set_raster's Back with the current front face.
    r.g.set_raster(0, r.c, FrontFace::Cw, CullFace::None)
        .unwrap();
    r.g.cull_back(0, r.c, true).unwrap();
    let p = r.g.pipeline(0, r.c).unwrap();
    assert_eq!((p.front_face, p.cull), (FrontFace::Cw, CullFace::Back));
}

#[test]
fn defaults_are_todays_behaviour() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let p = g.pipeline(0, c).unwrap();
    assert_eq!(p, Pipeline::DEFAULT);
    assert_eq!(
        g.depth(0, c).unwrap(),
        DepthDesc {
            test: true,
            func: CompareFunc::Less,
            write: true,
            clear: 1.0
        }
    );
    assert!(p.opaque());
}

#[test]
fn mock_log_records_the_state_calls() {
    let mut g = G::new();
    g.boot(BackendMode::Mock, None).unwrap();
    let c = g.context_create(0).unwrap();
    g.set_blend(0, c, Some(Blend::ALPHA)).unwrap();
    g.set_blend(0, c, None).unwrap();
    g.set_depth(
        0,
        c,
        DepthDesc {
            func: CompareFunc::GreaterEqual,
            write: false,
            ..DepthDesc::DEFAULT
        },
    )
    .unwrap();
    g.set_color_mask(
        0,
        c,
        ColorMask {
            r: true,
            g: false,
            b: true,
            a: false,
        },
    )
    .unwrap();
    g.set_scissor(
        0,
        c,
        Some(Scissor {
            x: 1,
            y: 2,
            width: 3,
            height: 4,
        }),
    )
    .unwrap();
    g.set_scissor(0, c, None).unwrap();
    g.set_polygon_offset(0, c, 1.5, -2.0).unwrap();
    g.set_raster(0, c, FrontFace::Cw, CullFace::FrontAndBack)
        .unwrap();
    assert_eq!(
        g.mock_log(),
        "blend 302,303,8006 302,303,8006 [0.0, 0.0, 0.0, 0.0]\nblend off\ndepth on 206 write=0 clear=1\n\
         mask r-b-\nscissor 1,2 3x4\nscissor off\noffset 1.5 -2\nraster Cw FrontAndBack\n"
    );
    // A refused value is not logged.
    assert!(g.set_polygon_offset(0, c, f32::NAN, 0.0).is_err());
    assert!(g.mock_log().ends_with("raster Cw FrontAndBack\n"));
}

#[test]
fn bad_values_are_errors() {
    let mut g = G::new();
    let c = g.context_create(0).unwrap();
    let nan_blend = Blend {
        constant: [0.0, f32::NAN, 0.0, 0.0],
        ..Blend::ALPHA
    };
    let inf_blend = Blend {
        constant: [f32::INFINITY, 0.0, 0.0, 0.0],
        ..Blend::ALPHA
    };
    for b in [nan_blend, inf_blend] {
        assert!(matches!(
            g.set_blend(0, c, Some(b)),
            Err(Error::BadState { .. })
        ));
    }
    for clear in [f32::NAN, -0.1, 1.5, f32::INFINITY] {
        let e = g
            .set_depth(
                0,
                c,
                DepthDesc {
                    clear,
                    ..DepthDesc::DEFAULT
                },
            )
            .unwrap_err();
        assert!(e.to_string().contains("depth clear value"), "{}", e);
    }
    for s in [
        Scissor {
            x: 0,
            y: 0,
            width: 8193,
            height: 1,
        },
        Scissor {
            x: 0,
            y: 0,
            width: 1,
            height: u32::MAX,
        },
        Scissor {
            x: i32::MIN,
            y: 0,
            width: 1,
            height: 1,
        },
        Scissor {
            x: 0,
            y: 9000,
            width: 1,
            height: 1,
        },
    ] {
        assert!(
            matches!(g.set_scissor(0, c, Some(s)), Err(Error::BadState { .. })),
            "{:?}",
            s
        );
    }
    for (f, u) in [
        (f32::NAN, 0.0),
        (0.0, f32::INFINITY),
        (f32::NEG_INFINITY, 1.0),
    ] {
        assert!(matches!(
            g.set_polygon_offset(0, c, f, u),
            Err(Error::BadState { .. })
        ));
    }
    // Nothing refused changed the state.
    assert_eq!(g.pipeline(0, c).unwrap(), Pipeline::DEFAULT);
    assert_eq!(g.depth(0, c).unwrap(), DepthDesc::DEFAULT);
    // Raw numbers: GL's values decode, anything else is an error naming the value.
    assert_eq!(
        blend_component_from_gl(0x302, 0x303, 0x8006).unwrap(),
        BlendComponent::OVER
    );
    assert!(matches!(
        blend_component_from_gl(0x309, 1, 0x8006),
        Err(Error::BadEnum { value: 0x309, .. })
    ));
    assert!(matches!(
        blend_component_from_gl(1, 0, 0x8009),
        Err(Error::BadEnum { value: 0x8009, .. })
    ));
    assert_eq!(compare_from_gl(0x203).unwrap(), CompareFunc::LessEqual);
    assert!(compare_from_gl(0x208).is_err());
    assert_eq!(front_face_from_gl(0x900).unwrap(), FrontFace::Cw);
    assert!(front_face_from_gl(0).is_err());
    assert_eq!(cull_face_from_gl(0x408).unwrap(), CullFace::FrontAndBack);
    let e = cull_face_from_gl(0x406).unwrap_err();
    assert_eq!(e.to_string(), "unknown cull face value 0x406");
    for f in BlendFactor::ALL {
        assert_eq!(BlendFactor::from_gl(f.gl()), Some(f));
    }
    for f in CompareFunc::ALL {
        assert_eq!(CompareFunc::from_gl(f.gl()), Some(f));
    }
}

#[test]
fn wrong_owner_and_stale_handles_are_refused_and_drop_owner_resets() {
    let mut g = G::new();
    let c = g.context_create(7).unwrap();
    type Call = dyn Fn(&mut G, u32, ContextId) -> Result<()>;
    let calls: [&Call; 6] = [
        &|g, o, c| g.set_blend(o, c, Some(Blend::ALPHA)),
        &|g, o, c| g.set_depth(o, c, DepthDesc::DEFAULT),
        &|g, o, c| g.set_color_mask(o, c, ColorMask::ALL),
        &|g, o, c| g.set_scissor(o, c, None),
        &|g, o, c| g.set_polygon_offset(o, c, 1.0, 1.0),
        &|g, o, c| g.set_raster(o, c, FrontFace::Cw, CullFace::Back),
    ];
    for call in calls.iter() {
        assert!(call(&mut g, 8, c).is_err(), "wrong owner accepted");
    }
    assert_eq!(g.pipeline(7, c).unwrap(), Pipeline::DEFAULT);
    for call in calls.iter() {
        call(&mut g, 7, c).unwrap();
    }
    assert_ne!(g.pipeline(7, c).unwrap(), Pipeline::DEFAULT);
    g.drop_owner(7);
    for call in calls.iter() {
        assert!(matches!(call(&mut g, 7, c), Err(Error::StaleHandle { .. })));
    }
    assert!(g.pipeline(7, c).is_err());
    let c2 = g.context_create(7).unwrap();
    assert_eq!(
        g.pipeline(7, c2).unwrap(),
        Pipeline::DEFAULT,
        "a new context starts at the defaults"
    );
    assert_eq!(g.depth(7, c2).unwrap(), DepthDesc::DEFAULT);
    g.drop_owner(7);
    assert_nothing_live(&g.stats(), "after drop_owner");
}
