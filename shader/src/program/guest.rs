//! Guest-owned shader and program handles: the bounded tables (16 shaders, 8 programs for the
//! whole system) behind the guest/application shader API.
//!
//! Owns: handle allocation (generation-checked: a slot's 16-bit generation advances on every
//! free, so a stale id is refused until that one slot has been freed 65,536 times, when the
//! generation wraps and the old id names the slot's object again — the spec's handle format has
//! 16 bits of generation; see the `stale_id_wraps_after_65536_frees` test), the
//! owner check on every operation, attachment reference counts and the live-object count.
//! Must never: let one owner see, use or free another owner's object (an id of another owner is
//! indistinguishable from an unknown id, so owners cannot probe each other), free a shader a live
//! program still has attached (it stays pinned until the last program lets go), hand out a handle
//! for a failed compile, or keep global state (the registry is a value; the kernel owns one).
//!
//! Size: with `Module` shaders and `link::Program` programs the tables take about 430 KB, so
//! keep the registry in a `Box` or a static, never on a stack.
//!
//! The registry is generic over the stored shader `S` and the program `P`: compiling and
//! linking are done by closures the caller passes in, so this generic layer knows nothing of the
//! frontend or the linker. A program object keeps one `P` for its whole life and every link
//! runs on it in place: a successful relink advances the program's generation, and a failed
//! relink keeps the previous linked program together with the log that says so (`kept
//! previous program`), readable through [`GuestRegistry::last_link`].
//!
//! [`ShaderRegistry`] (real shaders and programs) adds the specification's compile path: its
//! `compile_source` goes through a caller-owned [`crate::program::cache::Compiler`] (the compile cache,
//! whose hit and miss counts are `Compiler::stats`), and `link_program` links with
//! `link::Program` in place.
use core::num::NonZeroU32;

use crate::ir::Stage;
use crate::limits::{GUEST_PROGRAMS, GUEST_SHADERS};

/// Who owns an object (a process or application id chosen by the caller).
pub type Owner = u32;

/// A shader handle: `generation << 16 | (slot + 1)`, never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShaderId(pub NonZeroU32);

/// A program handle: `generation << 16 | (slot + 1)`, never 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProgramId(pub NonZeroU32);

/// A stored shader must say which stage it is, so attach can fill the right place.
pub trait GuestShader {
    fn stage(&self) -> Stage;
}

impl GuestShader for crate::ir::Module {
    fn stage(&self) -> Stage {
        self.stage
    }
}

impl GuestShader for crate::program::compile::Shader {
    fn stage(&self) -> Stage {
        self.stage
    }
}

/// A stored program: created empty with the object, linked in place.
pub trait GuestProgram: Default {
    /// Whether a link ever succeeded (a failed relink keeps the previous link).
    fn is_linked(&self) -> bool;
}

impl GuestProgram for crate::program::link::Program {
    fn is_linked(&self) -> bool {
        crate::program::link::Program::is_linked(self)
    }
}

/// The system's registry: compiled shaders and linked programs.
pub type ShaderRegistry =
    GuestRegistry<crate::program::compile::Shader, crate::program::link::Program>;

/// Why an operation was refused. `E` carries compile diagnostics or a link error.
#[derive(Clone, Debug, PartialEq)]
pub enum GuestError<E> {
    /// The system-wide table is full.
    TableFull { what: &'static str, limit: usize },
    /// The id is unknown, stale, released, or belongs to another owner.
    NoSuchHandle,
    /// Link needs both a vertex and a fragment shader attached.
    MissingShader { stage: Stage },
    /// Compilation failed (no handle was consumed) or linking failed.
    Failed(E),
}

impl<E: core::fmt::Display> core::fmt::Display for GuestError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GuestError::TableFull { what, limit } => {
                write!(f, "{} table full (limit {})", what, limit)
            }
            GuestError::NoSuchHandle => write!(f, "no such handle for this owner"),
            GuestError::MissingShader { stage } => {
                write!(f, "program is missing a {} shader", stage.name())
            }
            GuestError::Failed(e) => write!(f, "{}", e),
        }
    }
}

fn pack(generation: u16, slot: usize) -> NonZeroU32 {
    // slot < 16, so slot + 1 is in 1..=16 and the value is never 0.
    NonZeroU32::new(((generation as u32) << 16) | (slot as u32 + 1)).unwrap_or(NonZeroU32::MIN)
}

