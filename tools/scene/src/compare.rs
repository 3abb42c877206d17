//! Comparison of two renderings of one scene, with the differential tests' edge rule.
//!
//! Owns: counting pixels whose largest channel difference exceeds a tolerance, and classifying
//! each as on or off a triangle edge. Edges come from a primitive-id picture (each covered pixel
//! holds the id of the triangle that won it, 0 = background): a pixel lies on an edge when a
//! neighbour within one pixel holds another id. That covers outline pixels, shared edges and the
//! lines where depth-tested triangles cross.
//! Must never: decide the pass threshold itself; callers state the tolerance and fraction.

use crate::image::{Image, ImageError};

/// The result of comparing two pictures of the same size.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub total: usize,
    /// Pixels whose largest channel difference is above the tolerance.
    pub differing: usize,
    /// Of those, the ones not on a triangle edge (all of them when no edge mask was given).
    pub off_edge: usize,
    /// Largest channel difference over the whole picture.
    pub max_diff: u8,
    /// The first differing pixel off an edge: (x, y from the top, pixel of a, pixel of b).
    pub first_off_edge: Option<(u32, u32, [u8; 4], [u8; 4])>,
}

impl Comparison {
    pub fn differing_fraction(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.differing as f64 / self.total as f64
        }
    }

    /// True when no differing pixel is off an edge and at most `max_fraction` of pixels differ.
    pub fn passes(&self, max_fraction: f64) -> bool {
        self.off_edge == 0 && self.differing_fraction() <= max_fraction
    }

    /// One line for test failure messages.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} of {} pixels differ ({:.3}%), {} off triangle edges, max channel difference {}",
            self.differing,
            self.total,
            self.differing_fraction() * 100.0,
            self.off_edge,
            self.max_diff
        );
        if let Some((x, y, a, b)) = self.first_off_edge {
            s.push_str(&format!(
                "; first off-edge pixel ({}, {}) from the top: {:?} vs {:?}",
                x, y, a, b
            ));
        }
        s
    }
}

/// Compare `a` and `b` pixel by pixel. `edges` (row 0 = top, one flag per pixel) marks where a
/// difference is tolerated as an edge difference.
pub fn compare(
    a: &Image,
    b: &Image,
    tolerance: u8,
    edges: Option<&[bool]>,
) -> Result<Comparison, ImageError> {
    if (a.width, a.height) != (b.width, b.height) {
        return Err(ImageError(format!(
            "sizes differ: {}x{} vs {}x{}",
            a.width, a.height, b.width, b.height
        )));
    }
    let total = a.width as usize * a.height as usize;
    if let Some(e) = edges {
        if e.len() != total {
            return Err(ImageError(format!(
                "edge mask has {} entries for {} pixels",
                e.len(),
                total
            )));
        }
    }
    let mut c = Comparison {
        total,
        differing: 0,
        off_edge: 0,
        max_diff: 0,
        first_off_edge: None,
    };
    for (i, (pa, pb)) in a
        .rgba
        .chunks_exact(4)
        .zip(b.rgba.chunks_exact(4))
        .enumerate()
    {
        let d = pa
            .iter()
            .zip(pb)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        c.max_diff = c.max_diff.max(d);
        if d <= tolerance {
            continue;
        }
        c.differing += 1;
        let on_edge = edges.is_some_and(|e| e.get(i).copied().unwrap_or(false));
        if !on_edge {
            c.off_edge += 1;
            if c.first_off_edge.is_none() {
                let (x, y) = ((i % a.width as usize) as u32, (i / a.width as usize) as u32);
                c.first_off_edge = Some((x, y, a.pixel(x, y), b.pixel(x, y)));
            }
        }
    }
    Ok(c)
}

