//! The compiled form of a decoded [`Executable`] (issue 17, first round): x86-64 AVX machine
//! code generated from the IR into a caller-provided byte buffer, by safe code (no heap).
//!
//! The generated function has the System V signature `extern "sysv64" fn(frame: *mut Frame)`
//! and runs the whole shader for [`JIT_LANES`] = 8 lanes, one YMM per scalar component. Its
//! every memory access is `[rdi + d]` with `d + width <= size_of::<Frame>()`: the encoder
//! ([`enc`]) refuses any other, so code from [`compile`] touches nothing but the frame it is
//! handed. Running it needs executable memory, the one `unsafe` step, which is not here: the
//! host crate `jitmem` owns it (mmap RW, copy, mprotect RX) and calls the code only with a
//! frame at least [`FRAME_BYTES`] long. [`Executable::run_compiled`] fills a frame for each
//! 8-lane group of a 32-lane dispatch, calls the code through a caller-given function and
//! copies the outputs back.
//!
//! This round the code keeps registers in the frame (`regs`, the interpreter's register file
//! cut to 8 lanes) and does load / op / store per component; there is no register allocation
//! yet. Coverage: straight-line code (no IF, loops or DISCARD) of CONST, MOV, SWZ, SETLANE,
//! ADD/SUB/MUL (fused splats included), DIV, MIN, MAX, SQRT, RSQ, RCP, ABS, DOT, CMP, LOAD_VAR/LOAD_ATTR, LOAD_UNI,
//! LOAD_FCOORD, STORE_COLOR/STORE_POS/STORE_VAR. [`compile`] refuses any other module
//! ([`JitError::Unsupported`]) and the caller runs the interpreter, which stays the reference.
//!
//! Numerics are the interpreter's (see the header of `exec`): every op is the same IEEE single
//! operation in the same order (DOT starts from +0.0 and adds the products in component order,
//! no FMA), CMP gives 1.0 / +0.0 with the same NaN rules (ordered LT/LE/GT/GE/EQ, unordered NE).

pub mod enc;

use self::enc::{Enc, EncError, Ps, Y};
use super::lanes::{Mask, Vec4x, ALL_LANES, LANES};
use super::{
    Executable, Invocation, Outputs, BANK_BASE, BANK_MAX, NOT_UNIFORM, REG_FILE, REG_MASK,
};
use crate::ir::{CmpCode, Op, Stage};
use crate::limits::{IMM_CAP, VARYING_CAP};
use core::mem::offset_of;

/// Lanes one call of generated code runs (one YMM of f32).
pub const JIT_LANES: usize = 8;
/// 8-lane groups in one dispatch of [`LANES`].
const GROUPS: usize = LANES / JIT_LANES;
const _: () = assert!(LANES.is_multiple_of(JIT_LANES));

/// One component of 8 lanes.
pub type Lanes8 = [f32; JIT_LANES];
/// A vec4 register of 8 lanes.
pub type Vec4x8 = [Lanes8; 4];

/// Uniform floats a frame holds (32 vec4 slots, as [`Invocation::uniforms`] has).
pub const FRAME_UNIFORMS: usize = 32 * 4;

/// What generated code reads and writes: everything at fixed offsets from its one pointer.
#[repr(C, align(32))]
#[derive(Clone)]
pub struct Frame {
    pub regs: [Vec4x8; REG_FILE],
    pub inputs: [Vec4x8; VARYING_CAP],
    pub fragcoord: Vec4x8,
    pub position: Vec4x8,
    pub varyings: [Vec4x8; VARYING_CAP],
    pub color: Vec4x8,
    pub uniforms: [f32; FRAME_UNIFORMS],
    pub imms: [f32; IMM_CAP],
    /// Constants the code broadcasts: 1.0 (CMP's true) and the ABS mask.
    pub consts: [u32; 8],
}

/// Bytes generated code may touch from the frame pointer.
pub const FRAME_BYTES: usize = core::mem::size_of::<Frame>();

const K_ONE: usize = 0;
const K_ABS: usize = 1;