fn unpack(id: NonZeroU32) -> (u16, usize) {
    let v = id.get();
    ((v >> 16) as u16, ((v & 0xffff) as usize).wrapping_sub(1))
}

struct ShaderEntry<S> {
    owner: Owner,
    generation: u16,
    shader: S,
    /// Released by its owner: the id is dead, the object lives on while `refs > 0`.
    released: bool,
    /// Programs that have it attached.
    refs: u8,
}

struct ProgramEntry<P> {
    owner: Owner,
    generation: u16,
    vertex: Option<usize>,
    fragment: Option<usize>,
    /// Created at the first link attempt, then linked in place by every later one.
    program: Option<P>,
}

/// The handle tables.
pub struct GuestRegistry<S, P> {
    shaders: [Option<ShaderEntry<S>>; GUEST_SHADERS],
    programs: [Option<ProgramEntry<P>>; GUEST_PROGRAMS],
    /// Per-slot generation counters, bumped on every free so old ids go stale.
    shader_gen: [u16; GUEST_SHADERS],
    program_gen: [u16; GUEST_PROGRAMS],
}

impl<S: GuestShader, P: GuestProgram> Default for GuestRegistry<S, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: GuestShader, P: GuestProgram> GuestRegistry<S, P> {
    pub fn new() -> Self {
        GuestRegistry {
            shaders: core::array::from_fn(|_| None),
            programs: core::array::from_fn(|_| None),
            shader_gen: [0; GUEST_SHADERS],
            program_gen: [0; GUEST_PROGRAMS],
        }
    }

    /// Objects currently stored: shaders (including ones released but still pinned by a
    /// program) plus programs.
    pub fn live_count(&self) -> usize {
        self.shaders.iter().flatten().count() + self.programs.iter().flatten().count()
    }

    fn free_shader_slot(&self) -> Option<usize> {
        self.shaders.iter().position(Option::is_none)
    }

    /// Compiles with `compile` and stores the result. The table is checked first and a failed
    /// compile returns its diagnostics without consuming a handle.
    pub fn compile<E>(
        &mut self,
        owner: Owner,
        compile: impl FnOnce() -> Result<S, E>,
    ) -> Result<ShaderId, GuestError<E>> {
        if self.free_shader_slot().is_none() {
            return Err(GuestError::TableFull {
                what: "guest shader",
                limit: GUEST_SHADERS,
            });
        }
        let shader = compile().map_err(GuestError::Failed)?;
        self.insert_shader(owner, shader)
    }

    /// Stores an already built shader (e.g. loaded from CSIR).
    pub fn insert_shader<E>(&mut self, owner: Owner, shader: S) -> Result<ShaderId, GuestError<E>> {
        let slot = self.free_shader_slot().ok_or(GuestError::TableFull {
            what: "guest shader",
            limit: GUEST_SHADERS,
        })?;
        let generation = self.shader_gen.get(slot).copied().unwrap_or(0);
        if let Some(e) = self.shaders.get_mut(slot) {
            *e = Some(ShaderEntry {
                owner,
                generation,
                shader,
                released: false,
                refs: 0,
            });
        }
        Ok(ShaderId(pack(generation, slot)))
    }

    /// Slot of a live, unreleased shader of `owner`.
    fn shader_slot(&self, owner: Owner, id: ShaderId) -> Option<usize> {
        let (generation, slot) = unpack(id.0);
        match self.shaders.get(slot) {
            Some(Some(e)) if e.owner == owner && e.generation == generation && !e.released => {
                Some(slot)
            }
            _ => None,
        }
    }

    fn program_slot(&self, owner: Owner, id: ProgramId) -> Option<usize> {
        let (generation, slot) = unpack(id.0);
        match self.programs.get(slot) {
            Some(Some(e)) if e.owner == owner && e.generation == generation => Some(slot),
            _ => None,
        }
    }

    pub fn shader(&self, owner: Owner, id: ShaderId) -> Option<&S> {
        let slot = self.shader_slot(owner, id)?;
        self.shaders.get(slot)?.as_ref().map(|e| &e.shader)
    }

    /// Frees the slot when nothing holds it any more.
    fn release_if_unused(&mut self, slot: usize) {
        if let Some(cell) = self.shaders.get_mut(slot) {
            if matches!(cell, Some(e) if e.released && e.refs == 0) {
                *cell = None;
                if let Some(g) = self.shader_gen.get_mut(slot) {
                    *g = g.wrapping_add(1);
                }
            }
        }
    }

