//! Partial blocks of neighbouring triangles (issue 17): an indexed grid mesh (both triangles
//! of each quad share the diagonal, so their partial blocks have complementary lanes), drawn
//! without the depth test, with smooth and flat varyings and both facings, gives bit for bit
//! the picture and fragment count of the same triangles drawn one draw each (nothing shared
//! across draws), on one band and on several. Written for the merge of such blocks into one
//! dispatch block (session 17, commits 4cfaa6e..00baac0, reverted: the other scenes lost
//! more than lights gained); it failed there before the fix (queueing held blocks at the end
//! of a triangle left the batch full, and the next block overwrote the last held one) and
//! holds for the batching without the merge too.
mod ircore_util;
use ircore_util::p2::{draw_pos_col, link_glsl};
use shader::back::raster::{DrawStats, Pipeline};
use shader::program::link::Program;

const VS: &str = "#pragma chrisos profile 2
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 col;
out vec4 v_col;
flat out vec4 v_flat;
void main() { v_col = col; v_flat = col.gbra; gl_Position = vec4(pos, 1.0); }";

/// Per-triangle inputs: gl_FrontFacing and the flat (provoking vertex) colour.
const FS: &str = "#pragma chrisos profile 2
in vec4 v_col;
flat in vec4 v_flat;
out vec4 c;
void main() { c = gl_FrontFacing ? vec4(v_col.rgb * 0.75 + v_flat.rgb * 0.25, 1.0) : v_flat; }";

const W: u32 = 157;
const H: u32 = 113;

/// A `cols` x `rows` grid of vertices over most of the target (a slight wave, so the
/// quads' corners fall anywhere in their pixels), each with its own colour, and the indices of
/// its quads' two triangles (the last row of quads wound the other way: back faces).
fn grid(cols: usize, rows: usize) -> (Vec<f32>, Vec<u16>) {
    let mut seed = 0x1234_5679_u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut data = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let (u, v) = (c as f32 / (cols - 1) as f32, r as f32 / (rows - 1) as f32);
            data.extend_from_slice(&[
                -0.93 + 1.87 * u + 0.01 * (v * 7.0).sin(),
                -0.91 + 1.83 * v + 0.01 * (u * 5.0).cos(),
                0.3 * u - 0.2 * v,
                next(),
                next(),
                next(),
                1.0,
            ]);
        }
    }
    let mut idx = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            let i = (r * cols + c) as u16;
            let (a, b, d, e) = (i, i + 1, i + cols as u16 + 1, i + cols as u16);
            if r + 2 == rows {
                idx.extend_from_slice(&[a, d, b, a, e, d]);
            } else {
                idx.extend_from_slice(&[a, b, d, a, d, e]);
            }
        }
    }
    (data, idx)
}

fn draw(
    prog: &Program,
    data: &[f32],
    idx: &[u16],
    bands: usize,
    color: &mut [u32],
    depth: &mut [f32],
) -> DrawStats {
    let case = (&Pipeline::DEFAULT, false);
    draw_pos_col(prog, data, Some(idx), case, bands, (W, H), color, depth)
}

#[test]
fn merged_partial_blocks_give_each_triangles_pixels() {
    let prog = link_glsl(VS, FS);
    let n = (W * H) as usize;
    // Quads of several sizes: blocks shared by two, three or more triangles.
    for (cols, rows) in [(26, 20), (41, 33), (13, 9)] {
        let (data, idx) = grid(cols, rows);
        let (mut want_c, mut want_d) = (vec![0xff10_2030u32; n], vec![1.0f32; n]);
        let mut fragments = 0;
        for tri in idx.chunks(3) {
            fragments += draw(&prog, &data, tri, 1, &mut want_c, &mut want_d).fragments_shaded;
        }
        assert!(fragments > 0);
        for bands in [1, 2, 3] {
            let (mut c, mut d) = (vec![0xff10_2030u32; n], vec![1.0f32; n]);
            let s = draw(&prog, &data, &idx, bands, &mut c, &mut d);
            assert_eq!(
                s.fragments_shaded, fragments,
                "{}x{}, {} bands",
                cols, rows, bands
            );
            let diff = c.iter().zip(&want_c).filter(|(a, b)| a != b).count();
            assert_eq!(diff, 0, "{}x{}, {} bands: pixels differ", cols, rows, bands);
        }
    }
}
