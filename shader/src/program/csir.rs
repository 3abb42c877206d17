//! CSIR: the serialized form of a verified [`Module`] (docs/CSIR.md specifies it byte by byte).
//!
//! Owns: the v1 format (compatible with the older implementation: header of 8 LE u32, 16-byte IR
//! records, f32 immediates, a u32 byte-sum over the IR only, no interface tables) and the v2
//! format (every field explicitly little-endian, interface tables, FNV-1a 64 over everything),
//! and the loader that accepts both.
//! Must never: panic or read out of bounds on any byte string, accept a blob whose size is not
//! exactly the size its header implies, or hand out a module that the verifier rejected or for
//! which TGSI cannot be generated. v1 stays loadable forever.
use core::fmt::Write;

use crate::back::tgsi::{self, TgsiError, TgsiInfo, TgsiText};
use crate::ir::verify::{self, VerifyError};
use crate::ir::{
    Attribute, Inst, Interface, Interp, Module, Name, Op, Sampler, Stage, Type, Uniform, Varying,
};
use crate::limits::*;

/// "CSIR" read as a little-endian u32.
pub const MAGIC: u32 = 0x5249_5343;
pub const V1_HEADER: usize = 32;
pub const V2_HEADER: usize = 64;
pub const RECORD: usize = 16;
/// Bytes of one name field in a profile-1 v2 blob (a length byte, then up to 39 bytes, zero
/// padded).
pub const NAME_FIELD: usize = 40;
/// Bytes of one interface-table entry (attribute, varying, uniform or sampler) of a profile-1
/// v2 blob.
pub const TABLE_ENTRY: usize = NAME_FIELD + 4;
/// Bytes of one name field in a profile-2 v2 blob (a length byte, then up to 63 bytes).
pub const P2_NAME_FIELD: usize = 64;
/// Bytes of one interface-table entry of a profile-2 v2 blob (room for 16-bit uniform slots).
pub const P2_TABLE_ENTRY: usize = P2_NAME_FIELD + 8;
/// Header offset of the v2 profile word (0: profile 1, 2: profile 2).
pub const PROFILE_OFFSET: usize = 56;
/// Largest possible profile-1 blob of either version (a v2 blob with every table full).
pub const CSIR_P1_MAX: usize = V2_HEADER
    + RECORD * IR_MAX
    + 4 * IMM_MAX
    + TABLE_ENTRY * (ATTR_MAX + VARYING_MAX + UNIFORM_VEC4_MAX + SAMPLER_MAX)
    + NAME_FIELD;
/// Largest possible profile-2 blob (v2 with every table full).
pub const CSIR_P2_MAX: usize = V2_HEADER
    + RECORD * P2_IR_MAX
    + 4 * P2_IMM_MAX
    + P2_TABLE_ENTRY * (P2_ATTR_MAX + P2_VARYING_MAX + P2_UNIFORM_VEC4_MAX + P2_SAMPLER_MAX)
    + P2_NAME_FIELD;
/// Largest possible blob of any version and profile: a buffer this long holds every blob.
pub const CSIR_MAX: usize = if CSIR_P2_MAX > CSIR_P1_MAX {
    CSIR_P2_MAX
} else {
    CSIR_P1_MAX
};

/// The v2 table layout of one profile: name field and entry sizes, and its bounds.
#[derive(Clone, Copy)]
struct Layout {
    profile: Profile,
    name: usize,
    entry: usize,
    lim: &'static Limits,
}

fn layout(profile: Profile) -> Layout {
    match profile {
        Profile::P1 => Layout {
            profile,
            name: NAME_FIELD,
            entry: TABLE_ENTRY,
            lim: limits(profile),
        },
        Profile::P2 => Layout {
            profile,
            name: P2_NAME_FIELD,
            entry: P2_TABLE_ENTRY,
            lim: limits(profile),
        },
    }
}

/// The v2 header's profile word for `p` (0 for profile 1: those blobs are unchanged).
fn profile_word(p: Profile) -> u32 {
    match p {
        Profile::P1 => 0,
        p => p.number(),
    }
}

const FLAG_WRITES_POSITION: u32 = 1;
const FLAG_READS_FRAGCOORD: u32 = 2;
const FLAG_COLOR_OUTPUT: u32 = 4;
/// The interface tables were derived from a v1 blob (synthetic names): kept so that a v1 module
/// saved as v2 still cannot link by (meaningless) varying names.
const FLAG_DERIVED_NAMES: u32 = 8;
/// Vertex stage (profile 2): gl_VertexID / gl_InstanceID are read (LOAD_SYSVAL).
const FLAG_READS_VERTEX_ID: u32 = 16;
const FLAG_READS_INSTANCE_ID: u32 = 32;
const FLAGS_KNOWN: u32 = 63;

/// Which format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1 = 1,
    V2 = 2,
}

/// Why a blob was rejected or could not be written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CsirError {
    TooShort {
        len: usize,
        min: usize,
    },
    BadMagic {
        found: u32,
    },
    BadVersion {
        found: u32,
    },
    BadStage {
        found: u32,
    },
    TooMany {
        what: &'static str,
        found: u32,
        limit: u32,
    },
    BadSize {
        expected: usize,
        found: usize,
    },
    BadChecksum {
        stored: u64,
        computed: u64,
    },
    /// A field that must be zero (reserved words, padding, unknown flags, name padding) is not.
    NonZero {
        offset: usize,
    },
    BadOpcode {
        inst: usize,
        op: u8,
    },
    BadEntry {
        what: &'static str,
        index: usize,
        reason: &'static str,
    },
    Verify(VerifyError),
    Tgsi(TgsiError),
    BufferTooSmall {
        needed: usize,
        cap: usize,
    },
    /// Saving as v1 a module that uses an opcode v1 does not have (v1 stops at 32).
    NotInV1 {
        inst: usize,
        op: Op,
    },
    /// Saving as v1 a module of a profile other than 1 (v1 has no profile field).
    ProfileNotInV1 {
        profile: u32,
    },
    /// A v2 profile word other than 0 (profile 1) or 2.
    BadProfile {
        found: u32,
    },
}

