//! Profile 2's gl_ClipDistance (vertex stage): the rasterizer's user clip planes (a triangle
//! keeps the part where every written distance is >= 0, distances and varyings interpolated
//! like the frustum planes; identical at any band count), the reflected planes
//! (elements 0..=highest written) and TGSI (`DCL OUT[n].mask, CLIPDIST[h]` with
//! `PROPERTY NUM_CLIPDIST_ENABLED`, accepted by the TGSI checker).
mod ircore_util;
use ircore_util::p2::{build, link_glsl, Bands};
use shader::back::raster::{
    draw_parallel, Pipeline, RasterState, Scratch, Target, VertexAttrib, VertexInput,
};
use shader::back::tgsi::check_tgsi;
use shader::limits::{limits, Profile, CLIP_DISTANCE_MAX};
use shader::program::link::Program;

const FS: &str = "#pragma chrisos profile 2
in float v;
out vec4 c;
void main() { c = vec4(v, 1.0, 0.0, 1.0); }";

fn program(vs: &str) -> Program {
    link_glsl(vs, FS)
}

const W: u32 = 16;
const H: u32 = 12;

/// A full-screen triangle; returns the packed pixels (row 0 = top).
fn draw(prog: &Program, bands: usize) -> Vec<u32> {
    let data = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0];
    let attribs = [VertexAttrib {
        location: 0,
        offset: 0,
        components: 2,
    }];
    let input = VertexInput {
        data: &data,
        stride: 2,
        attribs: &attribs,
        count: 3,
    };
    let st = RasterState::new(W, H);
    let mut scratches: Vec<Scratch> = (0..bands).map(|_| Scratch::new()).collect();
    let n = (W * H) as usize;
    let mut packed = vec![0u32; n];
    let mut depth = vec![1.0f32; n];
    let mut t = Target {
        width: W,
        height: H,
        color: &mut packed,
        depth: &mut depth,
    };
    let textures = [None, None, None, None];
    draw_parallel(
        &Bands(bands),
        &mut scratches,
        prog,
        &input,
        &[],
        0,
        None,
        &textures,
        &st,
        &Pipeline::DEFAULT,
        &mut t,
    )
    .unwrap();
    packed
}

/// Keeps x >= -0.5 (element 0) and y <= 0.5 (element 3); v = the window x in [0, 1].
const VS_TWO_PLANES: &str = "#pragma chrisos profile 2
layout(location = 0) in vec2 p;
out float v;
void main() {
    gl_Position = vec4(p, 0.0, 1.0);
    gl_ClipDistance[0] = p.x + 0.5;
    gl_ClipDistance[3] = 0.5 - p.y;
    v = p.x * 0.5 + 0.5;
}";

#[test]
fn user_planes_clip_the_triangle() {
    let prog = program(VS_TWO_PLANES);
    let px = draw(&prog, 1);
    for y in 0..H {
        for x in 0..W {
            let c = px[(y * W + x) as usize];
            // Pixel centre in NDC (row 0 = top: ndc y = 1 - ...).
            let nx = (x as f32 + 0.5) / W as f32 * 2.0 - 1.0;
            let ny = 1.0 - (y as f32 + 0.5) / H as f32 * 2.0;
            let inside = nx >= -0.5 && ny <= 0.5;
            assert_eq!(c != 0, inside, "pixel ({}, {}) = {:08x}", x, y, c);
            if inside {
                // The varying is interpolated on the clipped triangles: red = window x.
                let r = (c >> 16) & 0xff;
                let want = ((nx * 0.5 + 0.5) * 255.0).round() as i32;
                assert!(
                    (r as i32 - want).abs() <= 1,
                    "pixel ({}, {}) red {} want {}",
                    x,
                    y,
                    r,
                    want
                );
            }
        }
    }
    for bands in [2, 3, 5] {
        assert_eq!(draw(&prog, bands), px, "{} bands", bands);
    }
}

#[test]
fn a_program_without_clip_distances_draws_everything() {
    let prog = program(
        "#pragma chrisos profile 2
layout(location = 0) in vec2 p;
out float v;
void main() { gl_Position = vec4(p, 0.0, 1.0); v = 0.5; }",
    );
    assert!(draw(&prog, 1).iter().all(|&c| c != 0));
}

#[test]
fn a_whole_triangle_outside_a_plane_is_dropped() {
    let prog = program(
        "#pragma chrisos profile 2
layout(location = 0) in vec2 p;
out float v;
void main() { gl_Position = vec4(p, 0.0, 1.0); gl_ClipDistance[7] = -1.0; v = 0.5; }",
    );
    assert!(draw(&prog, 1).iter().all(|&c| c == 0));
}

#[test]
fn planes_are_the_written_elements_from_zero() {
    let vs = build(0, VS_TWO_PLANES);
    // Elements 0 and 3 written: 0..=3 are planes (1 and 2 are 0, never clip).
    assert_eq!(vs.module.iface.clip_distances, 0b1111);
    assert_eq!(limits(Profile::P2).clip_distances_max, CLIP_DISTANCE_MAX);
    assert_eq!(limits(Profile::P1).clip_distances_max, 0);
}

#[test]
fn tgsi_declares_clipdist_outputs() {
    let vs = build(0, VS_TWO_PLANES);
    let mut out = shader::back::tgsi::TgsiText::new();
    shader::back::tgsi::emit(&vs.module, None, &mut out).expect("emitted");
    let text = out.as_str();
    assert!(
        text.contains("PROPERTY NUM_CLIPDIST_ENABLED 4\n"),
        "{}",
        text
    );
    assert!(text.contains(", CLIPDIST[0]\n"), "{}", text);
    assert!(text.contains(".x, TEMP["), "{}", text);
    check_tgsi(text).unwrap_or_else(|e| panic!("{:?}\n{}", e, text));
}
