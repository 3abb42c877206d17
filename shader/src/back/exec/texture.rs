//! Textures as the executor samples them: sampler state (filter, wrap), a borrowed texel array
//! of `0xAARRGGBB` texels and its validation, and sampling per lane and for all lanes at once
//! (nearest and bilinear, repeat/clamp/mirror), bit-identical between the two forms.
// Lane loops index several arrays in lockstep on purpose (that is the form that vectorizes),
// and negated float comparisons send NaN down the rejecting path.
#![allow(
    clippy::needless_range_loop,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::excessive_precision
)]

use super::lanes::{Lanes, Vec4x, LANES};
use super::math::{floor_i32, floor_small, FLOOR_SMALL_MAX};

/// Texture minification/magnification filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    #[default]
    Nearest,
    Linear,
}

/// Texture coordinate wrap mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wrap {
    #[default]
    Repeat,
    ClampToEdge,
    /// GL_MIRRORED_REPEAT: every other repeat mirrored.
    MirroredRepeat,
}

/// How minification chooses between mip levels (the `*_MIPMAP_*` part of GL's min filter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MipFilter {
    /// GL_NEAREST / GL_LINEAR: level 0 only.
    #[default]
    None,
    /// `*_MIPMAP_NEAREST`: the nearest level.
    Nearest,
    /// `*_MIPMAP_LINEAR`: a blend of the two nearest levels.
    Linear,
}

/// The depth compare functions of a sampler's compare mode are the depth test's (GL's 8).
pub use crate::back::raster::state::CompareFunc;

/// Per-unit sampler state; the default is GL's (nearest here, repeat, no mipmapping).
/// `filter` magnifies (and minifies unless `min_filter` says otherwise); `wrap` wraps s (and t
/// unless `wrap_t` says otherwise), so `SamplerState { filter, wrap, ..Default::default() }` is
/// one filter and one wrap mode for everything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerState {
    pub filter: Filter,
    pub wrap: Wrap,
    /// The minification filter within a level (None: `filter`).
    pub min_filter: Option<Filter>,
    /// The mip-level choice when minifying.
    pub mip: MipFilter,
    /// The wrap mode of t (None: `wrap`).
    pub wrap_t: Option<Wrap>,
    /// GL_TEXTURE_LOD_BIAS, GL_TEXTURE_MIN_LOD, GL_TEXTURE_MAX_LOD.
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// GL_TEXTURE_COMPARE_MODE: None is GL_NONE, Some(func) is GL_COMPARE_REF_TO_TEXTURE
    /// with that function (read by the shadow samplers' ops only).
    pub compare: Option<CompareFunc>,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            filter: Filter::Nearest,
            wrap: Wrap::Repeat,
            min_filter: None,
            mip: MipFilter::None,
            wrap_t: None,
            lod_bias: 0.0,
            min_lod: -1000.0,
            max_lod: 1000.0,
            compare: None,
        }
    }
}

impl SamplerState {
    /// One filter and one wrap mode for both axes, no mipmapping (profile 1's sampler).
    pub const fn new(filter: Filter, wrap: Wrap) -> SamplerState {
        SamplerState {
            filter,
            wrap,
            min_filter: None,
            mip: MipFilter::None,
            wrap_t: None,
            lod_bias: 0.0,
            min_lod: -1000.0,
            max_lod: 1000.0,
            compare: None,
        }
    }

    #[inline(always)]
    pub fn min(&self) -> Filter {
        self.min_filter.unwrap_or(self.filter)
    }

    #[inline(always)]
    pub fn wrap_t(&self) -> Wrap {
        self.wrap_t.unwrap_or(self.wrap)
    }
}

