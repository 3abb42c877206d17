//! Profile 2's integer ops, the rounding ops and LOAD_IDX in the compiled form (issue 14),
//! with `exec::ints`'s semantics bit for bit: each lane of a YMM holds its integer's bit
//! pattern, as in the interpreter. Wrapping IADD / ISUB / IMUL (VPADDD / VPSUBD / VPMULLD),
//! bit ops, shifts with the count masked to 0..31 (VPSLLVD / VPSRLVD / VPSRAVD after AND 31),
//! signed and unsigned MIN / MAX, INEG / IABS / ISIGN / NOT, ICMP / UCMP (1.0 or +0.0; the
//! unsigned ones with the sign bits flipped), CVT: I2F is VCVTDQ2PS, F2I VCVTTPS2DQ (which is
//! `ir::f2i`: INT_MIN for NaN, infinities and values out of range), U2F the exact sum of the
//! converted high and low halves (one rounding, as `u32 as f32`), F2U `ir::f2u`'s formula.
//! IDIV / UDIV / IMOD / UMOD call [`helper_div`] (`exec::ints::binary_bits` lane by lane).
//!
//! FLOOR / CEIL / TRUNC / ROUND_EVEN are VROUNDPS with NaN lanes passed through unchanged (libm
//! returns a NaN operand as it is; VROUNDPS would quieten a signalling one); FRACT is
//! `x - VROUNDPS(x, floor)`, the interpreter's `x - floor(x)` (a NaN operand gives the same
//! quiet NaN either way).
//!
//! LOAD_IDX (a local array indexed per lane) selects among the array's elements with blends:
//! element j is taken where `index >= j` for j = 1..=len-1 in turn, which is
//! `ir::clamp_index` (floor, clamped to the array, NaN and anything below 1 giving 0) without
//! computing it. Arrays up to [`IDX_MAX`] + 1 elements of temps (not bank registers).
use super::enc::{Arg, Base, Enc, EncError, Ps, Y};
use super::{val, Gen, JitError, BANK_BASE, K_ONE, REG_MASK};
use crate::back::exec::DInst;
use crate::ir::{CmpCode, Op, CVT_F2I, CVT_F2U, CVT_I2F, CVT_U2F};

/// The largest LOAD_IDX `len - 1` compiled (its masks stay in registers).
pub const IDX_MAX: usize = 6;

impl Enc<'_> {
    /// `vOP d, s, t` on packed dwords, map 0F with the 66 prefix (`opcode` 0xFE VPADDD, ...).
    ///
    /// The 16-lane form of VPCMPEQD / VPCMPGTD (0x76 / 0x66) compares into k1 and makes the
    /// lanes from it (`vpmovm2d`): the same all-ones / zero lanes.
    pub fn int0f(&mut self, opcode: u8, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        if self.wide && matches!(opcode, 0x76 | 0x66) {
            self.evex(1, s.0, t.0, 1, 1, 0)?;
            self.byte(opcode)?;
            self.modrm_reg(1, t.0)?;
            return self.mask_to_vec(d, 1);
        }
        self.vex(d.0, s.0, t.0, 1, 1)?;
        self.byte(opcode)?;
        self.modrm_reg(d.0, t.0)
    }

    /// `vOP d, s, t` on packed dwords, map 0F38 with the 66 prefix (0x40 VPMULLD, ...; for
    /// the unary VPABSD, `s` must be ymm0).
    pub fn int38(&mut self, opcode: u8, d: Y, s: Y, t: Y) -> Result<(), EncError> {
        self.vex(d.0, s.0, t.0, 2, 1)?;
        self.byte(opcode)?;
        self.modrm_reg(d.0, t.0)
    }

    /// `vOP d, s, t` on packed dwords (map 1 = 0F, 2 = 0F38, 66 prefix) with `t` a register,
    /// a frame constant or a frame memory operand.
    pub fn int_arg(&mut self, map: u8, opcode: u8, d: Y, s: Y, t: Arg) -> Result<(), EncError> {
        let off = match t {
            Arg::Y(t) => {
                self.vex(d.0, s.0, t.0, map, 1)?;
                self.byte(opcode)?;
                return self.modrm_reg(d.0, t.0);
            }
            Arg::K(k) => super::konst(k),
            Arg::M(off) => off,
        };
        self.vex(d.0, s.0, 0, map, 1)?;
        self.byte(opcode)?;
        self.mem(d.0, Base::Frame, off, self.vbytes())
    }

    /// `vpsrad d, s, imm` (`ext` 4) or `vpsrld` (`ext` 2): VEX.256.66.0F 72 /ext ib.
    pub fn shift_imm(&mut self, ext: u8, d: Y, s: Y, imm: u8) -> Result<(), EncError> {
        self.vex(ext, d.0, s.0, 1, 1)?;
        self.byte(0x72)?;
        self.modrm_reg(ext, s.0)?;
        self.byte(imm)
    }

    /// `r` = the lanes where signed `x CMP y` (code `code`) holds, or (when it returns true)
    /// where it does not: VPCMPEQD / VPCMPGTD.
    pub fn icmp_mask(&mut self, code: u8, r: Y, x: Y, y: Y) -> Result<bool, EncError> {
        let (p, q, opc, not) = match CmpCode::from_i16(code as i16).unwrap_or(CmpCode::Eq) {
            CmpCode::Eq => (x, y, 0x76, false),
            CmpCode::Ne => (x, y, 0x76, true),
            CmpCode::Gt => (x, y, 0x66, false),
            CmpCode::Lt => (y, x, 0x66, false),
            CmpCode::Ge => (y, x, 0x66, true),
            CmpCode::Le => (x, y, 0x66, true),
        };
        self.int0f(opc, r, p, q)?;
        Ok(not)
    }

    /// `vroundps d, s, mode` (VEX.256.66.0F3A 08 /r ib).
    pub fn round(&mut self, d: Y, s: Y, mode: u8) -> Result<(), EncError> {
        self.vex(d.0, 0, s.0, 3, 1)?;
        self.byte(0x08)?;
        self.modrm_reg(d.0, s.0)?;
        self.byte(mode)
    }
}

