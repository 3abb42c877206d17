//! Integer textures (profile 2's isampler2D/usampler2D, issue 15): the texture ops of an
//! integer sampler read a texel's four 32-bit words unchanged into the integer registers
//! (profile 2's integers are the lanes' bit patterns).
//!
//! GL makes an integer texture with a LINEAR filter incomplete; Gfx3D refuses such a sampler
//! state at the draw, so here every sample is NEAREST on level 0 (integer textures have one
//! level): the texel under (s, t) plus any offset, wrapped per axis. `texelFetch` outside the
//! texture or of a level other than 0 reads (0, 0, 0, 0), as for 8-bit textures.
//!
//! It must never: panic on any coordinate, level or texel slice.
// Lane loops index several arrays in lockstep on purpose.
#![allow(clippy::needless_range_loop)]

use super::lanes::{Lanes, Vec4x, LANES};
use super::math::floor_i32;
use super::texture::{wrap_index, TextureRef};
use super::{DInst, REG_MASK};
use crate::ir::Op;

/// The texel words at integer (x, y) of level 0, wrapped by the sampler's modes.
fn wrapped(tex: &TextureRef, ints: &[[u32; 4]], x: i32, y: i32) -> [u32; 4] {
    let x = wrap_index(tex.sampler.wrap, x, tex.width);
    let y = wrap_index(tex.sampler.wrap_t(), y, tex.height);
    ints.get(y * tex.width as usize + x)
        .copied()
        .unwrap_or([0; 4])
}

/// The words at (u, v) (nearest) with offset `off`.
pub fn sample_int(
    tex: &TextureRef,
    ints: &[[u32; 4]],
    u: f32,
    v: f32,
    off: (i32, i32),
) -> [u32; 4] {
    let x = floor_i32(u * tex.width as f32).saturating_add(off.0);
    let y = floor_i32(v * tex.height as f32).saturating_add(off.1);
    wrapped(tex, ints, x, y)
}

/// texelFetch of an integer texture: (0, 0, 0, 0) outside level 0.
pub fn fetch_int(tex: &TextureRef, ints: &[[u32; 4]], x: i32, y: i32, lod: i32) -> [u32; 4] {
    if lod != 0 || x < 0 || y < 0 || x as u32 >= tex.width || y as u32 >= tex.height {
        return [0; 4];
    }
    ints.get(y as usize * tex.width as usize + x as usize)
        .copied()
        .unwrap_or([0; 4])
}

/// SAMPLE_LOD, SAMPLE_BIAS, SAMPLE_GRAD and TEXFETCH of an integer texture for every lane:
/// the words as the lanes' bits. (TEXSIZE is the common path's.)
pub(super) fn int_texture_op(
    d: &DInst,
    tex: &TextureRef,
    ints: &[[u32; 4]],
    r: &[Vec4x],
    a: usize,
    b: usize,
    out: &mut Vec4x,
) {
    let Some(ra) = r.get(a & REG_MASK) else {
        return;
    };
    let off = super::mip::offset_of(d.y);
    let (u, v): (&Lanes, &Lanes) = (&ra[0], &ra[1]);
    for l in 0..LANES {
        let w = if d.op == Op::TexFetch {
            let lod = r.get(b & REG_MASK).map_or(0, |rb| rb[0][l] as i32);
            let x = (u[l] as i32).saturating_add(off.0);
            let y = (v[l] as i32).saturating_add(off.1);
            fetch_int(tex, ints, x, y, lod)
        } else {
            sample_int(tex, ints, u[l], v[l], off)
        };
        for k in 0..4 {
            out[k][l] = f32::from_bits(w[k]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::texture::{Filter, SamplerState, Wrap};
    use super::*;

    const INTS: [[u32; 4]; 4] = [
        [0x0100_0001, 0xFFFF_FFFF, 0x8000_0000, 1],
        [16_777_217, (-5i32) as u32, 7, 0xFFFF_FFFE],
        [2, 3, 4, 5],
        [0x7FFF_FFFF, 0, 0xDEAD_BEEF, 9],
    ];

    fn tex(wrap: Wrap) -> TextureRef<'static> {
        TextureRef {
            layers: &[],
            faces: &[],
            mips: &[],
            depth: None,
            rgba: None,
            ints: Some(&INTS),
            width: 2,
            height: 2,
            texels: &[],
            sampler: SamplerState::new(Filter::Nearest, wrap),
        }
    }

    /// Words above 2^24 and negative ones come back bit-exact (a float path would round
    /// 16777217 to 16777216).
    #[test]
    fn integer_texels_are_bit_exact() {
        let t = tex(Wrap::Repeat);
        assert!(t.validate().is_ok());
        assert_eq!(t.int_texels(), Some(&INTS[..]));
        assert_eq!(sample_int(&t, &INTS, 0.75, 0.25, (0, 0)), INTS[1]);
        assert_eq!(fetch_int(&t, &INTS, 1, 0, 0), INTS[1]);
        assert_eq!(fetch_int(&t, &INTS, 1, 1, 0), INTS[3]);
        // Outside, or another level: zeros.
        assert_eq!(fetch_int(&t, &INTS, 2, 0, 0), [0; 4]);
        assert_eq!(fetch_int(&t, &INTS, 0, -1, 0), [0; 4]);
        assert_eq!(fetch_int(&t, &INTS, 0, 0, 1), [0; 4]);
        // Offsets wrap (repeat) or clamp.
        assert_eq!(sample_int(&t, &INTS, 0.25, 0.25, (1, 1)), INTS[3]);
        assert_eq!(sample_int(&t, &INTS, 0.25, 0.25, (-1, 0)), INTS[1]);
        let c = tex(Wrap::ClampToEdge);
        assert_eq!(sample_int(&c, &INTS, 0.25, 0.25, (-1, 0)), INTS[0]);
        // NaN and huge coordinates read some texel, never panic.
        let _ = sample_int(&t, &INTS, f32::NAN, f32::INFINITY, (7, -8));
        // One level: textureSize of level 1 is absent.
        assert_eq!(t.level_size(0), Some((2, 2)));
        assert_eq!(t.level_size(1), None);
    }
}
