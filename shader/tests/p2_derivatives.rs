//! Profile 2's derivatives (issue 15 item 1): `dFdx`, `dFdy`, `fwidth` in fragment shaders,
//! the IR ops DDX/DDY through the verifier, the executor (fine differences inside 2x2 quads,
//! as llvmpipe), the rasterizer (quads aligned to even window coordinates, helper lanes that
//! are shaded but never written, early depth unchanged), `soft_fs` (0) and TGSI (DDX/DDY);
//! and gl_FrontFacing (issue 15 item 5, IR LOAD_FACE, TGSI FACE).
mod ircore_util;
use ircore_util::p2::{build, link_glsl, Bands};
use shader::back::raster::{
    draw_parallel, draw_parallel_float, soft_fs, CompareFunc, Pipeline, RasterState, Scratch,
    Serial, Target, VertexAttrib, VertexInput,
};
use shader::back::tgsi::check_tgsi;
use shader::ir::Op;
use shader::program::compile::compile;
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec3 pos;
void main() { gl_Position = vec4(pos, 1.0); }";

fn first_error(stage: u32, src: &str) -> String {
    match compile(stage, src.as_bytes(), "t") {
        Ok(_) => panic!("compiled: {}", src),
        Err(d) => {
            let mut s = String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            s
        }
    }
}

fn program(fs: &str) -> Program {
    link_glsl(VS, fs)
}

struct Img {
    w: u32,
    h: u32,
    color: Vec<[f32; 4]>,
    packed: Vec<u32>,
    depth: Vec<f32>,
}

impl Img {
    fn new(w: u32, h: u32) -> Img {
        let n = (w * h) as usize;
        Img {
            w,
            h,
            color: vec![[-1.0; 4]; n],
            packed: vec![0; n],
            depth: vec![1.0; n],
        }
    }

    fn at(&self, x: u32, row: u32) -> [f32; 4] {
        self.color[(row * self.w + x) as usize]
    }
}

/// Draws triangles (x, y, z per vertex, clip space) into a float target.
fn draw(prog: &Program, verts: &[[f32; 3]], img: &mut Img, bands: usize, depth_test: bool) {
    let data: Vec<f32> = verts.iter().flatten().copied().collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 3,
    }];
    let input = VertexInput {
        data: &data,
        stride: 3,
        attribs: &attribs,
        count: verts.len() as u32,
    };
    let st = RasterState {
        depth_test,
        ..RasterState::new(img.w, img.h)
    };
    let mut scratches: Vec<Scratch> = (0..bands.max(1)).map(|_| Scratch::new()).collect();
    let mut t = Target {
        width: img.w,
        height: img.h,
        color: &mut img.packed,
        depth: &mut img.depth,
    };
    let pipe = Pipeline {
        depth_func: CompareFunc::Less,
        ..Pipeline::DEFAULT
    };
    draw_parallel_float(
        &Bands(bands),
        &mut scratches,
        prog,
        &input,
        &[],
        0,
        None,
        &[None, None, None, None],
        &st,
        &pipe,
        &mut t,
        &mut img.color,
    )
    .expect("drawn");
}

fn fullscreen(z: f32) -> Vec<[f32; 3]> {
    vec![[-1.0, -1.0, z], [3.0, -1.0, z], [-1.0, 3.0, z]]
}

/// GL window coordinates of the pixel centre at column x, memory row `row`.
fn window(img: &Img, x: u32, row: u32) -> (f32, f32) {
    (x as f32 + 0.5, (img.h - 1 - row) as f32 + 0.5)
}

