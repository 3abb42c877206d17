//! Profile 2: an inlined function body lowered once and replayed at later calls.
//!
//! Every call of a user function is inlined, and its body was lowered from the tree again at
//! each call (pp_sobel.frag calls `lum` eight times: about 40% of its compile). What a body
//! lowers to depends on the call only through the callee's frame (where its result and its
//! parameters live, relative to the first temp of the call) and a little context (nesting,
//! loops, the work spent, the tables' fill), so a later call with the same frame and context
//! gets a copy of the instructions recorded at an earlier one, the callee's temps moved to the
//! new frame: the instructions, temps, work and limits that lowering the body again would give.
//!
//! Only plain bodies are recorded: scalar, vector and matrix `in` parameters (no struct,
//! array, sampler or `out` parameter, no struct result), no early return, no user call inside,
//! no diagnostic, and only instructions whose temps are all named by `dst`/`a`/`b`
//! ([`remappable`]) and that write only the callee's temps. Anything else is lowered as before.
//!
//! A recorded CONST keeps its immediate's index. The pool only grows (by appending), and an
//! index `k` found or appended for `n` values was the first match then: a window that did not
//! exist yet starts past the pool's end minus `n`, after `k`. So a later lowering of the body
//! finds every one of its immediates (it appends none) at the recorded index.
use heapless::Vec;

use super::aggregate::AggTy;
use super::Sema;
use crate::ir::opt::effects;
use crate::ir::{Inst, Op};
use crate::limits::Profile;

/// Recorded bodies and their instructions per compile (a body that does not fit is lowered).
pub(super) const REPLAY_BODIES: usize = 8;
pub(super) const REPLAY_INSTS: usize = 256;
/// Parameters of a recordable function.
const REPLAY_PARAMS: usize = 8;

/// Where a call's callee lives and the context it is lowered in: two calls with equal frames
/// (`base` aside) lower the body to the same instructions, moved by the difference of `base`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Frame {
    f: i16,
    /// The first temp of the call (its result's, when it has one); not compared.
    base: u16,
    /// Temps allocated before the body (result, argument conversions, parameters).
    body: u16,
    params: [u16; REPLAY_PARAMS],
    nparams: u8,
    /// False when the call cannot be recorded or replayed.
    pub(super) plain: bool,
    if_depth: usize,
    calls: usize,
    loop_work: u32,
    expanding: bool,
}

impl Frame {
    fn key(&self) -> (i16, u16, [u16; REPLAY_PARAMS], u8, usize, usize, u32, bool) {
        (
            self.f,
            self.body,
            self.params,
            self.nparams,
            self.if_depth,
            self.calls,
            self.loop_work,
            self.expanding,
        )
    }
}

/// One recorded body: `insts[start..start + len]` of [`super::SemaTables`]'s replay storage.
#[derive(Clone, Copy)]
pub(super) struct Body {
    frame: Frame,
    start: u16,
    len: u16,
    work: u32,
    /// Temps' high-water mark and the next free temp after the body, relative to `base`.
    peak: u16,
    after: u16,
    /// Symbols the body had in scope at once, at most.
    syms: u16,
    /// Table fills at the recorded call (a replay needs at most these).
    scopes: usize,
    structs: usize,
    members: usize,
    cur_node: i16,
    lv_agg: AggTy,
    /// Its instructions were checked ([`replayable`]) at its first replay: 0 not yet, 1 they
    /// are replayable, 2 they are not (most recorded bodies are never replayed: checking them
    /// at the recording cost more than the copy).
    checked: u8,
}

