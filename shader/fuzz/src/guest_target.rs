//! The `guest` fuzz target: a fuzzer-chosen sequence of operations by several owners on the guest handle
//! tables (`shader::program::guest::GuestRegistry`), checked against a plain model after every step: an
//! owner sees exactly its own live objects, another owner's or a stale id is "no such handle",
//! released shaders stay stored while a program holds them, the live count is exact, ids of live
//! objects are unique, and raw (forged) ids never panic.
//!
//! Input: a sequence of 3-byte operations (opcode, owner and operand selector, operand).
use std::num::NonZeroU32;

use shader::ir::Stage;
use shader::limits::{GUEST_PROGRAMS, GUEST_SHADERS};
use shader::program::guest::{
    GuestError, GuestProgram, GuestRegistry, GuestShader, ProgramId, ShaderId,
};

/// A stored shader: its stage and a unique tag to tell objects apart.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sh {
    stage: Stage,
    tag: u32,
}

impl GuestShader for Sh {
    fn stage(&self) -> Stage {
        self.stage
    }
}

/// A "linked program": the tags of the two shaders it was linked from.
type Linked = (u32, u32);

/// The registry's program object: linked in place, the last successful link's tags.
#[derive(Debug, Default)]
struct Program(Option<Linked>);

impl GuestProgram for Program {
    fn is_linked(&self) -> bool {
        self.0.is_some()
    }
}

struct MShader {
    id: ShaderId,
    owner: u32,
    sh: Sh,
    released: bool,
}

struct MProgram {
    id: ProgramId,
    owner: u32,
    vertex: Option<u32>,
    fragment: Option<u32>,
    linked: Option<Linked>,
}

#[derive(Default)]
struct Model {
    shaders: Vec<MShader>,
    programs: Vec<MProgram>,
    /// Every id handed out so far (live or not), to pick stale ids from.
    old_shader_ids: Vec<ShaderId>,
    old_program_ids: Vec<ProgramId>,
}

impl Model {
    fn refs(&self, tag: u32) -> usize {
        self.programs
            .iter()
            .filter(|p| p.vertex == Some(tag) || p.fragment == Some(tag))
            .count()
    }
    /// Drops released shaders that no program holds.
    fn collect(&mut self) {
        let keep: Vec<bool> = self
            .shaders
            .iter()
            .map(|s| !s.released || self.refs(s.sh.tag) > 0)
            .collect();
        let mut k = keep.iter();
        self.shaders.retain(|_| *k.next().unwrap());
    }
    fn shader(&self, owner: u32, id: ShaderId) -> Option<&MShader> {
        self.shaders
            .iter()
            .find(|s| s.id == id && s.owner == owner && !s.released)
    }
    fn program(&self, owner: u32, id: ProgramId) -> Option<usize> {
        self.programs
            .iter()
            .position(|p| p.id == id && p.owner == owner)
    }
    fn by_tag(&self, tag: Option<u32>) -> Option<Sh> {
        tag.and_then(|t| self.shaders.iter().find(|s| s.sh.tag == t).map(|s| s.sh))
    }
}

fn pick_shader(m: &Model, sel: u8, arg: u8) -> ShaderId {
    match sel % 3 {
        0 if !m.shaders.is_empty() => m.shaders[arg as usize % m.shaders.len()].id,
        1 if !m.old_shader_ids.is_empty() => {
            m.old_shader_ids[arg as usize % m.old_shader_ids.len()]
        }
        _ => ShaderId(NonZeroU32::new(forged(arg)).unwrap()),
    }
}

fn pick_program(m: &Model, sel: u8, arg: u8) -> ProgramId {
    match sel % 3 {
        0 if !m.programs.is_empty() => m.programs[arg as usize % m.programs.len()].id,
        1 if !m.old_program_ids.is_empty() => {
            m.old_program_ids[arg as usize % m.old_program_ids.len()]
        }
        _ => ProgramId(NonZeroU32::new(forged(arg)).unwrap()),
    }
}

/// A forged id: slot 0..=255 (most out of range), generation 0..=3 or huge.
fn forged(arg: u8) -> u32 {
    let generation = match arg >> 6 {
        3 => 0xffff,
        g => g as u32,
    };
    (generation << 16) | (arg as u32 & 0x3f).wrapping_mul(5) | 1
}

fn no_handle<E: std::fmt::Debug>(r: Result<impl std::fmt::Debug, GuestError<E>>) {
    assert!(
        matches!(r, Err(GuestError::NoSuchHandle)),
        "expected NoSuchHandle, got {:?}",
        r
    );
}

