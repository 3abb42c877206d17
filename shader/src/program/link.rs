//! Program link and uniforms: one vertex and one fragment [`Module`] become a [`Program`] with
//! matched varyings (a fragment-input slot -> vertex-output slot remap), merged uniforms, the
//! reflection tables, both stages' 128-float uniform arrays, both decoded [`Executable`]s and
//! both stages' TGSI text (emitted at link by `tgsi::emit`). As the specification requires, a
//! link fails when TGSI cannot be emitted for either stage (over the 3600-byte VirGL budget):
//! `link error: TGSI emission failed for the vertex shader: TGSI exceeds the VirGL command
//! budget (3600 bytes)`.
//!
//! Link is transactional: every check runs and the whole candidate (reflection, remap, decoded
//! executables) is built before anything in the program changes, so a failed relink of a linked
//! program leaves it exactly as it was (modules, reflection, uniform values, executables) and
//! logs `kept previous program`. Failures are logged one line each into a bounded log that is
//! cleared at the start of every link. The generation counter starts at 0 and increments on every
//! successful link. A successful link resets uniform values to 0 (GL's rule for a fresh link).
//!
//! Uniform storage: each stage has 32 vec4 slots (128 floats) laid out like constant buffer 0.
//! A program uniform that both stages declare (same name, same type) is one entry that writes
//! both stages at their own slots. mat4 = 16 floats column-major in 4 slots; mat3 = 9 floats
//! column-major, each column padded into its own slot (lane 3 = 0); profile 2's matCxR = C*R floats
//! column-major, one slot per column (R lanes used).
//!
//! Samplers: one texture unit per sampler name in the program (`program_samplers`); the vertex
//! stage's SAMPLE operands and declarations are remapped to those units in the kept module, so
//! the executor and the TGSI both sample the program's units.
//!
//! It must never: keep a half-linked state, clobber uniform lanes other than the ones written,
//! panic, or allocate.
use core::fmt::Write;

use heapless::{String, Vec};

use crate::back::exec::Executable;
use crate::back::tgsi::{self, TgsiError, TgsiText};
use crate::ir::verify::VerifyError;
use crate::ir::{Interp, Module, Name, Op, Stage, Type};
use crate::limits::{
    limits, Profile, ATTR_CAP, LOG_MAX, NAME_CAP, P2_ARRAY_LEN_MAX, P2_PROGRAM_UNIFORM_MAX,
    PROGRAM_UNIFORM_CAP, PROGRAM_UNIFORM_MAX, SAMPLER_CAP, SAMPLER_MAX, UNIFORM_FLOATS_CAP,
    VARYING_CAP,
};

/// A vertex attribute of the linked program.
#[derive(Clone, Debug, PartialEq)]
pub struct AttribInfo {
    pub name: Name,
    pub ty: Type,
    pub location: u8,
    pub components: u8,
}

/// A varying read by the fragment stage and the vertex-output slot it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct VaryingInfo {
    pub name: Name,
    pub ty: Type,
    pub vs_slot: u8,
    pub fs_slot: u8,
    /// How the rasterizer interpolates it (the same in both stages).
    pub interp: Interp,
}

/// A program uniform (non-sampler): its slot in each stage that declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct UniformInfo {
    pub name: Name,
    pub ty: Type,
    pub vs_slot: Option<u16>,
    pub fs_slot: Option<u16>,
}

impl UniformInfo {
    /// Number of floats `set_uniform` takes for this uniform.
    pub fn floats(&self) -> usize {
        uniform_floats(self.ty)
    }
}

/// A sampler uniform and the texture unit it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerInfo {
    pub name: Name,
    pub unit: u8,
    /// The sampler type (sampler2D, samplerCube, ..., isampler2D, usampler2D).
    pub ty: Type,
}

fn uniform_floats(ty: Type) -> usize {
    match ty {
        t if t.columns() > 0 => t.columns() as usize * t.components() as usize,
        t => t.components() as usize,
    }
}

/// The first failure of a link (every failure is also a line in the program log).
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    MissingShader(Stage),
    NoPosition,
    NoColorOutput,
    MissingVarying(Name),
    VaryingTypeMismatch(Name),
    /// The stages declare the varying with different interpolation qualifiers.
    VaryingInterpMismatch(Name),
    /// Profile 2: one stage declares the varying `invariant` and the other does not (GLSL
    /// 3.30 §4.6.1 requires both or neither; GLSL 4.20 relaxed it, 3.30 did not).
    VaryingInvariantMismatch(Name),
    /// Profile 2: an interface block (named) is an array of different sizes in the two stages
    /// (0: not an array), or an array in one and not in the other.
    BlockArraySizeMismatch(Name, u16, u16),
    /// The stage was loaded from CSIR v1, which keeps no varying names, and the fragment stage
    /// reads varyings: they cannot be matched by name.
    UnnamedVaryings(Stage),
    UniformTypeMismatch(Name),
    /// More distinct sampler names than texture units across both stages (the name that found
    /// no unit).
    TooManySamplers(Name, usize),
    /// More program uniforms than the profile's limit (the limit).
    TooManyUniforms(usize),
    Verify(Stage, VerifyError),
    Tgsi(Stage, TgsiError),
}