#[test]
fn fine_derivatives_in_quads_aligned_to_even_window_coordinates() {
    // x*y: dFdx is the lane's own y, dFdy its own x (fine, as llvmpipe). x*x and y*y: the
    // difference across the quad, which shows where the quads are (even window x and y).
    let prog = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    vec2 p = gl_FragCoord.xy;
    c = vec4(dFdx(p.x * p.y), dFdy(p.x * p.y), dFdx(p.x * p.x), dFdy(p.y * p.y));
}",
    );
    // An odd height: window rows and memory rows have opposite parities.
    for (w, h, bands) in [(8, 8, 1), (9, 7, 1), (10, 11, 3), (6, 13, 4)] {
        let mut img = Img::new(w, h);
        draw(&prog, &fullscreen(0.0), &mut img, bands, false);
        for row in 0..h {
            for x in 0..w {
                let (wx, wy) = window(&img, x, row);
                let qx = (x & !1) as f32 + 0.5;
                let qy = ((h - 1 - row) & !1) as f32 + 0.5;
                let want = [
                    wy,
                    wx,
                    (qx + 1.0) * (qx + 1.0) - qx * qx,
                    (qy + 1.0) * (qy + 1.0) - qy * qy,
                ];
                assert_eq!(
                    img.at(x, row),
                    want,
                    "{}x{} ({} bands) pixel {} row {}",
                    w,
                    h,
                    bands,
                    x,
                    row
                );
            }
        }
    }
}

#[test]
fn fwidth_is_the_sum_of_absolute_derivatives_for_every_gentype() {
    let prog = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    vec2 p = gl_FragCoord.xy;
    float f = fwidth(3.0 * p.x - 2.0 * p.y);
    vec2 v2 = fwidth(vec2(p.x, -p.y * 4.0));
    vec3 v3 = dFdx(vec3(p, 1.0)) + dFdy(vec3(p, 1.0)) * 10.0;
    vec4 v4 = fwidth(vec4(p, p * 0.5));
    c = vec4(f, v2.x + v2.y * 10.0, v3.x + v3.y * 100.0 + v3.z, v4.x + v4.y + v4.z + v4.w);
}",
    );
    let mut img = Img::new(6, 6);
    draw(&prog, &fullscreen(0.0), &mut img, 1, false);
    for row in 0..6 {
        for x in 0..6 {
            assert_eq!(img.at(x, row), [5.0, 41.0, 1001.0, 3.0], "{} {}", x, row);
        }
    }
}

/// A triangle covering only some pixels: a derivative shader writes exactly the pixels (and
/// depths) a shader without derivatives writes, and the covered pixels get the quad's values.
#[test]
fn helper_lanes_are_shaded_but_never_written() {
    let plain = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() { c = vec4(gl_FragCoord.xy, 0.0, 1.0); }",
    );
    // Helper lanes discard (those right of x = 3 and every odd row) without effect on the others.
    let deriv = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    float d = dFdx(gl_FragCoord.x * gl_FragCoord.x);
    float e = dFdy(gl_FragCoord.y * gl_FragCoord.y);
    if (gl_FragCoord.x > 3.0) discard;
    c = vec4(d, e, 0.0, 1.0);
}",
    );
    // Thin slivers and a small triangle, at depth 0.25.
    let tris = [
        vec![[-1.0, -1.0, -0.5], [-0.74, -1.0, -0.5], [-1.0, 1.0, -0.5]],
        vec![[-0.9, 0.1, -0.5], [0.9, 0.15, -0.5], [-0.9, 0.3, -0.5]],
        vec![[-0.6, -0.6, -0.5], [-0.1, -0.55, -0.5], [-0.55, -0.1, -0.5]],
    ];
    for tri in &tris {
        for bands in [1, 3] {
            let mut a = Img::new(8, 8);
            let mut b = Img::new(8, 8);
            draw(&plain, tri, &mut a, bands, true);
            draw(&deriv, tri, &mut b, bands, true);
            for (i, (da, db)) in a.depth.iter().zip(&b.depth).enumerate() {
                // Right of x = 3 the covered lanes discard too.
                let want = if i % 8 < 3 { *da } else { 1.0 };
                assert_eq!(
                    *db, want,
                    "{:?}: depth at {} written by helper lanes",
                    tri, i
                );
            }
            let mut covered = 0;
            for row in 0..8 {
                for x in 0..8 {
                    let pa = a.at(x, row);
                    let pb = b.at(x, row);
                    let written = pa[0] >= 0.0;
                    let wx = x as f32 + 0.5;
                    if !written || wx > 3.0 {
                        assert_eq!(pb, [-1.0; 4], "{:?}: pixel {} row {} written", tri, x, row);
                        continue;
                    }
                    covered += 1;
                    let qx = (x & !1) as f32 + 0.5;
                    let qy = ((7 - row) & !1) as f32 + 0.5;
                    let want = [2.0 * qx + 1.0, 2.0 * qy + 1.0, 0.0, 1.0];
                    assert_eq!(pb, want, "{:?}: pixel {} row {}", tri, x, row);
                }
            }
            assert!(covered > 0, "{:?} covers nothing left of x = 3", tri);
        }
    }
}