/// The highest opcode of CSIR v1 (the older implementation's loader rejects anything above).
pub const V1_OPCODE_MAX: u8 = Op::Discard as u8;
/// The highest opcode a profile-1 module may use (SQRT); profile 2 adds LOAD_SYSVAL (35),
/// 36..=43 and the loops 44..=47.
pub const P1_OPCODE_MAX: u8 = Op::Sqrt as u8;

impl core::fmt::Display for CsirError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CsirError::TooShort { len, min } => write!(
                f,
                "CSIR blob too short: {} bytes, at least {} needed",
                len, min
            ),
            CsirError::BadMagic { found } => write!(
                f,
                "not a CSIR blob: magic 0x{:08x}, expected 0x{:08x}",
                found, MAGIC
            ),
            CsirError::BadVersion { found } => write!(
                f,
                "unsupported CSIR version {} (1 and 2 are supported)",
                found
            ),
            CsirError::BadStage { found } => {
                write!(f, "CSIR stage {} is not vertex (0) or fragment (1)", found)
            }
            CsirError::TooMany { what, found, limit } => write!(
                f,
                "CSIR {} count {} exceeds the limit {}",
                what, found, limit
            ),
            CsirError::BadSize { expected, found } => write!(
                f,
                "CSIR size is {} bytes, the header implies exactly {}",
                found, expected
            ),
            CsirError::BadChecksum { stored, computed } => {
                write!(
                    f,
                    "CSIR checksum mismatch: stored 0x{:x}, computed 0x{:x}",
                    stored, computed
                )
            }
            CsirError::NonZero { offset } => {
                write!(f, "CSIR byte {} must be zero (reserved or padding)", offset)
            }
            CsirError::BadOpcode { inst, op } => write!(
                f,
                "CSIR instruction {} has unknown opcode {} (0..=34 allowed)",
                inst, op
            ),
            CsirError::BadEntry {
                what,
                index,
                reason,
            } => write!(f, "CSIR {} entry {}: {}", what, index, reason),
            CsirError::Verify(e) => write!(f, "CSIR rejected by the verifier: {}", e),
            CsirError::Tgsi(e) => write!(
                f,
                "no TGSI for this module (loading CSIR regenerates it): {}",
                e
            ),
            CsirError::BufferTooSmall { needed, cap } => {
                write!(f, "CSIR needs {} bytes, the buffer holds {}", needed, cap)
            }
            CsirError::NotInV1 { inst, op } => {
                write!(f, "CSIR v1 has no opcode {} (", *op as u8)?;
                for c in op.name().chars() {
                    f.write_char(c.to_ascii_uppercase())?;
                }
                write!(
                    f,
                    ", instruction {}; v1 stops at {}): save as CSIR v2 (--v2)",
                    inst, V1_OPCODE_MAX
                )
            }
            CsirError::ProfileNotInV1 { profile } => write!(
                f,
                "CSIR v1 holds profile-1 modules only (it has no profile field and profile 1's bounds): this module is profile {}; save it as CSIR v2 (--v2)",
                profile
            ),
            CsirError::BadProfile { found } => write!(
                f,
                "CSIR profile word {} is not 0 (profile 1) or 2 (profile 2)",
                found
            ),
        }
    }
}

/// FNV-1a, 64-bit: every single-byte change of the input changes the result (each step is a
/// bijection of the running state), which is what a corruption check needs.
pub fn fnv1a64(state: u64, bytes: &[u8]) -> u64 {
    let mut h = state;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
pub const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Exact size of the blob `save` writes for `m`.
pub fn saved_size(m: &Module, v: Version) -> usize {
    let body = RECORD * m.insts.len() + 4 * m.imms.len();
    match v {
        Version::V1 => V1_HEADER + body,
        Version::V2 => {
            let i = &m.iface;
            let l = layout(m.profile);
            V2_HEADER
                + body
                + l.entry
                    * (i.attributes.len() + i.varyings.len() + i.uniforms.len() + i.samplers.len())
                + l.name
        }
    }
}

struct W<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl W<'_> {
    fn bytes(&mut self, b: &[u8]) {
        // Callers size the buffer first; a short buffer only drops bytes, never panics.
        if let Some(dst) = self.buf.get_mut(self.at..self.at + b.len()) {
            dst.copy_from_slice(b);
        }
        self.at += b.len();
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    /// A name field of `size` bytes (at most 64): length, bytes, zero padding.
    fn name(&mut self, n: &str, size: usize) {
        let mut f = [0u8; P2_NAME_FIELD];
        let size = size.min(P2_NAME_FIELD);
        let b = n.as_bytes();
        let l = b.len().min(size - 1);
        f[0] = l as u8;
        f[1..1 + l].copy_from_slice(&b[..l]);
        self.bytes(&f[..size]);
    }
    /// An entry's fields after its name, zero padded to `size` bytes (4 or 8).
    fn tail(&mut self, fields: &[u8], size: usize) {
        let mut t = [0u8; 8];
        let n = fields.len().min(8);
        t[..n].copy_from_slice(&fields[..n]);
        self.bytes(&t[..size.min(8)]);
    }
}

fn encode_inst(inst: &Inst) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[0] = inst.op as u8;
    r[1] = inst.ty;
    r[2] = inst.lanes;
    r[3] = 0;
    for (k, v) in [inst.dst, inst.a, inst.b, inst.c, inst.aux, inst.aux2]
        .iter()
        .enumerate()
    {
        r[4 + 2 * k..6 + 2 * k].copy_from_slice(&v.to_le_bytes());
    }
    r
}

