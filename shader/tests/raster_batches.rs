//! The rasterizer's dispatches hold blocks of several consecutive triangles of a draw (issue 17):
//! a draw of many small, overlapping triangles of both facings, blended and depth-tested, gives
//! bit for bit the picture and depth of the same triangles drawn one draw each (where every
//! triangle's blocks are shaded before the next one's), on one band and on groups of bands.
mod ircore_util;
use ircore_util::p2::{draw_pos_col, link_glsl, POS_COL_STRIDE as STRIDE};
use shader::back::raster::{Blend, CompareFunc, DrawStats, Pipeline};
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
void main() { v_col = col; gl_Position = vec4(pos, 1.0); }";

/// The back faces' colour differs (gl_FrontFacing is per triangle, not per dispatch).
const FS: &str = "#pragma chrisos profile 2
in vec4 v_col;
out vec4 c;
void main() { c = gl_FrontFacing ? v_col : vec4(v_col.b, v_col.r, v_col.g, 0.5); }";

const W: u32 = 61;
const H: u32 = 47;

/// `n` small triangles crowded into the middle of the target, four at a time around one point
/// (so consecutive ones overlap), either winding, each vertex with its own depth and colour (a fixed pseudo-random sequence).
fn triangles(n: usize) -> Vec<f32> {
    let mut seed = 0x2545_f491_u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut data = Vec::new();
    let (mut cx, mut cy) = (0.0, 0.0);
    for t in 0..n {
        // Four triangles around each centre: consecutive triangles overlap.
        if t % 4 == 0 {
            (cx, cy) = (next() * 1.2 - 0.6, next() * 1.2 - 0.6);
        }
        for _ in 0..3 {
            data.extend_from_slice(&[
                cx + next() * 0.5 - 0.25,
                cy + next() * 0.5 - 0.25,
                next() * 1.6 - 0.8,
                next(),
                next(),
                next(),
                next() * 0.8 + 0.2,
            ]);
        }
    }
    data
}

fn draw(
    prog: &Program,
    data: &[f32],
    case: (&Pipeline, bool),
    bands: usize,
    color: &mut [u32],
    depth: &mut [f32],
) -> DrawStats {
    draw_pos_col(prog, data, None, case, bands, (W, H), color, depth)
}

#[test]
fn triangles_sharing_dispatches_keep_draw_order() {
    let prog = link_glsl(VS, FS);
    let data = triangles(300);
    let n = (W * H) as usize;
    let blend = Pipeline {
        blend: Some(Blend::ALPHA),
        ..Pipeline::DEFAULT
    };
    let func = |depth_func| Pipeline {
        depth_func,
        ..Pipeline::DEFAULT
    };
    // Blending: every covered pixel's result depends on the order of the triangles; without
    // the depth test, so does an opaque one's (the last triangle wins), and with it, a test
    // passing on equal or greater depths.
    let cases = [
        (&blend, false),
        (&blend, true),
        (&Pipeline::DEFAULT, false),
        (&Pipeline::DEFAULT, true),
        (&func(CompareFunc::LessEqual), true),
        (&func(CompareFunc::GreaterEqual), true),
        (&func(CompareFunc::Always), true),
    ];
    for case in cases {
        // One draw per triangle: nothing shared between triangles.
        let (mut want_c, mut want_d) = (vec![0xff10_2030u32; n], vec![1.0f32; n]);
        let mut fragments = 0;
        for tri in data.chunks(3 * STRIDE) {
            let s = draw(&prog, tri, case, 1, &mut want_c, &mut want_d);
            fragments += s.fragments_shaded;
        }
        if !case.1 {
            assert!(fragments > n as u64, "the triangles overlap: {}", fragments);
        }
        for bands in [1, 2, 3] {
            let (mut c, mut d) = (vec![0xff10_2030u32; n], vec![1.0f32; n]);
            let s = draw(&prog, &data, case, bands, &mut c, &mut d);
            assert_eq!(s.fragments_shaded, fragments, "{} bands", bands);
            assert!(c == want_c, "colour differs, {} bands, {:?}", bands, case);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&d), bits(&want_d), "depth, {} bands", bands);
        }
    }
}
