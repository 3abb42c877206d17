//! Derivatives across the 2x2 pixel quads of a fragment dispatch. The rasterizer fills a
//! dispatch with 4x2 pixel blocks (lane l of a block at column l & 3, row l >> 2, row 0 the upper
//! one in the picture), so each block holds two quads: lanes {0, 1, 4, 5} and {2, 3, 6, 7}.
//! As llvmpipe's quad derivatives: `ddx` is the right pixel minus the left one of each quad row,
//! `ddy` the upper pixel minus the lower one of each quad column (GL's window y grows upwards).
//!
//! It must never: read lanes outside the quad, or depend on the lane count being more than a
//! multiple of 8.
use super::lanes::{Lanes, LANES};

const _: () = assert!(LANES.is_multiple_of(8));

/// d/dx of `v` in every lane: within each quad row, right minus left.
pub fn ddx(v: &Lanes) -> Lanes {
    let mut r = [0.0f32; LANES];
    for l in 0..LANES {
        let left = l & !1;
        r[l] = v[left + 1] - v[left];
    }
    r
}

/// d/dy of `v` in every lane: within each quad column, the upper row (row 0 of the block)
/// minus the lower one.
pub fn ddy(v: &Lanes) -> Lanes {
    let mut r = [0.0f32; LANES];
    for l in 0..LANES {
        let upper = l & !4;
        r[l] = v[upper] - v[upper + 4];
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_differences() {
        // v = 3 x + 10 y (GL window y, up) + a per-quad-row curvature.
        let mut v = [0.0f32; LANES];
        for (l, v) in v.iter_mut().enumerate() {
            let (x, row) = ((l & 3) as f32, (l >> 2 & 1) as f32);
            let y = 1.0 - row;
            *v = 3.0 * x + 10.0 * y + x * row;
        }
        let (dx, dy) = (ddx(&v), ddy(&v));
        for l in 0..LANES {
            let row = (l >> 2 & 1) as f32;
            assert_eq!(dx[l], 3.0 + row, "lane {}", l);
            let x = ((l & 3) & !1) as f32 + (l & 1) as f32;
            assert_eq!(dy[l], 10.0 - x, "lane {}", l);
        }
    }
}
