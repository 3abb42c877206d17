//! Render-target objects: CPU colour (0xAARRGGBB, or float RGBA for an RGBA32F target) and
//! float depth always, and the device target under VirGL. This module must never talk to a
//! device itself.
//!
//! Orientation (GL's): a sampled target's row at t = 0 is the row drawn at window y = 0 (the
//! bottom of the picture). The software rasterizer draws top row first, so each CPU plane
//! (colour, depth) carries its row order: top row first while drawn into and read back, and
//! reversed in place to bottom row first (GL's texture order) when a draw samples it or its
//! mip levels are generated ([`Target::orient`]). Readback reads either order top row first.

use alloc::vec::Vec;

use crate::device::DevId;
use crate::error::{Error, Result};
use crate::handle::ContextId;
use crate::limits::{TARGET_HEIGHT_MAX, TARGET_WIDTH_MAX};

/// Which buffer of a render target a draw samples as a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetPlane {
    /// The colour: texels as a texture's (0xAARRGGBB, alpha kept).
    Color,
    /// The float depth (for shadow maps): a `sampler2D` reads (d, d, d, 1) with d the window
    /// depth in [0, 1] at float precision.
    Depth,
}

/// The colour format of a render target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TargetFormat {
    /// 8-bit unsigned normalized channels, stored 0xAARRGGBB (the default).
    #[default]
    Rgba8,
    /// 32-bit float channels (for HDR rendering): colours are stored unclamped, blending
    /// follows GL's float-target rules (nothing clamped), sampling the target returns the
    /// floats. Readback as 0xAARRGGBB clamps to [0, 1] and rounds to nearest.
    Rgba32F,
}

impl TargetFormat {
    /// The format numbered `v` (0 = RGBA8, 1 = RGBA32F); another value is `BadEnum`.
    pub fn from_raw(v: u32) -> Result<TargetFormat> {
        match v {
            0 => Ok(TargetFormat::Rgba8),
            1 => Ok(TargetFormat::Rgba32F),
            _ => Err(Error::BadEnum {
                what: "target format",
                value: v,
            }),
        }
    }

    /// Bytes of colour per pixel.
    pub const fn bytes_per_pixel(self) -> usize {
        match self {
            TargetFormat::Rgba8 => 4,
            TargetFormat::Rgba32F => 16,
        }
    }

    /// The name the mock log records.
    pub const fn name(self) -> &'static str {
        match self {
            TargetFormat::Rgba8 => "rgba8",
            TargetFormat::Rgba32F => "rgba32f",
        }
    }
}

pub(crate) struct Target {
    pub ctx: ContextId,
    pub width: u32,
    pub height: u32,
    pub format: TargetFormat,
    /// RGBA8: the pixels. RGBA32F: empty (the colour is `colorf`).
    pub color: Vec<u32>,
    /// RGBA32F: the `width * height` colours (r, g, b, a), row 0 = top. RGBA8: empty.
    pub colorf: Vec<[f32; 4]>,
    pub depth: Vec<f32>,
    /// RGBA8 colour mip levels 1, 2, ... made by `target_generate_mipmaps` from the colour
    /// (`texture::gl_chain`), sampled with the colour until the next frame begins on the target.
    pub levels: Vec<Vec<u32>>,
    /// An RGBA32F target's colour with its mip chain (`target_generate_mipmaps` on the
    /// software backend): level 0 (a copy of `colorf`), then levels 1, 2, ... back to back, as
    /// the float sampler reads a chain; empty without levels.
    pub chainf: Vec<[f32; 4]>,
    /// Under VirGL: the device built the colour's mip chain on the host
    /// (`Device::target_generate_levels`; `levels` stays empty), until the next frame begins.
    pub dev_levels: bool,
    /// Device colour + depth on the owning context's device context.
    pub dev: Option<DevId>,
    /// The colour plane (`color` or `colorf`) is stored bottom row first (sampled), not top
    /// row first (drawn). Mip levels are always made from, and so share, the bottom-first
    /// order.
    pub color_bottom_first: bool,
    /// The depth plane is stored bottom row first (sampled as a shadow map).
    pub depth_bottom_first: bool,
}

