//! Host-side copies between texture levels: RESOURCE_COPY_REGION (an exact copy) and BLIT (a
//! scaled copy with a filter), which Gfx3D uses to build a render target's mip chain on the
//! host GPU without a transfer (`virgl_protocol.h` has no generate-mipmap command; a linear
//! BLIT from level i to level i + 1 is what Mesa's own `util_gen_mipmap` issues), and a
//! vertically flipped copy of a target for the scanout (a source box of negative height).
use super::{check_format, check_max, check_resource, Encoder};
use crate::batch::Sink;
use crate::error::{GpuError, Result};
use crate::limits::{MAX_MIP_LEVELS, MAX_RESOURCE_DIM};
use crate::proto::Box3d;
use crate::protocol::*;

/// Colour formats a BLIT or copy may name (the renderable colour formats of this project).
const BLIT_FORMATS: [u32; 2] = [FORMAT_B8G8R8A8_UNORM, FORMAT_R32G32B32A32_FLOAT];

/// One side of a BLIT: a box of level `level` of a 2D resource viewed as `format`.
///
/// Gallium's `pipe_box` is signed and the words go to the host as they are: a source box may
/// have a negative width or height (its `w` / `h` word is the two's complement), which
/// mirrors the copy along that axis (virglrenderer hands the box's edges to
/// glBlitFramebuffer, which flips a reversed rectangle). [`BlitSide::flipped_y`] makes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlitSide {
    pub resource: u32,
    pub level: u32,
    pub format: u32,
    pub bx: Box3d,
}

impl BlitSide {
    /// The same rows read bottom row first: `y` moves to the box's far edge and the height is
    /// negated (`y + h`, `-h`). Only a source may be flipped; a box already flipped, or one
    /// whose far edge does not fit in 32 bits, is left for [`Encoder::blit`] to refuse.
    pub fn flipped_y(self) -> Self {
        let h = self.bx.h as i32;
        match (self.bx.y.checked_add(self.bx.h), h.checked_neg()) {
            (Some(y), Some(n)) if h > 0 => BlitSide {
                bx: Box3d {
                    y,
                    h: n as u32,
                    ..self.bx
                },
                ..self
            },
            _ => BlitSide {
                bx: Box3d { h: 0, ..self.bx },
                ..self
            },
        }
    }
}

/// The span `o .. o + n` of a box along one axis as (start, length) with `n` read as signed
/// (a negative `n` covers `o + n .. o`), when `signed` allows it.
fn span(o: u32, n: u32, signed: bool) -> Option<(u32, u32)> {
    let n = n as i32;
    if n > 0 {
        Some((o, n as u32))
    } else if n < 0 && signed {
        let len = n.unsigned_abs();
        o.checked_sub(len).map(|start| (start, len))
    } else {
        None
    }
}

/// A 2D box inside the largest resource, non-empty, z 0 and depth 1; `signed`: its width and
/// height may be negative (a BLIT source).
fn check_box(what: &'static str, b: &Box3d, signed: bool) -> Result<()> {
    let fits = |s: Option<(u32, u32)>| {
        s.is_some_and(|(o, n)| o.checked_add(n).is_some_and(|e| e <= MAX_RESOURCE_DIM))
    };
    if b.z != 0 || b.d != 1 || !fits(span(b.x, b.w, signed)) || !fits(span(b.y, b.h, signed)) {
        return Err(GpuError::Invalid { what });
    }
    Ok(())
}

impl<S: Sink + ?Sized> Encoder<'_, S> {
    /// BLIT of the colour channels of `src` into `dst` with `filter` (`BLIT_FILTER_NEAREST` or
    /// `BLIT_FILTER_LINEAR`), no scissor, no render condition, no blending. The source box
    /// may have a negative width or height (mirrored, see [`BlitSide`]); the destination's
    /// may not (gallium's rule).
    pub fn blit(&mut self, dst: &BlitSide, src: &BlitSide, filter: u32) -> Result<()> {
        check_max("blit filter", filter, BLIT_FILTER_LINEAR)?;
        for (s, what, signed) in [(dst, "blit destination", false), (src, "blit source", true)] {
            check_resource(what, s.resource)?;
            check_max("blit level", s.level, MAX_MIP_LEVELS - 1)?;
            check_format(
                "blit format (B8G8R8A8_UNORM or R32G32B32A32_FLOAT)",
                s.format,
                &BLIT_FORMATS,
            )?;
            check_box(
                "blit box must be non-empty, 2D, within 16384",
                &s.bx,
                signed,
            )?;
        }
        let side = |s: &BlitSide| {
            [
                s.resource, s.level, s.format, s.bx.x, s.bx.y, s.bx.z, s.bx.w, s.bx.h, s.bx.d,
            ]
        };
        let mut w = [0u32; 1 + BLIT_SIZE as usize];
        w[0] = cmd0(CCMD_BLIT, 0, BLIT_SIZE);
        w[1] = BLIT_MASK_RGBA | filter << BLIT_FILTER_SHIFT;
        // Words 2 and 3: the scissor (unused: 0).
        w[4..13].copy_from_slice(&side(dst));
        w[13..22].copy_from_slice(&side(src));
        self.emit(&w)
    }

    /// RESOURCE_COPY_REGION of box `src_box` of level `src_level` of `src` to (`dst_x`,
    /// `dst_y`) of level `dst_level` of `dst` (same format, texel for texel).
    pub fn copy_region(
        &mut self,
        dst: u32,
        dst_level: u32,
        dst_xy: (u32, u32),
        src: u32,
        src_level: u32,
        src_box: Box3d,
    ) -> Result<()> {
        check_resource("copy destination", dst)?;
        check_resource("copy source", src)?;
        check_max("copy level", dst_level.max(src_level), MAX_MIP_LEVELS - 1)?;
        check_box(
            "copy box must be non-empty, 2D, within 16384",
            &src_box,
            false,
        )?;
        let moved = Box3d {
            x: dst_xy.0,
            y: dst_xy.1,
            ..src_box
        };
        check_box(
            "copy destination beyond the largest resource",
            &moved,
            false,
        )?;
        let b = src_box;
        self.emit(&[
            cmd0(CCMD_RESOURCE_COPY_REGION, 0, COPY_REGION_SIZE),
            dst,
            dst_level,
            dst_xy.0,
            dst_xy.1,
            0,
            src,
            src_level,
            b.x,
            b.y,
            b.z,
            b.w,
            b.h,
            b.d,
        ])
    }
}