/// Writes `m` in format `v` into `out`; returns the byte count. v1 refuses a module that uses
/// an opcode v1 does not have (DIV 33, SQRT 34: `NotInV1`), which no v1 reader could load.
/// Loading regenerates TGSI, so a verified module without TGSI (a shader over the VirGL budget,
/// which compiles but cannot link) is refused here with the loader's reason rather than written as a
/// blob that cannot be loaded. Unverified modules are written as they are (the loader's
/// verifier rejects them; tests build such blobs on purpose).
pub fn save(m: &Module, v: Version, out: &mut [u8]) -> Result<usize, CsirError> {
    if v == Version::V1 && m.profile != Profile::P1 {
        return Err(CsirError::ProfileNotInV1 {
            profile: m.profile.number(),
        });
    }
    if v == Version::V1 {
        if let Some((inst, i)) = m
            .insts
            .iter()
            .enumerate()
            .find(|(_, i)| i.op as u8 > V1_OPCODE_MAX)
        {
            return Err(CsirError::NotInV1 { inst, op: i.op });
        }
    }
    if verify::verify(m).is_ok() {
        tgsi::emit(m, None, &mut TgsiText::new()).map_err(CsirError::Tgsi)?;
    }
    let needed = saved_size(m, v);
    if out.len() < needed {
        return Err(CsirError::BufferTooSmall {
            needed,
            cap: out.len(),
        });
    }
    let mut w = W { buf: out, at: 0 };
    let iface = &m.iface;
    match v {
        Version::V1 => {
            let sum = m
                .insts
                .iter()
                .flat_map(encode_inst)
                .fold(0u32, |s, b| s.wrapping_add(b as u32));
            for word in [
                MAGIC,
                1,
                m.stage as u32,
                m.insts.len() as u32,
                m.imms.len() as u32,
                m.temps as u32,
                sum,
                0,
            ] {
                w.u32(word);
            }
        }
        Version::V2 => {
            let bit = |on: bool, flag: u32| if on { flag } else { 0 };
            let flags = bit(iface.writes_position, FLAG_WRITES_POSITION)
                | bit(iface.reads_fragcoord, FLAG_READS_FRAGCOORD)
                | bit(iface.color_output.is_some(), FLAG_COLOR_OUTPUT)
                | bit(iface.derived_names, FLAG_DERIVED_NAMES)
                | bit(iface.reads_vertex_id, FLAG_READS_VERTEX_ID)
                | bit(iface.reads_instance_id, FLAG_READS_INSTANCE_ID);
            for word in [
                MAGIC,
                2,
                m.stage as u32,
                m.insts.len() as u32,
                m.imms.len() as u32,
                m.temps as u32,
                iface.attributes.len() as u32,
                iface.varyings.len() as u32,
                iface.uniforms.len() as u32,
                iface.samplers.len() as u32,
                flags,
                needed as u32,
                0,
                0,
                profile_word(m.profile),
                0,
            ] {
                w.u32(word);
            }
        }
    }
    for inst in &m.insts {
        w.bytes(&encode_inst(inst));
    }
    for f in &m.imms {
        w.u32(f.to_bits());
    }
    if v == Version::V2 {
        let l = layout(m.profile);
        let (name, tail) = (l.name, l.entry - l.name);
        for a in &iface.attributes {
            w.name(&a.name, name);
            w.tail(&[a.ty as u8, a.location, a.components], tail);
        }
        for x in &iface.varyings {
            w.name(&x.name, name);
            match l.profile {
                Profile::P1 => w.tail(&[x.ty as u8, x.slot, x.interp as u8], tail),
                // Profile 2: the fourth byte is 1 for an invariant varying.
                Profile::P2 => {
                    let inv =
                        u32::from(x.slot) < u32::BITS && iface.invariant_slots & (1 << x.slot) != 0;
                    w.tail(&[x.ty as u8, x.slot, x.interp as u8, u8::from(inv)], tail)
                }
            }
        }
        for u in &iface.uniforms {
            w.name(&u.name, name);
            match l.profile {
                Profile::P1 => w.tail(&[u.ty as u8, u.slot as u8, u.slots], tail),
                Profile::P2 => {
                    let [lo, hi] = u.slot.to_le_bytes();
                    w.tail(&[u.ty as u8, u.slots, lo, hi], tail)
                }
            }
        }
        for s in &iface.samplers {
            w.name(&s.name, name);
            // Profile 2: the sampler type after the unit (0 for sampler2D, as before types
            // were stored); profile 1's entries hold the unit only.
            match (l.profile, s.ty) {
                (Profile::P1, _) | (_, Type::Sampler2D) => w.tail(&[s.unit], tail),
                _ => w.tail(&[s.unit, s.ty as u8], tail),
            }
        }
        w.name(iface.color_output.as_deref().unwrap_or(""), name);
        let h = v2_checksum(&w.buf[..needed]);
        w.buf[48..56].copy_from_slice(&h.to_le_bytes());
    }
    Ok(needed)
}

/// FNV-1a 64 over bytes 0..48 then 56..end (the checksum field itself is skipped).
fn v2_checksum(blob: &[u8]) -> u64 {
    let h = fnv1a64(FNV64_OFFSET, blob.get(..48).unwrap_or(&[]));
    fnv1a64(h, blob.get(56..).unwrap_or(&[]))
}

fn rd_u32(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        w.copy_from_slice(s);
    }
    u32::from_le_bytes(w)
}

fn rd_i16(b: &[u8], at: usize) -> i16 {
    let mut w = [0u8; 2];
    if let Some(s) = b.get(at..at + 2) {
        w.copy_from_slice(s);
    }
    i16::from_le_bytes(w)
}

/// The format version of a blob (after checking its magic), without loading it.
pub fn blob_version(b: &[u8]) -> Result<u32, CsirError> {
    if b.len() < V1_HEADER {
        return Err(CsirError::TooShort {
            len: b.len(),
            min: V1_HEADER,
        });
    }
    let magic = rd_u32(b, 0);
    if magic != MAGIC {
        return Err(CsirError::BadMagic { found: magic });
    }
    Ok(rd_u32(b, 4))
}

fn count(b: &[u8], at: usize, what: &'static str, limit: usize) -> Result<usize, CsirError> {
    let v = rd_u32(b, at);
    if v as usize > limit {
        return Err(CsirError::TooMany {
            what,
            found: v,
            limit: limit as u32,
        });
    }
    Ok(v as usize)
}

