//! The IR verifier: the safety boundary between whoever produced a [`Module`] (the frontend, a
//! CSIR blob, a test) and everything that consumes it (`opt`, `exec`, `raster`, `tgsi`, `csir`).
//!
//! It owns the complete list of invariants of the operand table in `ir` (ir/mod.rs): every temp index an
//! instruction reads or writes (each matrix column `a+k`, `b+k`, `dst+k` included), lane counts,
//! immediate ranges, uniform slot ranges (upper bounds included), declared sampler units,
//! attribute locations and varying slots, stage rules and structured control flow.
//! After `verify` accepts a module, the executor can index its fixed register file and input
//! arrays without any further checks going wrong.
//!
//! It must never: modify the module, allocate, panic on any input, or accept something the
//! executor would have to guess about.
use crate::ir::{
    CmpCode, Interface, Module, Op, Stage, Type, CVT_F2U, CVT_I2F, SYSVAL_INSTANCE_ID,
    SYSVAL_VERTEX_ID,
};
use crate::limits::{
    limits, Profile, IF_DEPTH_MAX, LOOP_DEPTH_MAX, P2_LOOP_ITERATIONS_MAX, UNIFORM_VEC4_CAP,
};

/// Why a module was rejected: the instruction index (or None for module-level problems) and a
/// message naming the broken invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub inst: Option<usize>,
    pub message: &'static str,
}

impl core::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.inst {
            Some(i) => write!(
                f,
                "IR verification failed at instruction {}: {}",
                i, self.message
            ),
            None => write!(f, "IR verification failed: {}", self.message),
        }
    }
}

fn module_err(message: &'static str) -> VerifyError {
    VerifyError {
        inst: None,
        message,
    }
}

const IF_OPEN: u8 = 0;
const IF_ELSE: u8 = 1;
const LOOP_OPEN: u8 = 2;

