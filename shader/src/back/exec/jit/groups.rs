//! The group loop (issue 17, session 13): a module without seams and without DISCARD runs all
//! [`GROUPS`] 8-lane groups of a dispatch in one call of its code, the loop over the groups
//! inside the generated function instead of one call per group.
//!
//! The caller puts the dispatch's active lanes in the frame word [`BAIL_GROUPS`] (bit
//! `8g + l`: lane `l` of group `g`) and zeroes [`BAIL_ACC`], then calls the code once with
//! the pointers of group 0. Per iteration the code runs the body (the whole shader for one
//! group, as [`super::compile`] lowers it) when the word's low byte has a lane, then advances
//! the inputs, fcoord and outputs pointers by [`GROUP_BYTES`], shifts the word right by
//! [`JIT_LANES`] bits and goes round while it is not zero:
//!
//! ```text
//! top:  test byte [frame + GROUPS_WORD], 0xFF ; jz skip
//!       <body>
//!       (SIN/COS: mov eax, [frame + bail]; and eax, [frame + GROUPS_WORD];
//!                 or [frame + BAIL_ACC], eax; mov dword [frame + bail], 0)
//! skip: add rsi, 32 ; add rdx, 32 ; add rcx, 32
//!       shr dword [frame + GROUPS_WORD], 8 ; jnz top
//!       vzeroupper ; ret
//! ```
//!
//! The word is 32 bits and loses [`JIT_LANES`] of them per iteration, so whatever it holds the
//! body runs at most [`GROUPS`] times, the k-th time with the pointers `k * GROUP_BYTES` bytes
//! in: exactly the offsets of the per-group calls, for which every operand was checked
//! ([`super::limits`]). The bail word ([`Frame::bail`] word 0) is the group's SIN/COS lanes
//! outside the inline range; ANDed with the group's active lanes (the word's low byte: the
//! bail bits are lanes 0..8 only) it is ORed into [`BAIL_ACC`], which the caller reads back:
//! not zero, and the dispatch goes to the interpreter, as when a per-group call bailed.
//! The frame words are stores below [`super::REGS_END`], as every frame store.
use super::enc::{Base, Enc, EncError};
use super::flow::Cc;
use super::{Frame, GROUPS, GROUP_BYTES, JIT_LANES};
use crate::back::exec::DInst;
use crate::ir::Op;
use core::mem::offset_of;

/// [`Frame::bail`] words: 0 is the group's bail bits (the code's SIN/COS OR into it), these
/// two the group loop's.
/// The active lanes' bail bits of every group run (read back by the caller).
pub const BAIL_ACC: usize = 1;
/// The lanes of the groups still to run (the caller's active mask, shifted per group).
pub const BAIL_GROUPS: usize = 2;

const _: () = assert!(GROUPS * JIT_LANES == 32);
const _: () = assert!(2 * GROUP_BYTES < 128);

const fn bail_word(k: usize) -> usize {
    offset_of!(Frame, bail) + k * 4
}

/// Whether [`super::compile`] puts the group loop around `code`: no texture op (a seam ends
/// a segment) and no DISCARD (the live lanes are read back per group).
pub(super) fn looped(code: &[DInst]) -> bool {
    !code
        .iter()
        .any(|d| d.op == Op::Discard || super::sample::is_seam(d))
}

/// The loop's open head: where the body starts (the back jump's target) and the forward jump
/// over it to patch.
pub(super) struct Head {
    top: usize,
    skip: usize,
}