/// Loads a v1 or v2 blob: every structural check, then the verifier, then TGSI generation
/// (standalone, identity remap) into `tgsi_out`.
pub fn load_with_tgsi(b: &[u8], tgsi_out: &mut TgsiText) -> Result<(Module, TgsiInfo), CsirError> {
    let m = match blob_version(b)? {
        1 => load_v1(b)?,
        2 => load_v2(b)?,
        v => return Err(CsirError::BadVersion { found: v }),
    };
    verify::verify(&m).map_err(CsirError::Verify)?;
    let info = tgsi::emit(&m, None, tgsi_out).map_err(CsirError::Tgsi)?;
    Ok((m, info))
}

/// [`load_with_tgsi`] keeping only the module.
pub fn load(b: &[u8]) -> Result<Module, CsirError> {
    let mut t = TgsiText::new();
    load_with_tgsi(b, &mut t).map(|(m, _)| m)
}

fn stage_at(b: &[u8]) -> Result<Stage, CsirError> {
    let s = rd_u32(b, 8);
    Stage::from_u32(s).ok_or(CsirError::BadStage { found: s })
}

fn decode_records(b: &[u8], at: usize, n: usize, m: &mut Module) -> Result<(), CsirError> {
    for i in 0..n {
        let r = at + RECORD * i;
        let opb = b.get(r).copied().unwrap_or(0xff);
        // Opcodes 35 and up (LOAD_SYSVAL, the built-in library, loops, integers, indirect
        // addressing, derivatives, gl_FrontFacing, textures, gl_FragDepth) exist only in profile-2 modules.
        let known = m.profile != Profile::P1 || opb <= P1_OPCODE_MAX;
        let op = Op::from_u8(opb)
            .filter(|_| known)
            .ok_or(CsirError::BadOpcode { inst: i, op: opb })?;
        let f = |k: usize| rd_i16(b, r + 4 + 2 * k);
        let inst = Inst {
            op,
            ty: b.get(r + 1).copied().unwrap_or(0),
            lanes: b.get(r + 2).copied().unwrap_or(0),
            dst: f(0),
            a: f(1),
            b: f(2),
            c: f(3),
            aux: f(4),
            aux2: f(5),
        };
        m.insts
            .push(normalize(inst))
            .map_err(|_| CsirError::TooMany {
                what: "instruction",
                found: n as u32,
                limit: IR_MAX as u32,
            })?;
    }
    Ok(())
}

/// Operand fields an opcode does not use are ignored: they become -1 (temps) or 0 (aux, aux2),
/// so old writers' zeros never look like reads of temp 0.
pub fn normalize(mut i: Inst) -> Inst {
    // (dst, a, b, aux, aux2) used?
    let (d, a, b, x, x2) = match i.op {
        Op::Nop | Op::Else | Op::Endif | Op::Discard => (false, false, false, false, false),
        Op::Break | Op::Continue | Op::EndLoop => (false, false, false, false, false),
        Op::Loop => (false, false, false, true, true),
        Op::Const => (true, false, false, true, false),
        Op::Mov | Op::Abs | Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Trunc | Op::Sqrt => {
            (true, true, false, false, false)
        }
        Op::Floor | Op::Ceil | Op::Fract | Op::RoundEven | Op::Exp2 | Op::Log2 | Op::Sign => {
            (true, true, false, false, false)
        }
        Op::Ddx | Op::Ddy => (true, true, false, false, false),
        Op::LoadFace => (true, false, false, false, false),
        Op::CmpV => (true, true, true, true, false),
        Op::Swz | Op::Sample => (true, true, false, true, false),
        Op::SampleLod
        | Op::SampleBias
        | Op::SampleGrad
        | Op::TexFetch
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
        | Op::ArrFetch => (true, true, true, true, true),
        Op::TexSize | Op::ArrSize => (true, true, false, true, false),
        Op::SetLane => (true, true, false, true, true),
        Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min | Op::Div | Op::Pow => {
            (true, true, true, false, false)
        }
        Op::Dot | Op::Cmp | Op::MulMV | Op::MulMM => (true, true, true, true, false),
        Op::LoadAttr | Op::LoadVar => (true, false, false, true, false),
        Op::LoadUni => (true, false, false, true, true),
        Op::LoadFcoord => (true, false, false, false, false),
        Op::LoadSysval => (true, false, false, true, false),
        Op::StorePos | Op::StoreColor | Op::StoreDepth | Op::If => {
            (false, true, false, false, false)
        }
        Op::StoreClip => (false, true, false, true, false),
        Op::StoreVar => (false, true, false, true, false),
        crate::ir::int_ops!() => (
            true,
            true,
            !i.op.is_int_unary(),
            matches!(i.op, Op::ICmp | Op::UCmp | Op::Cvt),
            false,
        ),
        Op::LoadIdx | Op::StoreIdx | Op::LoadLane | Op::StoreLane => (true, true, true, true, true),
        Op::LoadUniIdx => (true, true, false, true, true),
    };
    if !d {
        i.dst = -1;
    }
    if !a {
        i.a = -1;
    }
    if !b {
        i.b = -1;
    }
    // Only the indirect ops use `c` (offset or stride).
    if !matches!(i.op, Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx) {
        i.c = -1;
    }
    if !x {
        i.aux = 0;
    }
    if !x2 {
        i.aux2 = 0;
    }
    i
}