/// A texture bound to a unit: `width * height` texels `0xAARRGGBB`, row 0 (v = 0) first.
#[derive(Clone, Copy, Debug)]
pub struct TextureRef<'a> {
    pub width: u32,
    pub height: u32,
    pub texels: &'a [u32],
    pub sampler: SamplerState,
    /// A depth texture instead (a render target's float depth, `width * height` values, row 0
    /// first): samples read (d, d, d, 1) at full float precision (bilinear with float weights),
    /// and `texels` is not read.
    pub depth: Option<&'a [f32]>,
    /// A float colour texture instead (a float render target's colour, `width * height`
    /// (r, g, b, a), row 0 first): samples are unclamped floats (bilinear with float weights),
    /// and `texels` is not read. `depth` wins when both are set. It may hold a mip chain:
    /// level 0's `width * height` colours, then level 1's, 2's, ... back to back (level i
    /// max(1, width >> i) x max(1, height >> i)), sampled through the mip filter.
    pub rgba: Option<&'a [[f32; 4]]>,
    /// An integer texture instead (profile 2's isampler2D/usampler2D, issue 15): `width *
    /// height` texels of four 32-bit words (r, g, b, a), row 0 first, one level. The texture
    /// ops of an integer sampler read the words unchanged into the integer registers
    /// (`exec::itex`); `texels` is not read. `depth` and `rgba` win when set.
    pub ints: Option<&'a [[u32; 4]]>,
    /// Mip levels 1, 2, ... of an 8-bit texture (level 0 is `texels`): level i has
    /// max(1, width >> i) x max(1, height >> i) texels, row 0 first. Empty: level 0 only.
    pub mips: &'a [&'a [u32]],
    /// A cube texture: its 6 faces (+X, -X, +Y, -Y, +Z, -Z), each a square 2D texture of this
    /// size with its own levels (this texture's own texels are face 0's). Empty: a 2D texture.
    /// Only the cube ops read the faces; a cube under a 2D op, or a 2D texture under a cube
    /// op, samples as incomplete (opaque black).
    pub faces: &'a [TextureRef<'a>],
    /// A 2D array texture (sampler2DArray, session 6): its layers, each a 2D texture of this
    /// size with its own levels (this texture's own texels are not read). Only the array ops
    /// (`exec::array`) read the layers; an array under another op, or another texture under
    /// an array op, samples as incomplete (opaque black). Empty: not an array.
    pub layers: &'a [TextureRef<'a>],
}

/// Largest texture edge accepted (keeps texel arithmetic far from overflow).
pub const TEXTURE_MAX: u32 = 16384;

/// Why a texture cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureError {
    /// Width or height is 0 or above [`TEXTURE_MAX`].
    BadSize { width: u32, height: u32 },
    /// Fewer texels than width * height.
    TooFewTexels { needed: usize, found: usize },
    /// A cube texture without exactly 6 faces, non-square, or a face of another size.
    BadCube { faces: usize },
    /// An array texture with more than [`ARRAY_LAYERS_MAX`] layers, a layer of another size,
    /// or a layer that is itself a cube or an array.
    BadArray { layers: usize },
}

pub use crate::limits::ARRAY_LAYERS_MAX;

impl core::fmt::Display for TextureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            TextureError::BadSize { width, height } => {
                write!(
                    f,
                    "texture size {}x{} is invalid (each edge must be 1..={})",
                    width, height, TEXTURE_MAX
                )
            }
            TextureError::TooFewTexels { needed, found } => {
                write!(f, "texture has {} texels, its size needs {}", found, needed)
            }
            TextureError::BadCube { faces } => write!(
                f,
                "cube texture has {} faces; it needs 6 square faces of one size",
                faces
            ),
            TextureError::BadArray { layers } => write!(
                f,
                "array texture has {} layers; it needs 1..={} layers of its size, each a 2D texture",
                layers, ARRAY_LAYERS_MAX
            ),
        }
    }
}

impl<'a> TextureRef<'a> {
    pub fn validate(&self) -> Result<(), TextureError> {
        if self.width == 0
            || self.height == 0
            || self.width > TEXTURE_MAX
            || self.height > TEXTURE_MAX
        {
            return Err(TextureError::BadSize {
                width: self.width,
                height: self.height,
            });
        }
        let needed = self.width as usize * self.height as usize;
        let found = match (self.depth, self.rgba, self.ints) {
            (Some(d), _, _) => d.len(),
            (None, Some(c), _) => c.len(),
            (None, None, Some(i)) => i.len(),
            (None, None, None) => self.texels.len(),
        };
        if found < needed {
            return Err(TextureError::TooFewTexels { needed, found });
        }
        if !self.layers.is_empty() {
            if self.layers.len() > ARRAY_LAYERS_MAX || !self.faces.is_empty() {
                return Err(TextureError::BadArray {
                    layers: self.layers.len(),
                });
            }
            for l in self.layers {
                if l.width != self.width
                    || l.height != self.height
                    || !l.faces.is_empty()
                    || !l.layers.is_empty()
                {
                    return Err(TextureError::BadArray {
                        layers: self.layers.len(),
                    });
                }
                l.validate()?;
            }
        }
        if !self.faces.is_empty() {
            let bad = TextureError::BadCube {
                faces: self.faces.len(),
            };
            if self.faces.len() != 6 || self.width != self.height {
                return Err(bad);
            }
            for f in self.faces {
                if f.width != self.width || f.height != self.height || !f.faces.is_empty() {
                    return Err(bad);
                }
                f.validate()?;
            }
        }
        Ok(())
    }

    /// Whether samples are floats read at full precision (a depth or float colour texture).
    #[inline(always)]
    pub fn is_float(&self) -> bool {
        self.depth.is_some() || self.rgba.is_some() || self.ints.is_some()
    }