impl Enc<'_> {
    /// `top: test byte [frame + GROUPS_WORD], 0xFF; jz skip`
    pub(super) fn group_head(&mut self) -> Result<Head, EncError> {
        let top = self.len;
        if self.wide {
            // test word [frame + GROUPS_WORD], 0xFFFF (66 F7 /0 iw): a 16-lane group
            self.bytes(&[0x66, 0xF7])?;
            self.mem(0, Base::Frame, bail_word(BAIL_GROUPS), 2)?;
            self.bytes(&[0xFF, 0xFF])?;
        } else {
            self.byte(0xF6)?;
            self.mem(0, Base::Frame, bail_word(BAIL_GROUPS), 1)?;
            self.byte(0xFF)?;
        }
        let skip = self.jcc_fwd(Cc::Z)?;
        Ok(Head { top, skip })
    }

    /// The body's end: the bail bits of the active lanes collected (`bail`: the module has
    /// SIN/COS), the pointers advanced, the word shifted, and round while it is not zero.
    pub(super) fn group_tail(&mut self, head: Head, bail: bool) -> Result<(), EncError> {
        if bail {
            let (b0, acc, word) = (bail_word(0), bail_word(BAIL_ACC), bail_word(BAIL_GROUPS));
            // mov eax, [frame + b0]; and eax, [frame + word]
            self.byte(0x8B)?;
            self.mem(0, Base::Frame, b0, 4)?;
            self.byte(0x23)?;
            self.mem(0, Base::Frame, word, 4)?;
            // or [frame + acc], eax (a store)
            self.frame_word(acc)?;
            self.byte(0x09)?;
            self.mem(0, Base::Frame, acc, 4)?;
            self.word_set(b0, 0)?;
        }
        self.land(head.skip)?;
        // add rsi, 32; add rdx, 32; add rcx, 32 (64 in the 16-lane form)
        let (step, lanes) = self.group_step();
        self.bytes(&[0x48, 0x83, 0xC6, step, 0x48, 0x83, 0xC2, step])?;
        self.bytes(&[0x48, 0x83, 0xC1, step])?;
        // shr dword [frame + word], 8 (C1 /5 ib; a store)
        let word = bail_word(BAIL_GROUPS);
        self.frame_word(word)?;
        self.byte(0xC1)?;
        self.mem(5, Base::Frame, word, 4)?;
        self.byte(lanes)?;
        // jnz top (0F 85 rel32)
        let rel = head.top as i64 - (self.len as i64 + 6);
        let rel = i32::try_from(rel).map_err(|_| EncError::Full)?;
        self.bytes(&[0x0F, 0x85])?;
        self.bytes(&rel.to_le_bytes())
    }
}