/// Early depth stays exact: a lane that fails the depth test is not written, but still
/// completes its quad as a helper; a quad whose every lane fails is not shaded.
#[test]
fn early_depth_with_helper_lanes() {
    let flat = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() { c = vec4(9.0); }",
    );
    let deriv = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() { c = vec4(dFdx(gl_FragCoord.x * gl_FragCoord.x), 0.0, 0.0, 1.0); }",
    );
    let mut img = Img::new(8, 4);
    // Occluder over columns 0..=2 (window x < 3: the boundary splits the quad of columns 2, 3).
    let x1 = 3.0 / 4.0 - 1.0;
    draw(
        &flat,
        &[
            [-1.0, -1.0, -0.6],
            [x1, -1.0, -0.6],
            [x1, 1.0, -0.6],
            [-1.0, -1.0, -0.6],
            [x1, 1.0, -0.6],
            [-1.0, 1.0, -0.6],
        ],
        &mut img,
        1,
        true,
    );
    let occluded = img.depth.clone();
    draw(&deriv, &fullscreen(0.0), &mut img, 1, true);
    for row in 0..4 {
        for x in 0..8 {
            let p = img.at(x, row);
            if x < 3 {
                assert_eq!(p, [9.0; 4], "occluded pixel {} row {}", x, row);
                assert_eq!(
                    img.depth[(row * 8 + x) as usize],
                    occluded[(row * 8 + x) as usize]
                );
            } else {
                let qx = (x & !1) as f32 + 0.5;
                assert_eq!(
                    p,
                    [2.0 * qx + 1.0, 0.0, 0.0, 1.0],
                    "pixel {} row {}",
                    x,
                    row
                );
                assert_eq!(img.depth[(row * 8 + x) as usize], 0.5);
            }
        }
    }
}

/// A quad whose covered lanes all fail the depth test is not shaded at all (the statistics
/// count covered lanes only, and the same for both kinds of shader).
#[test]
fn statistics_count_covered_fragments_only() {
    let plain = program("#pragma chrisos profile 2\nout vec4 c;\nvoid main() { c = vec4(1.0); }");
    let deriv = program(
        "#pragma chrisos profile 2\nout vec4 c;\nvoid main() { c = vec4(fwidth(gl_FragCoord.x)); }",
    );
    let tri = [[-0.9, -0.9, 0.0], [0.8, -0.7, 0.0], [-0.6, 0.85, 0.0]];
    let data: Vec<f32> = tri.iter().flatten().copied().collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 3,
    }];
    let input = VertexInput {
        data: &data,
        stride: 3,
        attribs: &attribs,
        count: 3,
    };
    let mut stats = Vec::new();
    for prog in [&plain, &deriv] {
        let mut color = vec![0u32; 100];
        let mut depth = vec![1.0f32; 100];
        let mut t = Target {
            width: 10,
            height: 10,
            color: &mut color,
            depth: &mut depth,
        };
        let s = draw_parallel(
            &Serial,
            &mut [Scratch::new()],
            prog,
            &input,
            &[],
            0,
            None,
            &[None, None, None, None],
            &RasterState::new(10, 10),
            &Pipeline::DEFAULT,
            &mut t,
        )
        .expect("drawn");
        stats.push(s);
    }
    assert_eq!(stats[0], stats[1]);
    assert_eq!(stats[0].fragments_shaded, stats[0].pixels_written);
}

