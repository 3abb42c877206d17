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

/// The two source taps (index, weight) along one axis of texel `x` of a level `dst` texels
/// wide made from one `src` texels wide, by GL's rule for glGenerateMipmap as Mesa (llvmpipe)
/// and virglrenderer run it: a linear 2:1 blit, sampling the source at the destination
/// texel's centre. An even source gives the 2-texel box (weights 1/2, 1/2), an extent of 1
/// the texel itself, and an odd source the bilinear taps around (x + 1/2) * src / dst
/// (clamped to the edge).
fn gl_taps(src: usize, dst: usize, x: usize) -> [(usize, f32); 2] {
    if src <= 1 {
        return [(0, 1.0), (0, 0.0)];
    }
    if src.is_multiple_of(2) {
        return [(2 * x, 0.5), (2 * x + 1, 0.5)];
    }
    let u = (x as f32 + 0.5) * src as f32 / dst.max(1) as f32 - 0.5;
    let i0 = libm::floorf(u).max(0.0);
    let f = (u - i0).clamp(0.0, 1.0);
    let i0 = (i0 as usize).min(src - 1);
    [(i0, 1.0 - f), ((i0 + 1).min(src - 1), f)]
}

/// The mip chain below level 0 of a `width` x `height` picture of `T`, each level made from
/// the one above with [`gl_taps`] on both axes (`mix` blends up to 4 weighted texels).
fn gl_chain_of<T: Copy>(
    width: u32,
    height: u32,
    level0: &[T],
    zero: T,
    mix: impl Fn(&[(T, f32); 4]) -> T,
) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = Vec::new();
    let (mut w, mut h) = (width.max(1) as usize, height.max(1) as usize);
    while w > 1 || h > 1 {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let prev: &[T] = out.last().map_or(level0, Vec::as_slice);
        let mut next = Vec::with_capacity(nw * nh);
        for y in 0..nh {
            let ty = gl_taps(h, nh, y);
            for x in 0..nw {
                let tx = gl_taps(w, nw, x);
                let at = |(xi, wx): (usize, f32), (yi, wy): (usize, f32)| {
                    (prev.get(yi * w + xi).copied().unwrap_or(zero), wx * wy)
                };
                next.push(mix(&[
                    at(tx[0], ty[0]),
                    at(tx[1], ty[0]),
                    at(tx[0], ty[1]),
                    at(tx[1], ty[1]),
                ]));
            }
        }
        out.push(next);
        w = nw;
        h = nh;
    }
    out
}

/// The mip chain a render target's colour gets (`target_generate_mipmaps`): GL's
/// glGenerateMipmap rule ([`gl_taps`]) per channel, rounded to nearest. On even extents (every
/// level of a power-of-two target) it is exactly [`box_chain`]; on an odd extent the texels
/// are weighted as the host's linear blit weights them, so VirGL's host-made chain and this
/// one agree (within the compat rule: the host quantizes its weights to 8 bits).
pub fn gl_chain(width: u32, height: u32, texels: &[u32]) -> Vec<Vec<u32>> {
    gl_chain_of(width, height, texels, 0, |taps| {
        let mut texel = 0u32;
        for shift in [0u32, 8, 16, 24] {
            let v: f32 = taps
                .iter()
                .map(|&(t, w)| ((t >> shift) & 0xFF) as f32 * w)
                .sum();
            texel |= (libm::floorf(v + 0.5).clamp(0.0, 255.0) as u32) << shift;
        }
        texel
    })
}

/// [`gl_chain`] of a float target's colours (r, g, b, a), in f32 without rounding.
pub fn gl_chain_f32(width: u32, height: u32, colors: &[[f32; 4]]) -> Vec<Vec<[f32; 4]>> {
    gl_chain_of(width, height, colors, [0.0; 4], |taps| {
        let mut c = [0.0f32; 4];
        for &(t, w) in taps {
            if w != 0.0 {
                for (o, v) in c.iter_mut().zip(t) {
                    *o += v * w;
                }
            }
        }
        c
    })
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
    /// A 2D array texture's layers 1.. (layer 0 is `texels`/`levels`), each (texels, levels
    /// 1, 2, ...) of the same size. Empty for other textures and for an array of 1 layer
    /// (`array` tells those apart).
    pub layers: Vec<(Vec<u32>, Vec<Vec<u32>>)>,
    /// Whether this is a 2D array texture (`tex_create_array`), sampled by sampler2DArray.
    pub array: bool,
    pub sampler: SamplerState,
    /// RGBA8 unless made by `tex_create_format`.
    pub format: TextureFormat,
    /// An integer texture's texels (RGBA32I/RGBA32UI: (r, g, b, a) words, row 0 first,
    /// width * height of them); empty for RGBA8 (whose `texels` are then unused zeros' size).
    pub ints: Vec<[u32; 4]>,
    /// An integer array texture's layers 1.. (layer 0 is `ints`), each width * height texels
    /// of four words (`tex_create_array_format`, session 9). Empty for other textures.
    pub int_layers: Vec<Vec<[u32; 4]>>,
    /// Device texture per device context that drew with it: (device context, device texture).
    pub resident: Vec<(DevId, DevId)>,
}

impl Texture {
    /// A `width` x `height` texture of `format` with no texels, levels, faces or layers, the
    /// default sampler state and no device copies; each `tex_create*` fills what it makes.
    pub fn blank(width: u32, height: u32, format: TextureFormat) -> Self {
        Texture {
            width,
            height,
            texels: Vec::new(),
            levels: Vec::new(),
            faces: Vec::new(),
            layers: Vec::new(),
            array: false,
            sampler: SamplerState::default(),
            format,
            ints: Vec::new(),
            int_layers: Vec::new(),
            resident: Vec::new(),
        }
    }

    /// Layers of an array texture (1..=TEXTURE_LAYERS_MAX); 0 for any other texture.
    pub fn layer_count(&self) -> u32 {
        if self.array {
            1 + self.layers.len() as u32 + self.int_layers.len() as u32
        } else {
            0
        }
    }
}