/// Whether [`Gen::int_inst`] lowers `d`.
pub(super) fn lowers(d: &DInst) -> bool {
    match d.op {
        Op::IDiv | Op::UDiv | Op::IMod | Op::UMod => true,
        Op::Cvt => matches!(d.x as i16, CVT_I2F | CVT_U2F | CVT_F2I | CVT_F2U),
        Op::LoadIdx => idx_ok(d),
        Op::LoadLane => d.x <= 3,
        Op::Floor | Op::Ceil | Op::Trunc | Op::RoundEven | Op::Fract => true,
        op => is_int(op),
    }
}

fn is_int(op: Op) -> bool {
    matches!(op, crate::ir::int_ops!())
}

/// LOAD_IDX over at most [`IDX_MAX`] + 1 temps inside the register file.
fn idx_ok(d: &DInst) -> bool {
    let last = d.b as usize + d.x as usize * d.y as usize;
    (d.x as usize) <= IDX_MAX && last < BANK_BASE && last <= REG_MASK
}

/// How an integer op reads (for the allocator's `touch`): (reads a, reads b) over components
/// 0..n (it writes dst's), or None when not one of these.
pub(super) fn shape(d: &DInst) -> Option<(bool, bool)> {
    match d.op {
        Op::Not | Op::INeg | Op::IAbs | Op::ISign | Op::Cvt => Some((true, false)),
        Op::Floor | Op::Ceil | Op::Trunc | Op::RoundEven | Op::Fract => Some((true, false)),
        op if is_int(op) => Some((true, true)),
        _ => None,
    }
}

/// The temps LOAD_IDX `d` may read: component `c` of `t` for t in the array.
pub(super) fn idx_reads(d: &DInst, t: usize) -> bool {
    let stride = d.y as usize;
    let first = d.b as usize & REG_MASK;
    (0..=d.x as usize).any(|k| (first + k * stride) & REG_MASK == t)
}