    /// Releases the owner's handle. A shader still attached to a program stays stored (pinned)
    /// until the last such program detaches it or is dropped.
    pub fn drop_shader(&mut self, owner: Owner, id: ShaderId) -> Result<(), GuestError<()>> {
        let slot = self
            .shader_slot(owner, id)
            .ok_or(GuestError::NoSuchHandle)?;
        if let Some(Some(e)) = self.shaders.get_mut(slot) {
            e.released = true;
        }
        self.release_if_unused(slot);
        Ok(())
    }

    pub fn create_program(&mut self, owner: Owner) -> Result<ProgramId, GuestError<()>> {
        let slot = self
            .programs
            .iter()
            .position(Option::is_none)
            .ok_or(GuestError::TableFull {
                what: "guest program",
                limit: GUEST_PROGRAMS,
            })?;
        let generation = self.program_gen.get(slot).copied().unwrap_or(0);
        if let Some(cell) = self.programs.get_mut(slot) {
            *cell = Some(ProgramEntry {
                owner,
                generation,
                vertex: None,
                fragment: None,
                program: None,
            });
        }
        Ok(ProgramId(pack(generation, slot)))
    }

    fn unref(&mut self, slot: Option<usize>) {
        if let Some(s) = slot {
            if let Some(Some(e)) = self.shaders.get_mut(s) {
                e.refs = e.refs.saturating_sub(1);
            }
            self.release_if_unused(s);
        }
    }

    /// Attaches a shader of the same owner, replacing the program's shader of that stage.
    pub fn attach(
        &mut self,
        owner: Owner,
        prog: ProgramId,
        shader: ShaderId,
    ) -> Result<(), GuestError<()>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        let s = self
            .shader_slot(owner, shader)
            .ok_or(GuestError::NoSuchHandle)?;
        let stage = match self.shaders.get(s) {
            Some(Some(e)) => e.shader.stage(),
            _ => return Err(GuestError::NoSuchHandle),
        };
        let old = match self.programs.get_mut(p) {
            Some(Some(pe)) => {
                let place = match stage {
                    Stage::Vertex => &mut pe.vertex,
                    Stage::Fragment => &mut pe.fragment,
                };
                if *place == Some(s) {
                    return Ok(());
                }
                place.replace(s)
            }
            _ => return Err(GuestError::NoSuchHandle),
        };
        if let Some(Some(e)) = self.shaders.get_mut(s) {
            // At most 8 programs exist, so the count cannot overflow a u8.
            e.refs = e.refs.saturating_add(1);
        }
        self.unref(old);
        Ok(())
    }

    /// Links the attached shaders with `link`, which works on the program's own `P` in place
    /// (created empty at the first attempt): a relink advances what `link` advances (the
    /// generation of a `link::Program`), and a failed relink keeps the previous linked state and
    /// leaves `link`'s log in it.
    pub fn link<E>(
        &mut self,
        owner: Owner,
        prog: ProgramId,
        link: impl FnOnce(&S, &S, &mut P) -> Result<(), E>,
    ) -> Result<(), GuestError<E>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        let (vs, fs) = match self.programs.get(p) {
            Some(Some(pe)) => (pe.vertex, pe.fragment),
            _ => return Err(GuestError::NoSuchHandle),
        };
        let shaders = &self.shaders;
        let get = |slot: Option<usize>, stage| match slot.and_then(|s| shaders.get(s)) {
            Some(Some(e)) => Ok(&e.shader),
            _ => Err(GuestError::MissingShader { stage }),
        };
        let (v, f) = (get(vs, Stage::Vertex)?, get(fs, Stage::Fragment)?);
        let Some(Some(pe)) = self.programs.get_mut(p) else {
            return Err(GuestError::NoSuchHandle);
        };
        link(v, f, pe.program.get_or_insert_with(P::default)).map_err(GuestError::Failed)
    }

    /// The program's linked state (None until a link succeeded).
    pub fn program(&self, owner: Owner, prog: ProgramId) -> Result<Option<&P>, GuestError<()>> {
        Ok(self.last_link(owner, prog)?.filter(|p| p.is_linked()))
    }

    /// The program's state after its last link attempt, linked or not (its log says why a link
    /// failed); None before the first attempt.
    pub fn last_link(&self, owner: Owner, prog: ProgramId) -> Result<Option<&P>, GuestError<()>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        match self.programs.get(p) {
            Some(Some(pe)) => Ok(pe.program.as_ref()),
            _ => Err(GuestError::NoSuchHandle),
        }
    }

    /// Mutable access to the linked state (uniform updates).
    pub fn program_mut(
        &mut self,
        owner: Owner,
        prog: ProgramId,
    ) -> Result<Option<&mut P>, GuestError<()>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        match self.programs.get_mut(p) {
            Some(Some(pe)) => Ok(pe.program.as_mut().filter(|p| p.is_linked())),
            _ => Err(GuestError::NoSuchHandle),
        }
    }

    /// The shaders currently attached to a program (vertex, fragment), even if their owner
    /// released the handles.
    pub fn attached(
        &self,
        owner: Owner,
        prog: ProgramId,
    ) -> Result<(Option<&S>, Option<&S>), GuestError<()>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        let pe = match self.programs.get(p) {
            Some(Some(pe)) => pe,
            _ => return Err(GuestError::NoSuchHandle),
        };
        let get = |slot: Option<usize>| match slot.and_then(|s| self.shaders.get(s)) {
            Some(Some(e)) => Some(&e.shader),
            _ => None,
        };
        Ok((get(pe.vertex), get(pe.fragment)))
    }

    pub fn drop_program(&mut self, owner: Owner, prog: ProgramId) -> Result<(), GuestError<()>> {
        let p = self
            .program_slot(owner, prog)
            .ok_or(GuestError::NoSuchHandle)?;
        let taken = self.programs.get_mut(p).and_then(Option::take);
        if let Some(g) = self.program_gen.get_mut(p) {
            *g = g.wrapping_add(1);
        }
        if let Some(pe) = taken {
            self.unref(pe.vertex);
            self.unref(pe.fragment);
        }
        Ok(())
    }

    /// Releases everything `owner` holds: its programs first, then its shaders. Returns the
    /// number of handles released.
    pub fn drop_owner(&mut self, owner: Owner) -> usize {
        let mut n = 0;
        for p in 0..GUEST_PROGRAMS {
            let id = match self.programs.get(p) {
                Some(Some(pe)) if pe.owner == owner => ProgramId(pack(pe.generation, p)),
                _ => continue,
            };
            if self.drop_program(owner, id).is_ok() {
                n += 1;
            }
        }
        for s in 0..GUEST_SHADERS {
            if let Some(Some(e)) = self.shaders.get_mut(s) {
                if e.owner == owner {
                    if !e.released {
                        n += 1;
                    }
                    e.released = true;
                }
            }
            self.release_if_unused(s);
        }
        n
    }
}