impl Enc<'_> {
    /// A group's bytes in the lane arrays and its lanes: [`GROUP_BYTES`] and [`JIT_LANES`],
    /// or twice those in the 16-lane form.
    fn group_step(&self) -> (u8, u8) {
        if self.wide {
            (2 * GROUP_BYTES as u8, 2 * JIT_LANES as u8)
        } else {
            (GROUP_BYTES as u8, JIT_LANES as u8)
        }
    }

    /// A segment's loop in a module with seams (each group on its own frame, the frames
    /// consecutive: [`Frame`]'s size apart): the groups word of the first frame copied into
    /// r8d, then `top: test r8b, 0xFF; jz skip` (see [`Self::seam_tail`]).
    pub(super) fn seam_head(&mut self) -> Result<Head, EncError> {
        // mov r8d, [frame + GROUPS_WORD]
        self.bytes(&[0x44, 0x8B])?;
        self.mem(0, Base::Frame, bail_word(BAIL_GROUPS), 4)?;
        let top = self.len;
        if self.wide {
            // test r8w, 0xFFFF: a 16-lane group
            self.bytes(&[0x66, 0x41, 0xF7, 0xC0, 0xFF, 0xFF])?;
        } else {
            self.bytes(&[0x41, 0xF6, 0xC0, 0xFF])?;
        }
        let skip = self.jcc_fwd(Cc::Z)?;
        Ok(Head { top, skip })
    }

    /// The segment's end: the frame pointer advanced by one frame and the others by one
    /// group, r8d shifted right by [`JIT_LANES`], and round while it is not zero. r8d is 32
    /// bits and no frame is read for it after the head (helper calls save r8), so whatever
    /// the frames hold the body runs at most [`GROUPS`] times, the k-th on frame k.
    pub(super) fn seam_tail(&mut self, head: Head) -> Result<(), EncError> {
        self.land(head.skip)?;
        // add rdi, size_of::<Frame>() (48 81 C7 imm32)
        let frame = u32::try_from(core::mem::size_of::<Frame>()).map_err(|_| EncError::Full)?;
        self.bytes(&[0x48, 0x81, 0xC7])?;
        self.bytes(&frame.to_le_bytes())?;
        let (step, lanes) = self.group_step();
        self.bytes(&[0x48, 0x83, 0xC6, step, 0x48, 0x83, 0xC2, step])?;
        self.bytes(&[0x48, 0x83, 0xC1, step])?;
        // shr r8d, 8 (16 in the 16-lane form); jnz top
        self.bytes(&[0x41, 0xC1, 0xE8, lanes])?;
        let rel = head.top as i64 - (self.len as i64 + 6);
        let rel = i32::try_from(rel).map_err(|_| EncError::Full)?;
        self.bytes(&[0x0F, 0x85])?;
        self.bytes(&rel.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back::exec::jit::limits;

    #[test]
    fn the_loop_is_the_manual_encoding() {
        let mut buf = [0u8; 128];
        let mut e =
            Enc::with_limits(&mut buf, limits()).limit_stores(Base::Frame, super::super::REGS_END);
        let head = e.group_head().unwrap();
        e.group_tail(head, true).unwrap();
        let n = e.len();
        let w = (bail_word(BAIL_GROUPS) as u32).to_le_bytes();
        let b0 = (bail_word(0) as u32).to_le_bytes();
        let acc = (bail_word(BAIL_ACC) as u32).to_le_bytes();
        let mut want = heapless::Vec::<u8, 128>::new();
        let mut put = |bs: &[u8]| want.extend_from_slice(bs).unwrap();
        put(&[0xF6, 0x87]);
        put(&w);
        put(&[0xFF, 0x0F, 0x84]);
        // The body is empty: the jz skips the 28 bytes of the bail collection.
        put(&28u32.to_le_bytes());
        put(&[0x8B, 0x87]);
        put(&b0);
        put(&[0x23, 0x87]);
        put(&w);
        put(&[0x09, 0x87]);
        put(&acc);
        put(&[0xC7, 0x87]);
        put(&b0);
        put(&[0, 0, 0, 0]);
        put(&[
            0x48, 0x83, 0xC6, 32, 0x48, 0x83, 0xC2, 32, 0x48, 0x83, 0xC1, 32,
        ]);
        put(&[0xC1, 0xAF]);
        put(&w);
        put(&[8, 0x0F, 0x85]);
        put(&(-(n as i32)).to_le_bytes());
        assert_eq!(&buf[..n], &want[..]);
    }

    #[test]
    fn the_seam_loop_is_the_manual_encoding() {
        let mut buf = [0u8; 128];
        let mut e =
            Enc::with_limits(&mut buf, limits()).limit_stores(Base::Frame, super::super::REGS_END);
        let head = e.seam_head().unwrap();
        e.seam_tail(head).unwrap();
        let n = e.len();
        let w = (bail_word(BAIL_GROUPS) as u32).to_le_bytes();
        let fs = (core::mem::size_of::<Frame>() as u32).to_le_bytes();
        let mut want = heapless::Vec::<u8, 128>::new();
        let mut put = |bs: &[u8]| want.extend_from_slice(bs).unwrap();
        // mov r8d, [rdi + word]; test r8b, 0xFF; jz +0 (an empty body)
        put(&[0x44, 0x8B, 0x87]);
        put(&w);
        put(&[0x41, 0xF6, 0xC0, 0xFF, 0x0F, 0x84, 0, 0, 0, 0]);
        // add rdi, frame; add rsi/rdx/rcx, 32; shr r8d, 8; jnz top (7 bytes in)
        put(&[0x48, 0x81, 0xC7]);
        put(&fs);
        put(&[
            0x48, 0x83, 0xC6, 32, 0x48, 0x83, 0xC2, 32, 0x48, 0x83, 0xC1, 32,
        ]);
        put(&[0x41, 0xC1, 0xE8, 8, 0x0F, 0x85]);
        put(&(7 - n as i32).to_le_bytes());
        assert_eq!(&buf[..n], &want[..]);
    }
}
