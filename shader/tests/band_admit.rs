//! Which triangles a job of a many-worker draw sets up (issue 17, session 15): a job places
//! each triangle inside every clip plane from its vertices' window positions (found once per
//! vertex) and skips one with no block row in its bands before copying its vertices; clipped
//! triangles are placed after clipping. Meshes of a few and of many (at least 256, fewer and
//! taller bands) small triangles, with every kind of triangle the rasterizer drops (culled,
//! degenerate, non-finite, outside a plane) and clipped ones (near plane, w < 0, guard band),
//! flat varyings, with and without derivatives, give the one-thread picture, depth and
//! statistics at 2-4 threads, the jobs on threads or one after the other in either order.
mod ircore_util;
use ircore_util::p2::{link_glsl, Backwards, Bands, OnThreads};
use shader::back::raster::{
    draw_parallel, DrawStats, Pipeline, RasterState, Scratch, Target, VertexAttrib, VertexInput,
    Workers,
};
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
flat out vec4 v_flat;
void main() { v_col = col; v_flat = col.bgra; gl_Position = pos; }";

const FS: &str = "#pragma chrisos profile 2
in vec4 v_col;
flat in vec4 v_flat;
out vec4 c;
void main() { c = gl_FrontFacing ? v_col : v_flat; }";

/// Derivatives: blocks aligned to 2x2 quads.
const FS_QUADS: &str = "#pragma chrisos profile 2
in vec4 v_col;
flat in vec4 v_flat;
out vec4 c;
void main() { c = vec4(v_col.rg + 8.0 * vec2(dFdx(v_col.r), dFdy(v_col.g)), v_flat.ba); }";

const W: u32 = 157;
const H: u32 = 131;
/// Floats per vertex: clip position (4), colour (4).
const STRIDE: usize = 8;

/// `n` triangles: most small and on screen (either winding, some smaller than a pixel), every
/// seventh of another kind in turn: degenerate, a NaN or an infinite corner, entirely beyond
/// one plane, crossing the near plane, a corner behind the eye (w < 0), a corner far outside
/// the guard band, a big one over several bands.
fn mesh(n: usize) -> Vec<f32> {
    let mut seed = 0x9e37_79b9_u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut data = Vec::new();
    for t in 0..n {
        let (cx, cy) = (next() * 2.4 - 1.2, next() * 2.4 - 1.2);
        let size = if t % 5 == 0 { 0.01 } else { 0.15 };
        let mut v = [[0.0f32; 4]; 3];
        for p in v.iter_mut() {
            *p = [
                cx + (next() - 0.5) * size,
                cy + (next() - 0.5) * size,
                next() * 1.6 - 0.8,
                1.0,
            ];
        }
        if t % 7 == 3 {
            match (t / 7) % 8 {
                0 => v[2] = v[0],
                1 => v[1][1] = f32::NAN,
                2 => v[0][3] = f32::INFINITY,
                3 => {
                    for p in v.iter_mut() {
                        p[0] = 3.0 + next();
                    }
                }
                4 => v[1][2] = -4.0,
                5 => v[2][3] = -0.5,
                6 => v[0][0] = 500.0,
                _ => {
                    v[1] = [cx + 0.9, cy - 1.3, 0.1, 1.0];
                    v[2] = [cx - 0.7, cy + 1.1, 0.3, 1.0];
                }
            }
        }
        for p in v {
            data.extend_from_slice(&p);
            data.extend_from_slice(&[next(), next(), next(), next() * 0.8 + 0.2]);
        }
    }
    data
}

/// The mesh drawn twice through the same scratches (the second draw cuts its bands where the
/// first one's triangles started their block rows): colour, depth bits and statistics.
fn frame(
    prog: &Program,
    data: &[f32],
    st: &RasterState,
    workers: &dyn Workers,
) -> (Vec<u32>, Vec<u32>, DrawStats) {
    let attribs = [
        VertexAttrib {
            location: 0,
            offset: 0,
            components: 4,
        },
        VertexAttrib {
            location: 1,
            offset: 4,
            components: 4,
        },
    ];
    let input = VertexInput {
        data,
        stride: STRIDE as u32,
        attribs: &attribs,
        count: (data.len() / STRIDE) as u32,
    };
    let n = (W * H) as usize;
    let mut scratches: Vec<Scratch> = (0..workers.count()).map(|_| Scratch::new()).collect();
    let mut last = None;
    for _ in 0..2 {
        let (mut color, mut depth) = (vec![0xff20_1008u32; n], vec![1.0f32; n]);
        let mut t = Target {
            width: W,
            height: H,
            color: &mut color,
            depth: &mut depth,
        };
        let stats = draw_parallel(
            workers,
            &mut scratches,
            prog,
            &input,
            &[],
            0,
            None,
            &[None, None, None, None],
            st,
            &Pipeline::DEFAULT,
            &mut t,
        )
        .expect("drawn");
        let got = (color, depth.iter().map(|d| d.to_bits()).collect(), stats);
        if let Some(prev) = &last {
            assert!(
                *prev == got,
                "the second draw through the same scratches differs"
            );
        }
        last = Some(got);
    }
    last.expect("two draws")
}

#[test]
fn every_job_places_the_triangles_alike() {
    for fs in [FS, FS_QUADS] {
        let prog = link_glsl(VS, fs);
        // Below and above the triangle count that draws in fewer, taller bands.
        for n in [100, 400] {
            let data = mesh(n);
            for cull_back in [false, true] {
                let st = RasterState {
                    cull_back,
                    ..RasterState::new(W, H)
                };
                let base = frame(&prog, &data, &st, &Bands(1));
                let s = base.2;
                assert_eq!(s.triangles, n as u32);
                assert!(s.rejected >= 3 * n as u32 / 56, "{:?}", s);
                assert!(s.clipped >= 3 * n as u32 / 56, "{:?}", s);
                assert_eq!(s.culled > 0, cull_back, "{:?}", s);
                assert!(s.pixels_written > 0, "{:?}", s);
                for threads in [2, 3, 4] {
                    let runs: [&dyn Workers; 3] =
                        [&OnThreads(threads), &Bands(threads), &Backwards(threads)];
                    for workers in runs {
                        let got = frame(&prog, &data, &st, workers);
                        let diff = got.0.iter().zip(&base.0).filter(|(a, b)| a != b).count();
                        let what =
                            format!("{} triangles, cull {}, {} threads", n, cull_back, threads);
                        assert_eq!(diff, 0, "{}: pixels differ", what);
                        assert!(got.1 == base.1, "{}: depth differs", what);
                        assert_eq!(got.2, base.2, "{}: statistics", what);
                    }
                }
            }
        }
    }
}