fn load_v1(b: &[u8]) -> Result<Module, CsirError> {
    let stage = stage_at(b)?;
    let n = count(b, 12, "instruction", IR_MAX)?;
    let nimm = count(b, 16, "immediate", IMM_MAX)?;
    let ntemp = count(b, 20, "temporary", TEMP_MAX)?;
    let expected = V1_HEADER + RECORD * n + 4 * nimm;
    if b.len() != expected {
        return Err(CsirError::BadSize {
            expected,
            found: b.len(),
        });
    }
    let ir = b.get(V1_HEADER..V1_HEADER + RECORD * n).unwrap_or(&[]);
    let sum = ir.iter().fold(0u32, |s, &x| s.wrapping_add(x as u32));
    let stored = rd_u32(b, 24);
    if sum != stored {
        return Err(CsirError::BadChecksum {
            stored: stored as u64,
            computed: sum as u64,
        });
    }
    if rd_u32(b, 28) != 0 {
        return Err(CsirError::NonZero { offset: 28 });
    }
    let mut m = Module::new(stage);
    m.temps = ntemp as u16;
    decode_records(b, V1_HEADER, n, &mut m)?;
    let imm_at = V1_HEADER + RECORD * n;
    for k in 0..nimm {
        let _ = m.imms.push(f32::from_bits(rd_u32(b, imm_at + 4 * k)));
    }
    m.iface = derive_interface(&m)?;
    Ok(m)
}

fn numbered(prefix: &str, n: usize) -> Name {
    let mut s = Name::new();
    let _ = write!(s, "{}{}", prefix, n);
    s
}

/// A value type usable for an attribute or uniform vector (else vec4).
fn vector_type(ty: u8) -> Type {
    match Type::from_u8(ty) {
        Some(
            t @ (Type::Float
            | Type::Vec2
            | Type::Vec3
            | Type::Vec4
            | Type::Int
            | Type::IVec2
            | Type::IVec3
            | Type::IVec4
            | Type::Bool),
        ) => t,
        _ => Type::Vec4,
    }
}

/// v1 carries no interface: derive the minimal one the instructions need. Names are synthetic:
/// `attrN`, `varN` (vec4), `vs_uniN`/`fs_uniN` and `vs_texN`/`fs_texN` (per stage, so the two
/// stages of a v1 pair never claim the same name with different types), `color`; the interface
/// is marked `derived_names`, and a link refuses to match such varyings (slot N of one stage
/// need not be slot N of the other: the link cannot be proved right).
pub fn derive_interface(m: &Module) -> Result<Interface, CsirError> {
    let mut iface = Interface {
        derived_names: true,
        ..Interface::default()
    };
    let (uni, tex) = match m.stage {
        Stage::Vertex => ("vs_uni", "vs_tex"),
        Stage::Fragment => ("fs_uni", "fs_tex"),
    };
    let mut uni_claimed: u32 = 0;
    let mut uni_covered: u32 = 0;
    let full = |what| CsirError::BadEntry {
        what,
        index: 0,
        reason: "table full",
    };
    for (i, inst) in m.insts.iter().enumerate() {
        let aux = inst.aux;
        match inst.op {
            Op::LoadAttr => {
                if !(0..ATTR_MAX as i16).contains(&aux) {
                    return Err(CsirError::BadEntry {
                        what: "attribute",
                        index: i,
                        reason: "location out of range 0..=7",
                    });
                }
                if !iface.attributes.iter().any(|a| a.location as i16 == aux) {
                    let ty = vector_type(inst.ty);
                    let a = Attribute {
                        name: numbered("attr", aux as usize),
                        ty,
                        location: aux as u8,
                        components: ty.components(),
                    };
                    iface.attributes.push(a).map_err(|_| full("attribute"))?;
                }
            }
            Op::LoadVar | Op::StoreVar => {
                if !(0..VARYING_MAX as i16).contains(&aux) {
                    return Err(CsirError::BadEntry {
                        what: "varying",
                        index: i,
                        reason: "slot out of range 0..=7",
                    });
                }
                if !iface.varyings.iter().any(|v| v.slot as i16 == aux) {
                    let v = Varying {
                        name: numbered("var", aux as usize),
                        ty: Type::Vec4,
                        slot: aux as u8,
                        interp: Interp::Smooth,
                    };
                    iface.varyings.push(v).map_err(|_| full("varying"))?;
                }
            }
            Op::LoadUni => {
                let n = inst.aux2;
                if aux < 0 || !(1..=4).contains(&n) || aux as usize + n as usize > UNIFORM_VEC4_MAX
                {
                    return Err(CsirError::BadEntry {
                        what: "uniform",
                        index: i,
                        reason: "slot range outside 0..32",
                    });
                }
                let range = ((1u32 << n) - 1) << aux;
                uni_covered |= range;
                if uni_claimed & range == 0 {
                    let ty = match n {
                        4 => Type::Mat4,
                        3 => Type::Mat3,
                        1 => vector_type(inst.ty),
                        // Two consecutive vec4s have no GLSL type here: claim them one by one below.
                        _ => continue,
                    };
                    uni_claimed |= range;
                    let u = Uniform {
                        name: numbered(uni, aux as usize),
                        ty,
                        slot: aux as u16,
                        slots: n as u8,
                    };
                    iface.uniforms.push(u).map_err(|_| full("uniform"))?;
                }
            }
            Op::Sample => {
                if !(0..SAMPLER_MAX as i16).contains(&aux) {
                    return Err(CsirError::BadEntry {
                        what: "sampler",
                        index: i,
                        reason: "unit out of range 0..=3",
                    });
                }
                if !iface.samplers.iter().any(|s| s.unit as i16 == aux) {
                    let s = Sampler {
                        name: numbered(tex, aux as usize),
                        unit: aux as u8,
                        ty: Type::Sampler2D,
                    };
                    iface.samplers.push(s).map_err(|_| full("sampler"))?;
                }
            }
            Op::StorePos => iface.writes_position = true,
            Op::StoreColor => iface.color_output = Some(numbered("color", 0)),
            Op::StoreDepth => iface.writes_depth = true,
            Op::StoreClip if (0..8).contains(&aux) => iface.clip_distances |= 1 << aux,
            Op::LoadFcoord => iface.reads_fragcoord = true,
            Op::LoadSysval if aux == crate::ir::SYSVAL_INSTANCE_ID => {
                iface.reads_instance_id = true
            }
            Op::LoadSysval => iface.reads_vertex_id = true,
            _ => {}
        }
    }
    for slot in 0..UNIFORM_VEC4_MAX {
        if uni_covered & !uni_claimed & (1 << slot) != 0 {
            let u = Uniform {
                name: numbered(uni, slot),
                ty: Type::Vec4,
                slot: slot as u16,
                slots: 1,
            };
            iface.uniforms.push(u).map_err(|_| full("uniform"))?;
        }
    }
    iface.uniforms.sort_unstable_by_key(|u| u.slot);
    if let Some(c) = iface.color_output.as_mut() {
        c.clear();
        let _ = c.push_str("color");
    }
    Ok(iface)
}