/// Checks every invariant `exec` and `tgsi` rely on.
pub fn verify(m: &Module) -> Result<(), VerifyError> {
    let p1 = m.profile == Profile::P1;
    let lim = limits(m.profile);
    if m.temps as usize > lim.temporaries_max {
        return Err(module_err(pick(
            p1,
            "too many temporaries (the limit is 96)",
            "too many temporaries (the profile-2 limit is 1024)",
        )));
    }
    if m.insts.len() > lim.ir_instructions_max {
        return Err(module_err(pick(
            p1,
            "too many instructions (the limit is 384)",
            "too many instructions (the profile-2 limit is 16384)",
        )));
    }
    if m.imms.len() > lim.immediates_max {
        return Err(module_err(pick(
            p1,
            "too many immediates (the limit is 160)",
            "too many immediates (the profile-2 limit is 4096)",
        )));
    }
    verify_interface(m.stage, m.profile, &m.iface)?;

    let mut v = Checker { m, at: 0 };
    // The open IFs and LOOPs, innermost last: IF_OPEN, IF_ELSE (its ELSE seen) or LOOP_OPEN.
    let mut stack = [0u8; IF_DEPTH_MAX + LOOP_DEPTH_MAX];
    let mut depth = 0usize;
    let mut if_depth = 0usize;
    let mut loop_depth = 0usize;
    for (i, inst) in m.insts.iter().enumerate() {
        v.at = i;
        if Type::from_u8(inst.ty).is_none() || (p1 && inst.ty > Type::P1_LAST) {
            return Err(v.err(pick(
                p1,
                "result type id is not a known type (0..=13)",
                "result type id is not a known type (0..=27)",
            )));
        }
        match inst.op {
            Op::Nop => {}
            Op::Const => {
                v.temp(inst.dst)?;
                if !(1..=4).contains(&inst.lanes) {
                    return Err(v.err("CONST lanes must be 1..=4"));
                }
                if inst.aux < 0 {
                    return Err(v.err("CONST immediate base is negative"));
                }
                if inst.aux as usize + inst.lanes as usize > m.imms.len() {
                    return Err(v.err("CONST reads past the end of the immediates (aux + lanes > immediate count)"));
                }
            }
            Op::Mov | Op::Abs => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.lanes_0_to_4(inst.lanes)?;
            }
            Op::Swz => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                if !(1..=4).contains(&inst.lanes) {
                    return Err(v.err("SWZ lanes must be 1..=4"));
                }
                if !(0..=255).contains(&inst.aux) {
                    return Err(v.err("SWZ selectors must fit in 8 bits (aux 0..=255)"));
                }
            }
            Op::SetLane => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                if !(0..=3).contains(&inst.aux) {
                    return Err(v.err("SETLANE destination lane must be 0..=3"));
                }
                if !(0..=3).contains(&inst.aux2) {
                    return Err(v.err("SETLANE source lane must be 0..=3"));
                }
            }
            Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div | Op::Pow => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.temp(inst.b)?;
                v.lanes_0_to_4(inst.lanes)?;
            }
            Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.lanes_0_to_4(inst.lanes)?;
            }
            Op::Floor
            | Op::Ceil
            | Op::Fract
            | Op::RoundEven
            | Op::Exp2
            | Op::Log2
            | Op::Sign
            | Op::CmpV => {
                if p1 {
                    return Err(v.err("opcodes 36..=43 are profile 2's (built-in library)"));
                }
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.lanes_0_to_4(inst.lanes)?;
                if inst.op == Op::CmpV {
                    v.temp(inst.b)?;
                    if CmpCode::from_i16(inst.aux).is_none() {
                        return Err(v.err("CMPV code must be 1..=6 (LT GT LE GE EQ NE)"));
                    }
                }
            }
            crate::ir::int_ops!() => {
                if p1 {
                    return Err(v.err("opcodes 48..=71 are profile 2's (32-bit integers)"));
                }
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.lanes_0_to_4(inst.lanes)?;
                if !inst.op.is_int_unary() {
                    v.temp(inst.b)?;
                }
                if matches!(inst.op, Op::ICmp | Op::UCmp) && CmpCode::from_i16(inst.aux).is_none() {
                    return Err(v.err("ICMP/UCMP code must be 1..=6 (LT GT LE GE EQ NE)"));
                }
                if inst.op == Op::Cvt && !(CVT_I2F..=CVT_F2U).contains(&inst.aux) {
                    return Err(v.err("CVT kind must be 0..=3 (I2F U2F F2I F2U)"));
                }
            }
            Op::LoadFace => {
                if p1 {
                    return Err(v.err("LOAD_FACE (opcode 82) is profile 2's"));
                }
                v.stage(
                    Stage::Fragment,
                    "LOAD_FACE (gl_FrontFacing) is only allowed in fragment shaders",
                )?;
                v.temp(inst.dst)?;
            }
            Op::Ddx | Op::Ddy => {
                if p1 {
                    return Err(v.err("DDX and DDY (opcodes 80, 81) are profile 2's"));
                }
                v.stage(
                    Stage::Fragment,
                    "DDX and DDY (derivatives) are only allowed in fragment shaders",
                )?;
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.lanes_0_to_4(inst.lanes)?;
            }
            Op::Dot => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.temp(inst.b)?;
                if !matches!(inst.aux, 0 | 2 | 3 | 4) {
                    return Err(v.err("DOT size must be 2, 3 or 4 (0 means 3)"));
                }
            }
            Op::Cmp => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                v.temp(inst.b)?;
                if CmpCode::from_i16(inst.aux).is_none() {
                    return Err(v.err("CMP code must be 1..=6 (LT GT LE GE EQ NE)"));
                }
            }
            Op::MulMV => {
                let n = match inst.aux {
                    0 | 4 => 4,
                    3 => 3,
                    _ => return Err(v.err("MULMV matrix size must be 3 or 4 (0 means 4)")),
                };
                v.temp(inst.dst)?;
                v.columns(inst.a, n, "MULMV matrix column is not a valid temporary")?;
                v.temp(inst.b)?;
            }
            Op::MulMM => {
                let n = match inst.aux {
                    3 => 3,
                    4 => 4,
                    _ => return Err(v.err("MULMM matrix size must be 3 or 4")),
                };
                v.columns(inst.dst, n, "MULMM result column is not a valid temporary")?;
                v.columns(
                    inst.a,
                    n,
                    "MULMM left matrix column is not a valid temporary",
                )?;
                v.columns(
                    inst.b,
                    n,
                    "MULMM right matrix column is not a valid temporary",
                )?;
            }
            op @ (Op::SampleLod
            | Op::SampleBias
            | Op::SampleGrad
            | Op::TexFetch
            | Op::TexSize
            | Op::CubeLod
            | Op::CubeBias
            | Op::CubeGrad
            | Op::ShadowLod
            | Op::ShadowBias
            | Op::ShadowCube
            | Op::ShadowGrad
            | Op::ArrLod
            | Op::ArrBias
            | Op::ArrGrad
            | Op::ArrFetch
            | Op::ArrSize) => {
                if p1 {
                    return Err(v.err("opcodes 88..=103 are profile 2's (texture functions)"));
                }
                v.temp(inst.dst)?;
                match op {
                    Op::SampleBias
                    | Op::CubeBias
                    | Op::ShadowBias
                    | Op::ShadowCube
                    | Op::ArrBias
                        if inst.b < 0 =>
                    {
                        v.temp(inst.a)?
                    }
                    Op::TexSize | Op::ArrSize => v.temp(inst.a)?,
                    Op::SampleGrad | Op::CubeGrad | Op::ShadowGrad | Op::ArrGrad => {
                        v.temp(inst.a)?;
                        v.columns(
                            inst.b,
                            2,
                            "SAMPLE_GRAD derivatives are not valid temporaries",
                        )?;
                    }
                    _ => {
                        v.temp(inst.a)?;
                        v.temp(inst.b)?;
                    }
                }
                if !(0..lim.samplers_max as i16).contains(&inst.aux) {
                    return Err(v.err("texture unit must be 0..=15"));
                }
                if !m.iface.samplers.iter().any(|s| s.unit as i16 == inst.aux) {
                    return Err(v.err("texture unit is not a declared sampler"));
                }
                let no_offset = matches!(
                    op,
                    Op::TexSize
                        | Op::CubeLod
                        | Op::CubeBias
                        | Op::CubeGrad
                        | Op::ShadowCube
                        | Op::ArrSize
                );
                if !(0..=255).contains(&inst.aux2) || (no_offset && inst.aux2 != 0) {
                    return Err(v.err(
                        "texel offset code must be 0..=255 (0 for TEXSIZE and the cube ops)",
                    ));
                }
            }
            Op::Sample => {
                v.temp(inst.dst)?;
                v.temp(inst.a)?;
                if !(0..lim.samplers_max as i16).contains(&inst.aux) {
                    return Err(v.err(pick(
                        p1,
                        "SAMPLE unit must be 0..=3",
                        "SAMPLE unit must be 0..=15",
                    )));
                }
                if !m.iface.samplers.iter().any(|s| s.unit as i16 == inst.aux) {
                    return Err(v.err("SAMPLE unit is not a declared sampler"));
                }
            }
            Op::LoadAttr => {
                v.stage(Stage::Vertex, "LOAD_ATTR is only allowed in vertex shaders")?;
                v.temp(inst.dst)?;
                if !m
                    .iface
                    .attributes
                    .iter()
                    .any(|a| a.location as i16 == inst.aux)
                {
                    return Err(v.err("LOAD_ATTR location is not a declared attribute"));
                }
            }
            Op::LoadVar => {
                v.stage(
                    Stage::Fragment,
                    "LOAD_VAR (fragment input) is only allowed in fragment shaders",
                )?;
                v.temp(inst.dst)?;
                v.varying(inst.aux, "LOAD_VAR slot is not a declared varying")?;
            }
            Op::LoadUni => {
                let count = inst.aux2;
                if p1 && !matches!(count, 1 | 3 | 4) {
                    return Err(v.err("LOAD_UNI count must be 1, 3 or 4"));
                }
                if !p1 && !(1..=4).contains(&count) {
                    return Err(v.err("LOAD_UNI count must be 1..=4"));
                }
                if inst.aux < 0 {
                    return Err(v.err("LOAD_UNI slot is negative"));
                }
                let end = inst.aux as usize + count as usize;
                if end > lim.uniform_vec4_slots_max {
                    return Err(v.err(pick(
                        p1,
                        "LOAD_UNI reads past uniform slot 32 (slot + count must be <= 32)",
                        "LOAD_UNI reads past uniform slot 1024 (slot + count must be <= 1024)",
                    )));
                }
                if end > m.iface.uniform_vec4s() {
                    return Err(v.err("LOAD_UNI reads uniform slots no declared uniform covers"));
                }
                v.columns(
                    inst.dst,
                    count as usize,
                    "LOAD_UNI destination is not a valid temporary range",
                )?;
            }
            Op::LoadFcoord => {
                v.stage(
                    Stage::Fragment,
                    "LOAD_FCOORD is only allowed in fragment shaders",
                )?;
                v.temp(inst.dst)?;
            }
            Op::LoadSysval => {
                v.stage(
                    Stage::Vertex,
                    "LOAD_SYSVAL is only allowed in vertex shaders",
                )?;
                if p1 {
                    return Err(v.err("LOAD_SYSVAL is not part of profile 1"));
                }
                if !matches!(inst.aux, SYSVAL_VERTEX_ID | SYSVAL_INSTANCE_ID) {
                    return Err(
                        v.err("LOAD_SYSVAL value must be 0 (gl_VertexID) or 1 (gl_InstanceID)")
                    );
                }
                v.temp(inst.dst)?;
            }
            Op::StorePos => {
                v.stage(Stage::Vertex, "STORE_POS is only allowed in vertex shaders")?;
                v.temp(inst.a)?;
            }
            Op::StoreVar => {
                v.stage(
                    Stage::Vertex,
                    "STORE_VAR (vertex output) is only allowed in vertex shaders",
                )?;
                v.temp(inst.a)?;
                v.varying(inst.aux, "STORE_VAR slot is not a declared varying")?;
            }
            Op::StoreClip => {
                if p1 {
                    return Err(v.err("STORE_CLIP (opcode 105) is profile 2's"));
                }
                v.stage(
                    Stage::Vertex,
                    "STORE_CLIP (gl_ClipDistance) is only allowed in vertex shaders",
                )?;
                if !(0..crate::limits::CLIP_DISTANCE_MAX as i16).contains(&inst.aux) {
                    return Err(v.err("STORE_CLIP index is not 0..CLIP_DISTANCE_MAX"));
                }
                v.temp(inst.a)?;
            }
            Op::StoreDepth => {
                if p1 {
                    return Err(v.err("STORE_DEPTH (opcode 104) is profile 2's"));
                }
                v.stage(
                    Stage::Fragment,
                    "STORE_DEPTH (gl_FragDepth) is only allowed in fragment shaders",
                )?;
                v.temp(inst.a)?;
            }
            Op::StoreColor => {
                v.stage(
                    Stage::Fragment,
                    "STORE_COLOR is only allowed in fragment shaders",
                )?;
                v.temp(inst.a)?;
            }
            Op::If => {
                v.temp(inst.a)?;
                if if_depth >= IF_DEPTH_MAX {
                    return Err(v.err("IF nesting exceeds the limit of 32"));
                }
                if let Some(slot) = stack.get_mut(depth) {
                    *slot = IF_OPEN;
                }
                depth += 1;
                if_depth += 1;
            }
            Op::Else => {
                if if_depth == 0 {
                    return Err(v.err("ELSE outside of an IF"));
                }
                match stack.get_mut(depth - 1) {
                    Some(k) if *k == IF_OPEN => *k = IF_ELSE,
                    Some(k) if *k == IF_ELSE => return Err(v.err("second ELSE for the same IF")),
                    _ => return Err(v.err("ELSE inside a LOOP opened after its IF")),
                }
            }
            Op::Endif => {
                if if_depth == 0 {
                    return Err(v.err("ENDIF outside of an IF"));
                }
                if stack.get(depth - 1) == Some(&LOOP_OPEN) {
                    return Err(v.err("ENDIF closes a LOOP (ENDLOOP expected)"));
                }
                depth -= 1;
                if_depth -= 1;
            }
            Op::Loop => {
                if p1 {
                    return Err(v.err("LOOP is a profile-2 instruction"));
                }
                let bound = crate::ir::loop_bound(inst);
                if bound == 0 {
                    return Err(v.err("LOOP without an iteration bound (aux, aux2 = 0)"));
                }
                if bound > P2_LOOP_ITERATIONS_MAX {
                    return Err(v.err(
                        "LOOP iteration bound exceeds the profile-2 limit of 65536 (P2_LOOP_ITERATIONS_MAX)",
                    ));
                }
                if loop_depth >= LOOP_DEPTH_MAX {
                    return Err(v.err("LOOP nesting exceeds the limit of 8 (LOOP_DEPTH_MAX)"));
                }
                if let Some(slot) = stack.get_mut(depth) {
                    *slot = LOOP_OPEN;
                }
                depth += 1;
                loop_depth += 1;
            }
            Op::Break | Op::Continue => {
                if loop_depth == 0 {
                    return Err(v.err("BREAK or CONTINUE outside of a LOOP"));
                }
            }
            Op::EndLoop => {
                if loop_depth == 0 {
                    return Err(v.err("ENDLOOP outside of a LOOP"));
                }
                if stack.get(depth - 1) != Some(&LOOP_OPEN) {
                    return Err(v.err("ENDLOOP closes an IF (ENDIF expected)"));
                }
                depth -= 1;
                loop_depth -= 1;
            }
            Op::Discard => {
                v.stage(
                    Stage::Fragment,
                    "DISCARD is only allowed in fragment shaders",
                )?;
            }
            Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx | Op::LoadLane | Op::StoreLane => {
                v.indirect(inst, p1)?;
            }
        }
    }
    if depth != 0 {
        return Err(module_err(
            "unbalanced control flow: IF without ENDIF or LOOP without ENDLOOP at the end",
        ));
    }
    Ok(())
}