impl Gen<'_, '_> {
    /// Lowers the ops of [`lowers`].
    pub(super) fn int_inst(&mut self, d: &DInst) -> Result<(), JitError> {
        if !lowers(d) {
            return Err(JitError::Unsupported(d.op));
        }
        let (dst, a, b) = (
            d.dst as usize & REG_MASK,
            d.a as usize & REG_MASK,
            d.b as usize & REG_MASK,
        );
        let n = (d.n as usize).min(4);
        match d.op {
            Op::LoadIdx | Op::LoadLane => return self.load_idx(d),
            Op::IDiv | Op::UDiv | Op::IMod | Op::UMod => return self.call_out(d),
            _ => {}
        }
        // A constant every component uses, pinned across them.
        let k = match d.op {
            Op::Shl | Op::UShr | Op::IShr => Some(31),
            Op::UCmp => Some(0x8000_0000),
            Op::Cvt if d.x as i16 == CVT_U2F => Some(0xFFFF),
            Op::Cvt if d.x as i16 == CVT_F2U => Some(0x4F00_0000),
            _ => None,
        };
        let k = match k {
            Some(bits) => {
                let y = self.alloc()?;
                self.e.splat(y, bits)?;
                Some(y)
            }
            None => None,
        };
        let keep = self.pinned;
        // Two-operand dword ops: the second operand (either, for the commutative ones) read
        // from its frame slot where it is not in a YMM, as the float ops do (`Gen::arith`).
        let binary = match d.op {
            Op::IAdd => Some((1, 0xFE, true)),
            Op::ISub => Some((1, 0xFA, false)),
            Op::IMul => Some((2, 0x40, true)),
            Op::And => Some((1, 0xDB, true)),
            Op::Or => Some((1, 0xEB, true)),
            Op::Xor => Some((1, 0xEF, true)),
            Op::IMin => Some((2, 0x39, true)),
            Op::IMax => Some((2, 0x3D, true)),
            Op::UMin => Some((2, 0x3B, true)),
            Op::UMax => Some((2, 0x3F, true)),
            _ => None,
        };
        if let Some((map, opcode, commutes)) = binary {
            for c in 0..n {
                let (sa, sb) = (self.side(val(a, c)), self.side(val(b, c)));
                let (x, t) = self.operands(commutes, sa, sb)?;
                let r = self.alloc()?;
                self.e.int_arg(map, opcode, r, x, t)?;
                self.set(val(dst, c), r)?;
                self.pinned = keep;
            }
            return Ok(());
        }
        for c in 0..n {
            let x = self.get(val(a, c))?;
            let y = match shape(d) {
                Some((_, true)) => self.get(val(b, c))?,
                _ => x,
            };
            let r = self.alloc()?;
            let t = self.alloc()?;
            let u = if d.op == Op::Cvt && matches!(d.x as i16, CVT_U2F | CVT_F2U) {
                self.alloc()?
            } else {
                t
            };
            let e = &mut self.e;
            let kk = k.unwrap_or(t);
            match d.op {
                Op::Shl | Op::UShr | Op::IShr => {
                    let opc = match d.op {
                        Op::Shl => 0x47,
                        Op::UShr => 0x45,
                        _ => 0x46,
                    };
                    e.int0f(0xDB, t, y, kk)?;
                    e.int38(opc, r, x, t)?;
                }
                Op::Not => {
                    e.int0f(0x76, t, t, t)?; // all ones
                    e.int0f(0xEF, r, x, t)?;
                }
                Op::INeg => {
                    e.op_reg(Ps::Xor, t, t, t)?;
                    e.int0f(0xFA, r, t, x)?;
                }
                Op::IAbs => e.int38(0x1E, r, Y(0), x)?,
                Op::ISign => {
                    // (0 > x) - (x > 0): -1, 0 or 1.
                    e.op_reg(Ps::Xor, t, t, t)?;
                    e.int0f(0x66, r, t, x)?;
                    e.int0f(0x66, t, x, t)?;
                    e.int0f(0xFA, r, r, t)?;
                }
                Op::ICmp | Op::UCmp => {
                    let (x, y) = if d.op == Op::UCmp {
                        e.int0f(0xEF, r, x, kk)?;
                        e.int0f(0xEF, t, y, kk)?;
                        (r, t)
                    } else {
                        (x, y)
                    };
                    // The true lanes' mask (or its complement, `not`), ANDed with 1.0.
                    let not = e.icmp_mask(d.x, r, x, y)?;
                    // (1.0 from the frame's constants, as CMP takes it.)
                    let and = if not { Ps::Andn } else { Ps::And };
                    e.op_k(and, r, r, K_ONE)?;
                }
                Op::Cvt => match d.x as i16 {
                    CVT_I2F => e.cvt_dq_ps(r, x)?,
                    CVT_F2I => e.cvtt_ps_dq(r, x)?,
                    CVT_U2F => {
                        // hi * 65536 + lo: both exact, one rounding.
                        e.int0f(0xDB, t, x, kk)?;
                        e.cvt_dq_ps(t, t)?;
                        e.shift_imm(2, r, x, 16)?;
                        e.cvt_dq_ps(r, r)?;
                        e.splat(u, 0x4780_0000)?;
                        e.op_reg(Ps::Mul, r, r, u)?;
                        e.op_reg(Ps::Add, r, r, t)?;
                    }
                    _ => {
                        // r1 | (f2i(x - 2^31) & (r1 >> 31)), r1 = f2i(x).
                        e.op_reg(Ps::Sub, t, x, kk)?;
                        e.cvtt_ps_dq(t, t)?;
                        e.cvtt_ps_dq(r, x)?;
                        e.shift_imm(4, u, r, 31)?;
                        e.int0f(0xDB, t, t, u)?;
                        e.int0f(0xEB, r, r, t)?;
                    }
                },
                Op::Fract => {
                    e.round(t, x, 9)?;
                    e.op_reg(Ps::Sub, r, x, t)?;
                }
                _ => {
                    let mode = match d.op {
                        Op::RoundEven => 8,
                        Op::Floor => 9,
                        Op::Ceil => 10,
                        _ => 11,
                    };
                    e.round(r, x, mode)?;
                    e.cmp_reg(t, x, x, 0x03)?; // UNORD_Q: NaN lanes keep x
                    e.blendv(r, r, x, t)?;
                }
            }
            self.set(val(dst, c), r)?;
            self.pinned = keep;
        }
        Ok(())
    }