fn zero(b: &[u8], from: usize, to: usize) -> Result<(), CsirError> {
    for at in from..to {
        if b.get(at).copied().unwrap_or(0) != 0 {
            return Err(CsirError::NonZero { offset: at });
        }
    }
    Ok(())
}

fn rd_name(
    b: &[u8],
    at: usize,
    size: usize,
    what: &'static str,
    index: usize,
    allow_empty: bool,
) -> Result<Name, CsirError> {
    let bad = |reason| CsirError::BadEntry {
        what,
        index,
        reason,
    };
    let l = b.get(at).copied().unwrap_or(0) as usize;
    if l >= size {
        return Err(bad(if size == NAME_FIELD {
            "name longer than 39 bytes"
        } else {
            "name longer than 63 bytes"
        }));
    }
    if l == 0 && !allow_empty {
        return Err(bad("empty name"));
    }
    let bytes = b.get(at + 1..at + 1 + l).unwrap_or(&[]);
    // Profile 2 reflects struct members, array elements and block members of varyings,
    // uniforms and samplers (`u.m`, `a[3]`, `lights[2].color`, `VS_OUT.n`), and the columns of
    // matrix vertex inputs (`instanceModel[2]`): those entries take
    // such a path; every other name is a plain identifier.
    let path =
        size == P2_NAME_FIELD && matches!(what, "varying" | "uniform" | "sampler" | "attribute");
    if path && !is_reflected_path(bytes) {
        return Err(bad(
            "name is not an identifier or a reflected member/element path",
        ));
    }
    // (An empty name passed the length check above only where it is allowed.)
    if !path && !bytes.is_empty() && !is_identifier(bytes) {
        return Err(bad("name is not an identifier"));
    }
    zero(b, at + 1 + l, at + size)?;
    let mut n = Name::new();
    for &c in bytes {
        let _ = n.push(c as char);
    }
    Ok(n)
}

/// An identifier: an ASCII letter or `_`, then letters, digits and `_`.
fn is_identifier(b: &[u8]) -> bool {
    !b.is_empty()
        && b.iter()
            .enumerate()
            .all(|(k, c)| c.is_ascii_alphabetic() || *c == b'_' || (k > 0 && c.is_ascii_digit()))
}

/// A reflected name of profile 2: identifiers joined by `.`, each optionally followed by one
/// element index `[N]` (N decimal, no leading zero), as the compiler names struct members,
/// array elements and block members (`u_lights[2].color`, `Matrices.view`, `w[1]`).
pub fn is_reflected_path(b: &[u8]) -> bool {
    !b.is_empty()
        && b.split(|c| *c == b'.').all(|seg| {
            let (id, idx) = match seg.iter().position(|c| *c == b'[') {
                Some(p) => (seg.get(..p).unwrap_or(&[]), seg.get(p..)),
                None => (seg, None),
            };
            let idx_ok = match idx {
                None => true,
                Some(t) => {
                    let digits = t.get(1..t.len().saturating_sub(1)).unwrap_or(&[]);
                    t.len() >= 3
                        && t.last() == Some(&b']')
                        && digits.iter().all(u8::is_ascii_digit)
                        && (digits.len() == 1 || digits.first() != Some(&b'0'))
                }
            };
            is_identifier(id) && idx_ok
        })
}

fn rd_type(v: u8, what: &'static str, index: usize) -> Result<Type, CsirError> {
    Type::from_u8(v).ok_or(CsirError::BadEntry {
        what,
        index,
        reason: "unknown type id",
    })
}