/// Whether a recorded body whose call's first temp was `base` can be replayed: every
/// instruction's temps are named by `dst`, `a` and `b` only and it writes only callee temps.
/// Also fills `fields` (one per instruction) with the temp fields [`moved`] moves (those that
/// name a temp at or above `base`), so that a replay neither computes the effects again nor
/// tests the temps.
fn replayable(insts: &[Inst], base: u16, fields: &mut [u8]) -> bool {
    if fields.len() != insts.len() {
        return false;
    }
    for (i, f) in insts.iter().zip(fields.iter_mut()) {
        let e = effects(i);
        // A field moves when it names a temp of the callee's frame (at or above `base`).
        let moves = |used: bool, t: i16| (used && t >= 0 && t as u16 >= base) as u8;
        *f = moves(e.write.count > 0, i.dst)
            | moves(e.reads[0].count > 0, i.a) << 1
            | moves(e.reads[1].count > 0, i.b) << 2;
        if !(remappable(i.op) && i.c < 0 && (e.write.count == 0 || e.write.base >= base as i16)) {
            return false;
        }
    }
    true
}

/// The state before a body being recorded.
pub(super) struct Mark {
    insts: usize,
    work: u32,
    hi: u16,
    errors: usize,
    warnings: usize,
    inlines: u32,
    syms: usize,
}

/// Whether every temp `inst` touches is named by `dst`, `a` or `b` as [`effects`] reports it
/// (ranges from them included) and nothing else (`aux`/`aux2` hold no temp), and it has no
/// effect but its result: [`Op::is_pure`]'s ops without the loads (whose results name an
/// input, a uniform or an indexed range) and the texture ops past SAMPLE (a test checks the
/// two lists agree; written out, as `is_pure` plus exclusions cost profile 1 2-3% of its
/// wall-clock compile time in the benchmark through code layout alone).
fn remappable(op: Op) -> bool {
    matches!(
        op,
        Op::Const
            | Op::Mov
            | Op::Swz
            | Op::SetLane
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Max
            | Op::Min
            | Op::Div
            | Op::Abs
            | Op::Dot
            | Op::Rsq
            | Op::Rcp
            | Op::Sin
            | Op::Cos
            | Op::Trunc
            | Op::Sqrt
            | Op::Pow
            | Op::Cmp
            | Op::CmpV
            | Op::MulMV
            | Op::MulMM
            | Op::Sample
            | Op::Floor
            | Op::Ceil
            | Op::Fract
            | Op::RoundEven
            | Op::Exp2
            | Op::Log2
            | Op::Sign
            | Op::Ddx
            | Op::Ddy
    ) || matches!(op, crate::ir::int_ops!())
}

/// `inst` with the temp fields `fields` marks (from [`replayable`]: bit 0 `dst`, 1 `a`, 2 `b`,
/// each set when it names a temp at or above the recorded call's first temp) moved by `by`.
#[inline]
fn moved(inst: &Inst, fields: u8, by: i32) -> Inst {
    // `(t as i32 + by) as i16`, as a wrapping 16-bit add.
    let by = by as i16;
    let mv = |t: i16, bit: u8| {
        if fields & bit != 0 {
            t.wrapping_add(by)
        } else {
            t
        }
    };
    Inst {
        dst: mv(inst.dst, 1),
        a: mv(inst.a, 2),
        b: mv(inst.b, 4),
        ..*inst
    }
}

impl<'a> Sema<'a> {
    /// The frame of a call of `f` whose first temp is `base`, before its parameters.
    pub(super) fn replay_frame(&self, f: i16, base: u16, plain: bool) -> Frame {
        Frame {
            f,
            base,
            body: 0,
            params: [0; REPLAY_PARAMS],
            nparams: 0,
            plain: plain
                && self.toks.profile == Profile::P2
                && !self.dry
                && self.dloops.is_empty()
                && self.t.wb.is_empty()
                && !self.unroll_failed
                && !self.work_spent
                && !self.limit_reported,
            if_depth: self.if_depth,
            calls: self.calls.len(),
            loop_work: self.loop_work,
            expanding: self.expansion >= 0,
        }
    }

    /// Records parameter temp `t` of the frame (`ok` false: a parameter that is not plain).
    pub(super) fn replay_param(&self, fr: &mut Frame, t: i16, ok: bool) {
        match fr.params.get_mut(fr.nparams as usize) {
            Some(slot) if ok && t >= fr.base as i16 => {
                *slot = t as u16 - fr.base;
                fr.nparams += 1;
            }
            _ => fr.plain = false,
        }
    }