/// Procedural anti-aliasing with fwidth: a ring whose edge is smoothed over one pixel. The
/// picture has intermediate values only along the ring's two edges, is symmetric about the
/// centre, and is fully on or off elsewhere.
#[test]
fn fwidth_antialiased_ring() {
    let prog = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    float d = length(gl_FragCoord.xy - vec2(16.0)) - 10.0;
    float w = fwidth(d);
    float a = 1.0 - smoothstep(-w, w, abs(d) - 2.0);
    c = vec4(a, w, 0.0, 1.0);
}",
    );
    let mut img = Img::new(32, 32);
    draw(&prog, &fullscreen(0.0), &mut img, 1, false);
    let mut partial = 0;
    for row in 0..32 {
        for x in 0..32 {
            let p = img.at(x, row);
            let (wx, wy) = window(&img, x, row);
            let r = ((wx - 16.0).powi(2) + (wy - 16.0).powi(2)).sqrt() - 10.0;
            // fwidth of a distance is between 1 and sqrt(2) per pixel (more near the centre).
            assert!(
                p[1] > 0.9 && p[1] <= 2.0,
                "fwidth {} at {} {}",
                p[1],
                x,
                row
            );
            if (r.abs() - 2.0).abs() > 1.6 {
                let want = if r.abs() < 2.0 { 1.0 } else { 0.0 };
                assert_eq!(p[0], want, "pixel {} row {} at distance {}", x, row, r);
            } else if p[0] > 0.0 && p[0] < 1.0 {
                partial += 1;
            }
        }
    }
    assert!(
        partial > 40,
        "the ring's edges are smoothed ({} partial pixels)",
        partial
    );
}

#[test]
fn misuse_is_diagnosed_and_profile_one_is_unchanged() {
    let e = first_error(
        0,
        "#pragma chrisos profile 2\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = dFdx(p); }",
    );
    assert!(
        e.contains("dFdx() is only available in a fragment shader"),
        "{}",
        e
    );
    let e = first_error(
        0,
        "#pragma chrisos profile 2\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = vec4(fwidth(p.x)); }",
    );
    assert!(
        e.contains("fwidth() is only available in a fragment shader"),
        "{}",
        e
    );
    // Profile 1 does not know the names.
    let e = first_error(1, "in vec4 v;\nout vec4 c;\nvoid main() { c = dFdx(v); }");
    assert!(e.contains("dFdx"), "{}", e);
    // The verifier: fragment stage and profile 2 only.
    let sh = build(
        1,
        "#pragma chrisos profile 2\nin vec4 v;\nout vec4 c;\nvoid main() { c = dFdy(v); }",
    );
    assert!(sh.module.insts.iter().any(|i| i.op == Op::Ddy));
    shader::ir::verify::verify(&sh.module).expect("verified");
    let mut m = sh.module.clone();
    m.stage = shader::ir::Stage::Vertex;
    let err = shader::ir::verify::verify(&m).expect_err("vertex DDY");
    assert!(
        err.message.contains("only allowed in fragment shaders"),
        "{}",
        err.message
    );
    let mut m = sh.module.clone();
    m.profile = shader::limits::Profile::P1;
    assert!(shader::ir::verify::verify(&m).is_err());
    assert_eq!(Op::from_u8(80), Some(Op::Ddx));
    assert_eq!(Op::from_u8(81), Some(Op::Ddy));
}

