//! Texture ops in the compiled form (issue 17): SAMPLE (not the fused colour sample), the
//! cube, shadow and array ops and SAMPLE_LOD / _BIAS / _GRAD, TEX_FETCH, TEX_SIZE.
//!
//! The interpreter samples all [`LANES`] lanes of a dispatch at once (the level of detail
//! comes from each 2x2 quad, and its lane functions are written 32 lanes wide), and generated
//! code runs one 8-lane group at a time. So a texture op is a *seam*: the code is cut there
//! into segments, each a complete function (its own `vzeroupper; ret`), and
//! [`Executable::run_compiled`] runs segment `k` for every group, then the seam's op in Rust
//! over the 32 lanes, then segment `k + 1`. At a seam the generated code leaves every value
//! still to be read in its frame slot (the operands too: bank registers and zeroed temps are
//! stored there first) and the current lane mask in [`MASK_SAVE`]; the next segment starts
//! with no value in a YMM and reloads the mask. Each group needs its own slots across the
//! seam, so a module with seams runs on [`GROUPS`] frames, frame `g` for group `g`: each
//! segment loops over the groups itself (`groups::Enc::seam_head`, one call per segment),
//! moving the frame pointer by one frame per group.
//!
//! The op itself is [`Executable::texture_lanes`], the interpreter's own code, on copies of
//! the operand registers gathered from the four frames, and its result is written back to the
//! destination's slots under the saved mask (in a module with IF or DISCARD; every lane
//! otherwise), as the interpreter's masked write does: the same bits by construction. The
//! common SAMPLE of an 8-bit texture at level 0 (`TextureRef::plain_texels`) skips the float
//! result array: the active groups' u and v, the interpreter's texels (in the AVX2 trampoline
//! through the floor's 8-lane blends, the same texels), each group's channels unpacked
//! straight into its frame.
//!
//! The 16-lane form (`Form::Zmm`) runs the same way with 2 groups of 16 lanes on frames 0 and
//! 1 (`run_seam::<16>`: each frame's slots hold its group's 16 lanes); the 8-lane form uses the
//! first 8 lanes of each slot of frames 0..4.

use super::enc::Base;
use super::{
    first, put_masked, val, Frame, Gen, JitError, Touch, Val, GROUPS, MASK_SAVE, V_ONE, YM,
};
use crate::back::exec::lanes::{Lanes, Mask, Vec4x, LANES};
use crate::back::exec::simd::Isa;
use crate::back::exec::texel::unpack_channel;
use crate::back::exec::texture::TextureRef;
use crate::back::exec::{DInst, Executable, REG_MASK};
use crate::ir::Op;

/// Texture ops one compiled module may have (seams); a module with more is refused.
pub const SEAMS_MAX: usize = 32;
/// Segments of a compiled module: one more than its seams.
pub const SEGMENTS_MAX: usize = SEAMS_MAX + 1;

/// Whether `d` is a texture op the compiled form runs at a seam (the fused colour sample,
/// SAMPLE with `y != 0`, is not: its stage runs in the interpreter's packed path).
pub(super) fn is_seam(d: &DInst) -> bool {
    match d.op {
        Op::Sample => d.y == 0,
        op => op.is_texture(),
    }
}

/// The registers a seam's op reads: `a`, `b` and `b + 1` (the gradients' second register).
fn operands(d: &DInst) -> [usize; 3] {
    let b = d.b as usize & REG_MASK;
    [d.a as usize & REG_MASK, b, (b + 1) & REG_MASK]
}

/// How the seam `d` touches `v` (conservatively: every component of its three operand
/// registers is read; the destination's four are written).
pub(super) fn touch(d: &DInst, v: Val) -> Touch {
    if v >= V_ONE {
        return Touch::No;
    }
    if operands(d).contains(&(v / 4)) {
        Touch::Read
    } else if v / 4 == d.dst as usize & REG_MASK {
        Touch::Write
    } else {
        Touch::No
    }
}

