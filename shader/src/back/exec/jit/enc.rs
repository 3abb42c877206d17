//! A tiny x86-64 encoder for the AVX instructions the compiled form uses, writing bytes into a
//! caller-provided buffer (no heap). Registers are ymm0..ymm7 only (so every form fits the
//! two-byte VEX prefix where the map allows) and every memory operand is `[rdi + disp32]`, the
//! frame pointer the generated function receives as its first System V argument.

/// Emission failed: the buffer is full, or an offset is outside the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncError {
    Full,
    OutOfFrame,
}

/// Bytes written so far into `buf`.
pub struct Enc<'a> {
    buf: &'a mut [u8],
    len: usize,
    /// Every memory operand must lie in `[0, frame)` bytes (32 bytes for YMM, 4 for a scalar).
    frame: usize,
}

/// A YMM register, 0..=7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Y(pub u8);

/// Opcodes in map 0F with no prefix (packed single, 256 bit).
#[derive(Clone, Copy)]
pub enum Ps {
    And = 0x54,
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

impl<'a> Enc<'a> {
    pub fn new(buf: &'a mut [u8], frame: usize) -> Enc<'a> {
        Enc { buf, len: 0, frame }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len
    }

    fn byte(&mut self, b: u8) -> Result<(), EncError> {
        let slot = self.buf.get_mut(self.len).ok_or(EncError::Full)?;
        *slot = b;
        self.len += 1;
        Ok(())
    }

    fn bytes(&mut self, bs: &[u8]) -> Result<(), EncError> {
        for &b in bs {
            self.byte(b)?;
        }
        Ok(())
    }

    /// ModRM `mod = 10, reg, rm = rdi` and the 32-bit displacement, checked against the frame.
    fn mem(&mut self, reg: u8, off: usize, width: usize) -> Result<(), EncError> {
        if off.checked_add(width).is_none_or(|end| end > self.frame) || off > i32::MAX as usize {
            return Err(EncError::OutOfFrame);
        }
        self.byte(0x80 | (reg & 7) << 3 | 7)?;
        self.bytes(&(off as u32).to_le_bytes())
    }

    /// Two-byte VEX: R = 1 (reg < 8), vvvv = `v`, L = 256 bit, pp.
    fn vex2(&mut self, v: u8, pp: u8) -> Result<(), EncError> {
        self.bytes(&[0xC5, 0x80 | ((!v & 0xF) << 3) | 0x04 | (pp & 3)])
    }

    /// `vmovups y, [rdi + off]`
    pub fn load(&mut self, y: Y, off: usize) -> Result<(), EncError> {
        self.vex2(0, 0)?;
        self.byte(0x10)?;
        self.mem(y.0, off, 32)
    }

    /// `vmovups [rdi + off], y`
    pub fn store(&mut self, off: usize, y: Y) -> Result<(), EncError> {
        self.vex2(0, 0)?;
        self.byte(0x11)?;
        self.mem(y.0, off, 32)
    }

    /// `vOPps d, s, [rdi + off]`
    pub fn op_mem(&mut self, op: Ps, d: Y, s: Y, off: usize) -> Result<(), EncError> {
        self.vex2(s.0, 0)?;
        self.byte(op as u8)?;
        self.mem(d.0, off, 32)
    }

    /// `vOPps d, s, t`
    pub fn op_reg(&mut self, op: Ps, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        self.vex2(s.0, 0)?;
        self.byte(op as u8)?;
        self.byte(0xC0 | (d.0 & 7) << 3 | (t.0 & 7))
    }

    /// `vcmpps d, s, [rdi + off], pred`
    pub fn cmp_mem(&mut self, d: Y, s: Y, off: usize, pred: u8) -> Result<(), EncError> {
        self.vex2(s.0, 0)?;
        self.byte(0xC2)?;
        self.mem(d.0, off, 32)?;
        self.byte(pred)
    }

    /// `vbroadcastss y, dword [rdi + off]` (VEX.256.66.0F38.W0 18 /r)
    pub fn broadcast(&mut self, y: Y, off: usize) -> Result<(), EncError> {
        self.bytes(&[0xC4, 0xE2, 0x7D, 0x18])?;
        self.mem(y.0, off, 4)
    }

    /// `vblendvps d, s, t, m`: d = sign of m ? t : s (VEX.256.66.0F3A.W0 4A /r /is4)
    pub fn blendv(&mut self, d: Y, s: Y, t: Y, m: Y) -> Result<(), EncError> {
        self.bytes(&[0xC4, 0xE3, ((!s.0 & 0xF) << 3) | 0x05, 0x4A])?;
        self.byte(0xC0 | (d.0 & 7) << 3 | (t.0 & 7))?;
        self.byte((m.0 & 7) << 4)
    }

    /// `vcmpps d, s, t, pred`
    pub fn cmp_reg(&mut self, d: Y, s: Y, t: Y, pred: u8) -> Result<(), EncError> {
        self.vex2(s.0, 0)?;
        self.byte(0xC2)?;
        self.byte(0xC0 | (d.0 & 7) << 3 | (t.0 & 7))?;
        self.byte(pred)
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
        let mut e = Enc::new(&mut buf, 4096);
        f(&mut e).unwrap();
        let n = e.len();
        (buf, n)
    }

    #[test]
    fn encodings_are_the_manual_ones() {
        let cases: [(&[u8], fn(&mut Enc) -> Result<(), EncError>); 10] = [
            (&[0xC4, 0xE3, 0x75, 0x4A, 0xC2, 0x30], |e| {
                e.blendv(Y(0), Y(1), Y(2), Y(3))
            }),
            (&[0xC5, 0xFC, 0x51, 0x87, 0, 0, 0, 0], |e| {
                e.op_mem(Ps::Sqrt, Y(0), Y(0), 0)
            }),
            (&[0xC5, 0xF4, 0xC2, 0xC2, 0x03], |e| {
                e.cmp_reg(Y(0), Y(1), Y(2), 3)
            }),
            (&[0xC5, 0xFC, 0x10, 0x87, 0x20, 0, 0, 0], |e| {
                e.load(Y(0), 0x20)
            }),
            (&[0xC5, 0xFC, 0x11, 0x8F, 0x40, 0, 0, 0], |e| {
                e.store(0x40, Y(1))
            }),
            (&[0xC5, 0xF4, 0x58, 0x87, 0, 1, 0, 0], |e| {
                e.op_mem(Ps::Add, Y(0), Y(1), 0x100)
            }),
            (&[0xC5, 0xFC, 0x57, 0xC0], |e| {
                e.op_reg(Ps::Xor, Y(0), Y(0), Y(0))
            }),
            (&[0xC4, 0xE2, 0x7D, 0x18, 0xBF, 8, 0, 0, 0], |e| {
                e.broadcast(Y(7), 8)
            }),
            (&[0xC5, 0xFC, 0xC2, 0x87, 0, 0, 0, 0, 0x0E], |e| {
                e.cmp_mem(Y(0), Y(0), 0, 0x0E)
            }),
            (&[0xC5, 0xF8, 0x77, 0xC3], |e| e.ret()),
        ];
        for (want, f) in cases {
            let (buf, n) = bytes(f);
            assert_eq!(&buf[..n], want);
        }
    }

    #[test]
    fn refuses_outside_the_frame_and_a_full_buffer() {
        let mut buf = [0u8; 64];
        let mut e = Enc::new(&mut buf, 64);
        assert_eq!(e.load(Y(0), 32), Ok(()));
        assert_eq!(e.load(Y(0), 33), Err(EncError::OutOfFrame));
        assert_eq!(e.broadcast(Y(0), 61), Err(EncError::OutOfFrame));
        let mut small = [0u8; 3];
        let mut e = Enc::new(&mut small, 64);
        assert_eq!(e.ret(), Err(EncError::Full));
    }
}