impl Default for Frame {
    fn default() -> Self {
        Frame::new()
    }
}

impl Frame {
    pub const fn new() -> Frame {
        let mut consts = [0u32; 8];
        consts[K_ONE] = 0x3F80_0000;
        consts[K_ABS] = 0x7FFF_FFFF;
        Frame {
            regs: [[[0.0; JIT_LANES]; 4]; REG_FILE],
            inputs: [[[0.0; JIT_LANES]; 4]; VARYING_CAP],
            fragcoord: [[0.0; JIT_LANES]; 4],
            position: [[0.0; JIT_LANES]; 4],
            varyings: [[[0.0; JIT_LANES]; 4]; VARYING_CAP],
            color: [[0.0; JIT_LANES]; 4],
            uniforms: [0.0; FRAME_UNIFORMS],
            imms: [0.0; IMM_CAP],
            consts,
        }
    }
}

/// Why a module was not compiled (the interpreter runs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JitError {
    /// An op (or a form of one) this round does not compile.
    Unsupported(Op),
    /// Control flow (IF, loops, DISCARD): not compiled this round.
    Flow,
    /// The code buffer is too small.
    Full,
    /// An operand would address outside the frame (never for a decoded executable).
    OutOfFrame,
}

impl From<EncError> for JitError {
    fn from(e: EncError) -> Self {
        match e {
            EncError::Full => JitError::Full,
            EncError::OutOfFrame => JitError::OutOfFrame,
        }
    }
}

/// A compiled executable's facts the caller needs besides its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// Bytes of code written at the start of the buffer.
    pub len: usize,
}

const fn reg(t: usize, c: usize) -> usize {
    offset_of!(Frame, regs) + ((t & REG_MASK) * 4 + (c & 3)) * 32
}
const fn input(s: usize, c: usize) -> usize {
    offset_of!(Frame, inputs) + ((s & (VARYING_CAP - 1)) * 4 + (c & 3)) * 32
}
const fn varying(s: usize, c: usize) -> usize {
    offset_of!(Frame, varyings) + ((s & (VARYING_CAP - 1)) * 4 + (c & 3)) * 32
}
const fn comp(field: usize, c: usize) -> usize {
    field + (c & 3) * 32
}
const fn konst(k: usize) -> usize {
    offset_of!(Frame, consts) + k * 4
}

const Y0: Y = Y(0);
const Y1: Y = Y(1);
const Y2: Y = Y(2);
const Y3: Y = Y(3);
const Y7: Y = Y(7);