    /// The integer texels when this is an integer texture (and neither depth nor float).
    #[inline(always)]
    pub fn int_texels(&self) -> Option<&[[u32; 4]]> {
        match (self.depth, self.rgba) {
            (None, None) => self.ints,
            _ => None,
        }
    }

    /// Texel column `i` wrapped by the s mode into 0..size.
    #[inline(always)]
    fn wrap(&self, i: i32, size: u32) -> usize {
        wrap_index(self.sampler.wrap, i, size)
    }

    /// Texel row `i` wrapped by the t mode into 0..size.
    #[inline(always)]
    fn wrap_y(&self, i: i32, size: u32) -> usize {
        wrap_index(self.sampler.wrap_t(), i, size)
    }

    /// The filtered (r, g, b, a) at (u, v); texel i covers [i/width, (i+1)/width).
    #[inline(always)]
    pub fn sample(&self, u: f32, v: f32) -> [f32; 4] {
        if let Some(d) = self.depth {
            let z = self.sample_depth(d, u, v);
            return [z, z, z, 1.0];
        }
        if let Some(c) = self.rgba {
            return self.sample_rgba(c, u, v);
        }
        unpack(self.sample_texel(u, v))
    }

    /// The filtered (r, g, b, a) at (u, v) of a float colour texture, unclamped (same texel
    /// choice and float weights as `sample_depth`).
    fn sample_rgba(&self, c: &[[f32; 4]], u: f32, v: f32) -> [f32; 4] {
        let at = |x: usize, y: usize| {
            c.get(y * self.width as usize + x)
                .copied()
                .unwrap_or([0.0, 0.0, 0.0, 1.0])
        };
        let (w, h) = (self.width as f32, self.height as f32);
        match self.sampler.filter {
            Filter::Nearest => at(
                self.wrap(floor_i32(u * w), self.width),
                self.wrap_y(floor_i32(v * h), self.height),
            ),
            Filter::Linear => {
                let fx = u * w - 0.5;
                let fy = v * h - 0.5;
                let (x0, y0) = (floor_i32(fx), floor_i32(fy));
                let ax = (fx - x0 as f32).clamp(0.0, 1.0);
                let ay = (fy - y0 as f32).clamp(0.0, 1.0);
                let x0w = self.wrap(x0, self.width);
                let x1w = self.wrap(x0.saturating_add(1), self.width);
                let y0w = self.wrap_y(y0, self.height);
                let y1w = self.wrap_y(y0.saturating_add(1), self.height);
                let (p00, p10, p01, p11) = (at(x0w, y0w), at(x1w, y0w), at(x0w, y1w), at(x1w, y1w));
                let mut out = [0.0f32; 4];
                for (k, o) in out.iter_mut().enumerate() {
                    let top = p00[k] + (p10[k] - p00[k]) * ax;
                    let bot = p01[k] + (p11[k] - p01[k]) * ax;
                    *o = top + (bot - top) * ay;
                }
                out
            }
        }
    }

    /// The filtered depth at (u, v) of a depth texture (same texel choice as `sample_texel`).
    fn sample_depth(&self, d: &[f32], u: f32, v: f32) -> f32 {
        let at = |x: usize, y: usize| d.get(y * self.width as usize + x).copied().unwrap_or(1.0);
        let (w, h) = (self.width as f32, self.height as f32);
        match self.sampler.filter {
            Filter::Nearest => at(
                self.wrap(floor_i32(u * w), self.width),
                self.wrap_y(floor_i32(v * h), self.height),
            ),
            Filter::Linear => {
                let fx = u * w - 0.5;
                let fy = v * h - 0.5;
                let (x0, y0) = (floor_i32(fx), floor_i32(fy));
                let ax = (fx - x0 as f32).clamp(0.0, 1.0);
                let ay = (fy - y0 as f32).clamp(0.0, 1.0);
                let x0w = self.wrap(x0, self.width);
                let x1w = self.wrap(x0.saturating_add(1), self.width);
                let y0w = self.wrap_y(y0, self.height);
                let y1w = self.wrap_y(y0.saturating_add(1), self.height);
                let top = at(x0w, y0w) + (at(x1w, y0w) - at(x0w, y0w)) * ax;
                let bot = at(x0w, y1w) + (at(x1w, y1w) - at(x0w, y1w)) * ax;
                top + (bot - top) * ay
            }
        }
    }