impl core::fmt::Display for LinkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LinkError::MissingShader(s) => {
                write!(f, "program is missing a compiled {} shader", s.name())
            }
            LinkError::NoPosition => write!(f, "vertex shader does not write gl_Position"),
            LinkError::NoColorOutput => write!(f, "fragment shader has no output"),
            LinkError::MissingVarying(n) => {
                write!(f, "missing varying {}: the fragment shader reads it, the vertex shader does not write it", n)
            }
            LinkError::VaryingTypeMismatch(n) => write!(f, "varying type mismatch {}", n),
            LinkError::VaryingInterpMismatch(n) => {
                write!(f, "varying interpolation mismatch {}", n)
            }
            LinkError::VaryingInvariantMismatch(n) => {
                write!(f, "varying invariance mismatch {}", n)
            }
            LinkError::BlockArraySizeMismatch(n, v, f_) => {
                let size = |k: &u16| -> heapless::String<24> {
                    let mut s = heapless::String::new();
                    if *k == 0 {
                        let _ = s.push_str("not an array");
                    } else {
                        let _ =
                            core::fmt::Write::write_fmt(&mut s, format_args!("an array of {}", k));
                    }
                    s
                };
                write!(
                    f,
                    "interface block {} is {} in the vertex shader and {} in the fragment shader (GLSL 3.30 4.3.7: the sizes must match)",
                    n,
                    size(v),
                    size(f_)
                )
            }
            LinkError::UnnamedVaryings(s) => write!(
                f,
                "the {} shader's varyings cannot be matched by name: it was loaded from CSIR v1, which stores no varying names; save it as CSIR v2 (shc csir save --v2) from its source",
                s.name()
            ),
            LinkError::UniformTypeMismatch(n) => write!(f, "uniform type mismatch {}", n),
            LinkError::TooManySamplers(n, limit) => write!(
                f,
                "too many samplers: '{}' finds no free texture unit; the limit is {} per program",
                n, limit
            ),
            LinkError::TooManyUniforms(limit) => {
                write!(f, "too many uniforms (the limit is {} per program)", limit)
            }
            LinkError::Verify(s, e) => write!(f, "{} shader: {}", s.name(), e),
            LinkError::Tgsi(s, e) => {
                write!(f, "TGSI emission failed for the {} shader: {}", s.name(), e)
            }
        }
    }
}

/// Why a uniform could not be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformError {
    NotLinked,
    /// The index is not an entry of the uniform table.
    NoSuchUniform {
        index: usize,
        count: usize,
    },
    /// The value has the wrong number of floats for the uniform's type.
    WrongCount {
        expected: usize,
        found: usize,
    },
    /// The lane is past the uniform's floats.
    LaneOutOfRange {
        lane: usize,
        floats: usize,
    },
}

impl core::fmt::Display for UniformError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            UniformError::NotLinked => write!(f, "program is not linked"),
            UniformError::NoSuchUniform { index, count } => {
                write!(
                    f,
                    "uniform index {} does not exist (the program has {})",
                    index, count
                )
            }
            UniformError::WrongCount { expected, found } => {
                write!(
                    f,
                    "uniform value has {} floats, its type takes {}",
                    found, expected
                )
            }
            UniformError::LaneOutOfRange { lane, floats } => {
                write!(
                    f,
                    "uniform lane {} is out of range (the uniform has {} floats)",
                    lane, floats
                )
            }
        }
    }
}

/// Reflection and remap built by a link before it is committed.
#[derive(Clone, Debug, Default)]
struct Reflection {
    attributes: Vec<AttribInfo, ATTR_CAP>,
    varyings: Vec<VaryingInfo, VARYING_CAP>,
    uniforms: Vec<UniformInfo, PROGRAM_UNIFORM_CAP>,
    samplers: Vec<SamplerInfo, { SAMPLER_CAP * 2 }>,
    remap: [i8; VARYING_CAP],
}

const IDENTITY_UNITS: [u8; SAMPLER_CAP] = {
    let mut m = [0u8; SAMPLER_CAP];
    let mut i = 0;
    while i < SAMPLER_CAP {
        m[i] = i as u8;
        i += 1;
    }
    m
};