fn load_v2(b: &[u8]) -> Result<Module, CsirError> {
    if b.len() < V2_HEADER {
        return Err(CsirError::TooShort {
            len: b.len(),
            min: V2_HEADER,
        });
    }
    let stage = stage_at(b)?;
    // The profile decides the bounds and the table layout, so it is read first (a corrupted
    // word is still caught: it is covered by the checksum and must be 0 or 2).
    let profile = match rd_u32(b, PROFILE_OFFSET) {
        0 => Profile::P1,
        2 => Profile::P2,
        found => return Err(CsirError::BadProfile { found }),
    };
    let l = layout(profile);
    let lim = l.lim;
    let n = count(b, 12, "instruction", lim.ir_instructions_max)?;
    let nimm = count(b, 16, "immediate", lim.immediates_max)?;
    let ntemp = count(b, 20, "temporary", lim.temporaries_max)?;
    let nattr = count(b, 24, "attribute", lim.attributes_max)?;
    let nvary = count(b, 28, "varying", lim.varyings_max)?;
    let nuni = count(b, 32, "uniform", lim.uniform_vec4_slots_max)?;
    let nsamp = count(b, 36, "sampler", lim.samplers_max)?;
    let flags = rd_u32(b, 40);
    let expected =
        V2_HEADER + RECORD * n + 4 * nimm + l.entry * (nattr + nvary + nuni + nsamp) + l.name;
    let total = rd_u32(b, 44) as usize;
    if total != expected || b.len() != expected {
        return Err(CsirError::BadSize {
            expected,
            found: if total != expected { total } else { b.len() },
        });
    }
    let mut stored = [0u8; 8];
    stored.copy_from_slice(b.get(48..56).unwrap_or(&[0; 8]));
    let stored = u64::from_le_bytes(stored);
    let computed = v2_checksum(b);
    if stored != computed {
        return Err(CsirError::BadChecksum { stored, computed });
    }
    if flags & !FLAGS_KNOWN != 0 {
        return Err(CsirError::NonZero { offset: 40 });
    }
    zero(b, PROFILE_OFFSET + 4, 64)?;
    let mut m = Module::new(stage);
    m.profile = profile;
    m.temps = ntemp as u16;
    decode_records(b, V2_HEADER, n, &mut m)?;
    for i in 0..n {
        zero(b, V2_HEADER + RECORD * i + 3, V2_HEADER + RECORD * i + 4)?;
    }
    let mut at = V2_HEADER + RECORD * n;
    for k in 0..nimm {
        let _ = m.imms.push(f32::from_bits(rd_u32(b, at + 4 * k)));
    }
    at += 4 * nimm;
    let iface = &mut m.iface;
    let byte = |at: usize| b.get(at).copied().unwrap_or(0);
    let full = |what| CsirError::BadEntry {
        what,
        index: 0,
        reason: "table full",
    };
    // Each entry: the name field, then its fields; the rest of the entry must be 0.
    let entry_end = |at: usize| at + l.entry;
    for k in 0..nattr {
        let name = rd_name(b, at, l.name, "attribute", k, false)?;
        let e = at + l.name;
        let ty = rd_type(byte(e), "attribute", k)?;
        zero(b, e + 3, entry_end(at))?;
        let a = Attribute {
            name,
            ty,
            location: byte(e + 1),
            components: byte(e + 2),
        };
        iface.attributes.push(a).map_err(|_| full("attribute"))?;
        at += l.entry;
    }
    for k in 0..nvary {
        let name = rd_name(b, at, l.name, "varying", k, false)?;
        let e = at + l.name;
        let ty = rd_type(byte(e), "varying", k)?;
        let interp = Interp::from_u8(byte(e + 2)).ok_or(CsirError::BadEntry {
            what: "varying",
            index: k,
            reason: "interpolation byte is not 0 (smooth), 1 (flat) or 2 (noperspective)",
        })?;
        if l.profile == Profile::P2 {
            // Profile 2: byte 3 is the invariant flag.
            match byte(e + 3) {
                0 => {}
                1 if u32::from(byte(e + 1)) < u32::BITS => {
                    iface.invariant_slots |= 1 << byte(e + 1);
                }
                _ => {
                    return Err(CsirError::BadEntry {
                        what: "varying",
                        index: k,
                        reason: "invariant byte is not 0 or 1",
                    })
                }
            }
            zero(b, e + 4, entry_end(at))?;
        } else {
            zero(b, e + 3, entry_end(at))?;
        }
        iface
            .varyings
            .push(Varying {
                name,
                ty,
                slot: byte(e + 1),
                interp,
            })
            .map_err(|_| full("varying"))?;
        at += l.entry;
    }
    for k in 0..nuni {
        let name = rd_name(b, at, l.name, "uniform", k, false)?;
        let e = at + l.name;
        let ty = rd_type(byte(e), "uniform", k)?;
        let (slot, slots) = match profile {
            // type, first slot u8, slot count u8, 0
            Profile::P1 => (byte(e + 1) as u16, byte(e + 2)),
            // type, slot count u8, first slot u16 LE, 0 0 0 0
            Profile::P2 => (u16::from_le_bytes([byte(e + 2), byte(e + 3)]), byte(e + 1)),
        };
        zero(b, e + 3 + (profile == Profile::P2) as usize, entry_end(at))?;
        iface
            .uniforms
            .push(Uniform {
                name,
                ty,
                slot,
                slots,
            })
            .map_err(|_| full("uniform"))?;
        at += l.entry;
    }
    for k in 0..nsamp {
        let name = rd_name(b, at, l.name, "sampler", k, false)?;
        let e = at + l.name;
        // Profile 2 stores a sampler's type after its unit (0: sampler2D).
        let ty = match byte(e + 1) {
            _ if l.profile != Profile::P2 => Type::Sampler2D,
            0 => Type::Sampler2D,
            t => match Type::from_u8(t) {
                Some(ty) if ty.is_sampler() => ty,
                _ => {
                    return Err(CsirError::BadEntry {
                        what: "sampler",
                        index: k,
                        reason: "type is not a sampler type",
                    })
                }
            },
        };
        let typed = l.profile == Profile::P2;
        zero(b, e + 1 + typed as usize, entry_end(at))?;
        iface
            .samplers
            .push(Sampler {
                name,
                unit: byte(e),
                ty,
            })
            .map_err(|_| full("sampler"))?;
        at += l.entry;
    }
    let color = rd_name(b, at, l.name, "colour output", 0, true)?;
    if (flags & FLAG_COLOR_OUTPUT != 0) == color.is_empty() {
        return Err(CsirError::BadEntry {
            what: "colour output",
            index: 0,
            reason: "flag and name disagree",
        });
    }
    iface.color_output = if color.is_empty() { None } else { Some(color) };
    // Profile 2 reflects its fragment outputs; CSIR keeps the one that is stored (location 0,
    // its type the STORE_COLOR's), not the reflection-only others.
    if m.profile == Profile::P2 {
        if let Some(name) = iface.color_output.clone() {
            let ty = m
                .insts
                .iter()
                .rev()
                .find(|i| i.op == Op::StoreColor)
                .and_then(|i| Type::from_u8(i.ty))
                .filter(|t| matches!(t, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4))
                .unwrap_or(Type::Vec4);
            let _ = iface.frag_outputs.push(crate::ir::FragOutput {
                name,
                ty,
                location: 0,
            });
        }
    }
    iface.writes_position = flags & FLAG_WRITES_POSITION != 0;
    iface.reads_fragcoord = flags & FLAG_READS_FRAGCOORD != 0;
    iface.derived_names = flags & FLAG_DERIVED_NAMES != 0;
    iface.reads_vertex_id = flags & FLAG_READS_VERTEX_ID != 0;
    iface.reads_instance_id = flags & FLAG_READS_INSTANCE_ID != 0;
    // No header flag: gl_FragDepth is written exactly when a STORE_DEPTH is there.
    iface.writes_depth = m.insts.iter().any(|i| i.op == Op::StoreDepth);
    // Nor for gl_ClipDistance: the written elements are the STORE_CLIP indexes.
    iface.clip_distances = m
        .insts
        .iter()
        .filter(|i| i.op == Op::StoreClip && (0..8).contains(&i.aux))
        .fold(0, |a, i| a | 1 << i.aux);
    check_tables(&m)?;
    Ok(m)
}