    /// Completes the frame as the body starts; true when a recorded body was replayed in
    /// its place. `params` parameter symbols were not added (`inline_call` defers them):
    /// the limit check counts them as in the table.
    pub(super) fn replay_body(&mut self, fr: &mut Frame, params: usize) -> bool {
        fr.body = self.ntemp.wrapping_sub(fr.base);
        if !fr.plain {
            return false;
        }
        #[cfg(test)]
        if tests::OFF.with(|c| c.get()) {
            return false;
        }
        let key = fr.key();
        let Some(k) = self.t.replay.iter().position(|b| b.frame.key() == key) else {
            return false;
        };
        let Some(mut b) = self.t.replay.get(k).copied() else {
            return false;
        };
        let (start, end) = (b.start as usize, b.start as usize + b.len as usize);
        if b.checked == 0 {
            let insts = self.t.replay_insts.get(start..end).unwrap_or(&[]);
            let fields = self.t.replay_fields.get_mut(start..end).unwrap_or(&mut []);
            b.checked = if replayable(insts, b.frame.base, fields) {
                1
            } else {
                2
            };
            if let Some(r) = self.t.replay.get_mut(k) {
                r.checked = b.checked;
            }
        }
        if b.checked != 1 {
            return false;
        }
        // Lowering the body again would hit a limit or a full table: do it, it reports.
        let lim = self.lim;
        if fr.base as usize + b.peak as usize > lim.temporaries_max
            || self.module.insts.len() + b.len as usize > lim.ir_instructions_max
            || self.work as usize + b.work as usize > lim.compile_work_steps_max
            || self.t.syms.len() + params + b.syms as usize > lim.symbols_max
            || self.t.scopes.len() > b.scopes
            || self.t.structs.len() > b.structs
            || self.t.members.len() > b.members
        {
            return false;
        }
        let by = fr.base as i32 - b.frame.base as i32;
        let insts = self.t.replay_insts.get(start..end).unwrap_or(&[]);
        let fields = self.t.replay_fields.get(start..end).unwrap_or(&[]);
        // One block copy, then the temps moved in place (a push per instruction cost a
        // capacity check and a length update each). The limit check above leaves room.
        let at = self.module.insts.len();
        if self.module.insts.extend_from_slice(insts).is_ok() {
            let copied = self.module.insts.get_mut(at..).unwrap_or(&mut []);
            for (inst, &f) in copied.iter_mut().zip(fields) {
                *inst = moved(inst, f, by);
            }
        } else {
            for (inst, &f) in insts.iter().zip(fields) {
                let _ = self.module.insts.push(moved(inst, f, by));
            }
        }
        self.work += b.work;
        // As if the deferred parameter symbols had been added.
        let syms = (self.t.syms.len() + params) as u16;
        if syms > self.sym_peak {
            self.sym_peak = syms;
        }
        let peak = fr.base + b.peak;
        if peak > self.module.temps {
            self.module.temps = peak;
        }
        self.ntemp = fr.base + b.after;
        self.cur_node = b.cur_node;
        self.lv_agg = b.lv_agg;
        #[cfg(test)]
        tests::REPLAYED.with(|c| c.set(c.get() + 1));
        true
    }

    /// The state before a body that may be recorded (`None`: it may not). The temps'
    /// high-water mark is lowered to the next free temp for the body (see [`Self::replay_end`]).
    pub(super) fn replay_start(&mut self, fr: &Frame) -> Option<Mark> {
        if !fr.plain || self.t.replay.is_full() {
            return None;
        }
        let m = Mark {
            insts: self.module.insts.len(),
            work: self.work,
            hi: self.module.temps,
            errors: self.diag.total(),
            warnings: self.diag.warning_total(),
            inlines: self.inlines,
            syms: self.t.syms.len(),
        };
        self.module.temps = self.ntemp;
        self.sym_peak = m.syms as u16;
        Some(m)
    }