/// Gives every sampler name of the program one texture unit, in `out`, and returns the map from
/// the vertex stage's units to the program's. Same-name samplers are one program sampler (as
/// same-name uniforms are one program uniform), whatever order each stage declared them in.
/// The fragment stage keeps its units (it is where textures are usually sampled, so programs
/// without vertex samplers are unchanged); a vertex sampler takes its fragment namesake's unit,
/// else its own unit when free, else the lowest free one. Err: a name that found no unit.
fn program_samplers(
    vs: &Module,
    fs: &Module,
    out: &mut Vec<SamplerInfo, { SAMPLER_CAP * 2 }>,
    max: usize,
) -> Result<[u8; SAMPLER_CAP], Name> {
    let mut used = 0u32;
    for s in fs.iface.samplers.iter() {
        used |= 1 << (s.unit & 15);
        let _ = out.push(SamplerInfo {
            name: s.name.clone(),
            unit: s.unit,
            ty: s.ty,
        });
    }
    let mut map = IDENTITY_UNITS;
    for s in vs.iface.samplers.iter() {
        let unit = match out.iter().find(|e| e.name == s.name) {
            Some(e) => e.unit,
            None => {
                let own = s.unit as usize;
                let unit = if own < max && used & (1 << own) == 0 {
                    s.unit
                } else {
                    match (0..max as u8).find(|u| used & (1 << u) == 0) {
                        Some(u) => u,
                        None => return Err(s.name.clone()),
                    }
                };
                used |= 1 << unit;
                if out
                    .push(SamplerInfo {
                        name: s.name.clone(),
                        unit,
                        ty: s.ty,
                    })
                    .is_err()
                {
                    return Err(s.name.clone());
                }
                unit
            }
        };
        if let Some(m) = map.get_mut(s.unit as usize) {
            *m = unit;
        }
    }
    Ok(map)
}

/// `m` with every sampler unit `u` (declarations and SAMPLE operands) replaced by `map[u]`.
fn with_units(m: &Module, map: &[u8; SAMPLER_CAP]) -> Module {
    let mut out = m.clone();
    let to = |u: u8| map.get(u as usize).copied().unwrap_or(u);
    for s in out.iface.samplers.iter_mut() {
        s.unit = to(s.unit);
    }
    for i in out.insts.iter_mut() {
        if i.op == Op::Sample && (0..SAMPLER_CAP as i16).contains(&i.aux) {
            i.aux = to(i.aux as u8) as i16;
        }
    }
    out
}

/// A linked (or not yet linked) vertex + fragment program.
#[derive(Clone)]
pub struct Program {
    linked: bool,
    generation: u32,
    log: String<LOG_MAX>,
    vs: Module,
    fs: Module,
    vs_exec: Option<Executable>,
    fs_exec: Option<Executable>,
    vs_tgsi: TgsiText,
    fs_tgsi: TgsiText,
    refl: Reflection,
    vs_uniforms: [f32; UNIFORM_FLOATS_CAP],
    fs_uniforms: [f32; UNIFORM_FLOATS_CAP],
}

impl Default for Program {
    fn default() -> Self {
        Program::new()
    }
}

fn note(first: &mut Option<LinkError>, e: LinkError) {
    if first.is_none() {
        *first = Some(e);
    }
}

const KEPT: &str = "kept previous program\n";

impl Program {
    pub fn new() -> Program {
        Program {
            linked: false,
            generation: 0,
            log: String::new(),
            vs: Module::new(Stage::Vertex),
            fs: Module::new(Stage::Fragment),
            vs_exec: None,
            fs_exec: None,
            vs_tgsi: TgsiText::new(),
            fs_tgsi: TgsiText::new(),
            refl: Reflection {
                remap: [-1; VARYING_CAP],
                ..Reflection::default()
            },
            vs_uniforms: [0.0; UNIFORM_FLOATS_CAP],
            fs_uniforms: [0.0; UNIFORM_FLOATS_CAP],
        }
    }

    fn fail(&mut self, first: &mut Option<LinkError>, e: LinkError) {
        self.log_line(format_args!("link error: {}", e));
        note(first, e);
    }

    fn log_line(&mut self, args: core::fmt::Arguments) {
        // Keep room for the final "kept previous program" line; drop lines past the bound.
        let mut line: String<256> = String::new();
        let _ = line.write_fmt(args);
        if self.log.len() + line.len() + 1 + KEPT.len() <= LOG_MAX {
            let _ = self.log.push_str(&line);
            let _ = self.log.push('\n');
        }
    }

    /// Links `vs` and `fs` (None = that stage did not compile). On failure, a previously linked
    /// program stays fully intact and usable.
    pub fn link(&mut self, vs: Option<&Module>, fs: Option<&Module>) -> Result<(), LinkError> {
        self.log.clear();
        let result = self.try_link(vs, fs);
        if let Err(e) = &result {
            // Always log the first error even if `try_link` could not.
            if self.log.is_empty() {
                self.log_line(format_args!("link error: {}", e));
            }
            if self.linked {
                let _ = self.log.push_str(KEPT);
            }
        }
        result
    }