/// Generates code for `exe` into `buf` (see the module header), or says why not.
pub fn compile(exe: &Executable, buf: &mut [u8]) -> Result<Compiled, JitError> {
    if exe.has_flow {
        return Err(JitError::Flow);
    }
    let mut e = Enc::new(buf, FRAME_BYTES);
    // Temps that may be read before written start at zero, as in the interpreter.
    e.op_reg(Ps::Xor, Y0, Y0, Y0)?;
    for &t in exe.zero.iter().take(exe.nzero as usize) {
        for c in 0..4 {
            e.store(reg(t as usize, c), Y0)?;
        }
    }
    let code = exe.code.get(..exe.len as usize).unwrap_or(&[]);
    for d in code {
        let (dst, a, b) = (
            d.dst as usize & REG_MASK,
            d.a as usize & REG_MASK,
            d.b as usize & REG_MASK,
        );
        let n = (d.n as usize).min(4);
        match d.op {
            Op::Nop => {}
            Op::Const => {
                for c in 0..4 {
                    let k = d.x as usize + c;
                    if c < n && k < IMM_CAP {
                        e.broadcast(Y0, offset_of!(Frame, imms) + k * 4)?;
                    } else {
                        e.op_reg(Ps::Xor, Y0, Y0, Y0)?;
                    }
                    e.store(reg(dst, c), Y0)?;
                }
            }
            Op::Mov => {
                for c in 0..n {
                    e.load(Y0, reg(a, c))?;
                    e.store(reg(dst, c), Y0)?;
                }
            }
            Op::Swz => {
                // Every source component is read before any is written (dst may be a).
                for k in 0..n {
                    let sel = (d.x as usize >> (2 * k)) & 3;
                    e.load(Y(k as u8), reg(a, sel))?;
                }
                for k in 0..4 {
                    if k >= n {
                        e.op_reg(Ps::Xor, Y(k as u8), Y(k as u8), Y(k as u8))?;
                    }
                    e.store(reg(dst, k), Y(k as u8))?;
                }
            }
            Op::SetLane => {
                e.load(Y0, reg(a, d.y as usize))?;
                e.store(reg(dst, d.x as usize), Y0)?;
            }
            Op::Add | Op::Sub | Op::Mul | Op::Div => {
                let op = match d.op {
                    Op::Add => Ps::Add,
                    Op::Sub => Ps::Sub,
                    Op::Mul => Ps::Mul,
                    _ => Ps::Div,
                };
                match (d.op, d.y) {
                    (_, 0) => {
                        for c in 0..n {
                            e.load(Y0, reg(a, c))?;
                            e.op_mem(op, Y0, Y0, reg(b, c))?;
                            e.store(reg(dst, c), Y0)?;
                        }
                    }
                    (Op::Add | Op::Sub | Op::Mul, 2) => {
                        // f(a[c], b[x]); the splat is read first (dst may be b).
                        e.load(Y7, reg(b, d.x as usize))?;
                        for c in 0..n {
                            e.load(Y0, reg(a, c))?;
                            e.op_reg(op, Y0, Y0, Y7)?;
                            e.store(reg(dst, c), Y0)?;
                        }
                    }
                    (Op::Add | Op::Sub | Op::Mul, 3) => {
                        // f(a[x], b[c]).
                        e.load(Y7, reg(a, d.x as usize))?;
                        for c in 0..n {
                            e.op_mem(op, Y0, Y7, reg(b, c))?;
                            e.store(reg(dst, c), Y0)?;
                        }
                    }
                    _ => return Err(JitError::Unsupported(d.op)),
                }
            }
            Op::Sqrt | Op::Rsq | Op::Rcp => {
                // SQRT is VSQRTPS (correctly rounded, as the interpreter's); RSQ = 1 / sqrt(x)
                // and RCP = 1 / x are true divisions, as there.
                if d.op != Op::Sqrt {
                    e.broadcast(Y7, konst(K_ONE))?;
                }
                for c in 0..n {
                    match d.op {
                        Op::Sqrt => e.op_mem(Ps::Sqrt, Y0, Y0, reg(a, c))?,
                        Op::Rsq => {
                            e.op_mem(Ps::Sqrt, Y0, Y0, reg(a, c))?;
                            e.op_reg(Ps::Div, Y0, Y7, Y0)?;
                        }
                        _ => e.op_mem(Ps::Div, Y0, Y7, reg(a, c))?,
                    }
                    e.store(reg(dst, c), Y0)?;
                }
            }
            Op::Min | Op::Max => {
                // f32::min / f32::max as LLVM lowers them on x86 (IEEE minNum / maxNum):
                // t = b OP a ? b : a (VMAXPS b, a returns a when either is NaN), then b where
                // a is NaN. Signed zeros come out as that sequence gives them (a's).
                let op = if d.op == Op::Min { Ps::Min } else { Ps::Max };
                for c in 0..n {
                    e.load(Y0, reg(a, c))?;
                    e.load(Y1, reg(b, c))?;
                    e.op_reg(op, Y2, Y1, Y0)?;
                    e.cmp_reg(Y3, Y0, Y0, 0x03)?; // UNORD_Q: a is NaN
                    e.blendv(Y2, Y2, Y1, Y3)?;
                    e.store(reg(dst, c), Y2)?;
                }
            }
            Op::Abs => {
                e.broadcast(Y7, konst(K_ABS))?;
                for c in 0..n {
                    e.op_mem(Ps::And, Y0, Y7, reg(a, c))?;
                    e.store(reg(dst, c), Y0)?;
                }
            }
            Op::Dot => {
                e.op_reg(Ps::Xor, Y0, Y0, Y0)?;
                for c in 0..n {
                    e.load(Y1, reg(a, c))?;
                    e.op_mem(Ps::Mul, Y1, Y1, reg(b, c))?;
                    e.op_reg(Ps::Add, Y0, Y0, Y1)?;
                }
                e.store(reg(dst, 0), Y0)?;
            }
            Op::Cmp => {
                let pred = match CmpCode::from_i16(d.x as i16).unwrap_or(CmpCode::Eq) {
                    CmpCode::Eq => 0x00, // EQ_OQ
                    CmpCode::Lt => 0x01, // LT_OS
                    CmpCode::Le => 0x02, // LE_OS
                    CmpCode::Ne => 0x04, // NEQ_UQ: NaN != x is true
                    CmpCode::Ge => 0x0D, // GE_OS
                    CmpCode::Gt => 0x0E, // GT_OS
                };
                e.load(Y0, reg(a, 0))?;
                e.cmp_mem(Y0, Y0, reg(b, 0), pred)?;
                e.broadcast(Y7, konst(K_ONE))?;
                e.op_reg(Ps::And, Y0, Y0, Y7)?;
                e.store(reg(dst, 0), Y0)?;
            }
            Op::LoadAttr | Op::LoadVar => {
                for c in 0..4 {
                    if d.n & (1 << c) != 0 {
                        e.load(Y0, input(d.x as usize, c))?;
                        e.store(reg(dst, c), Y0)?;
                    }
                }
            }
            Op::LoadUni => {
                for k in 0..n {
                    for c in 0..4 {
                        let i = (d.x as usize + k) * 4 + c;
                        if i < FRAME_UNIFORMS {
                            e.broadcast(Y0, offset_of!(Frame, uniforms) + i * 4)?;
                        } else {
                            e.op_reg(Ps::Xor, Y0, Y0, Y0)?;
                        }
                        e.store(reg(dst + k, c), Y0)?;
                    }
                }
            }
            Op::LoadFcoord => {
                for c in 0..4 {
                    e.load(Y0, comp(offset_of!(Frame, fragcoord), c))?;
                    e.store(reg(dst, c), Y0)?;
                }
            }
            Op::StoreColor | Op::StorePos => {
                let to = if d.op == Op::StoreColor {
                    offset_of!(Frame, color)
                } else {
                    offset_of!(Frame, position)
                };
                for c in 0..4 {
                    e.load(Y0, reg(a, c))?;
                    e.store(comp(to, c), Y0)?;
                }
            }
            Op::StoreVar => {
                for c in 0..4 {
                    e.load(Y0, reg(a, c))?;
                    e.store(varying(d.x as usize, c), Y0)?;
                }
            }
            Op::If | Op::Else | Op::Endif | Op::Discard => return Err(JitError::Flow),
            Op::Loop | Op::Break | Op::Continue | Op::EndLoop => return Err(JitError::Flow),
            op => return Err(JitError::Unsupported(op)),
        }
    }
    e.ret()?;
    Ok(Compiled { len: e.len() })
}