impl ShaderRegistry {
    /// Compiles `source` through `compiler` (the compile cache: a hit skips every phase) and
    /// stores the shader for `owner`. The table is checked first; a failed compile returns its
    /// diagnostics and consumes no handle.
    #[allow(clippy::result_large_err)] // the diagnostics are the product of a failed compile
    pub fn compile_source(
        &mut self,
        compiler: &mut crate::program::cache::Compiler,
        owner: Owner,
        stage: u32,
        source: &[u8],
        name: &str,
    ) -> Result<ShaderId, GuestError<crate::front::diag::Diagnostics>> {
        self.compile(owner, || compiler.compile(stage, source, name))
    }

    /// [`ShaderRegistry::compile_source`] with compile options (the profile: a source's own
    /// `#pragma chrisos profile N` still overrides it). The options are part of the cache key.
    #[allow(clippy::result_large_err)] // the diagnostics are the product of a failed compile
    pub fn compile_source_with(
        &mut self,
        compiler: &mut crate::program::cache::Compiler,
        owner: Owner,
        stage: u32,
        source: &[u8],
        name: &str,
        opts: &crate::program::compile::CompileOptions,
    ) -> Result<ShaderId, GuestError<crate::front::diag::Diagnostics>> {
        self.compile(owner, || compiler.compile_with(stage, source, name, opts))
    }

    /// Links the program's attached shaders into its own `link::Program`: the generation
    /// advances on every successful link; a failed relink keeps the previous program and its
    /// log ends with `kept previous program` ([`GuestRegistry::last_link`] reads it).
    pub fn link_program(
        &mut self,
        owner: Owner,
        prog: ProgramId,
    ) -> Result<(), GuestError<crate::program::link::LinkError>> {
        self.link(owner, prog, |v, f, p| {
            p.link(Some(&v.module), Some(&f.module))
        })
    }
}

