//! Derivatives inside 2x2 quads: the lane arithmetic of DDX/DDY (GLSL `dFdx`, `dFdy`,
//! `fwidth`) and the helper-lane mask of the rasterizer.
//!
//! Lane layout (the rasterizer's, see `raster`): a dispatch holds [`LANES`]/8 blocks of 4x2
//! pixels; lane l of a block is column l & 3, row l >> 2 (row 0 is the upper one on screen:
//! memory orientation). So the quads are lanes {0, 1, 4, 5} and {2, 3, 6, 7} of each block,
//! and the rasterizer aligns them to even window coordinates (as GL and llvmpipe do).
//!
//! The differences are *fine*, as Mesa llvmpipe computes them (measured with a differential
//! scene: `dFdx(x * y)` differs between the two rows of a quad, `dFdy(x * y)` between its two
//! columns): `ddx` of a lane is right minus left in the lane's own row, `ddy` of a lane is the
//! upper minus the lower value in its own column (window y grows upwards, memory rows
//! downwards).
//!
//! It must never: panic, or mix lanes of different quads.
use super::lanes::{Lanes, Mask, LANES};

const _: () = assert!(LANES.is_multiple_of(8));

/// dFdx per lane: within each quad, v(right) - v(left) of the lane's row.
#[inline(always)]
pub fn ddx(v: &Lanes) -> Lanes {
    let mut r = [0.0f32; LANES];
    for b in (0..LANES).step_by(8) {
        for q in [b, b + 2, b + 4, b + 6] {
            // q: the left lane of one row of a quad.
            let d = v[q + 1] - v[q];
            r[q] = d;
            r[q + 1] = d;
        }
    }
    r
}

/// dFdy per lane (window y up): within each quad, v(upper row) - v(lower row) of the lane's
/// column.
#[inline(always)]
pub fn ddy(v: &Lanes) -> Lanes {
    let mut r = [0.0f32; LANES];
    for b in (0..LANES).step_by(8) {
        for c in b..b + 4 {
            let d = v[c] - v[c + 4];
            r[c] = d;
            r[c + 4] = d;
        }
    }
    r
}

/// Every lane of each quad that has a lane in `covered`: the lanes to shade when the shader
/// takes derivatives (the added ones are helper lanes, never written).
#[inline(always)]
pub fn quad_lanes(covered: Mask) -> Mask {
    // Fold each quad's bits (columns 2k, 2k + 1 of both rows) onto its first lane, then spread.
    const FIRST: u32 = 0x0505_0505;
    let c = covered as u32;
    let rows = c | (c >> 4);
    let any = (rows | (rows >> 1)) & FIRST & 0x0F0F_0F0F;
    let cols = any | (any << 1);
    (cols | (cols << 4)) as Mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane_xy(l: usize) -> (f32, f32) {
        // Block j at x = 4j: column, and window y (row 0 of the block is y = 1, row 1 y = 0).
        let (j, i) = (l / 8, l % 8);
        ((4 * j + (i & 3)) as f32, (1 - (i >> 2)) as f32)
    }

    #[test]
    fn linear_functions_have_exact_derivatives() {
        let mut v = [0.0f32; LANES];
        for (l, v) in v.iter_mut().enumerate() {
            let (x, y) = lane_xy(l);
            *v = 3.0 * x - 2.0 * y + 1.0;
        }
        assert_eq!(ddx(&v), [3.0; LANES]);
        assert_eq!(ddy(&v), [-2.0; LANES]);
    }

    #[test]
    fn derivatives_are_fine_and_stay_inside_the_quad() {
        // f = x * y: ddx = y of the lane's row, ddy = x of the lane's column.
        let mut v = [0.0f32; LANES];
        for (l, v) in v.iter_mut().enumerate() {
            let (x, y) = lane_xy(l);
            *v = (x + 10.0) * (y + 20.0);
        }
        let (dx, dy) = (ddx(&v), ddy(&v));
        for l in 0..LANES {
            let (x, y) = lane_xy(l);
            assert_eq!(dx[l], y + 20.0, "ddx lane {}", l);
            assert_eq!(dy[l], x + 10.0, "ddy lane {}", l);
        }
    }

    #[test]
    fn quad_lanes_fill_touched_quads_only() {
        assert_eq!(quad_lanes(0), 0);
        assert_eq!(quad_lanes(1), 0x33);
        assert_eq!(quad_lanes(0x20), 0x33);
        assert_eq!(quad_lanes(0x80), 0xCC);
        assert_eq!(quad_lanes(0x41), 0xFF);
        assert_eq!(quad_lanes(0x0100_0000), 0x3300_0000);
        assert_eq!(quad_lanes(0x8000_0004), 0xCC00_00CC);
        for l in 0..LANES {
            let m = quad_lanes(1 << l);
            assert_eq!(m.count_ones(), 4);
            assert!(m & (1 << l) != 0);
        }
    }
}