/// Table sanity the verifier may not know about: bounds of the module's profile
/// (`limits(profile)`) and no duplicate locations/slots/units.
fn check_tables(m: &Module) -> Result<(), CsirError> {
    let i = &m.iface;
    let p1 = m.profile == Profile::P1;
    let lim = limits(m.profile);
    let bad = |what, index, reason| {
        Err(CsirError::BadEntry {
            what,
            index,
            reason,
        })
    };
    // Every table but the uniforms' has at most 16 entries (both profiles): a u32 mask.
    let mut seen = 0u32;
    for (k, a) in i.attributes.iter().enumerate() {
        if a.location as usize >= lim.attributes_max
            || !(1..=4).contains(&a.components)
            || seen & (1 << a.location) != 0
        {
            return bad(
                "attribute",
                k,
                "location out of range, duplicate, or components not 1..=4",
            );
        }
        seen |= 1 << a.location;
    }
    seen = 0;
    for (k, v) in i.varyings.iter().enumerate() {
        if v.slot as usize >= lim.varyings_max || seen & (1 << v.slot) != 0 {
            return bad("varying", k, "slot out of range or duplicate");
        }
        seen |= 1 << v.slot;
    }
    let mut used = [0u64; UNIFORM_VEC4_CAP.div_ceil(64)];
    for (k, u) in i.uniforms.iter().enumerate() {
        let end = u.slot as usize + u.slots as usize;
        if u.slots == 0 || u.slots != u.ty.uniform_slots() || end > lim.uniform_vec4_slots_max {
            return bad(
                "uniform",
                k,
                if p1 {
                    "slot range outside 0..32 or does not match its type"
                } else {
                    "slot range outside 0..1024 or does not match its type"
                },
            );
        }
        for slot in u.slot as usize..end {
            let (word, bit) = (slot / 64, 1u64 << (slot % 64));
            let Some(w) = used.get_mut(word) else {
                return bad("uniform", k, "slot out of range");
            };
            if *w & bit != 0 {
                return bad("uniform", k, "overlaps another uniform");
            }
            *w |= bit;
        }
    }
    seen = 0;
    for (k, s) in i.samplers.iter().enumerate() {
        if s.unit as usize >= lim.samplers_max || seen & (1 << s.unit) != 0 {
            return bad("sampler", k, "unit out of range or duplicate");
        }
        seen |= 1 << s.unit;
    }
    Ok(())
}

/// Self-test: v1 and v2 round trips of a small module, and a flipped byte is rejected.
pub fn selftest_round_trip(w: &mut dyn Write) -> bool {
    let m = crate::back::tgsi::selftest_module();
    let mut buf = [0u8; 1024];
    for v in [Version::V1, Version::V2] {
        let n = match save(&m, v, &mut buf) {
            Ok(n) => n,
            Err(e) => {
                let _ = write!(w, "save {:?}: {}", v, e);
                return false;
            }
        };
        let blob = buf.get(..n).unwrap_or(&[]);
        match load(blob) {
            Ok(back)
                if back.insts == m.insts
                    && back.imms == m.imms
                    && (v == Version::V1 || back == m) => {}
            Ok(_) => {
                let _ = write!(w, "{:?} round trip changed the module", v);
                return false;
            }
            Err(e) => {
                let _ = write!(w, "load {:?}: {}", v, e);
                return false;
            }
        }
        if let Some(b) = buf.get_mut(40) {
            *b ^= 0x01;
        }
        if load(buf.get(..n).unwrap_or(&[])).is_ok() {
            let _ = write!(w, "{:?}: flipped byte 40 accepted", v);
            return false;
        }
    }
    true
}

/// Self-test through the real compiler: a cached compile (the second call hits and keeps its
/// own name), TGSI that passes the checker with a 4-letter IF swizzle and KILL, and a v2 round
/// trip that gives back the same module.
pub fn selftest_compiled_shader(w: &mut dyn Write) -> bool {
    const SRC: &[u8] = b"#version 330\nin vec4 v;\nout vec4 c;\nvoid main() {\n    if (v.x < 0.5) discard;\n    c = vec4(v.xyz * 0.5, 1.0);\n}\n";
    let mut cache = crate::program::cache::CompileCache::new();
    let first = crate::program::cache::compile_cached(&mut cache, 1, SRC, "a.frag");
    let second = crate::program::cache::compile_cached(&mut cache, 1, SRC, "b.frag");
    let (Ok(a), Ok(b)) = (first, second) else {
        let _ = write!(w, "compile failed");
        return false;
    };
    if cache.stats().hits != 1 || a.name.as_str() != "a.frag" || b.name.as_str() != "b.frag" {
        let _ = write!(w, "cache: {:?}, names {} {}", cache.stats(), a.name, b.name);
        return false;
    }
    let mut text = TgsiText::new();
    if let Err(e) = tgsi::emit(&b.module, None, &mut text) {
        let _ = write!(w, "{}", e);
        return false;
    }
    let text = text.as_str();
    if let Err(e) = tgsi::check_tgsi(text) {
        let _ = write!(w, "{}", e);
        return false;
    }
    if !text.contains("KILL")
        || !text
            .lines()
            .any(|l| l.starts_with("IF ") && l.ends_with(".xxxx"))
    {
        let _ = write!(w, "unexpected TGSI:\n{}", text);
        return false;
    }
    let mut buf = [0u8; 2048];
    let back =
        save(&b.module, Version::V2, &mut buf).and_then(|n| load(buf.get(..n).unwrap_or(&[])));
    match back {
        Ok(m) if m == b.module => true,
        Ok(_) => {
            let _ = write!(w, "v2 round trip changed the module");
            false
        }
        Err(e) => {
            let _ = write!(w, "{}", e);
            false
        }
    }
}