/// One input of the target: a sequence of 3-byte operations.
pub fn run(data: &[u8]) {
    let mut reg: Box<GuestRegistry<Sh, Program>> = Box::new(GuestRegistry::new());
    let mut m = Model::default();
    let mut next_tag = 1u32;
    for op in data.chunks_exact(3) {
        let (code, sel, arg) = (op[0] % 10, op[1], op[2]);
        let owner = (sel >> 4) as u32 % 3;
        let sel = sel & 15;
        match code {
            0 => {
                // Compile (fails when arg bit 1 is set: no handle may be used up).
                let stage = if arg & 1 != 0 {
                    Stage::Fragment
                } else {
                    Stage::Vertex
                };
                let sh = Sh {
                    stage,
                    tag: next_tag,
                };
                next_tag += 1;
                let fail = arg & 2 != 0;
                let full = m.shaders.len() >= GUEST_SHADERS;
                let r = reg.compile(owner, || if fail { Err(7u8) } else { Ok(sh) });
                match r {
                    Ok(id) => {
                        assert!(!fail && !full, "compile stored a shader it should not have");
                        assert!(m.shaders.iter().all(|s| s.id != id), "duplicate live id");
                        m.shaders.push(MShader {
                            id,
                            owner,
                            sh,
                            released: false,
                        });
                        m.old_shader_ids.push(id);
                    }
                    Err(GuestError::TableFull { .. }) => assert!(full, "table full too early"),
                    Err(GuestError::Failed(7)) => assert!(fail && !full),
                    Err(e) => panic!("unexpected compile error {:?}", e),
                }
            }
            1 => {
                let id = pick_shader(&m, sel, arg);
                let ok = m.shader(owner, id).is_some();
                let r = reg.drop_shader(owner, id);
                if ok {
                    assert!(r.is_ok(), "drop of a live shader failed: {:?}", r);
                    if let Some(s) = m.shaders.iter_mut().find(|s| s.id == id && !s.released) {
                        s.released = true;
                    }
                    m.collect();
                } else {
                    no_handle(r);
                }
            }
            2 => {
                let full = m.programs.len() >= GUEST_PROGRAMS;
                match reg.create_program(owner) {
                    Ok(id) => {
                        assert!(!full);
                        assert!(m.programs.iter().all(|p| p.id != id), "duplicate live id");
                        m.programs.push(MProgram {
                            id,
                            owner,
                            vertex: None,
                            fragment: None,
                            linked: None,
                        });
                        m.old_program_ids.push(id);
                    }
                    Err(GuestError::TableFull { .. }) => assert!(full),
                    Err(e) => panic!("unexpected create error {:?}", e),
                }
            }
            3 => {
                let pid = pick_program(&m, sel, arg);
                let sid = pick_shader(&m, sel >> 2, arg.rotate_left(3));
                let p = m.program(owner, pid);
                let s = m.shader(owner, sid).map(|s| s.sh);
                let r = reg.attach(owner, pid, sid);
                match (p, s) {
                    (Some(p), Some(sh)) => {
                        assert!(r.is_ok(), "attach failed: {:?}", r);
                        let pe = &mut m.programs[p];
                        match sh.stage {
                            Stage::Vertex => pe.vertex = Some(sh.tag),
                            Stage::Fragment => pe.fragment = Some(sh.tag),
                        }
                        m.collect();
                    }
                    _ => no_handle(r),
                }
            }
            4 => {
                let pid = pick_program(&m, sel, arg);
                let fail = arg & 1 != 0;
                let r = reg.link(owner, pid, |v: &Sh, f: &Sh, p: &mut Program| {
                    assert_eq!((v.stage, f.stage), (Stage::Vertex, Stage::Fragment));
                    if fail {
                        // A failed relink keeps the previous link.
                        Err(9u8)
                    } else {
                        p.0 = Some((v.tag, f.tag));
                        Ok(())
                    }
                });
                match m.program(owner, pid) {
                    None => no_handle(r),
                    Some(p) => {
                        let pe = &mut m.programs[p];
                        match (pe.vertex, pe.fragment) {
                            (None, _) => assert!(matches!(
                                r,
                                Err(GuestError::MissingShader {
                                    stage: Stage::Vertex
                                })
                            )),
                            (_, None) => assert!(matches!(
                                r,
                                Err(GuestError::MissingShader {
                                    stage: Stage::Fragment
                                })
                            )),
                            (Some(v), Some(f)) if !fail => {
                                assert!(r.is_ok());
                                pe.linked = Some((v, f));
                            }
                            _ => assert!(matches!(r, Err(GuestError::Failed(9)))),
                        }
                    }
                }
            }
            5 => {
                let pid = pick_program(&m, sel, arg);
                let ok = m.program(owner, pid).is_some();
                let r = reg.drop_program(owner, pid);
                if ok {
                    assert!(r.is_ok());
                    m.programs.retain(|p| p.id != pid);
                    m.collect();
                } else {
                    no_handle(r);
                }
            }
            6 => {
                let held = m.programs.iter().filter(|p| p.owner == owner).count()
                    + m.shaders
                        .iter()
                        .filter(|s| s.owner == owner && !s.released)
                        .count();
                assert_eq!(reg.drop_owner(owner), held, "drop_owner count");
                m.programs.retain(|p| p.owner != owner);
                for s in m.shaders.iter_mut().filter(|s| s.owner == owner) {
                    s.released = true;
                }
                m.collect();
            }
            7 => {
                let sid = pick_shader(&m, sel, arg);
                let expect = m.shader(owner, sid).map(|s| s.sh);
                assert_eq!(reg.shader(owner, sid).copied(), expect, "shader lookup");
            }
            8 => {
                let pid = pick_program(&m, sel, arg);
                match m.program(owner, pid) {
                    None => {
                        no_handle(reg.program(owner, pid));
                        no_handle(reg.attached(owner, pid));
                        no_handle(reg.program_mut(owner, pid).map(|_| ()));
                    }
                    Some(p) => {
                        let pe = &m.programs[p];
                        let linked = reg.program(owner, pid).unwrap().and_then(|l| l.0);
                        assert_eq!(linked, pe.linked);
                        let (v, f) = reg.attached(owner, pid).unwrap();
                        assert_eq!(v.copied(), m.by_tag(pe.vertex), "attached vertex");
                        assert_eq!(f.copied(), m.by_tag(pe.fragment), "attached fragment");
                    }
                }
            }
            _ => {
                // Raw forged ids of every shape.
                let raw = u32::from_le_bytes([arg, sel, op[0], arg ^ sel]) | 1;
                let id = NonZeroU32::new(raw).unwrap();
                let _ = reg.shader(owner, ShaderId(id));
                let _ = reg.program(owner, ProgramId(id));
                let _ = reg.attached(owner, ProgramId(id));
            }
        }
        assert_eq!(
            reg.live_count(),
            m.shaders.len() + m.programs.len(),
            "live count"
        );
    }
}