    fn try_link(&mut self, vs: Option<&Module>, fs: Option<&Module>) -> Result<(), LinkError> {
        let vs = vs.filter(|m| m.stage == Stage::Vertex);
        let fs = fs.filter(|m| m.stage == Stage::Fragment);
        let mut first: Option<LinkError> = None;
        let (vs, fs) = match (vs, fs) {
            (Some(v), Some(f)) => (v, f),
            (v, f) => {
                if v.is_none() {
                    self.fail(&mut first, LinkError::MissingShader(Stage::Vertex));
                }
                if f.is_none() {
                    self.fail(&mut first, LinkError::MissingShader(Stage::Fragment));
                }
                return Err(first.unwrap_or(LinkError::MissingShader(Stage::Vertex)));
            }
        };
        // A program is held to the larger profile of its stages.
        let (sampler_max, uniform_max) = if vs.profile.max(fs.profile) == Profile::P1 {
            (SAMPLER_MAX, PROGRAM_UNIFORM_MAX)
        } else {
            (limits(Profile::P2).samplers_max, P2_PROGRAM_UNIFORM_MAX)
        };
        if !vs.iface.writes_position {
            self.fail(&mut first, LinkError::NoPosition);
        }
        if fs.iface.color_output.is_none() {
            self.fail(&mut first, LinkError::NoColorOutput);
        }
        // Profile 2: outputs at locations 1..7 are reflected (the fragment module's
        // `frag_outputs`) but not stored.
        for o in fs.iface.frag_outputs.iter().filter(|o| o.location != 0) {
            self.log_line(format_args!(
                "note: fragment output '{}' (location {}) is not stored: a target has one colour attachment, location 0",
                o.name, o.location
            ));
        }

        let mut refl = Reflection {
            remap: [-1; VARYING_CAP],
            ..Reflection::default()
        };
        for a in vs.iface.attributes.iter() {
            let _ = refl.attributes.push(AttribInfo {
                name: a.name.clone(),
                ty: a.ty,
                location: a.location,
                components: a.components,
            });
        }
        // A CSIR v1 module's varying names are made up from slots: matching them would link
        // slot to slot, which is right only by chance. Refuse rather than mis-wire.
        let derived = [(Stage::Vertex, vs), (Stage::Fragment, fs)]
            .into_iter()
            .find(|(_, m)| m.iface.derived_names && !m.iface.varyings.is_empty());
        if let (Some((stage, _)), false) = (derived, fs.iface.varyings.is_empty()) {
            self.fail(&mut first, LinkError::UnnamedVaryings(stage));
            return Err(first.unwrap_or(LinkError::UnnamedVaryings(stage)));
        }
        // Profile 2: an interface block the fragment stage reads is an array of the same size
        // (or not an array) in both stages; checked first, before its members' names.
        for (i, fv) in fs.iface.varyings.iter().enumerate() {
            let Some(block) = block_of(fv.name.as_str()) else {
                continue;
            };
            let seen = fs
                .iface
                .varyings
                .iter()
                .take(i)
                .any(|v| block_of(v.name.as_str()) == Some(block));
            let (Some(vn), Some(fn_)) = (
                block_array_len(&vs.iface, block),
                block_array_len(&fs.iface, block),
            ) else {
                continue;
            };
            if !seen && vn != fn_ {
                let mut name = Name::new();
                let _ = name.push_str(block);
                let e = LinkError::BlockArraySizeMismatch(name, vn, fn_);
                self.fail(&mut first, e);
            }
        }
        // Profile 2: an array varying or array member of a block (`w[k]`, `B.uv[k]`) has the
        // same size in both stages (GLSL: the types must match; vec2[2] is not vec2[3]).
        for (i, fv) in fs.iface.varyings.iter().enumerate() {
            let Some(base) = array_of(fv.name.as_str()) else {
                continue;
            };
            let seen = fs
                .iface
                .varyings
                .iter()
                .take(i)
                .any(|v| array_of(v.name.as_str()) == Some(base));
            let (Some(vn), Some(fn_)) = (
                array_varying_len(&vs.iface, base),
                array_varying_len(&fs.iface, base),
            ) else {
                continue;
            };
            if !seen && vn != fn_ && !is_matrix_type(fv.ty) {
                self.log_line(format_args!(
                    "link error: varying type mismatch {}: an array of {} in the vertex shader, of {} in the fragment shader",
                    base, vn, fn_
                ));
                let mut name = Name::new();
                let _ = name.push_str(base);
                note(&mut first, LinkError::VaryingTypeMismatch(name));
            }
        }
        for fv in fs.iface.varyings.iter() {
            match vs.iface.varyings.iter().find(|v| v.name == fv.name) {
                None => self.fail(&mut first, LinkError::MissingVarying(fv.name.clone())),
                Some(v) if v.ty != fv.ty => {
                    self.log_line(format_args!(
                        "link error: varying type mismatch {}: the vertex shader writes {}, the fragment shader reads {}",
                        fv.name,
                        v.ty.name(),
                        fv.ty.name()
                    ));
                    note(&mut first, LinkError::VaryingTypeMismatch(fv.name.clone()));
                }
                Some(v) if v.interp != fv.interp => {
                    self.log_line(format_args!(
                        "link error: varying interpolation mismatch {}: the vertex shader declares it {}, the fragment shader {}",
                        fv.name,
                        v.interp.name(),
                        fv.interp.name()
                    ));
                    note(
                        &mut first,
                        LinkError::VaryingInterpMismatch(fv.name.clone()),
                    );
                }
                Some(v) if invariant(&vs.iface, v.slot) != invariant(&fs.iface, fv.slot) => {
                    let has = |on: bool| if on { "has" } else { "lacks" };
                    self.log_line(format_args!(
                        "link error: varying invariance mismatch {}: the vertex shader output {} the invariant qualifier, the fragment shader input {} it (GLSL 3.30 4.6.1: both or neither)",
                        fv.name,
                        has(invariant(&vs.iface, v.slot)),
                        has(invariant(&fs.iface, fv.slot))
                    ));
                    note(
                        &mut first,
                        LinkError::VaryingInvariantMismatch(fv.name.clone()),
                    );
                }
                Some(v) => {
                    if let Some(slot) = refl.remap.get_mut(fv.slot as usize) {
                        *slot = v.slot as i8;
                    }
                    let _ = refl.varyings.push(VaryingInfo {
                        name: fv.name.clone(),
                        ty: fv.ty,
                        vs_slot: v.slot,
                        fs_slot: fv.slot,
                        interp: fv.interp,
                    });
                }
            }
        }

        let mut too_many = false;
        for (stage, m) in [(Stage::Vertex, vs), (Stage::Fragment, fs)] {
            for u in m.iface.uniforms.iter() {
                let other = if stage == Stage::Vertex { fs } else { vs };
                if other.iface.samplers.iter().any(|s| s.name == u.name) {
                    self.log_line(format_args!(
                        "link error: uniform type mismatch {}: {} in the {} shader, sampler2D in the other",
                        u.name,
                        u.ty.name(),
                        stage.name()
                    ));
                    note(&mut first, LinkError::UniformTypeMismatch(u.name.clone()));
                    continue;
                }
                if let Some(e) = refl.uniforms.iter_mut().find(|e| e.name == u.name) {
                    if e.ty != u.ty {
                        let (ety, uty) = (e.ty, u.ty);
                        self.log_line(format_args!(
                            "link error: uniform type mismatch {}: vertex {}, fragment {}",
                            u.name,
                            ety.name(),
                            uty.name()
                        ));
                        note(&mut first, LinkError::UniformTypeMismatch(u.name.clone()));
                    } else {
                        e.fs_slot = Some(u.slot);
                    }
                    continue;
                }
                let (vs_slot, fs_slot) = if stage == Stage::Vertex {
                    (Some(u.slot), None)
                } else {
                    (None, Some(u.slot))
                };
                if refl.uniforms.len() >= uniform_max
                    || refl
                        .uniforms
                        .push(UniformInfo {
                            name: u.name.clone(),
                            ty: u.ty,
                            vs_slot,
                            fs_slot,
                        })
                        .is_err()
                {
                    too_many = true;
                }
            }
        }
        if too_many {
            self.fail(&mut first, LinkError::TooManyUniforms(uniform_max));
        }
        let vs_units = match program_samplers(vs, fs, &mut refl.samplers, sampler_max) {
            Ok(map) => map,
            Err(name) => {
                self.fail(&mut first, LinkError::TooManySamplers(name, sampler_max));
                IDENTITY_UNITS
            }
        };
        if let Some(e) = first {
            return Err(e);
        }
        // The vertex stage samples the program's units (the fragment stage's are the program's
        // already): a remapped copy is what executes, what the TGSI names and what is kept.
        let remapped;
        let vs = if vs_units == IDENTITY_UNITS {
            vs
        } else {
            remapped = with_units(vs, &vs_units);
            &remapped
        };

        let vs_exec = match Executable::new(vs, None) {
            Ok(e) => e,
            Err(e) => {
                self.fail(&mut first, LinkError::Verify(Stage::Vertex, e));
                return Err(LinkError::Verify(Stage::Vertex, e));
            }
        };
        let fs_exec = match Executable::new(fs, Some(&refl.remap)) {
            Ok(e) => e,
            Err(e) => {
                self.fail(&mut first, LinkError::Verify(Stage::Fragment, e));
                return Err(LinkError::Verify(Stage::Fragment, e));
            }
        };

        // Both stages are emitted (the fragment stage with the varying remap) and the texts kept
        // for the VirGL backend. A stage whose TGSI cannot be emitted (over TGSI_MAX) fails the
        // link (specification: "TGSI can be emitted for both stages"), so every linked program
        // can run on every backend.
        let mut vs_tgsi = TgsiText::new();
        let mut fs_tgsi = TgsiText::new();
        let vs_tgsi_err = tgsi::emit(vs, None, &mut vs_tgsi).err();
        let fs_tgsi_err = tgsi::emit(fs, Some(&refl.remap), &mut fs_tgsi).err();
        for (stage, e) in [(Stage::Vertex, vs_tgsi_err), (Stage::Fragment, fs_tgsi_err)] {
            if let Some(e) = e {
                self.fail(&mut first, LinkError::Tgsi(stage, e));
            }
        }
        if let Some(e) = first {
            return Err(e);
        }

        // Commit: nothing below can fail.
        self.vs.clone_from(vs);
        self.fs.clone_from(fs);
        self.vs_tgsi = vs_tgsi;
        self.fs_tgsi = fs_tgsi;
        self.vs_exec = Some(vs_exec);
        self.fs_exec = Some(fs_exec);
        self.refl = refl;
        self.vs_uniforms = [0.0; UNIFORM_FLOATS_CAP];
        self.fs_uniforms = [0.0; UNIFORM_FLOATS_CAP];
        self.linked = true;
        self.generation = self.generation.wrapping_add(1);
        Ok(())
    }