    /// LOAD_IDX: `dst = array[clamp_index(a.x)]`, all four components (see the header);
    /// LOAD_LANE: `dst.x = b[clamp_index(a.x)]`, the same selection over b's components.
    fn load_idx(&mut self, d: &DInst) -> Result<(), JitError> {
        let (dst, a) = (d.dst as usize & REG_MASK, d.a as usize & REG_MASK);
        let (first, stride, last) = (d.b as usize & REG_MASK, d.y as usize, d.x as usize);
        let lane = d.op == Op::LoadLane;
        // Element j, component c: a temp's component (LOAD_IDX) or b's component j.
        let elem = |j: usize, c: usize| {
            if lane {
                val(first, j)
            } else {
                val((first + j * stride) & REG_MASK, c)
            }
        };
        let comps = if lane { 1 } else { 4 };
        if last > IDX_MAX {
            return Err(JitError::Unsupported(d.op));
        }
        let idx = self.get(val(a, 0))?;
        let mut masks = [Y(0); IDX_MAX];
        for (j, m) in masks.iter_mut().enumerate().take(last) {
            let k = self.alloc()?;
            self.e.splat(k, (j as f32 + 1.0).to_bits())?;
            self.e.cmp_reg(k, idx, k, 0x0D)?; // GE_OS: index >= j + 1 (NaN false)
            *m = k;
        }
        let mut res = [Y(0); 4];
        for (c, r) in res.iter_mut().enumerate().take(comps) {
            let keep = self.pinned;
            let e0 = self.get(elem(0, c))?;
            let acc = self.alloc()?;
            self.e.mov(acc, e0)?;
            let keep = keep | 1 << acc.0;
            self.pinned = keep;
            for (j, &m) in masks.iter().enumerate().take(last) {
                let ej = self.get(elem(j + 1, c))?;
                self.e.blendv(acc, acc, ej, m)?;
                self.pinned = keep;
            }
            *r = acc;
        }
        for (c, &r) in res.iter().enumerate().take(comps) {
            self.set(val(dst, c), r)?;
        }
        Ok(())
    }
}

/// The `info` bits (27..29) that tell [`helper_div`] its op.
pub(super) fn div_kind(op: Op) -> u32 {
    let k = match op {
        Op::IDiv => 0,
        Op::UDiv => 1,
        Op::IMod => 2,
        _ => 3,
    };
    k << 27
}

/// IDIV / UDIV / IMOD / UMOD of the frame's slots (see `Helper`): the interpreter's
/// `binary_bits` per lane.
pub(super) extern "sysv64" fn helper_div(frame: &mut super::Frame, info: u32) {
    let op = match (info >> 27) & 3 {
        0 => Op::IDiv,
        1 => Op::UDiv,
        2 => Op::IMod,
        _ => Op::UMod,
    };
    super::helper_lanes(
        frame,
        info & !(3 << 27),
        #[inline(always)]
        |x, y| {
            let mut v = [0.0f32; super::JIT_LANES];
            for (l, v) in v.iter_mut().enumerate() {
                let bits = crate::back::exec::ints::binary_bits(op, x[l].to_bits(), y[l].to_bits());
                *v = f32::from_bits(bits);
            }
            v
        },
    );
}