    /// After the body started at `m`: restores the temps' high-water mark and records the body
    /// when it is plain.
    pub(super) fn replay_end(&mut self, fr: &Frame, m: Mark, ok: bool) {
        let peak = self.module.temps;
        if m.hi > self.module.temps {
            self.module.temps = m.hi;
        }
        let insts = self.module.insts.get(m.insts..).unwrap_or(&[]);
        let plain = ok
            && self.diag.total() == m.errors
            && self.diag.warning_total() == m.warnings
            && self.inlines == m.inlines
            && self.t.wb.is_empty()
            && !self.unroll_failed
            && self.ntemp >= fr.base
            && self.t.replay_insts.len() + insts.len() <= REPLAY_INSTS;
        if !plain {
            return;
        }
        let start = self.t.replay_insts.len() as u16;
        let _ = self.t.replay_insts.extend_from_slice(insts);
        let _ = self.t.replay.push(Body {
            frame: *fr,
            start,
            len: insts.len() as u16,
            work: self.work - m.work,
            peak: peak.saturating_sub(fr.base),
            after: self.ntemp - fr.base,
            syms: (self.sym_peak as usize).saturating_sub(m.syms) as u16,
            scopes: self.t.scopes.len(),
            structs: self.t.structs.len(),
            members: self.t.members.len(),
            cur_node: self.cur_node,
            lv_agg: self.lv_agg,
            checked: 0,
        });
    }
}

/// The replay storage of [`super::SemaTables`].
pub(super) type Bodies = Vec<Body, REPLAY_BODIES>;
pub(super) type BodyInsts = Vec<Inst, REPLAY_INSTS>;

#[cfg(test)]
mod tests {
    use crate::program::compile::{compile_into, CompileOptions, Workspace};
    use crate::{Diagnostics, Shader};
    use std::boxed::Box;
    use std::cell::Cell;
    use std::string::String;
    use std::vec::Vec;

    std::thread_local! {
        /// Lower every body (the reference the replayed compile is compared with).
        pub(super) static OFF: Cell<bool> = const { Cell::new(false) };
        /// Bodies replayed on this thread.
        pub(super) static REPLAYED: Cell<usize> = const { Cell::new(0) };
    }

    /// Everything a compile produces, as text: diagnostics, IR (instructions, immediates,
    /// temps) and TGSI.
    fn product(ws: &mut Workspace, stage: u32, src: &[u8]) -> String {
        let mut sh = Box::new(Shader::EMPTY);
        let mut diag = Box::new(Diagnostics::new("t"));
        let ok = compile_into(
            ws,
            &mut sh,
            &mut diag,
            stage,
            src,
            "t",
            &CompileOptions::default(),
        );
        let mut s = std::format!("ok {}\n", ok);
        for d in diag.errors().chain(diag.warnings()) {
            s += &std::format!("{:?}\n", d);
        }
        if ok {
            let m = &sh.module;
            s += &std::format!("temps {} imms {:?}\n", m.temps, m.imms);
            for i in &m.insts {
                s += &std::format!("{:?}\n", i);
            }
            let mut t = crate::back::tgsi::TgsiText::new();
            s += &std::format!("{:?}\n{}", sh.standalone_tgsi(&mut t), t);
        }
        s
    }

    /// Compiles each source with bodies replayed and with every body lowered: the same
    /// product. Returns, per source, the bodies replayed and whether it compiled.
    fn same_with_and_without(sources: Vec<(u32, &'static str)>) -> Vec<(usize, bool)> {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let mut ws = Box::new(Workspace::new());
                let mut counts = Vec::new();
                for (stage, src) in sources {
                    OFF.with(|c| c.set(true));
                    let reference = product(&mut ws, stage, src.as_bytes());
                    OFF.with(|c| c.set(false));
                    REPLAYED.with(|c| c.set(0));
                    let replayed = product(&mut ws, stage, src.as_bytes());
                    assert_eq!(reference, replayed, "{}", src);
                    counts.push((REPLAYED.with(|c| c.get()), replayed.starts_with("ok true")));
                }
                counts
            })
            .unwrap()
            .join()
            .unwrap()
    }

    const CALLS: &str = "#version 330 core