    pub fn is_linked(&self) -> bool {
        self.linked
    }

    /// Increments on every successful link (0 = never linked).
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// The log of the last link (empty after a clean link, but for profile 2's notes: a
    /// fragment output at a location other than 0 is reflected and not stored).
    pub fn log(&self) -> &str {
        &self.log
    }

    /// The linked stage module (None before the first successful link).
    pub fn module(&self, stage: Stage) -> Option<&Module> {
        if !self.linked {
            return None;
        }
        Some(match stage {
            Stage::Vertex => &self.vs,
            Stage::Fragment => &self.fs,
        })
    }

    /// The decoded stage (None before the first successful link).
    pub fn executable(&self, stage: Stage) -> Option<&Executable> {
        match stage {
            Stage::Vertex => self.vs_exec.as_ref(),
            Stage::Fragment => self.fs_exec.as_ref(),
        }
    }

    /// The stage's TGSI text as emitted at link (fragment stage with the varying remap); empty
    /// before the first successful link.
    pub fn tgsi(&self, stage: Stage) -> &TgsiText {
        match stage {
            Stage::Vertex => &self.vs_tgsi,
            Stage::Fragment => &self.fs_tgsi,
        }
    }

    /// The stage's uniform words in use (slots 0..uniform_vec4s, 4 floats each): the
    /// constant-buffer contents.
    pub fn constants(&self, stage: Stage) -> &[f32] {
        let n = self.uniform_vec4s(stage) * 4;
        let words = self.uniform_words(stage);
        words.get(..n).unwrap_or(words)
    }

