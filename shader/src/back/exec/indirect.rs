//! Profile 2's indirect ops (dynamic indexing, issue 14) in the executor: every lane computes
//! its own clamped index ([`crate::ir::clamp_index`]) and reads or writes its own element, so
//! divergent indexes inside loops need nothing special.
//!
//! Decoded operands (see `decode`): LOAD_IDX `b` = the range's first register plus the offset,
//! `x` = len - 1, `y` = stride; STORE_IDX the same with `dst` as the range and `n` = lanes;
//! LOAD_UNI_IDX `jump` = the first slot, `x | y << 8` = len - 1, `n` = stride in slots;
//! LOAD_LANE / STORE_LANE `x` = components - 1.
//!
//! It must never: index out of the register file (registers are masked) or the uniforms
//! (checked reads), or write a lane outside the mask.
use super::lanes::{Mask, Vec4x, LANES};
use super::{DInst, REG_FILE, REG_MASK};
use crate::ir::{clamp_index, Op};

#[inline(always)]
fn on(m: Mask, l: usize) -> bool {
    m & (1 << l) != 0
}

/// Runs indirect op `d` on the lanes in `m`.
pub(super) fn run(r: &mut [Vec4x; REG_FILE], d: &DInst, m: Mask, uniforms: &[f32]) {
    let (dst, a, b) = (
        d.dst as usize & REG_MASK,
        d.a as usize & REG_MASK,
        d.b as usize & REG_MASK,
    );
    match d.op {
        Op::LoadIdx => {
            for l in 0..LANES {
                if !on(m, l) {
                    continue;
                }
                let k = clamp_index(r[a][0][l], d.x as u32) as usize;
                let src = (b + k * d.y as usize) & REG_MASK;
                let v = [r[src][0][l], r[src][1][l], r[src][2][l], r[src][3][l]];
                for (c, v) in v.into_iter().enumerate() {
                    r[dst][c][l] = v;
                }
            }
        }
        Op::StoreIdx => {
            let n = match d.n {
                0 => 4,
                n => (n as usize).min(4),
            };
            for l in 0..LANES {
                if !on(m, l) {
                    continue;
                }
                let k = clamp_index(r[a][0][l], d.x as u32) as usize;
                let to = (dst + k * d.y as usize) & REG_MASK;
                let v = [r[b][0][l], r[b][1][l], r[b][2][l], r[b][3][l]];
                for (c, v) in v.into_iter().enumerate().take(n) {
                    r[to][c][l] = v;
                }
            }
        }
        Op::LoadUniIdx => {
            let max = d.x as u32 | (d.y as u32) << 8;
            for l in 0..LANES {
                if !on(m, l) {
                    continue;
                }
                let k = clamp_index(r[a][0][l], max) as usize;
                let slot = d.jump as usize + k * d.n as usize;
                for c in 0..4 {
                    r[dst][c][l] = uniforms.get(slot * 4 + c).copied().unwrap_or(0.0);
                }
            }
        }
        Op::LoadLane => {
            for l in 0..LANES {
                if on(m, l) {
                    let k = clamp_index(r[a][0][l], d.x as u32) as usize;
                    r[dst][0][l] = r[b][k & 3][l];
                }
            }
        }
        Op::StoreLane => {
            for l in 0..LANES {
                if on(m, l) {
                    let k = clamp_index(r[a][0][l], d.x as u32) as usize;
                    r[dst][k & 3][l] = r[b][0][l];
                }
            }
        }
        _ => {}
    }
}
