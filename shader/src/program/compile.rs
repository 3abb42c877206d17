//! The compile API: source text to a verified [`Module`] (inside a [`Shader`]) or [`Diagnostics`].
//!
//! Owns: the phase order (profile selection, preprocessing in profile 2, lex, parse, semantic
//! analysis and lowering, optimisation, verification), the stage and source-size checks, and
//! per-phase timing. Must never: allocate, keep state between calls, or return a module the
//! verifier rejected.
//!
//! The frontend's storage is a caller-owned [`Workspace`] of fixed capacity (about 2.5 MiB: the
//! preprocessor, tokens and syntax tree of the largest profile-2 source). Long-lived callers
//! keep one (the kernel boxes it inside `cache::Compiler`) and call [`compile_in`]; [`compile`]
//! builds one in its own frame and so needs that much stack.
use heapless::{String, Vec};

use crate::back::tgsi::{self, TgsiError, TgsiInfo, TgsiScratch, TgsiText};
use crate::front::ast::Ast;
use crate::front::diag::{bounded_string, SHADER_NAME_MAX};
pub use crate::front::diag::{Diagnostic, Diagnostics};
use crate::front::lex::Tokens;
use crate::front::sema::SemaTables;
pub use crate::front::Workspace;
use crate::front::{lex, parse, profile, sema};
use crate::ir::verify;
use crate::ir::{Interface, Module, Stage};
use crate::limits::{limits, Profile, TGSI_MAX};

/// Cycles spent in each phase (`tgsi`: the standalone TGSI emission at the end of compile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    /// Preprocessing (profile 2) and lexing.
    pub lex: u64,
    pub parse: u64,
    pub sema: u64,
    /// Optimisation and verification.
    pub ir: u64,
    pub tgsi: u64,
}

/// How to compile. The source's own `#pragma chrisos profile N` (before its first declaration)
/// overrides `profile`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// The language profile when the source does not name one (default: profile 1).
    pub profile: Profile,
}

impl CompileOptions {
    pub const fn profile(profile: Profile) -> CompileOptions {
        CompileOptions { profile }
    }
}

/// A successfully compiled stage.
// repr(C) with the module last: see `Module` (building one per compile must not zero-fill its
// instruction storage).
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub struct Shader {
    pub stage: Stage,
    /// The profile the source was compiled in.
    pub profile: Profile,
    /// `#version` number, 0 when the source had none.
    pub version: u32,
    pub timing: PhaseTimes,
    /// The stage's standalone TGSI (fragment inputs not yet remapped by a link), or why it could
    /// not be emitted (over the VirGL budget): such a shader still runs on the software path.
    pub tgsi: Result<TgsiInfo, TgsiError>,
    pub name: String<SHADER_NAME_MAX>,
    pub module: Module,
}

impl Shader {
    /// Emits this stage's standalone TGSI into `out` (identity varying remap).
    pub fn standalone_tgsi(&self, out: &mut TgsiText) -> Result<TgsiInfo, TgsiError> {
        tgsi::emit(&self.module, None, out)
    }
}

fn no_clock() -> u64 {
    0
}

/// Compiles one stage (0 = vertex, 1 = fragment; 2 and 3 are rejected) with the default
/// options (profile 1 unless the source's pragma says 2). Needs about 2.5 MiB of stack for its
/// [`Workspace`]; see [`compile_in`].
#[allow(clippy::result_large_err)] // the diagnostics are the product of a failed compile
#[inline(always)]
pub fn compile(stage: u32, source: &[u8], name: &str) -> Result<Shader, Diagnostics> {
    compile_with(stage, source, name, &CompileOptions::default())
}

/// [`compile`] with options.
#[allow(clippy::result_large_err)]
#[inline(always)]
pub fn compile_with(
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
) -> Result<Shader, Diagnostics> {
    let mut ws = Workspace::new();
    compile_in(&mut ws, stage, source, name, opts)
}