/// A picture of where `a` and `b` differ by more than `tolerance`: red off edges, yellow on
/// edges, and the darkened picture `b` elsewhere (for looking at a failed comparison).
pub fn diff_image(
    a: &Image,
    b: &Image,
    tolerance: u8,
    edges: Option<&[bool]>,
) -> Result<Image, ImageError> {
    compare(a, b, tolerance, edges)?;
    let mut rgba = Vec::with_capacity(b.rgba.len());
    for (i, (pa, pb)) in a
        .rgba
        .chunks_exact(4)
        .zip(b.rgba.chunks_exact(4))
        .enumerate()
    {
        let d = pa
            .iter()
            .zip(pb)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        let on_edge = edges.is_some_and(|e| e.get(i).copied().unwrap_or(false));
        rgba.extend_from_slice(&match (d > tolerance, on_edge) {
            (true, false) => [255, 0, 0, 255],
            (true, true) => [255, 255, 0, 255],
            _ => [pb[0] / 3, pb[1] / 3, pb[2] / 3, 255],
        });
    }
    Ok(Image {
        width: b.width,
        height: b.height,
        rgba,
    })
}

/// Edge flags from a primitive-id picture (row 0 = top): a pixel is on an edge when any of its
/// eight neighbours (inside the picture) holds a different id.
pub fn edge_mask_from_ids(width: u32, height: u32, ids: &[u32]) -> Result<Vec<bool>, ImageError> {
    let (w, h) = (width as usize, height as usize);
    if ids.len() != w * h {
        return Err(ImageError(format!(
            "{} ids given for {}x{} pixels",
            ids.len(),
            width,
            height
        )));
    }
    let mut mask = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            let id = ids[y * w + x];
            let mut edge = false;
            for ny in y.saturating_sub(1)..(y + 2).min(h) {
                for nx in x.saturating_sub(1)..(x + 2).min(w) {
                    edge |= ids[ny * w + nx] != id;
                }
            }
            mask[y * w + x] = edge;
        }
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_differences_above_the_tolerance() {
        let a = Image::filled(2, 2, [10, 10, 10, 255]);
        let mut b = a.clone();
        b.rgba[0] = 12; // (0,0): difference 2, tolerated
        b.rgba[6] = 13; // (1,0): difference 3
        let c = compare(&a, &b, 2, None).unwrap();
        assert_eq!((c.differing, c.off_edge, c.max_diff), (1, 1, 3));
        assert_eq!(
            c.first_off_edge,
            Some((1, 0, [10, 10, 10, 255], [10, 10, 13, 255]))
        );
        assert!(!c.passes(1.0));
        assert!(compare(&a, &a, 0, None).unwrap().passes(0.0));
    }

    #[test]
    fn differences_on_edges_pass_within_the_fraction() {
        // 4x1 strip: triangle 1 covers x < 2, background elsewhere; the edge is at x = 1 and 2.
        let ids = [1, 1, 0, 0];
        let mask = edge_mask_from_ids(4, 1, &ids).unwrap();
        assert_eq!(mask, vec![false, true, true, false]);
        let a = Image::filled(4, 1, [0, 0, 0, 255]);
        let mut b = a.clone();
        b.rgba[8] = 255; // x = 2, on the edge
        let c = compare(&a, &b, 2, Some(&mask)).unwrap();
        assert_eq!((c.differing, c.off_edge), (1, 0));
        assert!(c.passes(0.25));
        assert!(!c.passes(0.2));
        b.rgba[12] = 255; // x = 3, off the edge
        assert_eq!(compare(&a, &b, 2, Some(&mask)).unwrap().off_edge, 1);
    }

    #[test]
    fn diff_image_marks_differences_by_kind() {
        let a = Image::filled(3, 1, [90, 90, 90, 255]);
        let mut b = a.clone();
        b.rgba[0] = 0; // off the edge
        b.rgba[4] = 0; // on the edge
        let d = diff_image(&a, &b, 2, Some(&[false, true, false])).unwrap();
        assert_eq!(d.pixel(0, 0), [255, 0, 0, 255]);
        assert_eq!(d.pixel(1, 0), [255, 255, 0, 255]);
        assert_eq!(d.pixel(2, 0), [30, 30, 30, 255]);
    }

    #[test]
    fn size_mismatches_are_errors() {
        let a = Image::filled(2, 2, [0; 4]);
        assert!(compare(&a, &Image::filled(2, 1, [0; 4]), 0, None).is_err());
        assert!(compare(&a, &a, 0, Some(&[false; 3])).is_err());
        assert!(edge_mask_from_ids(2, 2, &[0; 3]).is_err());
    }
}