/// Reverses the row order of a `width`-wide picture in place.
pub(crate) fn flip_rows<T>(px: &mut [T], width: usize) {
    if width == 0 {
        return;
    }
    let rows = px.len() / width;
    let (mut top, mut bottom) = (0usize, rows.saturating_sub(1));
    while top < bottom {
        let (head, tail) = px.split_at_mut(bottom * width);
        if let (Some(a), Some(b)) = (
            head.get_mut(top * width..(top + 1) * width),
            tail.get_mut(..width),
        ) {
            a.swap_with_slice(b);
        }
        top += 1;
        bottom -= 1;
    }
}

/// Copies the `width`-wide picture `src` into `dst` top row first: as it is, or with its rows
/// reversed when `src` is stored bottom row first.
pub(crate) fn copy_top_first<T: Copy>(dst: &mut [T], src: &[T], width: usize, bottom_first: bool) {
    if !bottom_first || width == 0 {
        for (o, v) in dst.iter_mut().zip(src) {
            *o = *v;
        }
        return;
    }
    for (o, row) in dst.chunks_mut(width).zip(src.chunks(width).rev()) {
        for (d, v) in o.iter_mut().zip(row) {
            *d = *v;
        }
    }
}

pub(crate) fn check_size(width: u32, height: u32) -> Result<usize> {
    if width == 0 || height == 0 || width > TARGET_WIDTH_MAX || height > TARGET_HEIGHT_MAX {
        return Err(Error::BadTargetSize { width, height });
    }
    Ok(width as usize * height as usize)
}

/// A vector of `n` copies of `v`, or `OutOfMemory` instead of an abort.
pub(crate) fn filled<T: Clone>(n: usize, v: T) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        bytes: n.saturating_mul(core::mem::size_of::<T>()),
    })?;
    out.resize(n, v);
    Ok(out)
}

impl Target {
    /// Allocated colour planes for `n` pixels of `format`: (RGBA8 pixels, float colours).
    pub(crate) fn planes(format: TargetFormat, n: usize) -> Result<(Vec<u32>, Vec<[f32; 4]>)> {
        Ok(match format {
            TargetFormat::Rgba8 => (filled(n, 0u32)?, Vec::new()),
            TargetFormat::Rgba32F => (Vec::new(), filled(n, [0.0f32; 4])?),
        })
    }

    /// Bytes of the colour plane.
    pub(crate) fn color_bytes(&self) -> usize {
        self.color.len() * 4
            + self.colorf.len() * 16
            + self.levels.iter().map(Vec::len).sum::<usize>() * 4
            + self.chainf.len() * 16
    }

    /// Stores `plane` bottom row first (`bottom_first`: for sampling, GL's texture order) or
    /// top row first (for drawing and readback), reversing its rows in place when it is in
    /// the other order. Generated mip levels are dropped when the colour turns top row first
    /// (they are stale then: only `begin` does that).
    pub(crate) fn orient(&mut self, plane: TargetPlane, bottom_first: bool) {
        let w = self.width as usize;
        match plane {
            TargetPlane::Color if self.color_bottom_first != bottom_first => {
                flip_rows(&mut self.color, w);
                flip_rows(&mut self.colorf, w);
                self.color_bottom_first = bottom_first;
                if !bottom_first {
                    self.levels.clear();
                    self.chainf = Vec::new();
                }
            }
            TargetPlane::Depth if self.depth_bottom_first != bottom_first => {
                flip_rows(&mut self.depth, w);
                self.depth_bottom_first = bottom_first;
            }
            _ => {}
        }
    }

    /// Pixels of the colour plane.
    pub(crate) fn pixels(&self) -> usize {
        match self.format {
            TargetFormat::Rgba8 => self.color.len(),
            TargetFormat::Rgba32F => self.colorf.len(),
        }
    }
}