/// The profile-1 message (unchanged since CSIR v1) or the profile-2 one.
fn pick(p1: bool, one: &'static str, two: &'static str) -> &'static str {
    if p1 {
        one
    } else {
        two
    }
}

fn verify_interface(stage: Stage, profile: Profile, iface: &Interface) -> Result<(), VerifyError> {
    let p1 = profile == Profile::P1;
    let lim = limits(profile);
    let mut locs = 0u32;
    for a in iface.attributes.iter() {
        if a.location as usize >= lim.attributes_max {
            return Err(module_err(pick(
                p1,
                "attribute location must be 0..=7",
                "attribute location must be 0..=15",
            )));
        }
        if !(1..=4).contains(&a.components) {
            return Err(module_err("attribute components must be 1..=4"));
        }
        if locs & (1 << a.location) != 0 {
            return Err(module_err("two attributes share a location"));
        }
        locs |= 1 << a.location;
        if p1 && a.ty as u8 > Type::P1_LAST {
            return Err(module_err("a profile-1 attribute has a profile-2 type"));
        }
    }
    if stage == Stage::Fragment && !iface.attributes.is_empty() {
        return Err(module_err("a fragment shader declares vertex attributes"));
    }
    let mut slots = 0u32;
    for v in iface.varyings.iter() {
        if v.slot as usize >= lim.varyings_max {
            return Err(module_err(pick(
                p1,
                "varying slot must be 0..=7",
                "varying slot must be 0..=15",
            )));
        }
        if slots & (1 << v.slot) != 0 {
            return Err(module_err("two varyings share a slot"));
        }
        slots |= 1 << v.slot;
        if p1 && v.ty as u8 > Type::P1_LAST {
            return Err(module_err("a profile-1 varying has a profile-2 type"));
        }
        // GLSL 3.30 §4.3.4: integer varyings cannot be interpolated.
        if v.ty.is_integer() && v.interp != crate::ir::Interp::Flat {
            return Err(module_err("an integer varying must be flat"));
        }
        // Profile 1 has no interpolation qualifiers (its CSIR entries keep the byte 0).
        if p1 && v.interp != crate::ir::Interp::Smooth {
            return Err(module_err(
                "a profile-1 varying must be smooth (flat and noperspective are profile 2)",
            ));
        }
    }
    let mut used = [0u64; UNIFORM_VEC4_CAP / 64];
    for u in iface.uniforms.iter() {
        if p1 && u.ty as u8 > Type::P1_LAST {
            return Err(module_err("a profile-1 uniform has a profile-2 type"));
        }
        if u.slots == 0 || u.slot as usize + u.slots as usize > lim.uniform_vec4_slots_max {
            return Err(module_err(pick(
                p1,
                "uniform slots out of range (slot + slots must be 1..=32)",
                "uniform slots out of range (slot + slots must be 1..=1024)",
            )));
        }
        for s in u.slot as usize..u.slot as usize + u.slots as usize {
            let (word, bit) = (s / 64, 1u64 << (s % 64));
            let Some(w) = used.get_mut(word) else {
                return Err(module_err("uniform slots out of range"));
            };
            if *w & bit != 0 {
                return Err(module_err("two uniforms overlap in vec4 slots"));
            }
            *w |= bit;
        }
    }
    let mut units = 0u32;
    for s in iface.samplers.iter() {
        if s.unit as usize >= lim.samplers_max {
            return Err(module_err(pick(
                p1,
                "sampler unit must be 0..=3",
                "sampler unit must be 0..=15",
            )));
        }
        if units & (1 << s.unit) != 0 {
            return Err(module_err("two samplers share a unit"));
        }
        units |= 1 << s.unit;
    }
    Ok(())
}

