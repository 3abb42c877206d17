//! sampler2DArray's texture ops (ARR_LOD .. ARR_SIZE, 112..=116; session 6) on the software
//! executor. A lane's layer is clamp(roundEven(a.z), 0, layers - 1) as GL 3.3 §3.8.10 says
//! (NaN: layer 0); `texelFetch`'s is int(a.z) unrounded, and a layer outside the array reads
//! (0, 0, 0, 0). The lane then samples that layer by the 2D op (ARR_LOD: SAMPLE_LOD, ...), so
//! filters, levels, offsets and the implicit level of detail of (s, t) are sampler2D's (every
//! layer has the array's size, so the quad's level of detail does not depend on the layer).
//! Lanes are grouped by layer: one 2D op per distinct layer among the lanes.
//!
//! It must never: panic on any coordinate, layer or texture, or read another op's textures.
// Lane loops index several arrays in lockstep on purpose.
#![allow(clippy::needless_range_loop)]

use super::lanes::{Vec4x, LANES};
use super::texture::TextureRef;
use super::{DInst, REG_MASK};
use crate::ir::{Op, Stage};

/// The layer an array op reads for coordinate `z` of an array of `layers` layers (`None`: a
/// fetch outside the array).
pub fn layer_of(op: Op, z: f32, layers: usize) -> Option<usize> {
    let last = layers.checked_sub(1)?;
    if op == Op::ArrFetch {
        // ivec3 coordinates are whole numbers carried as floats.
        return if z >= 0.0 && z <= last as f32 {
            Some(z as usize)
        } else {
            None
        };
    }
    let r = libm::rintf(z);
    Some(if r >= last as f32 {
        last
    } else if r >= 0.0 {
        r as usize
    } else {
        0
    })
}

/// Runs array op `d` on unit texture `tex` (an array texture, or incomplete: opaque black).
pub(super) fn array_op(
    d: &DInst,
    stage: Stage,
    tex: Option<&TextureRef>,
    r: &[Vec4x],
    a: usize,
    b: usize,
    out: &mut Vec4x,
) {
    let op2 = match d.op {
        Op::ArrLod => Op::SampleLod,
        Op::ArrBias => Op::SampleBias,
        Op::ArrGrad => Op::SampleGrad,
        Op::ArrFetch => Op::TexFetch,
        Op::ArrSize => Op::TexSize,
        _ => return,
    };
    let Some(tex) = tex.filter(|t| !t.layers.is_empty()) else {
        if d.op != Op::ArrSize {
            out[3] = [1.0; LANES];
        }
        return;
    };
    let d2 = DInst { op: op2, ..*d };
    if d.op == Op::ArrSize {
        if let Some(l0) = tex.layers.first() {
            super::mip::texture_op(&d2, stage, Some(l0), r, a, b, out);
        }
        out[2] = [tex.layers.len() as f32; LANES];
        return;
    }
    let Some(ra) = r.get(a & REG_MASK) else {
        return;
    };
    let mut layer = [None; LANES];
    for l in 0..LANES {
        layer[l] = layer_of(d.op, ra[2][l], tex.layers.len());
    }
    let mut done = [false; LANES];
    for l in 0..LANES {
        if done[l] {
            continue;
        }
        let Some(t) = layer[l].and_then(|k| tex.layers.get(k)) else {
            done[l] = true;
            continue;
        };
        let mut c = [[0.0; LANES]; 4];
        super::mip::texture_op(&d2, stage, Some(t), r, a, b, &mut c);
        for m in l..LANES {
            if !done[m] && layer[m] == layer[l] {
                done[m] = true;
                for k in 0..4 {
                    out[k][m] = c[k][m];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layer_is_the_rounded_even_clamped_coordinate_and_a_fetch_is_exact() {
        let s = |z| layer_of(Op::ArrBias, z, 3);
        assert_eq!(
            [
                s(0.5),
                s(1.5),
                s(2.5),
                s(-7.0),
                s(9.0),
                s(1.49),
                s(f32::NAN)
            ],
            [
                Some(0),
                Some(2),
                Some(2),
                Some(0),
                Some(2),
                Some(1),
                Some(0)
            ]
        );
        let f = |z| layer_of(Op::ArrFetch, z, 3);
        assert_eq!(
            [f(0.0), f(2.0), f(3.0), f(-1.0)],
            [Some(0), Some(2), None, None]
        );
        assert_eq!(layer_of(Op::ArrLod, 0.0, 0), None);
    }
}