#[test]
fn soft_fs_derivatives_are_zero() {
    let prog = program(
        "#pragma chrisos profile 2
out vec4 c;
void main() {
    vec4 f = gl_FragCoord * gl_FragCoord;
    if (f.x > 1.0) { c = vec4(dFdx(f.x), dFdy(f.y), fwidth(f.z), 1.0); } else { c = vec4(5.0); }
}",
    );
    let r = soft_fs(&prog, &[], [3.5, 2.5, 0.5, 1.0], &[None, None, None, None]).expect("ran");
    assert_eq!(r.color, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn tgsi_has_ddx_and_ddy() {
    let sh = build(
        1,
        "#pragma chrisos profile 2\nin vec4 v;\nout vec4 c;\nvoid main() { c = dFdx(v) + fwidth(v.yz).xyxy; }",
    );
    let mut text = shader::back::tgsi::TgsiText::new();
    shader::back::tgsi::emit(&sh.module, None, &mut text).expect("tgsi");
    let text = text.as_str();
    assert!(text.contains("DDX TEMP["), "{}", text);
    assert!(text.contains("DDY TEMP["), "{}", text);
    check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
}

#[test]
fn csir_v2_keeps_ddx_and_ddy() {
    use shader::program::csir::{load, save, Version};
    let sh = build(
        1,
        "#pragma chrisos profile 2\nin vec4 v;\nout vec4 c;\nvoid main() { c = fwidth(v); }",
    );
    let mut buf = vec![0u8; 1 << 20];
    let n = save(&sh.module, Version::V2, &mut buf).expect("saved");
    let m = load(&buf[..n]).expect("loaded");
    assert_eq!(m, sh.module);
    assert!(m.insts.iter().any(|i| i.op == Op::Ddx));
    assert!(m.insts.iter().any(|i| i.op == Op::Ddy));
}

const TWO_SIDED: &str = "#pragma chrisos profile 2
out vec4 c;
void main() { c = gl_FrontFacing ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0); }";

/// Two-sided colouring: a counter-clockwise (front) triangle on the left, a clockwise (back)
/// one on the right; `front_face` = CW swaps the two.
#[test]
fn front_facing_follows_the_winding_and_the_front_face_state() {
    use shader::back::raster::FrontFace;
    let prog = program(TWO_SIDED);
    let tris = [
        // Left half, counter-clockwise in GL window space.
        [-1.0, -1.0, 0.0],
        [-0.1, -1.0, 0.0],
        [-1.0, 1.0, 0.0],
        // Right half, clockwise.
        [0.1, -1.0, 0.0],
        [1.0, 1.0, 0.0],
        [1.0, -1.0, 0.0],
    ];
    let data: Vec<f32> = tris.iter().flatten().copied().collect();
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 3,
    }];
    let input = VertexInput {
        data: &data,
        stride: 3,
        attribs: &attribs,
        count: 6,
    };
    for (front_face, left, right) in [
        (FrontFace::Ccw, [1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
        (FrontFace::Cw, [0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0]),
    ] {
        let mut img = Img::new(16, 16);
        let pipe = Pipeline {
            front_face,
            ..Pipeline::DEFAULT
        };
        let mut t = Target {
            width: 16,
            height: 16,
            color: &mut img.packed,
            depth: &mut img.depth,
        };
        draw_parallel_float(
            &Serial,
            &mut [Scratch::new()],
            &prog,
            &input,
            &[],
            0,
            None,
            &[None, None, None, None],
            &RasterState::new(16, 16),
            &pipe,
            &mut t,
            &mut img.color,
        )
        .expect("drawn");
        // Pixel (1, 14 from the top) is inside the left triangle, (14, 14) inside the right.
        assert_eq!(img.at(1, 14), left, "{:?} left", front_face);
        assert_eq!(img.at(14, 14), right, "{:?} right", front_face);
    }
    // soft_fs: front-facing.
    let r = soft_fs(&prog, &[], [0.5; 4], &[None, None, None, None]).expect("ran");
    assert_eq!(r.color, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn front_facing_misuse_tgsi_and_csir() {
    let e = first_error(
        0,
        "#pragma chrisos profile 2\nvoid main() { gl_Position = vec4(gl_FrontFacing ? 1.0 : 0.0); }",
    );
    assert!(
        e.contains("gl_FrontFacing is not available in a vertex shader"),
        "{}",
        e
    );
    let e = first_error(
        1,
        "#pragma chrisos profile 2\nout vec4 c;\nvoid main() { gl_FrontFacing = true; c = vec4(1.0); }",
    );
    assert!(e.contains("gl_FrontFacing is read-only"), "{}", e);
    let e = first_error(
        1,
        "out vec4 c;\nvoid main() { c = vec4(gl_FrontFacing ? 1.0 : 0.0); }",
    );
    assert!(e.contains("gl_FrontFacing"), "{}", e);
    let sh = build(1, TWO_SIDED);
    assert_eq!(
        sh.module
            .insts
            .iter()
            .filter(|i| i.op == Op::LoadFace)
            .count(),
        1
    );
    let mut m = sh.module.clone();
    m.stage = shader::ir::Stage::Vertex;
    assert!(shader::ir::verify::verify(&m).is_err());
    // With and without gl_FragCoord and varyings: FACE comes after them.
    for src in [
        TWO_SIDED,
        "#pragma chrisos profile 2\nin vec4 v;\nout vec4 c;\nvoid main() { c = gl_FrontFacing ? v : gl_FragCoord; }",
    ] {
        let sh = build(1, src);
        let mut text = shader::back::tgsi::TgsiText::new();
        shader::back::tgsi::emit(&sh.module, None, &mut text).expect("tgsi");
        let text = text.as_str();
        let face = if src.contains("gl_FragCoord") { 2 } else { 0 };
        assert!(
            text.contains(&format!("DCL IN[{}], FACE, CONSTANT", face)),
            "{}",
            text
        );
        assert!(
            text.contains("SGE TEMP[") && text.contains(&format!("-IN[{}].xxxx", face)),
            "{}",
            text
        );
        check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
    }
    use shader::program::csir::{load, save, Version};
    let mut buf = vec![0u8; 1 << 20];
    let n = save(&sh.module, Version::V2, &mut buf).expect("saved");
    assert_eq!(load(&buf[..n]).expect("loaded"), sh.module);
}

/// The emitter's framebuffer option (`tgsi::EmitOptions`): the default is exactly `emit`'s
/// text (upright: FS_COORD_ORIGIN LOWER_LEFT, DDY negated after it); GL-native (Gfx3D's
/// VirGL targets) gives UPPER_LEFT and DDY as it is, and nothing else changes.
#[test]
fn tgsi_framebuffer_option_sets_fragcoord_origin_and_ddy_sign() {
    use shader::back::tgsi::{emit_with, EmitOptions, Framebuffer};
    let sh = build(
        1,
        "#pragma chrisos profile 2\nin vec4 v;\nout vec4 c;\nvoid main() { c = vec4(dFdy(v.x), gl_FragCoord.y, 0.0, 1.0); }",
    );
    type Text = shader::back::tgsi::TgsiText;
    let (mut plain, mut upright, mut native) = (Text::new(), Text::new(), Text::new());
    shader::back::tgsi::emit(&sh.module, None, &mut plain).expect("tgsi");
    emit_with(&sh.module, None, EmitOptions::default(), &mut upright).expect("tgsi");
    let gl = EmitOptions {
        framebuffer: Framebuffer::GlNative,
    };
    emit_with(&sh.module, None, gl, &mut native).expect("tgsi");
    assert_eq!(plain, upright, "the default options are emit's text");
    assert!(
        upright
            .as_str()
            .contains("PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n"),
        "{}",
        upright
    );
    assert!(
        native
            .as_str()
            .contains("PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n"),
        "{}",
        native
    );
    let negated = |t: &str| {
        t.lines()
            .any(|l| l.starts_with("MOV") && l.contains(", -TEMP["))
    };
    assert!(negated(upright.as_str()), "{}", upright);
    assert!(!negated(native.as_str()), "{}", native);
    // Only those lines differ.
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                !l.contains("FS_COORD_ORIGIN") && !(l.starts_with("MOV") && l.contains(", -TEMP["))
            })
            .map(|l| l.to_string())
            .collect()
    };
    assert_eq!(strip(upright.as_str()), strip(native.as_str()));
    check_tgsi(&native).unwrap_or_else(|e| panic!("{:?}\n{}", e, native));
}