#[cfg(test)]
mod tests {
    use super::super::enc::{Arg, Base, Enc, EncError, Y};
    use super::super::flow::Cc;

    fn bytes(f: impl FnOnce(&mut Enc) -> Result<(), EncError>) -> std::vec::Vec<u8> {
        let mut buf = [0u8; 64];
        let mut e = Enc::with_limits(&mut buf, [4096; 4]);
        f(&mut e).unwrap();
        let n = e.len();
        buf[..n].to_vec()
    }

    /// The loop and integer encodings against the manual's (checked with a disassembler),
    /// ymm8..15 in the extended fields included.
    #[test]
    fn loop_and_integer_encodings_are_the_manual_ones() {
        let cases: [(&[u8], fn(&mut Enc) -> Result<(), EncError>); 13] = [
            (&[0xC4, 0xE2, 0x7D, 0x17, 0xD2], |e| e.ptest(Y(2), Y(2))),
            (&[0xC4, 0x42, 0x7D, 0x17, 0xFF], |e| e.ptest(Y(15), Y(15))),
            (&[0xC5, 0xFD, 0xFE, 0xC2], |e| {
                e.int0f(0xFE, Y(0), Y(0), Y(2))
            }),
            (&[0xC4, 0x42, 0x35, 0x40, 0xD3], |e| {
                e.int38(0x40, Y(10), Y(9), Y(11))
            }),
            (&[0xC4, 0xE2, 0x7D, 0x1E, 0xCA], |e| {
                e.int38(0x1E, Y(1), Y(0), Y(2))
            }),
            (&[0xC5, 0xF5, 0x72, 0xE2, 0x1F], |e| {
                e.shift_imm(4, Y(1), Y(2), 31)
            }),
            (&[0xC4, 0xE3, 0x7D, 0x08, 0xCA, 0x09], |e| {
                e.round(Y(1), Y(2), 9)
            }),
            (&[0xC5, 0x74, 0x55, 0xFB], |e| e.andn(Y(15), Y(1), Y(3))),
            (
                &[
                    0xB8, 0xFF, 0xFF, 0, 0, 0xC5, 0x79, 0x6E, 0xC8, 0xC4, 0x42, 0x7D, 0x58, 0xC9,
                ],
                |e| e.splat(Y(9), 0xFFFF),
            ),
            (&[0xC7, 0x87, 0x40, 0, 0, 0, 0, 0, 0, 0], |e| {
                e.word_set(0x40, 0)
            }),
            (&[0x83, 0xAF, 0x40, 0, 0, 0, 0x01], |e| e.word_dec(0x40)),
            (&[0xC5, 0xED, 0xFE, 0x8F, 0x40, 0, 0, 0], |e| {
                e.int_arg(1, 0xFE, Y(1), Y(2), Arg::M(0x40))
            }),
            (&[0xC4, 0x62, 0x6D, 0x40, 0x8F, 0x40, 0, 0, 0], |e| {
                e.int_arg(2, 0x40, Y(9), Y(2), Arg::M(0x40))
            }),
        ];
        for (want, f) in cases {
            assert_eq!(&bytes(f)[..], want);
        }
        // A forward jump landed past a 4-byte instruction, and a backward jump to the start.
        let got = bytes(|e| {
            let at = e.jcc_fwd(Cc::Z)?;
            e.andn(Y(0), Y(0), Y(0))?;
            e.land(at)?;
            e.jmp_back(0)?;
            e.jcc_back(Cc::Nz, 0)
        });
        assert_eq!(
            &got[..],
            &[
                0x0F, 0x84, 4, 0, 0, 0, 0xC5, 0xFC, 0x55, 0xC0, 0xE9, 0xF1, 0xFF, 0xFF, 0xFF, 0x0F,
                0x85, 0xEB, 0xFF, 0xFF, 0xFF
            ]
        );
        // Frame words are stores: checked against the store limit.
        let mut buf = [0u8; 16];
        let mut e = Enc::with_limits(&mut buf, [64, 0, 0, 0]).limit_stores(Base::Frame, 32);
        assert_eq!(e.word_dec(32), Err(EncError::OutOfFrame));
    }
}