    /// [`Self::sample`] before the conversion to floats: the filtered 0xAARRGGBB value (the
    /// bilinear blend works on the 8-bit channels).
    #[inline(always)]
    pub fn sample_texel(&self, u: f32, v: f32) -> u32 {
        if self.is_float() {
            return super::texel::pack_one(self.sample(u, v));
        }
        let (w, h) = (self.width as f32, self.height as f32);
        match self.sampler.filter {
            Filter::Nearest => {
                let x = self.wrap(floor_i32(u * w), self.width);
                let y = self.wrap_y(floor_i32(v * h), self.height);
                self.raw(x, y)
            }
            Filter::Linear => {
                let fx = u * w - 0.5;
                let fy = v * h - 0.5;
                let (x0, y0) = (floor_i32(fx), floor_i32(fy));
                // 8-bit fixed-point weights, as llvmpipe filters 8-bit texels; NaN/huge
                // coordinates give some valid texel.
                let ax = ((fx - x0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
                let ay = ((fy - y0 as f32) * 256.0 + 0.5).clamp(0.0, 256.0) as u32;
                let x0w = self.wrap(x0, self.width);
                let x1w = self.wrap(x0.saturating_add(1), self.width);
                let y0w = self.wrap_y(y0, self.height);
                let y1w = self.wrap_y(y0.saturating_add(1), self.height);
                let top = lerp_texel(self.raw(x0w, y0w), self.raw(x1w, y0w), ax);
                let bot = lerp_texel(self.raw(x0w, y1w), self.raw(x1w, y1w), ax);
                lerp_texel(top, bot, ay)
            }
        }
    }

    /// [`Self::sample`] for every lane at once (lanes not running may sample anywhere: the
    /// result is a valid texel for any coordinate).
    #[inline(always)]
    pub(super) fn sample_lanes(&self, u: &Lanes, v: &Lanes, out: &mut Vec4x) {
        if let Some(d) = self.depth {
            for l in 0..LANES {
                let z = self.sample_depth(d, u[l], v[l]);
                out[0][l] = z;
                out[1][l] = z;
                out[2][l] = z;
                out[3][l] = 1.0;
            }
            return;
        }
        if let Some(c) = self.rgba {
            for l in 0..LANES {
                let p = self.sample_rgba(c, u[l], v[l]);
                for (k, ch) in p.iter().enumerate() {
                    out[k][l] = *ch;
                }
            }
            return;
        }
        super::texel::unpack_lanes(&self.texel_lanes(u, v), out);
    }

    /// [`Self::sample_texel`] for every lane at once. Power-of-two repeating textures take a
    /// branch-free path whose coordinate arithmetic vectorizes; it gives the same texels and
    /// weights as the per-lane path.
    #[inline(always)]
    pub(crate) fn texel_lanes(&self, u: &Lanes, v: &Lanes) -> [u32; LANES] {
        self.texel_lanes_in(u, v, false)
    }

    /// [`Self::texel_lanes`], with the blends in their `wide` form (the caller runs in the
    /// AVX2 trampoline, see `texel::bilerp`) or not: the same texels.
    #[inline(always)]
    pub(crate) fn texel_lanes_in(&self, u: &Lanes, v: &Lanes, wide: bool) -> [u32; LANES] {
        let filter = self.sampler.filter;
        match self
            .pow2_repeat()
            .and_then(|p| p.texel_lanes(filter, u, v, wide))
        {
            Some(t) => t,
            None => self.texel_per_lane(u, v),
        }
    }

    /// Whether SAMPLE on this texture is [`Self::texel_lanes_in`] unpacked (what
    /// [`Self::sample_lanes`] does): an 8-bit 2D texture sampled at level 0 under one filter.
    /// The compiled seam (`jit::sample`) then samples it without the float detour.
    #[inline(always)]
    pub(crate) fn plain_texels(&self) -> bool {
        self.layers.is_empty() && !self.is_float() && !self.needs_lod()
    }

    /// [`Self::sample_texel`] lane by lane.
    #[inline(always)]
    fn texel_per_lane(&self, u: &Lanes, v: &Lanes) -> [u32; LANES] {
        let mut out = [0u32; LANES];
        for l in 0..LANES {
            out[l] = self.sample_texel(u[l], v[l]);
        }
        out
    }

    /// An 8-bit power-of-two texture repeating both ways, with all its texels: the form the
    /// branch-free lane paths read.
    #[inline(always)]
    pub(crate) fn pow2_repeat(&self) -> Option<Pow2<'a>> {
        let pow2 = self.width.is_power_of_two() && self.height.is_power_of_two();
        let repeat = self.sampler.wrap == Wrap::Repeat && self.sampler.wrap_t() == Wrap::Repeat;
        if !(pow2 && repeat) || self.is_float() {
            return None;
        }
        let (shift, hshift) = (
            self.width.trailing_zeros().min(31),
            self.height.trailing_zeros().min(31),
        );
        // Exactly width * height texels (a power of two), so a masked index is in range and
        // the compiler drops the per-fetch bounds check.
        let n = 1usize << (shift + hshift).min(62);
        Some(Pow2 {
            t: self.texels.get(..n)?,
            width: self.width,
            height: self.height,
            mx: self.width - 1,
            my: self.height - 1,
            shift,
        })
    }

    #[inline(always)]
    fn raw(&self, x: usize, y: usize) -> u32 {
        self.texels
            .get(y * self.width as usize + x)
            .copied()
            .unwrap_or(0)
    }
}

/// An 8-bit power-of-two repeating texture level as the lane paths read it
/// ([`TextureRef::pow2_repeat`]): exactly `width * height` texels.
#[derive(Clone, Copy)]
pub(crate) struct Pow2<'a> {
    t: &'a [u32],
    width: u32,
    height: u32,
    /// width - 1, height - 1: the wrap masks.
    mx: u32,
    my: u32,
    /// log2(width): the row offset by shift (no 32-bit vector multiply on baseline x86_64).
    shift: u32,
}