impl Gen<'_, '_> {
    /// Ends the current segment at the seam `d` and starts the next (see the module header).
    pub(super) fn seam(&mut self, d: &DInst) -> Result<(), JitError> {
        if self.segments >= SEGMENTS_MAX {
            return Err(JitError::Unsupported(d.op));
        }
        let dst = d.dst as usize & REG_MASK;
        // Aliases (`copy`) read from their slots become values first.
        let [a, b, b1] = operands(d);
        self.materialize_regs(&[a, b, b1, dst])?;
        // Operands not in their slot (zeroed temps; a bank register's slot is filled per
        // draw) become dirty YMM values, which the flush stores; so does the destination's
        // old value where a masked write keeps it.
        for r in operands(d) {
            for c in 0..4 {
                let v = val(r, c);
                if self.zero[v] {
                    let y = self.get(v)?;
                    self.dirty[y.0 as usize] = true;
                    self.pinned = 0;
                }
            }
        }
        if self.flow {
            for c in 0..4 {
                let v = val(dst, c);
                if self.zero[v] {
                    let y = self.get(v)?;
                    self.dirty[y.0 as usize] = true;
                    self.pinned = 0;
                }
            }
        }
        self.flush()?;
        if self.flow {
            self.e.store(Base::Frame, super::mask_slot(MASK_SAVE), YM)?;
        }
        if let Some(head) = self.seam_head.take() {
            self.e.seam_tail(head)?;
        }
        self.e.ret()?;
        if let Some(e) = self.entries.get_mut(self.segments) {
            *e = self.e.len() as u32;
        }
        self.segments += 1;
        self.seam_head = Some(self.e.seam_head()?);
        if self.flow {
            self.e.load(YM, Base::Frame, super::mask_slot(MASK_SAVE))?;
        }
        for c in 0..4 {
            self.zero[val(dst, c)] = false;
        }
        Ok(())
    }
}

impl Executable {
    /// The seam at instruction `pc` over the 32 lanes of `frames` (one per group; groups not
    /// in `active` are not written): its operands gathered from each frame's slots, the
    /// interpreter's [`Executable::texture_lanes`], the result written to each frame's
    /// destination slots under its saved mask when `masked`.
    pub(super) fn run_seam<const GL: usize>(
        &self,
        frames: &mut [Frame; GROUPS],
        pc: usize,
        textures: &[Option<TextureRef>],
        active: Mask,
    ) {
        let Some(d) = self.code.get(pc) else {
            return;
        };
        let simd = frames[0].simd;
        simd.run(
            #[inline(always)]
            || {
                // SAMPLE reads only its coordinates (zeroing the other two operands' copies
                // was 2/3 of a per-dispatch memset).
                let plain = textures
                    .get(d.x as usize)
                    .and_then(|t| t.as_ref())
                    .filter(|t| t.plain_texels());
                if let (Op::Sample, Some(tex)) = (d.op, plain) {
                    seam_texels::<GL>(d, tex, frames, active, simd.isa() == Isa::Avx2);
                } else if d.op == Op::Sample {
                    self.seam_op::<1, GL>(d, frames, textures, active);
                } else {
                    self.seam_op::<3, GL>(d, frames, textures, active);
                }
            },
        );
    }

    /// [`Self::run_seam`]'s work with the first `N` operand registers gathered.
    #[inline(always)]
    fn seam_op<const N: usize, const GL: usize>(
        &self,
        d: &DInst,
        frames: &mut [Frame; GROUPS],
        textures: &[Option<TextureRef>],
        active: Mask,
    ) {
        let mut src = [[[0.0; LANES]; 4]; N];
        for (s, r) in src.iter_mut().zip(operands(d)) {
            for (c, s) in s.iter_mut().enumerate() {
                gather_into::<GL>(frames, r, c, s);
            }
        }
        let mut res: Vec4x = [[0.0; LANES]; 4];
        self.texture_lanes(d, textures, &src, 0, 1, &mut res);
        let dst = d.dst as usize & REG_MASK;
        let live = live(d);
        for (c, res) in res.iter().enumerate() {
            if live & (1 << c) != 0 {
                scatter::<GL>(frames, dst, c, res, active);
            }
        }
    }
}