fn get8(v: &Vec4x, g: usize) -> Vec4x8 {
    let mut o = [[0.0; JIT_LANES]; 4];
    for c in 0..4 {
        if let Some(s) = v[c].get(g * JIT_LANES..(g + 1) * JIT_LANES) {
            o[c].copy_from_slice(s);
        }
    }
    o
}

fn put8(v: &mut Vec4x, g: usize, src: &Vec4x8) {
    for c in 0..4 {
        if let Some(d) = v[c].get_mut(g * JIT_LANES..(g + 1) * JIT_LANES) {
            d.copy_from_slice(&src[c]);
        }
    }
}

impl Executable {
    /// [`Self::run`] through code from [`compile`]: `call(frame)` must run that code on the
    /// frame (the host's `jitmem` does). Same outputs, bit for bit, as the interpreter for
    /// every module `compile` accepts; the lanes not in `active` may hold anything.
    pub fn run_compiled(
        &self,
        frame: &mut Frame,
        call: &mut dyn FnMut(&mut Frame),
        inv: &Invocation,
        out: &mut Outputs,
        active: Mask,
    ) -> Mask {
        let nu = inv.uniforms.len().min(FRAME_UNIFORMS);
        frame.uniforms = [0.0; FRAME_UNIFORMS];
        if let (Some(d), Some(s)) = (frame.uniforms.get_mut(..nu), inv.uniforms.get(..nu)) {
            d.copy_from_slice(s);
        }
        // Only the immediates CONSTs read (the table is IMM_CAP = 4096 floats long).
        let code = self.code.get(..self.len as usize).unwrap_or(&[]);
        let imm_end = code
            .iter()
            .filter(|d| d.op == Op::Const)
            .map(|d| d.x as usize + (d.n as usize).min(4))
            .max()
            .unwrap_or(0)
            .min(IMM_CAP);
        if let (Some(d), Some(s)) = (frame.imms.get_mut(..imm_end), self.imms.get(..imm_end)) {
            d.copy_from_slice(s);
        }
        // Bank registers: constants, and top-level uniforms (as the interpreter loads them).
        let nb = (self.nbank as usize).min(BANK_MAX);
        for k in 0..nb {
            let bits = match self.bank_uni.get(k).copied().unwrap_or(NOT_UNIFORM) {
                NOT_UNIFORM => self.bank.get(k).copied().unwrap_or([0; 4]),
                slot => {
                    let mut v = [0u32; 4];
                    for (c, v) in v.iter_mut().enumerate() {
                        *v = inv
                            .uniforms
                            .get(slot as usize * 4 + c)
                            .copied()
                            .unwrap_or(0.0)
                            .to_bits();
                    }
                    v
                }
            };
            if let Some(r) = frame.regs.get_mut(BANK_BASE + k) {
                for c in 0..4 {
                    r[c] = [f32::from_bits(bits[c]); JIT_LANES];
                }
            }
        }
        match self.stage {
            Stage::Vertex => {
                out.position = [[0.0; LANES], [0.0; LANES], [0.0; LANES], [1.0; LANES]];
                for (s, v) in out.varyings.iter_mut().enumerate() {
                    if self.varying_mask & (1 << s) != 0 {
                        *v = [[0.0; LANES]; 4];
                    }
                }
            }
            Stage::Fragment if !self.color_always => out.color = [[0.0; LANES]; 4],
            Stage::Fragment => {}
        }
        let active = active & ALL_LANES;
        for g in 0..GROUPS {
            if (active >> (g * JIT_LANES)) & 0xFF == 0 {
                continue;
            }
            for s in 0..VARYING_CAP {
                if self.varying_mask & (1 << s) != 0 || self.stage == Stage::Vertex {
                    frame.inputs[s] = get8(&inv.inputs[s], g);
                }
            }
            if self.reads_fragcoord {
                frame.fragcoord = get8(inv.fragcoord, g);
            }
            // The outputs start as the interpreter starts them (set above), for the lanes
            // the code does not store.
            match self.stage {
                Stage::Fragment => frame.color = get8(&out.color, g),
                Stage::Vertex => {
                    frame.position = get8(&out.position, g);
                    for s in 0..VARYING_CAP {
                        if self.varying_mask & (1 << s) != 0 {
                            frame.varyings[s] = get8(&out.varyings[s], g);
                        }
                    }
                }
            }
            call(frame);
            match self.stage {
                Stage::Fragment => put8(&mut out.color, g, &frame.color),
                Stage::Vertex => {
                    put8(&mut out.position, g, &frame.position);
                    for s in 0..VARYING_CAP {
                        if self.varying_mask & (1 << s) != 0 {
                            put8(&mut out.varyings[s], g, &frame.varyings[s]);
                        }
                    }
                }
            }
        }
        active
    }
}