#pragma chrisos profile 2
in vec2 v_uv;
uniform sampler2D u_image;
uniform vec2 u_texel;
uniform float u_k;
out vec4 frag_color;
float g = 0.5;
const float K = 2.0;
float lum(float dx, float dy) {
    vec3 c = texture(u_image, v_uv + vec2(dx, dy) * u_texel).rgb;
    return dot(c, vec3(0.299, 0.587, 0.114));
}
float twice(float x) { x = x * K; float y = x + g; return y * 0.5; }
vec3 mixk(vec3 a, vec3 b, float t) { return mix(a, b, clamp(t * u_k, 0.0, 1.0)); }
void bump(float v) { g = g + v; }
mat2 rot(float a) { return mat2(cos(a), sin(a), -sin(a), cos(a)); }
float ival(int i, float f) { return float(i) * f; }
float early(float x) { if (x > 0.5) { return x; } return -x; }
void main() {
    float a = lum(-1.0, 1.0), b = lum(0.0, 1.0);
    float c = lum(a, b) + lum(b, a);
    float d = twice(a) + twice(1.0) + twice(float(2));
    bump(a);
    float e = twice(b);
    bump(0.25);
    float e2 = twice(c) + early(a) + early(b) + early(c);
    if (a > b) { d += lum(1.0, 0.0); d += twice(e); } else { d -= lum(0.0, 0.0); }
    { { float z = lum(2.0, 2.0); d += z; } }
    for (int i = 0; i < 3; i++) { d += lum(float(i), 1.0) + ival(i, 2.0) + ival(i, d); }
    for (int i = 0; i < int(u_k); i++) { d += lum(d, 1.0) + twice(d); }
    vec3 m = mixk(vec3(a), vec3(b), c) + mixk(vec3(0.0), vec3(1.0), d);
    vec2 r = rot(a) * vec2(1.0, 0.0) + rot(b) * vec2(0.0, 1.0);
    frag_color = vec4(m + vec3(d, e, e2), r.x + r.y);
}
";

    const VERTEX: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
uniform mat4 u_mvp;
out vec2 v_uv;
vec4 xf(vec4 p) { vec4 q = u_mvp * p; return q / max(q.w, 0.001); }
vec2 half2(vec2 v) { return v * 0.5 + 0.5; }
void main() {
    vec4 p = xf(position) + xf(position.yxzw) + xf(vec4(1.0));
    v_uv = half2(p.xy) + half2(p.zw) + half2(vec2(0.0));
    gl_Position = xf(p);
}
";

    #[test]
    fn replayed_bodies_compile_as_lowered_ones() {
        let sobel = include_str!("../../../../tools/shc/tests/compat/pp_sobel.frag");
        let counts = same_with_and_without(std::vec![(1, sobel), (1, CALLS), (0, VERTEX)]);
        // lum's first call is recorded (it adds an immediate), the seven after it replayed.
        assert_eq!(counts[0], (7, true), "{:?}", counts);
        assert!(counts[1].1 && counts[2].1, "{:?}", counts);
        assert!(counts[1].0 > 5 && counts[2].0 > 2, "{:?}", counts);
    }

    #[test]
    fn remappable_ops_are_the_pure_ones_that_load_nothing() {
        use crate::ir::Op;
        for op in Op::ALL {
            let loads = matches!(
                op,
                Op::LoadAttr
                    | Op::LoadVar
                    | Op::LoadUni
                    | Op::LoadFcoord
                    | Op::LoadSysval
                    | Op::LoadFace
            );
            let want = op.is_pure() && !op.is_indirect() && !op.is_texture() && !loads;
            assert_eq!(super::remappable(op), want, "{:?}", op);
        }
    }

    #[test]
    fn every_corpus_shader_compiles_the_same_with_replays() {
        let sources = crate::program::compile::corpus_sources()
            .into_iter()
            .map(|(_, stage, src)| {
                let src = String::from_utf8(src).unwrap();
                (stage, &*Box::leak(src.into_boxed_str()))
            })
            .collect();
        let counts = same_with_and_without(sources);
        assert!(
            counts.iter().map(|c| c.0).sum::<usize>() > 6,
            "{:?}",
            counts
        );
    }
}