/// The components of the seam `d`'s result that some later instruction reads (the decoder's
/// `n` of a SAMPLE, see `decode`; every component of the other ops): the others are neither
/// unpacked nor written, their slots keep stale values nothing reads.
#[inline(always)]
fn live(d: &DInst) -> u8 {
    match d.n {
        n if d.op == Op::Sample && n != 0 => n,
        _ => 0xF,
    }
}

/// SAMPLE of an 8-bit texture at level 0 ([`TextureRef::plain_texels`]): the texels of
/// [`Executable::texture_lanes`] (`wide`: the AVX2 trampoline's blends, the same texels) from
/// the active groups' u and v (the other groups sample at 0), each group's four channels
/// unpacked straight into its frame under its saved mask: the interpreter's bits without
/// its float result array or the two unused coordinate components.
#[inline(always)]
fn seam_texels<const GL: usize>(
    d: &DInst,
    tex: &TextureRef,
    frames: &mut [Frame; GROUPS],
    active: Mask,
    wide: bool,
) {
    let a = d.a as usize & REG_MASK;
    let (mut u, mut v) = ([0.0; LANES], [0.0; LANES]);
    let chunks = u.as_chunks_mut::<GL>().0.iter_mut();
    for (g, ((u, v), f)) in chunks
        .zip(v.as_chunks_mut::<GL>().0)
        .zip(frames.iter())
        .enumerate()
    {
        if (active >> (g * GL)) & group_bits::<GL>() != 0 {
            *u = first(&f.regs[a][0]);
            *v = first(&f.regs[a][1]);
        }
    }
    let texels = tex.texel_lanes_in(&u, &v, wide);
    let dst = d.dst as usize & REG_MASK;
    let groups = texels.as_chunks::<GL>().0;
    let live = live(d);
    each_active::<GL>(frames, active, |g, f, m| {
        if let Some(t) = groups.get(g) {
            for c in 0..4 {
                if live & (1 << c) != 0 {
                    if let Some(to) = f.regs[dst][c].first_chunk_mut::<GL>() {
                        put_masked(to, &unpack_channel(t, c), m);
                    }
                }
            }
        }
    });
}

/// Calls `put(g, frame, mask)` for each group `g` with a lane in `active`, with its frame's
/// saved mask when the module has IF or DISCARD (read only then).
#[inline(always)]
fn each_active<const GL: usize>(
    frames: &mut [Frame; GROUPS],
    active: Mask,
    mut put: impl FnMut(usize, &mut Frame, Option<&[u32; GL]>),
) {
    for (g, f) in frames.iter_mut().take(LANES / GL).enumerate() {
        if (active >> (g * GL)) & group_bits::<GL>() != 0 {
            let m = f.masked.then(|| first(&f.masks[MASK_SAVE]));
            put(g, f, m.as_ref());
        }
    }
}

/// The low `GL` bits (a group's lanes in a lane mask).
#[inline(always)]
const fn group_bits<const GL: usize>() -> Mask {
    if GL >= 32 {
        !0
    } else {
        (1 << GL) - 1
    }
}

/// Component `c` of register `r` over the 32 lanes: each group's 8 from its frame's slot.
#[inline(always)]
fn gather_into<const GL: usize>(frames: &[Frame; GROUPS], r: usize, c: usize, x: &mut Lanes) {
    for (to, f) in x.as_chunks_mut::<GL>().0.iter_mut().zip(frames) {
        *to = first(&f.regs[r & REG_MASK][c & 3]);
    }
}

/// Writes `v` (32 lanes) to component `c` of register `r` in the frames of the groups with a
/// lane in `active`, under each frame's saved mask when the module has IF or DISCARD.
#[inline(always)]
fn scatter<const GL: usize>(
    frames: &mut [Frame; GROUPS],
    r: usize,
    c: usize,
    v: &Lanes,
    active: Mask,
) {
    let groups = v.as_chunks::<GL>().0;
    each_active::<GL>(frames, active, |g, f, m| {
        if let Some(from) = groups.get(g) {
            if let Some(to) = f.regs[r & REG_MASK][c & 3].first_chunk_mut::<GL>() {
                put_masked(to, from, m);
            }
        }
    });
}