/// Every lane's bilinear taps on a [`Pow2`] level: texel indexes and 8-bit weights
/// (`texel::Taps`), and whether some lane's right texel wraps to the start of its row.
pub(crate) struct Bilinear<'a> {
    t: &'a [u32],
    mx: u32,
    pub(crate) taps: super::texel::Taps,
    pub(crate) edge: bool,
}

impl<'a> Pow2<'a> {
    /// [`TextureRef::texel_lanes`] of this level under `filter`; None when some coordinate
    /// is not small (or NaN), where the caller samples lane by lane.
    #[inline(always)]
    pub(crate) fn texel_lanes(
        &self,
        filter: Filter,
        u: &Lanes,
        v: &Lanes,
        wide: bool,
    ) -> Option<[u32; LANES]> {
        if filter == Filter::Linear {
            let b = self.bilinear(u, v, wide)?;
            return Some(if b.edge {
                super::texel::bilerp(b.pair_wrapped(), &b.taps, wide)
            } else if wide {
                b.bilerp_fixed()
                    .unwrap_or_else(|| super::texel::bilerp(b.pair_masked(), &b.taps, true))
            } else {
                super::texel::bilerp(b.pair_next(), &b.taps, false)
            });
        }
        let (w, h) = (self.width as f32, self.height as f32);
        let fx = super::texel::scale_lanes(u, w, 0.0);
        let fy = super::texel::scale_lanes(v, h, 0.0);
        // NaN fails too.
        if !super::texel::all_below(&fx, &fy, FLOOR_SMALL_MAX) {
            return None;
        }
        let (mx, my, shift) = (self.mx as i32, self.my as i32, self.shift);
        let (t, n) = (self.t, self.t.len());
        let at = |i: i32| t.get(i as usize & (n - 1)).copied().unwrap_or(0);
        // Nearest: each lane's texel.
        let mut texel = [0u32; LANES];
        let mut idx = [0i32; LANES];
        for l in 0..LANES {
            idx[l] = ((floor_small(fy[l]) & my) << shift) + (floor_small(fx[l]) & mx);
        }
        for l in 0..LANES {
            texel[l] = at(idx[l]);
        }
        Some(texel)
    }

    /// The bilinear taps of every lane at (u, v), the texels and weights of
    /// [`TextureRef::sample_texel`]; None when some coordinate is not small (or NaN), where
    /// the caller samples lane by lane. With `wide` (the caller runs in the AVX2 trampoline)
    /// the coordinate scaling, range check and weight truncation are plain lane loops (8 lanes
    /// an instruction there, where the explicit SSE2 forms stay 4 wide), with the same values:
    /// `x * scale - bias`, |x| < max with NaN failing, and the weights lie in [0.5, 256], where
    /// their truncation is `floor_small`.
    #[inline(always)]
    pub(crate) fn bilinear(&self, u: &Lanes, v: &Lanes, wide: bool) -> Option<Bilinear<'a>> {
        let (w, h) = (self.width as f32, self.height as f32);
        let (mx, my, shift) = (self.mx as i32, self.my as i32, self.shift);
        let (fx, fy) = if wide {
            let (mut fx, mut fy) = ([0.0f32; LANES], [0.0f32; LANES]);
            let mut far = 0u32;
            for l in 0..LANES {
                fx[l] = u[l] * w - 0.5;
                fy[l] = v[l] * h - 0.5;
                let small = (fx[l].abs() < FLOOR_SMALL_MAX) & (fy[l].abs() < FLOOR_SMALL_MAX);
                far |= !small as u32;
            }
            if far != 0 {
                return None;
            }
            (fx, fy)
        } else {
            let fx = super::texel::scale_lanes(u, w, 0.5);
            let fy = super::texel::scale_lanes(v, h, 0.5);
            // NaN fails too.
            if !super::texel::all_below(&fx, &fy, FLOOR_SMALL_MAX) {
                return None;
            }
            (fx, fy)
        };
        let mut i0 = [0u32; LANES];
        let mut i1 = [0u32; LANES];
        let mut wx = [0.0f32; LANES];
        let mut wy = [0.0f32; LANES];
        // Some lane's right texel wraps to the start of its row (always when width is 1).
        let mut edge = false;
        for l in 0..LANES {
            let (x, y) = (floor_small(fx[l]), floor_small(fy[l]));
            // In [0.5, 256]: the clamp of `sample` (its truncation is below).
            wx[l] = ((fx[l] - x as f32) * 256.0 + 0.5).min(256.0);
            wy[l] = ((fy[l] - y as f32) * 256.0 + 0.5).min(256.0);
            let x0 = x & mx;
            edge |= x0 == mx;
            i0[l] = (((y & my) << shift) + x0) as u32;
            i1[l] = ((((y + 1) & my) << shift) + x0) as u32;
        }
        let (ax, ay) = if wide {
            let (mut ax, mut ay) = ([0u32; LANES], [0u32; LANES]);
            for l in 0..LANES {
                ax[l] = floor_small(wx[l]) as u32;
                ay[l] = floor_small(wy[l]) as u32;
            }
            (ax, ay)
        } else {
            (
                super::texel::weight_floor(&wx),
                super::texel::weight_floor(&wy),
            )
        };
        Some(Bilinear {
            t: self.t,
            mx: self.mx,
            taps: [i0, i1, ax, ay],
            edge,
        })
    }
}

