//! A tiny x86-64 encoder for the AVX instructions the compiled form uses, writing bytes into a
//! caller-provided buffer (no heap). Registers are ymm0..ymm15; every memory operand is
//! `[base + disp32]` with one of the four pointer arguments the generated function receives
//! as its System V arguments ([`Base`]), and must lie inside that base's region: the encoder is
//! given each region's length and refuses any operand outside it, and any store to a read-only
//! region.

/// Emission failed: the buffer is full, or an operand is outside its region (or a store to a
/// read-only one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncError {
    Full,
    OutOfFrame,
}

/// The pointer a memory operand is relative to: the generated function's arguments in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// rdi: the `Frame` (read-write).
    Frame = 0,
    /// rsi: this group's inputs (read only).
    Inputs = 1,
    /// rdx: this group's fragcoord / system values (read only).
    Fcoord = 2,
    /// rcx: this group's outputs (read-write).
    Out = 3,
}

impl Base {
    const fn reg(self) -> u8 {
        match self {
            Base::Frame => 7,
            Base::Inputs => 6,
            Base::Fcoord => 2,
            Base::Out => 1,
        }
    }
    const fn writable(self) -> bool {
        matches!(self, Base::Frame | Base::Out)
    }
}

/// Bytes written so far into `buf`.
pub struct Enc<'a> {
    pub(super) buf: &'a mut [u8],
    pub(super) len: usize,
    /// Every memory operand on base `b` must lie in `[0, limits[b])` bytes (32 bytes for YMM,
    /// 4 for a scalar).
    limits: [usize; 4],
    /// Stores on base `b` must also end at or below `store_end[b]` (see [`Enc::limit_stores`]).
    pub(super) store_end: [usize; 4],
    /// The 16-lane form ([`Enc::zmm`]): every 256-bit instruction is emitted as its EVEX.512
    /// form on ZMM registers, and the few with no such form (compares into a vector, blends,
    /// VPTEST, VMOVMSKPS) as their AVX-512 equivalents through opmask registers k1 and k2.
    pub(super) wide: bool,
}

/// A YMM register, 0..=15.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Y(pub u8);

/// Opcodes in map 0F with no prefix (packed single, 256 bit).
#[derive(Clone, Copy)]
pub enum Ps {
    And = 0x54,
    /// `d = !s & t`.
    Andn = 0x55,
    Xor = 0x57,
    Add = 0x58,
    Mul = 0x59,
    Sub = 0x5C,
    Div = 0x5E,
    Min = 0x5D,
    Max = 0x5F,
    /// Unary: the first source must be ymm0 (VEX.vvvv = 1111).
    Sqrt = 0x51,
}

/// The second source of an op ([`Enc::op_arg`], a step of [`Enc::steps`]): a register, a
/// frame constant (the 8 lanes at `consts[k]`, a memory operand) or the 8 lanes at frame
/// offset `off` (a bank register's slot).
#[derive(Clone, Copy)]
pub enum Arg {
    Y(Y),
    K(usize),
    M(usize),
}

/// AVX2 integer opcodes in map 0F with the 66 prefix (packed dwords, 256 bit).
#[derive(Clone, Copy)]
pub enum Pi {
    And = 0xDB,
    Add = 0xFE,
    Sub = 0xFA,
    CmpEq = 0x76,
}

