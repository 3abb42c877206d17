//! Texture objects: CPU texels (0xAARRGGBB, row 0 first, alpha preserved) and the sampler state,
//! plus per-device-context residency. This module must never talk to a device itself.

use alloc::vec::Vec;

use crate::device::DevId;

/// How a texture is sampled: the software sampler's state itself (filters, mip filter, wrap
/// per axis, LOD bias/min/max), so both backends read one description. The default is
/// nearest filtering, repeat wrap, no mipmapping.
pub use shader::back::raster::{Filter, MipFilter, SamplerState, Wrap};

/// The mip chain below level 0 of a `width` x `height` picture of 0xAARRGGBB texels, down to
/// 1x1: each texel of level i + 1 the rounded mean, per channel, of the (up to) 2x2 texels of
/// level i it covers (a box filter; an edge of 1 texel averages 2 or 1). Level i is
/// max(1, width >> i) x max(1, height >> i). The `scene` crate builds the same chain.
pub fn box_chain(width: u32, height: u32, texels: &[u32]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    let (mut w, mut h) = (width.max(1) as usize, height.max(1) as usize);
    let mut prev: Vec<u32> = texels.to_vec();
    while w > 1 || h > 1 {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = Vec::with_capacity(nw * nh);
        for y in 0..nh {
            for x in 0..nw {
                let mut texel = 0u32;
                for shift in [0u32, 8, 16, 24] {
                    let (mut sum, mut n) = (0u32, 0u32);
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let (sx, sy) = (2 * x + dx, 2 * y + dy);
                        if (w > 1 || dx == 0) && (h > 1 || dy == 0) && sx < w && sy < h {
                            sum += (prev.get(sy * w + sx).copied().unwrap_or(0) >> shift) & 0xFF;
                            n += 1;
                        }
                    }
                    texel |= ((sum + n / 2) / n.max(1)) << shift;
                }
                next.push(texel);
            }
        }
        out.push(next.clone());
        prev = next;
        w = nw;
        h = nh;
    }
    out
}

/// Whether a sampler state can be used: LOD bias, min and max finite within +-1000 and
/// min <= max.
pub fn sampler_valid(s: &SamplerState) -> bool {
    let ok = |x: f32| x.is_finite() && x.abs() <= 1000.0;
    ok(s.lod_bias) && ok(s.min_lod) && ok(s.max_lod) && s.min_lod <= s.max_lod
}

/// A texture's texel format. RGBA8 (0xAARRGGBB, the default) is sampled by float samplers;
/// RGBA32I / RGBA32UI (four 32-bit words a texel, 16 bytes) only by `isampler2D` /
/// `usampler2D`, level 0 only, NEAREST only (issue 15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TextureFormat {
    #[default]
    Rgba8,
    Rgba32I,
    Rgba32UI,
}

impl TextureFormat {
    pub fn name(self) -> &'static str {
        match self {
            TextureFormat::Rgba8 => "RGBA8",
            TextureFormat::Rgba32I => "RGBA32I",
            TextureFormat::Rgba32UI => "RGBA32UI",
        }
    }
    /// Whether the texels are integer words (RGBA32I/RGBA32UI).
    pub fn is_integer(self) -> bool {
        self != TextureFormat::Rgba8
    }
    /// Bytes a texel takes (4 for RGBA8, 16 for the integer formats).
    pub fn bytes_per_texel(self) -> usize {
        if self.is_integer() {
            16
        } else {
            4
        }
    }
}

pub(crate) struct Texture {
    pub width: u32,
    pub height: u32,
    pub texels: Vec<u32>,
    /// Mip levels 1, 2, ... (empty: level 0 only).
    pub levels: Vec<Vec<u32>>,
    /// A cube texture's faces 1..=5 (+x is face 0: `texels`/`levels`), each (texels, levels
    /// 1, 2, ...) of the same square size. Empty: a 2D texture.
    pub faces: Vec<(Vec<u32>, Vec<Vec<u32>>)>,
    pub sampler: SamplerState,
    /// RGBA8 unless made by `tex_create_format`.
    pub format: TextureFormat,
    /// An integer texture's texels (RGBA32I/RGBA32UI: (r, g, b, a) words, row 0 first,
    /// width * height of them); empty for RGBA8 (whose `texels` are then unused zeros' size).
    pub ints: Vec<[u32; 4]>,
    /// Device texture per device context that drew with it: (device context, device texture).
    pub resident: Vec<(DevId, DevId)>,
}