    /// Texture units either stage samples (bit n = unit n).
    pub fn sampler_units(&self) -> u16 {
        self.refl
            .samplers
            .iter()
            .fold(0, |m, s| m | (1u16 << (s.unit & 15)))
    }

    /// Fragment-input slot -> vertex-output slot (-1 = unused).
    pub fn varying_remap(&self) -> &[i8; VARYING_CAP] {
        &self.refl.remap
    }

    pub fn attributes(&self) -> &[AttribInfo] {
        &self.refl.attributes
    }

    pub fn varyings(&self) -> &[VaryingInfo] {
        &self.refl.varyings
    }

    pub fn uniforms(&self) -> &[UniformInfo] {
        &self.refl.uniforms
    }

    pub fn samplers(&self) -> &[SamplerInfo] {
        &self.refl.samplers
    }

    /// Index of the uniform named `name` in [`Program::uniforms`].
    pub fn uniform_find(&self, name: &str) -> Option<usize> {
        self.refl
            .uniforms
            .iter()
            .position(|u| u.name.as_str() == name)
    }

    /// Texture unit of the sampler named `name`.
    pub fn sampler_find(&self, name: &str) -> Option<u8> {
        self.refl
            .samplers
            .iter()
            .find(|s| s.name.as_str() == name)
            .map(|s| s.unit)
    }

    /// A stage's 32 vec4 uniform slots.
    pub fn uniform_words(&self, stage: Stage) -> &[f32; UNIFORM_FLOATS_CAP] {
        match stage {
            Stage::Vertex => &self.vs_uniforms,
            Stage::Fragment => &self.fs_uniforms,
        }
    }

    /// Vec4 slots a stage uses (highest slot + 1).
    pub fn uniform_vec4s(&self, stage: Stage) -> usize {
        self.module(stage)
            .map(|m| m.iface.uniform_vec4s())
            .unwrap_or(0)
    }

    fn entry(&self, index: usize) -> Result<&UniformInfo, UniformError> {
        if !self.linked {
            return Err(UniformError::NotLinked);
        }
        self.refl
            .uniforms
            .get(index)
            .ok_or(UniformError::NoSuchUniform {
                index,
                count: self.refl.uniforms.len(),
            })
    }