impl<'a> Enc<'a> {
    /// An encoder whose only memory region is the frame (`frame` bytes).
    pub fn new(buf: &'a mut [u8], frame: usize) -> Enc<'a> {
        Enc::with_limits(buf, [frame, 0, 0, 0])
    }

    /// An encoder with a length for each [`Base`] (in its order).
    pub fn with_limits(buf: &'a mut [u8], limits: [usize; 4]) -> Enc<'a> {
        Enc {
            buf,
            len: 0,
            limits,
            store_end: limits,
            wide: false,
        }
    }

    /// The 16-lane form: ZMM registers, EVEX encodings, 64-byte vector operands (see the
    /// module header).
    pub fn zmm(mut self) -> Self {
        self.wide = true;
        self
    }

    /// Bytes of one vector operand: 32 (YMM) or 64 (ZMM).
    pub fn vbytes(&self) -> usize {
        if self.wide {
            64
        } else {
            32
        }
    }

    /// Stores through `base` must end at or below `end` bytes (the frame: only its spill
    /// slots are written).
    pub fn limit_stores(mut self, base: Base, end: usize) -> Self {
        self.store_end[base as usize] = end;
        self
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub(super) fn byte(&mut self, b: u8) -> Result<(), EncError> {
        let slot = self.buf.get_mut(self.len).ok_or(EncError::Full)?;
        *slot = b;
        self.len += 1;
        Ok(())
    }

    pub(super) fn bytes(&mut self, bs: &[u8]) -> Result<(), EncError> {
        for &b in bs {
            self.byte(b)?;
        }
        Ok(())
    }

    /// ModRM `mod = 10, reg, rm = base` and the 32-bit displacement, checked against the
    /// base's region.
    pub(super) fn mem(
        &mut self,
        reg: u8,
        base: Base,
        off: usize,
        width: usize,
    ) -> Result<(), EncError> {
        let limit = self.limits[base as usize];
        if off.checked_add(width).is_none_or(|end| end > limit) || off > i32::MAX as usize {
            return Err(EncError::OutOfFrame);
        }
        self.byte(0x80 | (reg & 7) << 3 | base.reg())?;
        self.bytes(&(off as u32).to_le_bytes())
    }

    /// ModRM `mod = 11, reg, rm`.
    pub(super) fn modrm_reg(&mut self, reg: u8, rm: u8) -> Result<(), EncError> {
        self.byte(0xC0 | (reg & 7) << 3 | (rm & 7))
    }

    /// VEX, 256 bit, W0: `r` is ModRM.reg's register, `v` VEX.vvvv's, `b` ModRM.rm's (0 for
    /// a memory operand: every base is below r8), `map` 1 = 0F, 2 = 0F38, 3 = 0F3A, `pp` the
    /// implied prefix. The two-byte form where it can encode the instruction.
    pub(super) fn vex(&mut self, r: u8, v: u8, b: u8, map: u8, pp: u8) -> Result<(), EncError> {
        self.vex_l(r, v, b, map, pp, true)
    }

    /// [`Self::vex`] with VEX.L chosen: 256 bit (`wide`) or 128.
    pub(super) fn vex_l(
        &mut self,
        r: u8,
        v: u8,
        b: u8,
        map: u8,
        pp: u8,
        wide: bool,
    ) -> Result<(), EncError> {
        if wide && self.wide {
            return self.evex(r, v, b, map, pp, 0);
        }
        let rbar = (!r >> 3) & 1;
        let last = ((!v & 0xF) << 3) | (wide as u8) << 2 | (pp & 3);
        if map == 1 && b < 8 {
            self.bytes(&[0xC5, rbar << 7 | last])
        } else {
            let bbar = (!b >> 3) & 1;
            self.bytes(&[0xC4, rbar << 7 | 0x40 | bbar << 5 | (map & 0x1F), last])
        }
    }

    /// EVEX, 512 bit, W0, merge masking under opmask `aaa` (0: none), no broadcast: the same
    /// fields as [`Self::vex`] (`r`, `v`, `b` registers 0..31; `b` 0 for a memory operand,
    /// whose 32-bit displacement is never scaled).
    pub(super) fn evex(
        &mut self,
        r: u8,
        v: u8,
        b: u8,
        map: u8,
        pp: u8,
        aaa: u8,
    ) -> Result<(), EncError> {
        let inv = |x: u8, bit: u8| (!x >> bit) & 1;
        let p0 = inv(r, 3) << 7 | inv(b, 4) << 6 | inv(b, 3) << 5 | inv(r, 4) << 4 | (map & 3);
        let p1 = ((!v & 0xF) << 3) | 0x04 | (pp & 3);
        let p2 = 0b10 << 5 | inv(v, 4) << 3 | (aaa & 7);
        self.bytes(&[0x62, p0, p1, p2])
    }

    /// `vpmovm2d z, k` (EVEX.512.F3.0F38.W0 38 /r): every lane all ones where opmask `k`'s
    /// bit is set, else zero.
    pub(super) fn mask_to_vec(&mut self, z: Y, k: u8) -> Result<(), EncError> {
        self.evex(z.0, 0, k, 2, 2, 0)?;
        self.byte(0x38)?;
        self.modrm_reg(z.0, k)
    }

    /// `vpmovd2m k, z` (EVEX.512.F3.0F38.W0 39 /r): opmask `k` = the lanes' sign bits.
    pub(super) fn vec_to_mask(&mut self, k: u8, z: Y) -> Result<(), EncError> {
        self.evex(k, 0, z.0, 2, 2, 0)?;
        self.byte(0x39)?;
        self.modrm_reg(k, z.0)
    }

    /// `vptestmd k, s, t` (EVEX.512.66.0F38.W0 27 /r): opmask `k` = the lanes where `s & t`
    /// is not zero.
    pub(super) fn test_mask(&mut self, k: u8, s: Y, t: Y) -> Result<(), EncError> {
        self.evex(k, s.0, t.0, 2, 1, 0)?;
        self.byte(0x27)?;
        self.modrm_reg(k, t.0)
    }

    /// `kortestw k, k` (VEX.L0.0F.W0 98 /r): ZF when no bit of opmask `k` is set, CF when
    /// all 16 are.
    pub(super) fn kortest(&mut self, k: u8) -> Result<(), EncError> {
        self.bytes(&[0xC5, 0xF8, 0x98])?;
        self.modrm_reg(k, k)
    }

    /// `vmovups y, [base + off]`
    pub fn load(&mut self, y: Y, base: Base, off: usize) -> Result<(), EncError> {
        self.vex(y.0, 0, 0, 1, 0)?;
        self.byte(0x10)?;
        self.mem(y.0, base, off, self.vbytes())
    }

    /// `vmovups [base + off], y`
    pub fn store(&mut self, base: Base, off: usize, y: Y) -> Result<(), EncError> {
        if !base.writable()
            || off
                .checked_add(self.vbytes())
                .is_none_or(|e| e > self.store_end[base as usize])
        {
            return Err(EncError::OutOfFrame);
        }
        self.vex(y.0, 0, 0, 1, 0)?;
        self.byte(0x11)?;
        self.mem(y.0, base, off, self.vbytes())
    }

    /// `vmovaps d, s`
    pub fn mov(&mut self, d: Y, s: Y) -> Result<(), EncError> {
        self.vex(d.0, 0, s.0, 1, 0)?;
        self.byte(0x28)?;
        self.modrm_reg(d.0, s.0)
    }

    /// `vOPps d, s, [base + off]`
    pub fn op_mem(&mut self, op: Ps, d: Y, s: Y, base: Base, off: usize) -> Result<(), EncError> {
        self.vex(d.0, s.0, 0, 1, 0)?;
        self.byte(op as u8)?;
        self.mem(d.0, base, off, self.vbytes())
    }

    /// `vOPps d, s, t` (for SQRT, `s` must be ymm0: the form has no first source).
    pub fn op_reg(&mut self, op: Ps, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        self.vex(d.0, s.0, t.0, 1, 0)?;
        self.byte(op as u8)?;
        self.modrm_reg(d.0, t.0)
    }

    /// `vcmpps d, s, t, pred`
    pub fn cmp_reg(&mut self, d: Y, s: Y, t: Y, pred: u8) -> Result<(), EncError> {
        if self.wide {
            // vcmpps k1, s, t, pred (EVEX.512.0F.W0 C2 /r ib); vpmovm2d d, k1
            self.evex(1, s.0, t.0, 1, 0, 0)?;
            self.byte(0xC2)?;
            self.modrm_reg(1, t.0)?;
            self.byte(pred)?;
            return self.mask_to_vec(d, 1);
        }
        self.vex(d.0, s.0, t.0, 1, 0)?;
        self.byte(0xC2)?;
        self.modrm_reg(d.0, t.0)?;
        self.byte(pred)
    }

    /// `vbroadcastss y, dword [base + off]` (VEX.256.66.0F38.W0 18 /r)
    pub fn broadcast(&mut self, y: Y, base: Base, off: usize) -> Result<(), EncError> {
        self.vex(y.0, 0, 0, 2, 1)?;
        self.byte(0x18)?;
        self.mem(y.0, base, off, 4)
    }

    /// `vblendvps d, s, t, m`: d = sign of m ? t : s (VEX.256.66.0F3A.W0 4A /r /is4)
    pub fn blendv(&mut self, d: Y, s: Y, t: Y, m: Y) -> Result<(), EncError> {
        if self.wide {
            // vpmovd2m k1, m; vblendmps d{k1}, s, t (EVEX.512.66.0F38.W0 65 /r): the same
            // choice by m's sign bits.
            self.vec_to_mask(1, m)?;
            self.evex(d.0, s.0, t.0, 2, 1, 1)?;
            self.byte(0x65)?;
            return self.modrm_reg(d.0, t.0);
        }
        self.vex(d.0, s.0, t.0, 3, 1)?;
        self.byte(0x4A)?;
        self.modrm_reg(d.0, t.0)?;
        self.byte((m.0 & 0xF) << 4)
    }

    /// A call of `helper` with the frame (rdi) and `info` (esi): `vzeroupper`, the four
    /// argument registers and r8 (a seam loop's groups word) saved around it, the stack
    /// 16-byte aligned at the call (every YMM and rax, r9..r11 are clobbered, as the System V
    /// ABI lets the callee).
    pub fn call(&mut self, helper: super::Helper, info: u32) -> Result<(), EncError> {
        // vzeroupper; push rdi, rsi, rdx, rcx, r8
        self.bytes(&[0xC5, 0xF8, 0x77, 0x57, 0x56, 0x52, 0x51, 0x41, 0x50])?;
        self.byte(0xBE)?; // mov esi, imm32
        self.bytes(&info.to_le_bytes())?;
        self.bytes(&[0x48, 0xB8])?; // mov rax, imm64
        self.bytes(&helper.addr().to_le_bytes())?;
        // call rax; pop r8, rcx, rdx, rsi, rdi
        self.bytes(&[0xFF, 0xD0, 0x41, 0x58, 0x59, 0x5A, 0x5E, 0x5F])
    }

    /// `vOP d, s, t` on packed dwords (`vpand`, `vpaddd`, `vpsubd`, `vpcmpeqd`).
    pub fn int_op(&mut self, op: Pi, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        self.vex(d.0, s.0, t.0, 1, 1)?;
        self.byte(op as u8)?;
        self.modrm_reg(d.0, t.0)
    }

    /// `vpslld d, s, imm` (VEX.256.66.0F 72 /6 ib: vvvv is the destination).
    pub fn pslld(&mut self, d: Y, s: Y, imm: u8) -> Result<(), EncError> {
        self.vex(6, d.0, s.0, 1, 1)?;
        self.byte(0x72)?;
        self.modrm_reg(6, s.0)?;
        self.byte(imm)
    }

    /// `vcvttps2dq d, s` (VEX.256.F3.0F 5B /r)
    pub fn cvtt_ps_dq(&mut self, d: Y, s: Y) -> Result<(), EncError> {
        self.vex(d.0, 0, s.0, 1, 2)?;
        self.byte(0x5B)?;
        self.modrm_reg(d.0, s.0)
    }

    /// `vcvtdq2ps d, s` (VEX.256.0F 5B /r)
    pub fn cvt_dq_ps(&mut self, d: Y, s: Y) -> Result<(), EncError> {
        self.vex(d.0, 0, s.0, 1, 0)?;
        self.byte(0x5B)?;
        self.modrm_reg(d.0, s.0)
    }

    /// `d = (s + [k bias]) truncated to dwords - [k ibias]`: math's `floor_small(s + bias) -
    /// ibias` where the sum is positive (truncation is floor there), as SIN/COS's and POW's
    /// reductions round.
    pub fn floor_biased(&mut self, d: Y, s: Y, bias: usize, ibias: usize) -> Result<(), EncError> {
        self.op_k(Ps::Add, d, s, bias)?;
        self.cvtt_ps_dq(d, d)?;
        self.int_k(Pi::Sub as u8, d, d, ibias)
    }

    /// `vmovmskps eax, m; or dword [frame + off], eax`: the lanes whose sign bit `m` has
    /// are OR-ed into a frame word (a store: checked like one).
    pub fn or_mask(&mut self, m: Y, off: usize) -> Result<(), EncError> {
        if off
            .checked_add(4)
            .is_none_or(|e| e > self.store_end[Base::Frame as usize])
        {
            return Err(EncError::OutOfFrame);
        }
        if self.wide {
            // vpmovd2m k1, m; kmovw eax, k1 (VEX.L0.0F.W0 93 /r)
            self.vec_to_mask(1, m)?;
            self.bytes(&[0xC5, 0xF8, 0x93, 0xC1])?;
        } else {
            self.vex(0, 0, m.0, 1, 0)?;
            self.byte(0x50)?;
            self.modrm_reg(0, m.0)?;
        }
        self.byte(0x09)?;
        self.mem(0, Base::Frame, off, 4)
    }

    /// `acc = acc OP arg` for each step in order (a polynomial's Horner steps); a constant
    /// is the op's memory operand.
    pub fn steps(&mut self, acc: Y, steps: &[(Ps, Arg)]) -> Result<(), EncError> {
        for &(op, arg) in steps {
            self.op_arg(op, acc, acc, arg)?;
        }
        Ok(())
    }

    /// `vOPps d, s, t` with `t` a register or a frame memory operand.
    pub fn op_arg(&mut self, op: Ps, d: Y, s: Y, t: Arg) -> Result<(), EncError> {
        match t {
            Arg::Y(t) => self.op_reg(op, d, s, t),
            Arg::K(k) => self.op_k(op, d, s, k),
            Arg::M(off) => self.op_mem(op, d, s, Base::Frame, off),
        }
    }

    /// `vcmpps d, s, t, pred` with `t` a register or a frame memory operand.
    pub fn cmp_arg(&mut self, d: Y, s: Y, t: Arg, pred: u8) -> Result<(), EncError> {
        let off = match t {
            Arg::Y(t) => return self.cmp_reg(d, s, t, pred),
            Arg::K(k) => super::konst(k),
            Arg::M(off) => off,
        };
        if self.wide {
            self.evex(1, s.0, 0, 1, 0, 0)?;
            self.byte(0xC2)?;
            self.mem(1, Base::Frame, off, 64)?;
            self.byte(pred)?;
            return self.mask_to_vec(d, 1);
        }
        self.vex(d.0, s.0, 0, 1, 0)?;
        self.byte(0xC2)?;
        self.mem(d.0, Base::Frame, off, 32)?;
        self.byte(pred)
    }

    /// `vOPps d, s, [frame + konst(k)]`: the frame constant `k`'s 8 lanes as the second
    /// source.
    pub fn op_k(&mut self, op: Ps, d: Y, s: Y, k: usize) -> Result<(), EncError> {
        self.op_mem(op, d, s, Base::Frame, super::konst(k))
    }

    /// `vOP d, s, [frame + konst(k)]` on packed dwords (map 0F, 66 prefix: [`Pi`]'s opcodes,
    /// VPOR 0xEB, ...).
    pub fn int_k(&mut self, opcode: u8, d: Y, s: Y, k: usize) -> Result<(), EncError> {
        self.vex(d.0, s.0, 0, 1, 1)?;
        self.byte(opcode)?;
        self.mem(d.0, Base::Frame, super::konst(k), self.vbytes())
    }

    /// `vcmpps d, s, [frame + konst(k)], pred`
    pub fn cmp_k(&mut self, d: Y, s: Y, k: usize, pred: u8) -> Result<(), EncError> {
        self.cmp_arg(d, s, Arg::K(k), pred)
    }

    /// `vzeroupper; ret`
    pub fn ret(&mut self) -> Result<(), EncError> {
        self.bytes(&[0xC5, 0xF8, 0x77, 0xC3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(f: impl FnOnce(&mut Enc) -> Result<(), EncError>) -> ([u8; 32], usize) {
        let mut buf = [0u8; 32];
        let mut e = Enc::with_limits(&mut buf, [4096; 4]);
        f(&mut e).unwrap();
        let n = e.len();
        (buf, n)
    }

    #[test]
    fn encodings_are_the_manual_ones() {
        let cases: [(&[u8], fn(&mut Enc) -> Result<(), EncError>); 19] = [
            (&[0xC4, 0xE3, 0x75, 0x4A, 0xC2, 0x30], |e| {
                e.blendv(Y(0), Y(1), Y(2), Y(3))
            }),
            // ymm8..15 in every field: VEX.R, VEX.B, vvvv and is4.
            (&[0xC4, 0x43, 0x35, 0x4A, 0xD4, 0xF0], |e| {
                e.blendv(Y(10), Y(9), Y(12), Y(15))
            }),
            (&[0xC5, 0xFC, 0x51, 0x87, 0, 0, 0, 0], |e| {
                e.op_mem(Ps::Sqrt, Y(0), Y(0), Base::Frame, 0)
            }),
            (&[0xC5, 0xF4, 0xC2, 0xC2, 0x03], |e| {
                e.cmp_reg(Y(0), Y(1), Y(2), 3)
            }),
            (&[0xC4, 0x41, 0x34, 0xC2, 0xC2, 0x0E], |e| {
                e.cmp_reg(Y(8), Y(9), Y(10), 0x0E)
            }),
            (&[0xC5, 0xFC, 0x10, 0x87, 0x20, 0, 0, 0], |e| {
                e.load(Y(0), Base::Frame, 0x20)
            }),
            (&[0xC5, 0x7C, 0x10, 0x86, 0x20, 0, 0, 0], |e| {
                e.load(Y(8), Base::Inputs, 0x20)
            }),
            (&[0xC5, 0xFC, 0x10, 0x8A, 0, 0, 0, 0], |e| {
                e.load(Y(1), Base::Fcoord, 0)
            }),
            (&[0xC5, 0xFC, 0x11, 0x8F, 0x40, 0, 0, 0], |e| {
                e.store(Base::Frame, 0x40, Y(1))
            }),
            (&[0xC5, 0x7C, 0x11, 0xB9, 0x40, 0, 0, 0], |e| {
                e.store(Base::Out, 0x40, Y(15))
            }),
            (&[0xC5, 0xF4, 0x58, 0x87, 0, 1, 0, 0], |e| {
                e.op_mem(Ps::Add, Y(0), Y(1), Base::Frame, 0x100)
            }),
            (&[0xC5, 0xFC, 0x57, 0xC0], |e| {
                e.op_reg(Ps::Xor, Y(0), Y(0), Y(0))
            }),
            (&[0xC4, 0x41, 0x2C, 0x59, 0xCB], |e| {
                e.op_reg(Ps::Mul, Y(9), Y(10), Y(11))
            }),
            (&[0xC5, 0x2C, 0x5E, 0xCB], |e| {
                e.op_reg(Ps::Div, Y(9), Y(10), Y(3))
            }),
            (&[0xC4, 0xE2, 0x7D, 0x18, 0xBF, 8, 0, 0, 0], |e| {
                e.broadcast(Y(7), Base::Frame, 8)
            }),
            (&[0xC4, 0x62, 0x7D, 0x18, 0xA7, 8, 0, 0, 0], |e| {
                e.broadcast(Y(12), Base::Frame, 8)
            }),
            (&[0xC5, 0xFC, 0x28, 0xCA], |e| e.mov(Y(1), Y(2))),
            (&[0xC4, 0x41, 0x7C, 0x28, 0xCD], |e| e.mov(Y(9), Y(13))),
            (&[0xC5, 0xF8, 0x77, 0xC3], |e| e.ret()),
        ];
        for (want, f) in cases {
            let (buf, n) = bytes(f);
            assert_eq!(&buf[..n], want);
        }
    }

    /// The 16-lane form's EVEX bytes, as GNU as assembles the same instructions (a memory
    /// operand keeps its 32-bit displacement, which as would compress to disp8 * 64).
    #[test]
    fn zmm_encodings_are_the_manual_ones() {
        let cases: [(&[u8], fn(&mut Enc) -> Result<(), EncError>); 14] = [
            (&[0x62, 0x51, 0x2C, 0x48, 0x59, 0xCB], |e| {
                e.op_reg(Ps::Mul, Y(9), Y(10), Y(11))
            }),
            (&[0x62, 0xF1, 0x7C, 0x48, 0x51, 0xCA], |e| {
                e.op_reg(Ps::Sqrt, Y(1), Y(0), Y(2))
            }),
            (&[0x62, 0xF1, 0x6C, 0x48, 0x54, 0xCB], |e| {
                e.op_reg(Ps::And, Y(1), Y(2), Y(3))
            }),
            // vcmpps k1, zmm9, zmm10, GT_OS; vpmovm2d zmm8, k1
            (
                &[
                    0x62, 0xD1, 0x34, 0x48, 0xC2, 0xCA, 0x0E, 0x62, 0x72, 0x7E, 0x48, 0x38, 0xC1,
                ],
                |e| e.cmp_reg(Y(8), Y(9), Y(10), 0x0E),
            ),
            // vpmovd2m k1, zmm15; vblendmps zmm10{k1}, zmm9, zmm12
            (
                &[
                    0x62, 0xD2, 0x7E, 0x48, 0x39, 0xCF, 0x62, 0x52, 0x35, 0x49, 0x65, 0xD4,
                ],
                |e| e.blendv(Y(10), Y(9), Y(12), Y(15)),
            ),
            (&[0x62, 0x51, 0x7C, 0x48, 0x28, 0xCD], |e| {
                e.mov(Y(9), Y(13))
            }),
            (&[0x62, 0x72, 0x7D, 0x48, 0x18, 0xA7, 8, 0, 0, 0], |e| {
                e.broadcast(Y(12), Base::Frame, 8)
            }),
            (&[0x62, 0x71, 0x7C, 0x48, 0x10, 0x86, 0x20, 0, 0, 0], |e| {
                e.load(Y(8), Base::Inputs, 0x20)
            }),
            (&[0x62, 0x71, 0x7C, 0x48, 0x11, 0xB9, 0x40, 0, 0, 0], |e| {
                e.store(Base::Out, 0x40, Y(15))
            }),
            (&[0x62, 0xF1, 0x65, 0x48, 0x72, 0xF4, 0x17], |e| {
                e.pslld(Y(3), Y(4), 23)
            }),
            // vptestmd k1, zmm2, zmm15; vptestmd k2, zmm15, zmm15; ktestw k1, k2
            (
                &[
                    0x62, 0xD2, 0x6D, 0x48, 0x27, 0xCF, 0x62, 0xD2, 0x05, 0x48, 0x27, 0xD7, 0xC5,
                    0xF8, 0x99, 0xCA,
                ],
                |e| e.ptest(Y(2), Y(15)),
            ),
            // vpcmpgtd k1, zmm3, zmm4; vpmovm2d zmm8, k1
            (
                &[
                    0x62, 0xF1, 0x65, 0x48, 0x66, 0xCC, 0x62, 0x72, 0x7E, 0x48, 0x38, 0xC1,
                ],
                |e| e.int0f(0x66, Y(8), Y(3), Y(4)),
            ),
            (&[0x62, 0xF3, 0x7D, 0x48, 0x08, 0xCA, 0x09], |e| {
                e.round(Y(1), Y(2), 9)
            }),
            // mov eax, 1; vmovd xmm5, eax (VEX); vpbroadcastd zmm5, xmm5
            (
                &[
                    0xB8, 1, 0, 0, 0, 0xC5, 0xF9, 0x6E, 0xE8, 0x62, 0xF2, 0x7D, 0x48, 0x58, 0xED,
                ],
                |e| e.splat(Y(5), 1),
            ),
        ];
        for (want, f) in cases {
            let mut buf = [0u8; 32];
            let mut e = Enc::with_limits(&mut buf, [4096; 4]).zmm();
            f(&mut e).unwrap();
            let n = e.len();
            assert_eq!(&buf[..n], want);
        }
    }

    #[test]
    fn constant_operands_are_the_manual_encodings() {
        let mut buf = [0u8; 64];
        let mut e = Enc::new(&mut buf, super::super::FRAME_BYTES);
        // vpaddd ymm9, ymm10, [rdi + d]; vcmpps ymm1, ymm2, [rdi + d], 0x0E;
        // vsubps ymm8, ymm8, [rdi + d]
        e.int_k(Pi::Add as u8, Y(9), Y(10), 3).unwrap();
        e.cmp_k(Y(1), Y(2), 3, 0x0E).unwrap();
        e.op_k(Ps::Sub, Y(8), Y(8), 3).unwrap();
        let n = e.len();
        let d = (super::super::konst(3) as u32).to_le_bytes();
        let mut want = [0u8; 64];
        let mut at = 0;
        for part in [
            &[0xC5, 0x2D, 0xFE, 0x8F][..],
            &d,
            &[0xC5, 0xEC, 0xC2, 0x8F],
            &d,
            &[0x0E, 0xC5, 0x3C, 0x5C, 0x87],
            &d,
        ] {
            want[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        assert_eq!(&buf[..n], &want[..at]);
        assert_eq!(super::super::konst(3) % 32, 0);
    }

    #[test]
    fn refuses_outside_the_regions_stores_to_inputs_and_a_full_buffer() {
        let mut buf = [0u8; 64];
        let mut e = Enc::with_limits(&mut buf, [64, 64, 32, 0]);
        assert_eq!(e.load(Y(0), Base::Frame, 32), Ok(()));
        assert_eq!(e.load(Y(0), Base::Frame, 33), Err(EncError::OutOfFrame));
        assert_eq!(
            e.broadcast(Y(0), Base::Frame, 61),
            Err(EncError::OutOfFrame)
        );
        assert_eq!(e.load(Y(0), Base::Fcoord, 1), Err(EncError::OutOfFrame));
        assert_eq!(e.load(Y(0), Base::Out, 0), Err(EncError::OutOfFrame));
        assert_eq!(e.store(Base::Inputs, 0, Y(0)), Err(EncError::OutOfFrame));
        let mut buf = [0u8; 64];
        let mut e = Enc::with_limits(&mut buf, [128, 0, 0, 0]).limit_stores(Base::Frame, 64);
        assert_eq!(e.store(Base::Frame, 32, Y(0)), Ok(()));
        assert_eq!(e.store(Base::Frame, 33, Y(0)), Err(EncError::OutOfFrame));
        assert_eq!(e.load(Y(0), Base::Frame, 96), Ok(()));
        let mut small = [0u8; 3];
        let mut e = Enc::new(&mut small, 64);
        assert_eq!(e.ret(), Err(EncError::Full));
    }
}