impl Bilinear<'_> {
    /// The wide blends of lanes none of which is on the edge, for the texel counts of the
    /// usual square textures (16x16 to 256x256 and the other power-of-two shapes of those
    /// sizes; None for the others): [`Self::pair_masked`]'s texels, each row pair read from
    /// the level as an array of that length at an index clamped to len - 2 (a no-op: off the
    /// edge a left texel's index is at most len - 2), so that neither read needs a mask or a
    /// bounds check.
    #[inline(always)]
    pub(crate) fn bilerp_fixed(&self) -> Option<[u32; LANES]> {
        match self.t.len() {
            256 => self.bilerp_len::<256>(),
            1024 => self.bilerp_len::<1024>(),
            4096 => self.bilerp_len::<4096>(),
            16384 => self.bilerp_len::<16384>(),
            65536 => self.bilerp_len::<65536>(),
            _ => None,
        }
    }

    /// [`Self::bilerp_fixed`] on a level of exactly `S` texels.
    #[inline(always)]
    fn bilerp_len<const S: usize>(&self) -> Option<[u32; LANES]> {
        let t: &[u32; S] = self.t.try_into().ok()?;
        Some(super::texel::bilerp(pair_len(t), &self.taps, true))
    }
}

/// The row pair at texel index i of a level of `S` texels, i clamped to `S - 2`.
#[inline(always)]
fn pair_len<const S: usize>(t: &[u32; S]) -> impl Fn(u32) -> u64 + '_ {
    #[inline(always)]
    move |i: u32| {
        let i = (i as usize).min(S - 2);
        t[i] as u64 | (t[i + 1] as u64) << 32
    }
}

impl Bilinear<'_> {
    /// A row's left and right texel at index i as `left | right << 32`, when no lane is on
    /// the edge: right = left + 1 in memory, one bounds check and one 64-bit load (x0 < mx
    /// keeps i below n - 1, so i + 2 <= n does not overflow).
    #[inline(always)]
    pub(crate) fn pair_next(&self) -> impl Fn(u32) -> u64 + '_ {
        let t = self.t;
        #[inline(always)]
        move |i: u32| {
            let i = i as usize;
            match t.get(i..i + 2) {
                Some(&[a, b]) => a as u64 | (b as u64) << 32,
                _ => 0,
            }
        }
    }

    /// [`Self::pair_next`] as two masked loads, without a bounds check or a branch (the masks
    /// change no index of a lane off the edge): the form the wide blends gather through.
    #[inline(always)]
    pub(crate) fn pair_masked(&self) -> impl Fn(u32) -> u64 + '_ {
        let t = self.t;
        let n = t.len();
        let at = move |i: usize| t.get(i & (n - 1)).copied().unwrap_or(0);
        #[inline(always)]
        move |i: u32| at(i as usize) as u64 | (at(i as usize + 1) as u64) << 32
    }

    /// [`Self::pair_next`] for any lane: the right texel is the row start of i plus the next
    /// column wrapped.
    #[inline(always)]
    pub(crate) fn pair_wrapped(&self) -> impl Fn(u32) -> u64 + '_ {
        let (t, mx) = (self.t, self.mx);
        let n = t.len();
        let at = move |i: u32| t.get(i as usize & (n - 1)).copied().unwrap_or(0);
        #[inline(always)]
        move |i: u32| {
            let right = (i & !mx) | (i.wrapping_add(1) & mx);
            at(i) as u64 | (at(right) as u64) << 32
        }
    }
}