    /// Float `k` of a uniform -> offset in a stage's word array starting at `slot`.
    fn word(ty: Type, slot: u16, k: usize) -> usize {
        // Matrices: `rows` floats per column (mat3 3, mat2x4 4, mat4x2 2); others one vec4.
        let rows = if ty.columns() > 0 {
            ty.components().max(1)
        } else {
            4
        } as usize;
        let (col, row) = (k / rows, k % rows);
        (slot as usize + col) * 4 + row
    }

    /// Sets a whole uniform: exactly `floats()` values (mat4 16 column-major, mat3 9
    /// column-major). Both stages that declare it are written.
    pub fn set_uniform(&mut self, index: usize, values: &[f32]) -> Result<(), UniformError> {
        let e = self.entry(index)?;
        let (ty, vs_slot, fs_slot) = (e.ty, e.vs_slot, e.fs_slot);
        let expected = uniform_floats(ty);
        if values.len() != expected {
            return Err(UniformError::WrongCount {
                expected,
                found: values.len(),
            });
        }
        // Profile 2's integers are bit patterns: a whole number given as a float converts
        // (int(v) / uint(v), as the shader's own conversion does).
        let bits = self.int_bits();
        for (slot, words) in [
            (vs_slot, &mut self.vs_uniforms),
            (fs_slot, &mut self.fs_uniforms),
        ] {
            let Some(slot) = slot else { continue };
            for (k, v) in values.iter().enumerate() {
                if let Some(w) = words.get_mut(Self::word(ty, slot, k)) {
                    *w = match ty {
                        _ if !bits || !ty.is_integer() => *v,
                        Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4 => {
                            f32::from_bits(crate::ir::f2u(*v))
                        }
                        _ => f32::from_bits(crate::ir::f2i(*v) as u32),
                    };
                }
            }
        }
        Ok(())
    }

    /// Profile 2: whether integer uniforms hold bit patterns (a stage compiled in profile 2).
    fn int_bits(&self) -> bool {
        self.vs.profile.max(self.fs.profile) != Profile::P1
    }

    /// Sets an int/uint uniform (or vector) of a profile-2 program from exact 32-bit values
    /// (the bits are stored as given: `-1i32 as u32`, `0xffffffff`); any other uniform takes
    /// the values as `set_uniform` does, each converted to a float.
    pub fn set_uniform_bits(&mut self, index: usize, values: &[u32]) -> Result<(), UniformError> {
        let e = self.entry(index)?;
        let (ty, vs_slot, fs_slot) = (e.ty, e.vs_slot, e.fs_slot);
        let expected = uniform_floats(ty);
        if values.len() != expected {
            return Err(UniformError::WrongCount {
                expected,
                found: values.len(),
            });
        }
        let raw = self.int_bits() && ty.is_integer();
        for (slot, words) in [
            (vs_slot, &mut self.vs_uniforms),
            (fs_slot, &mut self.fs_uniforms),
        ] {
            let Some(slot) = slot else { continue };
            for (k, v) in values.iter().enumerate() {
                if let Some(w) = words.get_mut(Self::word(ty, slot, k)) {
                    *w = if raw { f32::from_bits(*v) } else { *v as f32 };
                }
            }
        }
        Ok(())
    }

    /// Profile 2: the uniforms of array `name`'s elements, reflected as `name[0]`, `name[1]`,
    /// ... (a scalar, vector or matrix element type): their indexes in order, at most `N`.
    pub fn uniform_array_find<const N: usize>(&self, name: &str) -> heapless::Vec<usize, N> {
        let mut out = heapless::Vec::new();
        for k in 0..N {
            let mut en: heapless::String<{ NAME_CAP + 8 }> = heapless::String::new();
            if core::fmt::Write::write_fmt(&mut en, format_args!("{}[{}]", name, k)).is_err() {
                break;
            }
            match self.uniform_find(en.as_str()) {
                Some(i) if out.push(i).is_ok() => {}
                _ => break,
            }
        }
        out
    }

    /// Profile 2: sets a whole uniform array `name` (elements `name[0]`, `name[1]`, ...):
    /// `values` holds every element's floats in order (`floats()` of the element type each,
    /// matrices column-major). Returns the number of elements set; an array of no element
    /// is `NoSuchUniform`.
    pub fn set_uniform_array(&mut self, name: &str, values: &[f32]) -> Result<usize, UniformError> {
        let elems: heapless::Vec<usize, P2_ARRAY_LEN_MAX> = self.uniform_array_find(name);
        let Some(&first) = elems.first() else {
            return Err(UniformError::NoSuchUniform {
                index: usize::MAX,
                count: self.refl.uniforms.len(),
            });
        };
        let per = uniform_floats(self.entry(first)?.ty);
        let expected = per * elems.len();
        if values.len() != expected {
            return Err(UniformError::WrongCount {
                expected,
                found: values.len(),
            });
        }
        for (&i, chunk) in elems.iter().zip(values.chunks(per.max(1))) {
            self.set_uniform(i, chunk)?;
        }
        Ok(elems.len())
    }