struct Checker<'a> {
    m: &'a Module,
    at: usize,
}

impl Checker<'_> {
    fn err(&self, message: &'static str) -> VerifyError {
        VerifyError {
            inst: Some(self.at),
            message,
        }
    }

    fn temp(&self, t: i16) -> Result<(), VerifyError> {
        if t < 0 || t as u16 >= self.m.temps {
            return Err(self.err("operand is not a valid temporary (0 <= index < temps)"));
        }
        Ok(())
    }

    /// `n` consecutive temps starting at `base` (matrix columns, uniform ranges).
    fn columns(&self, base: i16, n: usize, message: &'static str) -> Result<(), VerifyError> {
        if base < 0 || base as usize + n > self.m.temps as usize {
            return Err(self.err(message));
        }
        Ok(())
    }

    /// Profile 2's indirect ops: the index and value operands are temps, and the whole range
    /// an index can reach (after clamping) lies inside the temps or the declared uniforms.
    fn indirect(&self, inst: &crate::ir::Inst, p1: bool) -> Result<(), VerifyError> {
        if p1 {
            return Err(self.err("indirect addressing is a profile-2 instruction"));
        }
        self.temp(inst.a)?;
        match inst.op {
            Op::LoadIdx | Op::StoreIdx => {
                let (base, value) = if inst.op == Op::LoadIdx {
                    (inst.b, inst.dst)
                } else {
                    (inst.dst, inst.b)
                };
                self.temp(value)?;
                self.lanes_0_to_4(inst.lanes)?;
                if inst.aux < 1 || inst.aux2 < 1 {
                    return Err(
                        self.err("indirect temp range needs len (aux) >= 1 and stride (aux2) >= 1")
                    );
                }
                if inst.c < 0 || inst.c >= inst.aux2 {
                    return Err(self.err("indirect offset (c) must be 0 <= c < stride (aux2)"));
                }
                let n = inst.aux as usize * inst.aux2 as usize;
                self.columns(
                    base,
                    n,
                    "indirect temp range (base, len * stride) is not inside the temporaries",
                )?;
            }
            Op::LoadUniIdx => {
                self.temp(inst.dst)?;
                if inst.aux < 0 || inst.aux2 < 1 || inst.c < 1 {
                    return Err(self.err(
                        "LOAD_UNI_IDX needs slot (aux) >= 0, len (aux2) >= 1 and stride (c) >= 1",
                    ));
                }
                let last = inst.aux as usize + (inst.aux2 as usize - 1) * inst.c as usize;
                if last >= self.m.iface.uniform_vec4s() {
                    return Err(self.err(
                        "LOAD_UNI_IDX range reaches uniform slots no declared uniform covers",
                    ));
                }
            }
            _ => {
                self.temp(inst.dst)?;
                self.temp(inst.b)?;
                if !(2..=4).contains(&inst.aux) {
                    return Err(
                        self.err("LOAD_LANE/STORE_LANE component count (aux) must be 2..=4")
                    );
                }
            }
        }
        Ok(())
    }

    fn lanes_0_to_4(&self, lanes: u8) -> Result<(), VerifyError> {
        if lanes > 4 {
            return Err(self.err("lanes must be 0..=4"));
        }
        Ok(())
    }

    fn stage(&self, want: Stage, message: &'static str) -> Result<(), VerifyError> {
        if self.m.stage != want {
            return Err(self.err(message));
        }
        Ok(())
    }

    fn varying(&self, slot: i16, message: &'static str) -> Result<(), VerifyError> {
        if !self.m.iface.varyings.iter().any(|v| v.slot as i16 == slot) {
            return Err(self.err(message));
        }
        Ok(())
    }
}