/// Texel index `i` wrapped by `mode` into 0..size (GL's wrap of an integer texel index).
#[inline(always)]
pub(super) fn wrap_index(mode: Wrap, i: i32, size: u32) -> usize {
    let size = size.clamp(1, TEXTURE_MAX) as i32;
    match mode {
        // Power-of-two sizes wrap with a mask (two's complement makes it exact for negatives).
        Wrap::Repeat if size & (size - 1) == 0 => (i & (size - 1)) as usize,
        Wrap::Repeat => i.rem_euclid(size) as usize,
        Wrap::ClampToEdge => i.clamp(0, size - 1) as usize,
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * size);
            (if m >= size { 2 * size - 1 - m } else { m }) as usize
        }
    }
}

/// (r, g, b, a) in [0, 1] of a 0xAARRGGBB texel.
#[inline(always)]
pub(super) fn unpack(t: u32) -> [f32; 4] {
    let ch = |s: u32| ((t >> s) & 0xFF) as f32 * (1.0 / 255.0);
    [ch(16), ch(8), ch(0), ch(24)]
}

/// Per-channel a + (b - a) * w / 256 with rounding, two channels per 32-bit half at a time
/// (each 16-bit field holds at most 255 * 256 + 128: no carries between fields).
#[inline(always)]
pub(super) fn lerp_texel(a: u32, b: u32, w: u32) -> u32 {
    let iw = 256 - w;
    let lo = ((a & 0x00FF_00FF) * iw + (b & 0x00FF_00FF) * w + 0x0080_0080) >> 8;
    let hi = (((a >> 8) & 0x00FF_00FF) * iw + ((b >> 8) & 0x00FF_00FF) * w + 0x0080_0080) >> 8;
    (lo & 0x00FF_00FF) | ((hi & 0x00FF_00FF) << 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The all-lanes sampling path gives exactly the per-lane `sample` result, including
    /// negative, huge, NaN and infinite coordinates and texel-boundary weights.
    /// `sample_lanes` gives every lane the bits of the per-lane `sample`.
    fn lanes_match_sample(tex: &TextureRef, u: &Lanes, v: &Lanes) {
        let mut out = [[0.0; LANES]; 4];
        tex.sample_lanes(u, v, &mut out);
        for l in 0..LANES {
            let want = tex.sample(u[l], v[l]);
            for c in 0..4 {
                assert_eq!(
                    out[c][l].to_bits(),
                    want[c].to_bits(),
                    "{}x{} {:?} at ({}, {}) channel {}",
                    tex.width,
                    tex.height,
                    tex.sampler,
                    u[l],
                    v[l],
                    c
                );
            }
        }
    }

    #[test]
    fn sample_lanes_matches_sample() {
        let mut texels = [0u32; 16 * 8];
        let mut s = 0x1234_5678u32;
        for t in texels.iter_mut() {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            *t = s;
        }
        let coords = [
            0.0,
            0.03125,
            0.5,
            0.999,
            1.0,
            -0.3,
            -1.75,
            2.5,
            7.3e5,
            -9.9e6,
            3e9,
            -3e9,
            1e30,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0625,
            0.1875,
            -0.0,
        ];
        for (w, h) in [(16u32, 8u32), (12, 8), (1, 1)] {
            for filter in [Filter::Nearest, Filter::Linear] {
                for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::MirroredRepeat] {
                    let tex = plain(w, h, &texels, SamplerState::new(filter, wrap));
                    for (i, &u0) in coords.iter().enumerate() {
                        let mut u = [0.0; LANES];
                        let mut v = [0.0; LANES];
                        for l in 0..LANES {
                            u[l] = u0 + l as f32 * 0.0371;
                            v[l] = coords[(i + l) % coords.len()] * 0.75;
                        }
                        lanes_match_sample(&tex, &u, &v);
                    }
                }
            }
        }
    }

    /// A xorshift generator from `seed` (nonzero).
    fn xorshift(mut s: u32) -> impl FnMut() -> u32 {
        move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        }
    }

    /// 64 x 64 texels from `next`.
    fn random_texels(next: &mut impl FnMut() -> u32) -> [u32; 64 * 64] {
        core::array::from_fn(|_| next())
    }

    /// A plain 2D 8-bit `w` x `h` texture of `texels` repeating both ways under `filter`.
    fn plain_repeat(w: u32, h: u32, texels: &[u32], filter: Filter) -> TextureRef<'_> {
        plain(w, h, texels, SamplerState::new(filter, Wrap::Repeat))
    }

    /// A plain 2D 8-bit `w` x `h` texture of `texels` under `sampler`.
    fn plain(w: u32, h: u32, texels: &[u32], sampler: SamplerState) -> TextureRef<'_> {
        TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: None,
            width: w,
            height: h,
            texels,
            sampler,
        }
    }

    /// The power-of-two repeating path (the SIMD blend) against per-lane `sample` on many
    /// pseudo-random coordinates, plus negative, huge, NaN and exact texel-boundary ones, on
    /// sizes down to 1x1 and one-texel-high or -wide strips.
    #[test]
    fn sample_lanes_matches_sample_random_pow2() {
        let mut next = xorshift(0x9E37_79B9);
        let texels = random_texels(&mut next);
        for (w, h) in [(1u32, 1u32), (2, 8), (64, 64), (256, 1), (1, 16)] {
            for filter in [Filter::Nearest, Filter::Linear] {
                let tex = plain_repeat(w, h, &texels, filter);
                let special = [
                    f32::NAN,
                    -1e7,
                    5e6,
                    -0.0,
                    // Texel centres and edges: weights 0, 128 and 256.
                    0.5 / w as f32,
                    1.0 / w as f32,
                    -1.5 / w as f32,
                    3.0 / h as f32,
                ];
                for round in 0..4000u32 {
                    let mut u = [0.0; LANES];
                    let mut v = [0.0; LANES];
                    for l in 0..LANES {
                        let r = next();
                        // Mostly within a few repeats, some far out, in multiples of 1/64
                        // texel sometimes so weights land exactly on boundaries.
                        let f = |r: u32| match r % 4 {
                            0 => (r >> 8) as i32 as f32 * (1.0 / 64.0) / 4096.0,
                            1 => (r >> 2) as i32 as f32 * 1e-6,
                            _ => ((r >> 3) as f32 * (1.0 / 65536.0) - 4.0) * 1.7,
                        };
                        u[l] = f(r);
                        v[l] = f(r.rotate_left(16));
                        if round % 16 == 0 {
                            u[l] = special[(l + round as usize / 16) % special.len()];
                        }
                        if round % 16 == 1 {
                            v[l] = special[(l * 3 + round as usize / 16) % special.len()];
                        }
                    }
                    lanes_match_sample(&tex, &u, &v);
                }
            }
        }
    }

    /// The wide bilinear path (plain lane loops for the set-up, the fixed-length row-pair
    /// reads of `Bilinear::bilerp_fixed` for the usual texel counts, the masked reads for the
    /// others) gives the narrow SSE2 path's texels and per-lane `sample_texel`'s, run both in
    /// the AVX2 trampoline (where the machine has AVX2) and outside it, on sizes with and
    /// without a fixed-length form, strips whose every lane is on the edge, and coordinates
    /// with edge lanes, texel-boundary weights, far, NaN and infinite values.
    #[test]
    fn wide_texel_lanes_match_the_narrow_and_per_lane() {
        let mut next = xorshift(0x2545_F491);
        let texels = random_texels(&mut next);
        let sizes = [
            (16u32, 16u32),
            (32, 32),
            (64, 64),
            (128, 32),
            (8, 8),
            (256, 1),
            (1, 16),
        ];
        for (w, h) in sizes {
            let tex = plain_repeat(w, h, &texels, Filter::Linear);
            let special = [
                f32::NAN,
                f32::INFINITY,
                -3e9,
                -0.0,
                0.5 / w as f32,
                1.0 - 0.5 / w as f32,
            ];
            for round in 0..3000u32 {
                let (mut u, mut v) = ([0.0; LANES], [0.0; LANES]);
                for l in 0..LANES {
                    let r = next();
                    // Within a few repeats, on the last column (the edge) now and then, in
                    // multiples of 1/64 texel sometimes.
                    u[l] = match r % 5 {
                        0 => (w as f32 - 0.5 + (r >> 8) as f32 / 16777216.0) / w as f32,
                        1 => (r >> 8) as i32 as f32 * (1.0 / 64.0) / 4096.0,
                        _ => ((r >> 3) as f32 * (1.0 / 65536.0) - 4.0) * 1.3,
                    };
                    v[l] = ((r.rotate_left(16) >> 3) as f32 * (1.0 / 65536.0) - 4.0) * 0.9;
                    if round % 50 == 0 && l == (round as usize / 50) % LANES {
                        u[l] = special[(round as usize / 50) % special.len()];
                    }
                }
                let narrow = tex.texel_lanes_in(&u, &v, false);
                let wide = tex.texel_lanes_in(&u, &v, true);
                let trampoline = crate::back::exec::simd::Simd::detect()
                    .run(|| tex.texel_lanes_in(&u, &v, true));
                let lane: [u32; LANES] = core::array::from_fn(|l| tex.sample_texel(u[l], v[l]));
                assert_eq!(narrow, lane, "{w}x{h} round {round}");
                assert_eq!(wide, lane, "{w}x{h} round {round}");
                assert_eq!(trampoline, lane, "{w}x{h} round {round}");
            }
        }
    }
}