/// Self-test: owner isolation, pinning by a program, drop_owner and the live count.
pub fn selftest_guest(w: &mut dyn core::fmt::Write) -> bool {
    struct S(Stage);
    impl GuestShader for S {
        fn stage(&self) -> Stage {
            self.0
        }
    }
    #[derive(Default)]
    struct P;
    impl GuestProgram for P {
        fn is_linked(&self) -> bool {
            false
        }
    }
    let mut r: GuestRegistry<S, P> = GuestRegistry::new();
    let run = |r: &mut GuestRegistry<S, P>| -> Option<()> {
        let v = r.compile(7, || Ok::<S, ()>(S(Stage::Vertex))).ok()?;
        let p = r.create_program(7).ok()?;
        r.attach(7, p, v).ok()?;
        if r.drop_shader(9, v).is_ok() || r.shader(9, v).is_some() {
            return None;
        }
        r.drop_shader(7, v).ok()?;
        if r.live_count() != 2 {
            return None;
        }
        if r.compile(7, || Err::<S, ()>(())).is_ok() || r.live_count() != 2 {
            return None;
        }
        r.drop_owner(7);
        (r.live_count() == 0).then_some(())
    };
    let ok = run(&mut r).is_some();
    if !ok {
        let _ = write!(
            w,
            "guest registry check failed, live count {}",
            r.live_count()
        );
    }
    ok
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // compile()'s own result type
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Sh(Stage, u32);
    impl GuestShader for Sh {
        fn stage(&self) -> Stage {
            self.0
        }
    }
    /// The "linked program" of these tests: the serials of the shaders it was last linked
    /// from, and how many links succeeded.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Linked {
        serials: Option<(u32, u32)>,
        links: u32,
    }
    impl GuestProgram for Linked {
        fn is_linked(&self) -> bool {
            self.serials.is_some()
        }
    }
    type Reg = GuestRegistry<Sh, Linked>;

    fn ok(stage: Stage, serial: u32) -> impl FnOnce() -> Result<Sh, &'static str> {
        move || Ok(Sh(stage, serial))
    }
    fn link(v: &Sh, f: &Sh, p: &mut Linked) -> Result<(), &'static str> {
        p.serials = Some((v.1, f.1));
        p.links += 1;
        Ok(())
    }

    #[test]
    fn owners_are_isolated() {
        let mut r = Reg::new();
        let s = r.compile(7, ok(Stage::Vertex, 1)).unwrap();
        let p = r.create_program(7).unwrap();
        assert!(r.shader(7, s).is_some());
        assert!(r.shader(9, s).is_none());
        assert_eq!(r.drop_shader(9, s), Err(GuestError::NoSuchHandle));
        assert_eq!(r.attach(9, p, s), Err(GuestError::NoSuchHandle));
        let q = r.create_program(9).unwrap();
        assert_eq!(
            r.attach(9, q, s),
            Err(GuestError::NoSuchHandle),
            "another owner's shader"
        );
        assert_eq!(
            r.attach(7, q, s),
            Err(GuestError::NoSuchHandle),
            "another owner's program"
        );
        assert!(r.program(9, p).is_err());
        assert!(r.link(9, p, link).is_err());
        assert_eq!(r.drop_program(9, p), Err(GuestError::NoSuchHandle));
        assert!(
            r.shader(7, s).is_some(),
            "still alive after the refused operations"
        );
    }

    #[test]
    fn drop_owner_releases_everything_it_owns_and_nothing_else() {
        let mut r = Reg::new();
        let start = r.live_count();
        let v = r.compile(7, ok(Stage::Vertex, 1)).unwrap();
        let f = r.compile(7, ok(Stage::Fragment, 2)).unwrap();
        let p = r.create_program(7).unwrap();
        r.attach(7, p, v).unwrap();
        r.attach(7, p, f).unwrap();
        let other = r.compile(8, ok(Stage::Vertex, 3)).unwrap();
        assert_eq!(r.live_count(), start + 4);
        assert_eq!(r.drop_owner(7), 3);
        assert_eq!(r.live_count(), start + 1);
        assert!(r.shader(7, v).is_none() && r.program(7, p).is_err());
        assert!(r.shader(8, other).is_some());
    }

    #[test]
    fn a_program_keeps_its_shaders_alive() {
        let mut r = Reg::new();
        let v = r.compile(1, ok(Stage::Vertex, 10)).unwrap();
        let f = r.compile(1, ok(Stage::Fragment, 20)).unwrap();
        let p = r.create_program(1).unwrap();
        let q = r.create_program(1).unwrap();
        for prog in [p, q] {
            r.attach(1, prog, v).unwrap();
            r.attach(1, prog, f).unwrap();
        }
        r.drop_shader(1, v).unwrap();
        r.drop_shader(1, f).unwrap();
        assert!(r.shader(1, v).is_none(), "the handle is released");
        assert_eq!(r.live_count(), 4, "but both shaders are pinned");
        // Relinking still works: the program uses its pinned shaders.
        r.link(1, p, link).unwrap();
        assert_eq!(
            r.program(1, p).unwrap().and_then(|l| l.serials),
            Some((10, 20))
        );
        assert_eq!(
            r.attached(1, p).unwrap(),
            (Some(&Sh(Stage::Vertex, 10)), Some(&Sh(Stage::Fragment, 20)))
        );
        r.drop_program(1, p).unwrap();
        assert_eq!(r.live_count(), 3, "q still needs them");
        r.drop_program(1, q).unwrap();
        assert_eq!(r.live_count(), 0);
    }

    #[test]
    fn attaching_a_new_shader_releases_a_pinned_one() {
        let mut r = Reg::new();
        let v1 = r.compile(1, ok(Stage::Vertex, 1)).unwrap();
        let v2 = r.compile(1, ok(Stage::Vertex, 2)).unwrap();
        let p = r.create_program(1).unwrap();
        r.attach(1, p, v1).unwrap();
        r.drop_shader(1, v1).unwrap();
        assert_eq!(r.live_count(), 3);
        r.attach(1, p, v2).unwrap();
        assert_eq!(r.live_count(), 2);
        assert_eq!(
            r.link(1, p, link),
            Err(GuestError::MissingShader {
                stage: Stage::Fragment
            })
        );
    }

    #[test]
    fn failed_compiles_consume_no_handle_and_return_diagnostics() {
        let mut r = Reg::new();
        for _ in 0..100 {
            assert_eq!(
                r.compile(1, || Err::<Sh, _>("syntax error")),
                Err(GuestError::Failed("syntax error"))
            );
        }
        assert_eq!(r.live_count(), 0);
    }

    #[test]
    fn compile_free_cycles_return_the_live_count() {
        let mut r = Reg::new();
        let keep = r.compile(3, ok(Stage::Vertex, 0)).unwrap();
        let start = r.live_count();
        let mut ids = [None; 2];
        for i in 0..1000u32 {
            let s = r.compile(1, ok(Stage::Fragment, i)).unwrap();
            let p = r.create_program(1).unwrap();
            r.attach(1, p, s).unwrap();
            if i % 2 == 0 {
                r.drop_shader(1, s).unwrap();
                r.drop_program(1, p).unwrap();
            } else {
                r.drop_program(1, p).unwrap();
                r.drop_shader(1, s).unwrap();
            }
            ids[(i % 2) as usize] = Some(s);
        }
        assert_eq!(r.live_count(), start);
        // Stale ids from the loop never reach a new object in the same slot.
        let fresh = r.compile(1, ok(Stage::Fragment, 5000)).unwrap();
        for old in ids.into_iter().flatten() {
            assert!(r.shader(1, old).is_none());
        }
        assert!(r.shader(1, fresh).is_some() && r.shader(3, keep).is_some());
    }

    #[test]
    fn tables_are_bounded() {
        let mut r = Reg::new();
        for i in 0..GUEST_SHADERS as u32 {
            r.compile(1, ok(Stage::Vertex, i)).unwrap();
        }
        let mut compiled = false;
        let e = r.compile(1, || {
            compiled = true;
            Ok::<Sh, ()>(Sh(Stage::Vertex, 99))
        });
        assert_eq!(
            e,
            Err(GuestError::TableFull {
                what: "guest shader",
                limit: 16
            })
        );
        assert!(!compiled, "a full table is detected before compiling");
        for _ in 0..GUEST_PROGRAMS {
            r.create_program(2).unwrap();
        }
        assert_eq!(
            r.create_program(2),
            Err(GuestError::TableFull {
                what: "guest program",
                limit: 8
            })
        );
        assert_eq!(r.live_count(), 24);
    }

    #[test]
    fn works_with_modules_and_the_real_linker() {
        use crate::program::link::Program;
        let fs = crate::back::tgsi::selftest_module();
        let mut vs = crate::ir::Module::new(Stage::Vertex);
        let mut n = crate::ir::Name::new();
        let _ = n.push_str("v");
        let _ = vs.iface.varyings.push(crate::ir::Varying {
            name: n,
            ty: crate::ir::Type::Vec4,
            slot: 0,
            interp: crate::ir::Interp::Smooth,
        });
        vs.iface.writes_position = true;
        let _ = vs.imms.push(1.0);
        let mut c = crate::ir::Inst::new(crate::ir::Op::Const);
        c.dst = 0;
        c.lanes = 1;
        let _ = vs.insts.push(c);
        let mut st = crate::ir::Inst::new(crate::ir::Op::StorePos);
        st.a = 0;
        let _ = vs.insts.push(st);
        let mut sv = crate::ir::Inst::new(crate::ir::Op::StoreVar);
        sv.a = 0;
        let _ = vs.insts.push(sv);
        vs.temps = 1;
        let mut r: GuestRegistry<crate::ir::Module, Program> = GuestRegistry::new();
        let v = r.insert_shader::<()>(4, vs).unwrap();
        let f = r.insert_shader::<()>(4, fs).unwrap();
        let p = r.create_program(4).unwrap();
        r.attach(4, p, v).unwrap();
        r.attach(4, p, f).unwrap();
        r.link(4, p, |a, b, prog: &mut Program| prog.link(Some(a), Some(b)))
            .unwrap();
        assert!(r
            .program(4, p)
            .unwrap()
            .is_some_and(|prog| prog.is_linked()));
        assert_eq!(r.live_count(), 3);
        r.drop_owner(4);
        assert_eq!(r.live_count(), 0);
    }

    #[test]
    fn real_compile_link_and_1000_cycles() {
        use crate::program::cache::Compiler;
        let vs_src = b"#version 330\nlayout(location = 0) in vec4 p;\nout vec4 c;\nvoid main() { c = p; gl_Position = p; }\n";
        let fs_src = b"#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
        let mut r: std::boxed::Box<ShaderRegistry> = std::boxed::Box::default();
        let mut c: std::boxed::Box<Compiler> = std::boxed::Box::default();
        let start = r.live_count();
        for i in 0..1000u32 {
            let owner = 1 + i % 3;
            let v = r
                .compile_source(&mut c, owner, 0, vs_src, "v")
                .ok()
                .unwrap();
            let f = r
                .compile_source(&mut c, owner, 1, fs_src, "f")
                .ok()
                .unwrap();
            // A compile failure returns diagnostics and takes no handle.
            let before = r.live_count();
            assert!(matches!(
                r.compile_source(&mut c, owner, 1, b"void main( {", "bad"),
                Err(GuestError::Failed(_))
            ));
            assert_eq!(r.live_count(), before);
            let p = r.create_program(owner).unwrap();
            r.attach(owner, p, v).unwrap();
            r.attach(owner, p, f).unwrap();
            if i % 100 == 0 {
                r.link_program(owner, p).unwrap();
            }
            match i % 3 {
                0 => {
                    r.drop_shader(owner, v).unwrap();
                    r.drop_shader(owner, f).unwrap();
                    r.drop_program(owner, p).unwrap();
                }
                1 => {
                    r.drop_program(owner, p).unwrap();
                    r.drop_shader(owner, v).unwrap();
                    r.drop_shader(owner, f).unwrap();
                }
                _ => {
                    r.drop_owner(owner);
                }
            }
        }
        assert_eq!(r.live_count(), start);
    }

    /// Issue 11, item 13: relinks advance the generation, a failed relink keeps the previous
    /// program and its log says so, and guest compiles go through the compile cache.
    #[test]
    fn relinks_advance_the_generation_and_keep_the_log_of_a_failure() {
        use crate::program::cache::Compiler;
        let vs_src = b"#version 330\nlayout(location = 0) in vec4 p;\nout vec4 c;\nvoid main() { c = p; gl_Position = p; }\n";
        let fs_src = b"#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
        let bad_fs = b"#version 330\nin vec4 missing;\nout vec4 o;\nvoid main() { o = missing; }\n";
        let mut r: std::boxed::Box<ShaderRegistry> = std::boxed::Box::default();
        let mut c: std::boxed::Box<Compiler> = std::boxed::Box::default();
        let v = r.compile_source(&mut c, 1, 0, vs_src, "v").ok().unwrap();
        let f = r.compile_source(&mut c, 1, 1, fs_src, "f").ok().unwrap();
        let p = r.create_program(1).unwrap();
        r.attach(1, p, v).unwrap();
        r.attach(1, p, f).unwrap();
        let generation = |r: &ShaderRegistry| r.program(1, p).unwrap().map(|x| x.generation());
        assert_eq!(generation(&r), None);
        r.link_program(1, p).unwrap();
        assert_eq!(generation(&r), Some(1));
        r.link_program(1, p).unwrap();
        assert_eq!(generation(&r), Some(2));
        // A failed relink: the previous program stays, and so does the log saying so.
        let bad = r.compile_source(&mut c, 1, 1, bad_fs, "bad").ok().unwrap();
        r.attach(1, p, bad).unwrap();
        assert!(matches!(
            r.link_program(1, p),
            Err(GuestError::Failed(
                crate::program::link::LinkError::MissingVarying(_)
            ))
        ));
        assert_eq!(generation(&r), Some(2));
        let log = r.last_link(1, p).unwrap().unwrap().log();
        assert!(log.contains("missing varying missing"), "{}", log);
        assert!(log.ends_with("kept previous program\n"), "{}", log);
        assert!(r.program(1, p).unwrap().unwrap().is_linked());
        // Back to the good shader: the generation goes on.
        r.attach(1, p, f).unwrap();
        r.link_program(1, p).unwrap();
        assert_eq!(generation(&r), Some(3));
        // The same sources again are cache hits; the counts are visible.
        let before = c.stats();
        let v2 = r.compile_source(&mut c, 2, 0, vs_src, "v2").ok().unwrap();
        let s = c.stats();
        assert_eq!((s.hits, s.misses), (before.hits + 1, before.misses));
        assert_eq!((before.hits, before.misses), (0, 3));
        assert_eq!(r.shader(2, v2).unwrap().name.as_str(), "v2");
    }

    /// Issue 12 item 2: the registry passes the profile through; the same source in two
    /// profiles is two cache entries and two shaders of their own profile, and a profile-2
    /// program links.
    #[test]
    fn profile_2_sources_compile_and_link_through_the_registry() {
        use crate::limits::Profile;
        use crate::program::cache::Compiler;
        use crate::program::compile::CompileOptions;
        // `#define` is profile 2's: profile 1 rejects this pair.
        let vs_src = b"#version 330\n#define P p\nlayout(location = 0) in vec4 p;\nout vec4 c;\nvoid main() { c = P; gl_Position = P; }\n";
        let fs_src = b"#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
        let p2 = CompileOptions::profile(Profile::P2);
        let mut r: std::boxed::Box<ShaderRegistry> = std::boxed::Box::default();
        let mut c: std::boxed::Box<Compiler> = std::boxed::Box::default();
        assert!(matches!(
            r.compile_source(&mut c, 1, 0, vs_src, "v"),
            Err(GuestError::Failed(_))
        ));
        let v = r
            .compile_source_with(&mut c, 1, 0, vs_src, "v", &p2)
            .ok()
            .unwrap();
        let f = r
            .compile_source_with(&mut c, 1, 1, fs_src, "f", &p2)
            .ok()
            .unwrap();
        let f1 = r.compile_source(&mut c, 1, 1, fs_src, "f1").ok().unwrap();
        assert_eq!(r.shader(1, v).unwrap().profile, Profile::P2);
        assert_eq!(r.shader(1, f).unwrap().module.profile, Profile::P2);
        assert_eq!(r.shader(1, f1).unwrap().profile, Profile::P1);
        // Two profiles of one fragment source: two misses, no hit.
        assert_eq!(c.stats().hits, 0);
        let p = r.create_program(1).unwrap();
        r.attach(1, p, v).unwrap();
        r.attach(1, p, f).unwrap();
        r.link_program(1, p).unwrap();
        assert!(r.program(1, p).unwrap().unwrap().is_linked());
        // The same profile-2 source again is a cache hit.
        r.compile_source_with(&mut c, 2, 1, fs_src, "f2", &p2)
            .ok()
            .unwrap();
        assert_eq!(c.stats().hits, 1);
    }

    #[test]
    fn forged_ids_are_rejected() {
        let r = Reg::new();
        for raw in [1u32, 0xffff, 0x1_0001, 17, u32::MAX] {
            let id = ShaderId(NonZeroU32::new(raw).unwrap());
            assert!(r.shader(0, id).is_none());
        }
    }
}
