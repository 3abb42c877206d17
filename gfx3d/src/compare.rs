//! Pixel comparison for the differential scenes: two images of the same scene agree when at most
//! 1% of pixels differ and every differing pixel lies on an edge of the reference image. Pure.

/// Largest per-channel difference still counted as equal (rounding and interpolation noise).
pub const CHANNEL_TOLERANCE: u8 = 3;
/// Largest share of differing pixels, in per mille.
pub const DIFF_PER_MILLE_MAX: usize = 10;

/// Result of comparing two images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub pixels: usize,
    /// Pixels differing beyond the tolerance.
    pub differing: usize,
    /// Differing pixels that are not on an edge of the reference.
    pub off_edge: usize,
    /// First differing pixel off an edge: (x, y, reference, other).
    pub first_off_edge: Option<(u32, u32, u32, u32)>,
}

impl Comparison {
    /// At most 1% differ, and only along edges.
    pub fn agrees(&self) -> bool {
        self.off_edge == 0 && self.differing * 1000 <= self.pixels * DIFF_PER_MILLE_MAX
    }
}

/// Per-channel equality within the tolerance.
pub fn same(a: u32, b: u32) -> bool {
    (0..4).all(|k| {
        let x = (a >> (8 * k)) as u8;
        let y = (b >> (8 * k)) as u8;
        x.abs_diff(y) <= CHANNEL_TOLERANCE
    })
}

/// Compares `other` against `reference`, both `w` x `h` (missing pixels count as differing).
pub fn compare(reference: &[u32], other: &[u32], w: u32, h: u32) -> Comparison {
    let n = w as usize * h as usize;
    let px = |img: &[u32], x: i64, y: i64| -> Option<u32> {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            return None;
        }
        img.get(y as usize * w as usize + x as usize).copied()
    };
    let mut c = Comparison {
        pixels: n,
        differing: 0,
        off_edge: 0,
        first_off_edge: None,
    };
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let (Some(r), o) = (px(reference, x, y), px(other, x, y)) else {
                c.differing += 1;
                c.off_edge += 1;
                continue;
            };
            if o.is_some_and(|o| same(r, o)) {
                continue;
            }
            c.differing += 1;
            // An edge pixel has a 3x3 neighbour of another colour in the reference (an edge that
            // moved by one pixel between rasterizers still lands on such a pixel).
            let mut edge = false;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if px(reference, x + dx, y + dy).is_some_and(|n| !same(n, r)) {
                        edge = true;
                    }
                }
            }
            if !edge {
                c.off_edge += 1;
                if c.first_off_edge.is_none() {
                    c.first_off_edge = Some((x as u32, y as u32, r, o.unwrap_or(0)));
                }
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_and_edge_only_differences_agree() {
        let mut a = [0u32; 100];
        for y in 0..10 {
            for x in 0..5 {
                a[y * 10 + x] = 0xFFFF_0000;
            }
        }
        assert!(compare(&a, &a, 10, 10).agrees());
        let mut b = a;
        b[5] = 0xFFFF_0000; // the edge moved by one pixel in one row
        let c = compare(&a, &b, 10, 10);
        assert_eq!((c.differing, c.off_edge), (1, 0));
        assert!(c.agrees());
        // A difference inside a flat area does not agree.
        let mut d = a;
        d[99] = 0xFF00_FF00;
        let c = compare(&a, &d, 10, 10);
        assert_eq!(c.off_edge, 1);
        assert!(!c.agrees());
        // Tolerance.
        assert!(same(0xFF10_2030, 0xFE13_1E31));
        assert!(!same(0xFF10_2030, 0xFF10_2035));
        // Too many edge differences.
        let mut e = a;
        for y in 0..10 {
            e[y * 10 + 5] = 0xFFFF_0000;
        }
        let c = compare(&a, &e, 10, 10);
        assert_eq!(c.off_edge, 0);
        assert!(!c.agrees());
        // A short image.
        assert!(!compare(&a, &a[..50], 10, 10).agrees());
    }
}