/// [`compile_with`] in a caller-owned workspace (no large stack frame).
#[allow(clippy::result_large_err)]
#[inline(always)]
pub fn compile_in(
    ws: &mut Workspace,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
) -> Result<Shader, Diagnostics> {
    compile_timed_in(ws, stage, source, name, opts, no_clock)
}

/// [`compile_in`] into caller-owned storage (which the caller may box): `shader` receives the
/// result and `diag` the diagnostics (errors, and warnings of a successful compile); true when
/// it compiled. With a boxed workspace too, a compile needs only the frontend's recursion on the
/// stack.
pub fn compile_into(
    ws: &mut Workspace,
    shader: &mut Shader,
    diag: &mut Diagnostics,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
) -> bool {
    run(
        ws,
        stage,
        source,
        name,
        opts,
        no_clock,
        shader,
        diag,
        &mut CompileStats::default(),
    )
}

/// What a compile spent, whether it succeeded or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompileStats {
    /// Steps of the work budget spent by semantic lowering: at most
    /// [`WORK_MAX`](crate::limits::WORK_MAX) + 1 (the step that found the budget spent).
    pub work: u32,
}

/// [`compile`], also returning the work it spent.
#[allow(clippy::result_large_err)]
pub fn compile_with_stats(
    stage: u32,
    source: &[u8],
    name: &str,
) -> (Result<Shader, Diagnostics>, CompileStats) {
    compile_with_stats_in(
        &mut Workspace::new(),
        stage,
        source,
        name,
        &CompileOptions::default(),
    )
}

/// [`compile_with_stats`] with options, in a caller-owned workspace.
#[allow(clippy::result_large_err)]
pub fn compile_with_stats_in(
    ws: &mut Workspace,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
) -> (Result<Shader, Diagnostics>, CompileStats) {
    let mut stats = CompileStats::default();
    let result = run_result(ws, stage, source, name, opts, no_clock, &mut stats);
    (result, stats)
}

/// [`compile`], reading `clock` around each phase (the kernel passes rdtsc).
#[allow(clippy::result_large_err)]
#[inline(always)]
pub fn compile_timed(
    stage: u32,
    source: &[u8],
    name: &str,
    clock: fn() -> u64,
) -> Result<Shader, Diagnostics> {
    compile_timed_in(
        &mut Workspace::new(),
        stage,
        source,
        name,
        &CompileOptions::default(),
        clock,
    )
}

/// [`compile_timed`] with options, in a caller-owned workspace.
#[allow(clippy::result_large_err)]
#[inline(always)]
pub fn compile_timed_in(
    ws: &mut Workspace,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
    clock: fn() -> u64,
) -> Result<Shader, Diagnostics> {
    run_result(
        ws,
        stage,
        source,
        name,
        opts,
        clock,
        &mut CompileStats::default(),
    )
}

/// [`run`] as a `Result`. The large shader is built in the caller's frame (inlined) and filled
/// in place, replaced by the diagnostics on failure: returning it from the pipeline copied all
/// of it on every compile.
#[allow(clippy::result_large_err)]
#[inline(always)]
fn run_result(
    ws: &mut Workspace,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
    clock: fn() -> u64,
    stats: &mut CompileStats,
) -> Result<Shader, Diagnostics> {
    let mut result = blank();
    let mut diag = Diagnostics::new(name);
    if let Ok(shader) = &mut result {
        if !run(
            ws, stage, source, name, opts, clock, shader, &mut diag, stats,
        ) {
            result = Err(diag);
        }
    }
    result
}

/// An empty shader for `run` to fill in place.
#[allow(clippy::result_large_err)]
#[inline(always)]
fn blank() -> Result<Shader, Diagnostics> {
    // A call, not `Shader::EMPTY`: a constant is copied whole (hundreds of KiB of table
    // storage), the function writes only the scalars.
    Ok(Shader::empty())
}

impl Shader {
    /// A shader with nothing in it (the starting point of a compile into caller storage).
    pub const EMPTY: Shader = Shader::empty();