    /// Sets float `lane` of a uniform (matrices: column-major index) and nothing else.
    pub fn set_uniform_lane(
        &mut self,
        index: usize,
        lane: usize,
        value: f32,
    ) -> Result<(), UniformError> {
        let e = self.entry(index)?;
        let (ty, vs_slot, fs_slot) = (e.ty, e.vs_slot, e.fs_slot);
        let floats = uniform_floats(ty);
        if lane >= floats {
            return Err(UniformError::LaneOutOfRange { lane, floats });
        }
        let value = match ty {
            _ if !self.int_bits() || !ty.is_integer() => value,
            Type::Uint | Type::UVec2 | Type::UVec3 | Type::UVec4 => {
                f32::from_bits(crate::ir::f2u(value))
            }
            _ => f32::from_bits(crate::ir::f2i(value) as u32),
        };
        for (slot, words) in [
            (vs_slot, &mut self.vs_uniforms),
            (fs_slot, &mut self.fs_uniforms),
        ] {
            if let Some(w) = slot.and_then(|s| words.get_mut(Self::word(ty, s, lane))) {
                *w = value;
            }
        }
        Ok(())
    }

    /// Reads a uniform back into `out` (which must hold `floats()` values).
    pub fn uniform_value(&self, index: usize, out: &mut [f32]) -> Result<(), UniformError> {
        let e = self.entry(index)?;
        let expected = uniform_floats(e.ty);
        if out.len() != expected {
            return Err(UniformError::WrongCount {
                expected,
                found: out.len(),
            });
        }
        let (slot, words) = match (e.vs_slot, e.fs_slot) {
            (Some(s), _) => (s, &self.vs_uniforms),
            (None, Some(s)) => (s, &self.fs_uniforms),
            (None, None) => return Ok(()),
        };
        for (k, o) in out.iter_mut().enumerate() {
            *o = words.get(Self::word(e.ty, slot, k)).copied().unwrap_or(0.0);
        }
        Ok(())
    }
}

/// Whether the varying in `slot` of the stage `iface` describes is declared `invariant`.
/// The interface block a varying name belongs to: `B` of `B.member` or `B[k].member`.
fn block_of(name: &str) -> Option<&str> {
    let dot = name.find('.')?;
    let head = name.get(..dot)?;
    Some(head.split('[').next().unwrap_or(head))
}

/// Profile 2: the array size of interface block `block` in a stage (0: not an array), or
/// `None` when the stage has no varying of it.
fn block_array_len(iface: &crate::ir::Interface, block: &str) -> Option<u16> {
    let mut len: Option<u16> = None;
    for v in iface.varyings.iter() {
        let n = v.name.as_str();
        if block_of(n) != Some(block) {
            continue;
        }
        let rest = n.get(block.len()..).unwrap_or("");
        let k = rest
            .strip_prefix('[')
            .and_then(|r| r.split(']').next())
            .and_then(|d| d.parse::<u16>().ok())
            .map(|k| k.saturating_add(1))
            .unwrap_or(0);
        len = Some(len.map_or(k, |l| l.max(k)));
    }
    len
}

/// Profile 2: the array a varying is an element of (`w` of `w[1]`, `B.uv` of `B.uv[0]`,
/// `B[1].uv` of `B[1].uv[0]`); None when its last path segment has no index (`B[1].n`).
fn array_of(name: &str) -> Option<&str> {
    let last = name.rfind('.').map_or(0, |d| d + 1);
    let open = name.get(last..)?.find('[')? + last;
    name.ends_with(']').then(|| name.get(..open)).flatten()
}

/// Profile 2: the element count of array varying `base` in a stage (its highest index + 1),
/// or `None` when the stage has no element of it.
fn array_varying_len(iface: &crate::ir::Interface, base: &str) -> Option<u16> {
    let mut len: Option<u16> = None;
    for v in iface.varyings.iter() {
        let n = v.name.as_str();
        if array_of(n) != Some(base) {
            continue;
        }
        let k = n
            .get(base.len() + 1..n.len().saturating_sub(1))
            .and_then(|d| d.parse::<u16>().ok())
            .map_or(0, |k| k.saturating_add(1));
        len = Some(len.map_or(k, |l| l.max(k)));
    }
    len
}

/// A matrix type: its varying pieces are columns (`B.m[c]`), checked by type, not by count.
fn is_matrix_type(t: Type) -> bool {
    t.columns() > 1
}

fn invariant(iface: &crate::ir::Interface, slot: u8) -> bool {
    u32::from(slot) < u32::BITS && iface.invariant_slots & (1 << slot) != 0
}