    /// [`Shader::EMPTY`], built where it is called (only its scalars are written).
    #[inline(always)]
    pub const fn empty() -> Shader {
        Shader {
            name: String::new(),
            stage: Stage::Vertex,
            profile: Profile::P1,
            version: 0,
            module: Module {
                stage: Stage::Vertex,
                profile: Profile::P1,
                insts: Vec::new(),
                imms: Vec::new(),
                temps: 0,
                // A literal, not `Interface::default()`: the derived constructor built the
                // interface in a temporary and copied it into place on every compile.
                iface: Interface {
                    attributes: Vec::new(),
                    varyings: Vec::new(),
                    uniforms: Vec::new(),
                    samplers: Vec::new(),
                    writes_position: false,
                    color_output: None,
                    frag_outputs: Vec::new(),
                    reads_fragcoord: false,
                    writes_depth: false,
                    clip_distances: 0,
                    reads_vertex_id: false,
                    reads_instance_id: false,
                    invariant_slots: 0,
                    derived_names: false,
                },
            },
            timing: PhaseTimes {
                lex: 0,
                parse: 0,
                sema: 0,
                ir: 0,
                tgsi: 0,
            },
            // Replaced by the real emission result before a successful compile returns.
            tgsi: Err(TgsiError::TooLong { limit: TGSI_MAX }),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run(
    ws: &mut Workspace,
    stage: u32,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
    clock: fn() -> u64,
    shader: &mut Shader,
    diag: &mut Diagnostics,
    stats: &mut CompileStats,
) -> bool {
    let prof = profile::select(source).unwrap_or(opts.profile);
    let lim = limits(prof);
    diag.reset(name, lim.errors_reported_max);
    let stage = match Stage::from_u32(stage) {
        Some(s) => s,
        None => {
            let what = match stage {
                Stage::GEOMETRY_VALUE => "geometry shaders are",
                Stage::COMPUTE_VALUE => "compute shaders are",
                _ => "this shader stage is",
            };
            diag.push(
                1,
                1,
                format_args!(
                    "{} not supported (stage {}): only vertex (0) and fragment (1) shaders compile",
                    what, stage
                ),
            );
            return false;
        }
    };
    if source.is_empty() {
        diag.push(1, 1, format_args!("empty shader: the source has no text"));
        return false;
    }
    if source.len() > lim.source_bytes_max {
        diag.push(
            1,
            1,
            format_args!(
                "shader source exceeds the size limit: {} bytes; the limit is {} bytes",
                source.len(),
                lim.source_bytes_max
            ),
        );
        return false;
    }
    let mut timing = PhaseTimes::default();
    let t0 = clock();
    let Workspace {
        toks,
        ast,
        sema,
        text,
        pp,
        tgsi,
        tgsi_text,
    } = ws;
    // In profile 2 the parser reads the source followed by the preprocessor's own text.
    let text: &[u8] = match prof {
        Profile::P1 => {
            lex::lex(source, diag, toks);
            source
        }
        // A source that needs no preprocessing is lexed in one pass (the same tokens); any
        // other, and any with an error, goes through the preprocessor.
        Profile::P2 if lex::lex_p2_direct(source, diag, toks) => source,
        Profile::P2 => {
            diag.reset(name, lim.errors_reported_max);
            if !pp.run(source, diag) && diag.total() > 0 && pp.tokens().is_empty() {
                return false;
            }
            lex::lex_pp(pp, source, text, diag, toks);
            text
        }
    };
    let t1 = clock();
    timing.lex = t1.wrapping_sub(t0);
    let pp_errors = diag.total();
    // The parser stops at once when the lexer filled the error list; it reports the token limit.
    parse::parse(text, toks, ast, diag);
    let t2 = clock();
    timing.parse = t2.wrapping_sub(t1);
    if diag.total() > 0 {
        if prof == Profile::P2 {
            profile::note_expansions(diag, pp_errors, toks, pp, source);
        }
        return false;
    }
    // In place: a built string was copied (64 bytes) through the stack into the shader.
    let shown = if name.is_empty() { "shader" } else { name };
    shader.name.clear();
    if shader.name.push_str(shown).is_err() {
        shader.name = bounded_string(shown);
    }
    shader.stage = stage;
    shader.profile = prof;
    shader.version = toks.version;
    shader.module.stage = stage;
    shader.module.profile = prof;
    shader.timing = timing;
    let ok = finish(
        shader,
        (text, toks, ast, sema),
        (tgsi, tgsi_text),
        stage,
        diag,
        clock,
        t2,
        stats,
    );
    if !ok && prof == Profile::P2 {
        profile::note_expansions(diag, pp_errors, toks, pp, source);
    }
    ok
}

/// Semantic analysis and lowering, optimisation, verification and TGSI emission into `shader`;
/// false when `diag` holds errors.
#[allow(clippy::too_many_arguments)]
fn finish(
    shader: &mut Shader,
    (source, toks, ast, tables): (&[u8], &Tokens, &Ast, &mut SemaTables),
    (scratch, text): (&mut TgsiScratch, &mut TgsiText),
    stage: Stage,
    diag: &mut Diagnostics,
    clock: fn() -> u64,
    t2: u64,
    stats: &mut CompileStats,
) -> bool {
    stats.work = sema::analyze(source, toks, ast, stage, diag, &mut shader.module, tables);
    let t3 = clock();
    shader.timing.sema = t3.wrapping_sub(t2);
    if diag.total() > 0 {
        return false;
    }
    // The lane effects of the optimiser's last pass are kept for the emission below.
    tgsi::optimize_in(scratch, &mut shader.module);
    if let Err(e) = verify::verify(&shader.module) {
        // The frontend only emits verifiable IR; reaching this is a compiler bug.
        diag.push(1, 1, format_args!("internal compiler error: {}", e));
        return false;
    }
    let t4 = clock();
    shader.timing.ir = t4.wrapping_sub(t3);
    // The pipeline ends with TGSI emission (its phase time is part of the compile's timing).
    // The text itself is produced again wherever it is needed (a link remaps fragment inputs), so
    // only the result is kept here.
    shader.tgsi = tgsi::emit_in(scratch, &shader.module, None, text);
    shader.timing.tgsi = clock().wrapping_sub(t4);
    true
}

/// Every golden-corpus and compatibility-suite shader (its file name, stage and source), for
/// the tests that check a pass against a reference on all of them.
#[cfg(test)]
pub(crate) fn corpus_sources() -> std::vec::Vec<(std::string::String, u32, std::vec::Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = std::vec::Vec::new();
    for dir in [
        root.join("tests/in"),
        root.join("../tools/shc/tests/compat"),
    ] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = std::string::String::from(p.file_name().unwrap().to_str().unwrap());
            let stage = if name.ends_with(".frag") {
                1
            } else if name.ends_with(".vert") {
                0
            } else {
                continue;
            };
            let src = std::fs::read(&p).unwrap();
            out.push((name, stage, src));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Op;

    fn ok(stage: u32, src: &str) -> Shader {
        match compile(stage, src.as_bytes(), "t") {
            Ok(s) => s,
            Err(d) => {
                let mut s = std::string::String::new();
                d.render(src.as_bytes(), &mut s).unwrap();
                panic!("{}", s)
            }
        }
    }

    fn err(stage: u32, src: &str) -> std::string::String {
        match compile(stage, src.as_bytes(), "t") {
            Ok(_) => panic!("compiled: {}", src),
            Err(d) => {
                let mut s = std::string::String::new();
                d.render(src.as_bytes(), &mut s).unwrap();
                s
            }
        }
    }

    #[test]
    fn minimal_vertex_and_fragment() {
        let v = ok(0, "void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }");
        assert!(v.module.insts.iter().any(|i| i.op == Op::StorePos));
        assert!(v.module.iface.writes_position);
        let f = ok(
            1,
            "out vec4 c; void main() { c = vec4(1.0, 0.0, 0.0, 1.0); }",
        );
        assert!(f.module.insts.iter().any(|i| i.op == Op::StoreColor));
    }

    /// One workspace reused for shaders of different sizes emits what a fresh emission does:
    /// the TGSI scratch (register table, plan) is reset in place per compile, and what a long
    /// shader left in it past a short one's temps must not leak into the short one's text.
    #[test]
    fn reused_workspace_emits_what_a_fresh_one_does() {
        let long = std::format!(
            "#version 330 core\n#pragma chrisos profile 2\nin vec2 v;\nout vec4 c;\nvoid main() {{ vec4 s = vec4(v, 0.0, 1.0); {} c = s; }}\n",
            "s = s * 0.5 + vec4(v.x, v.y, s.z, 1.0);".repeat(40)
        );
        let short = "out vec4 c; void main() { vec4 a = vec4(0.5); c = a * 2.0; }";
        let mut ws = std::boxed::Box::new(Workspace::new());
        let mut shader = std::boxed::Box::new(Shader::EMPTY);
        let mut diag = Diagnostics::new("t");
        let opts = CompileOptions::default();
        for src in [long.as_str(), short, long.as_str(), short] {
            assert!(compile_into(
                &mut ws,
                &mut shader,
                &mut diag,
                1,
                src.as_bytes(),
                "t",
                &opts
            ));
            let mut fresh = std::boxed::Box::new(TgsiText::new());
            let info = shader.standalone_tgsi(&mut fresh);
            assert_eq!(info, shader.tgsi);
            assert_eq!(ws.tgsi_text.as_str(), fresh.as_str());
            assert_eq!(*shader, ok(1, src));
        }
    }

    #[test]
    fn stage_and_size_errors() {
        assert!(err(2, "void main(){}").contains("geometry"));
        assert!(err(0, "").contains("empty"));
        let big = " ".repeat(crate::limits::SRC_MAX);
        assert!(err(0, &big).contains("size limit"));
    }

    /// Only used inputs are loaded, whether or not the tree's identifiers fit the table that
    /// speeds up the check (128 of them).
    #[test]
    fn unused_inputs_are_not_loaded_at_any_size() {
        for statements in [1, 70] {
            // Two identifiers per statement: 140 in all passes the table's 128.
            let body = std::vec!["s = a;"; statements].join(" ");
            let src = std::format!(
                "layout(location = 0) in vec4 a;\nlayout(location = 1) in vec4 b;\nvoid main() {{ vec4 s = vec4(0.0); {} gl_Position = s; }}\n",
                body
            );
            let s = ok(0, &src);
            let loads: std::vec::Vec<i16> = s
                .module
                .insts
                .iter()
                .filter(|i| i.op == Op::LoadAttr)
                .map(|i| i.aux)
                .collect();
            assert_eq!(loads, [0], "{} statements", statements);
        }
    }

    fn with(profile: Profile, stage: u32, src: &str) -> Result<Shader, std::string::String> {
        let opts = CompileOptions::profile(profile);
        compile_with(stage, src.as_bytes(), "t", &opts).map_err(|d| {
            let mut s = std::string::String::new();
            d.render(src.as_bytes(), &mut s).unwrap();
            s
        })
    }

    const FRAG_DEFINE: &str =
        "#define RED vec4(1.0, 0.0, 0.0, 1.0)\nout vec4 c;\nvoid main() { c = RED; }\n";

    #[test]
    fn the_profile_comes_from_the_pragma_or_the_options() {
        // Profile 1 has no #define; the option or the pragma selects profile 2.
        let e = with(Profile::P1, 1, FRAG_DEFINE).unwrap_err();
        assert!(e.contains("'#define': only #version is accepted (profile 2 accepts this: add '#pragma chrisos profile 2' or compile with --profile 2)"), "{}", e);
        let s = with(Profile::P2, 1, FRAG_DEFINE).unwrap();
        assert_eq!((s.profile, s.module.profile), (Profile::P2, Profile::P2));
        let src = std::format!("// a comment\n#pragma chrisos profile 2\n{}", FRAG_DEFINE);
        assert_eq!(with(Profile::P1, 1, &src).unwrap().profile, Profile::P2);
        // The source's pragma wins over the option.
        let src = std::format!("#version 330\n#pragma chrisos profile 1\n{}", FRAG_DEFINE);
        assert!(with(Profile::P2, 1, &src)
            .unwrap_err()
            .contains("'#define'"));
        let plain = "#pragma chrisos profile 1\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        assert_eq!(with(Profile::P2, 1, plain).unwrap().profile, Profile::P1);
    }

    #[test]
    fn a_misplaced_or_malformed_pragma_is_an_error_in_both_profiles() {
        for p in Profile::ALL {
            let late = "out vec4 c;\n#pragma chrisos profile 2\nvoid main() { c = vec4(1.0); }\n";
            let e = with(p, 1, late).unwrap_err();
            assert!(e.contains("t:2:1: error: '#pragma chrisos profile' must come before the first declaration"), "{:?}: {}", p, e);
            let bad = "#pragma chrisos profile 3\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
            let e = with(p, 1, bad).unwrap_err();
            assert!(
                e.contains("t:1:1: error: malformed pragma"),
                "{:?}: {}",
                p,
                e
            );
        }
        // Other pragmas: profile 2 ignores them, profile 1 rejects them with the hint.
        let other = "#pragma optimize(on)\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        assert!(with(Profile::P2, 1, other).is_ok());
        assert!(with(Profile::P1, 1, other)
            .unwrap_err()
            .contains("(profile 2 accepts this"));
    }

    #[test]
    fn profile_2_errors_in_macros_point_at_the_invocation() {
        let src = "#pragma chrisos profile 2\n#define BAD(x) (x + undefined_name)\nout vec4 c;\nvoid main() {\n  c = vec4(BAD(1.0));\n}\n";
        let e = with(Profile::P1, 1, src).unwrap_err();
        assert!(e.contains("t:5:12: error: "), "{}", e);
        assert!(e.contains("(in expansion of macro 'BAD')"), "{}", e);
    }

    #[test]
    fn profile_2_bounds_apply() {
        // 100 uniforms: over profile 1's 32 slots, within profile 2's 1024.
        let mut src = std::string::String::from("out vec4 c;\n");
        for i in 0..100 {
            src.push_str(&std::format!("uniform float u{};\n", i));
        }
        src.push_str("void main() { c = vec4(u0 + u99); }\n");
        assert!(with(Profile::P1, 1, &src)
            .unwrap_err()
            .contains("too many uniforms"));
        let s = with(Profile::P2, 1, &src).unwrap();
        assert_eq!(s.module.iface.uniforms.len(), 100);
        // A 5000-byte source: over profile 1's size limit only.
        let long = std::format!(
            "{}{}",
            " ".repeat(5000),
            "out vec4 c;\nvoid main() { c = vec4(1.0); }\n"
        );
        assert!(with(Profile::P1, 1, &long)
            .unwrap_err()
            .contains("size limit"));
        assert!(with(Profile::P2, 1, &long).is_ok());
        // Profile 2 keeps 16 errors.
        let bad: std::string::String = (0..30)
            .map(|i| std::format!("float x{} = y;\n", i))
            .collect();
        let opts = CompileOptions::profile(Profile::P2);
        let d = compile_with(1, bad.as_bytes(), "t", &opts).err().unwrap();
        assert_eq!((d.len(), d.total() >= 16), (16, true));
    }

    #[test]
    fn semantic_errors_point_at_the_construct() {
        let e = err(
            0,
            "in vec2 p;\nvoid main() {\n  gl_Position = vec4(p.z, 0.0, 0.0, 1.0);\n}\n",
        );
        assert!(e.starts_with("t:3:"), "{}", e);
        assert!(e.contains("invalid swizzle"), "{}", e);
    }
}

/// Frontend self-tests (listed in `selftest::TESTS`; they also run in the guest).
pub(crate) mod selftests {
    use core::fmt::Write;

    use super::compile;
    use crate::ir::Op;

    const MVP: &[u8] = include_bytes!("../../tests/in/mvp.vert");
    const WORLD_FRAG: &[u8] = include_bytes!("../../tests/in/world.frag");

    pub fn compiles_examples(w: &mut dyn Write) -> bool {
        let v = match compile(0, MVP, "mvp.vert") {
            Ok(s) => s,
            Err(d) => {
                let _ = d.render(MVP, w);
                return false;
            }
        };
        let slots: heapless::Vec<u16, 4> = v.module.iface.uniforms.iter().map(|u| u.slot).collect();
        if slots.as_slice() != [0, 4, 8] || !v.module.iface.writes_position {
            let _ = write!(
                w,
                "mvp.vert interface: uniform slots {:?}",
                slots.as_slice()
            );
            return false;
        }
        let f = match compile(1, WORLD_FRAG, "world.frag") {
            Ok(s) => s,
            Err(d) => {
                let _ = d.render(WORLD_FRAG, w);
                return false;
            }
        };
        let sampled = f
            .module
            .insts
            .iter()
            .any(|i| i.op == Op::Sample && i.aux == 0);
        if !sampled || f.module.iface.samplers.len() != 1 || f.module.iface.uniforms.len() != 3 {
            let _ = write!(w, "world.frag: sampler or uniforms missing");
            return false;
        }
        true
    }

    pub fn diagnostic_points_at_construct(w: &mut dyn Write) -> bool {
        let src = b"in vec2 uv;\nvoid main() {\n    gl_Position = vec4(uv.z);\n}\n";
        let Err(d) = compile(0, src, "sw.vert") else {
            let _ = write!(w, "an out-of-range swizzle compiled");
            return false;
        };
        let Some(e) = d.errors().next() else {
            return false;
        };
        if (e.line, e.column) != (3, 27) || !e.message.contains("invalid swizzle") {
            let _ = write!(w, "got {}:{}: {}", e.line, e.column, e.message);
            return false;
        }
        let mut text: heapless::String<256> = heapless::String::new();
        let _ = d.render(src, &mut text);
        let want = "sw.vert:3:27: error: invalid swizzle 'z': vec2 has 2 component(s)\n    gl_Position = vec4(uv.z);\n                          ^\n";
        if text.as_str() != want {
            let _ = write!(w, "rendered: {}", text);
            return false;
        }
        true
    }

    pub fn rejects_other_stages(w: &mut dyn Write) -> bool {
        for stage in [2u32, 3, 7] {
            match compile(stage, b"void main() {}", "g") {
                Err(d) if d.len() == 1 => {}
                _ => {
                    let _ = write!(w, "stage {} was not rejected with one diagnostic", stage);
                    return false;
                }
            }
        }
        true
    }

    pub fn unroll_limit_is_exact(w: &mut dyn Write) -> bool {
        let ok = b"void main() { float s = 0.0; for (int i = 0; i < 8; i++) { s = s + 1.0; } gl_Position = vec4(s); }";
        let bad = b"void main() { float s = 0.0; for (int i = 0; i < 9; i++) { s = s + 1.0; } gl_Position = vec4(s); }";
        if compile(0, ok, "l").is_err() {
            let _ = write!(w, "8 iterations were rejected");
            return false;
        }
        match compile(0, bad, "l") {
            Err(d) if d.errors().any(|e| e.message.contains("unroll limit")) => true,
            _ => {
                let _ = write!(w, "9 iterations were not rejected by the unroll limit");
                false
            }
        }
    }
}
