//! Semantic analysis and lowering: scopes, symbols, types, slot binding, constant folding,
//! inlining of user functions, unrolling of `for` loops, and emission of the IR in one pass.
//!
//! Owns: every semantic rule of the language (see docs/LANGUAGE.md) and the exact lowering to the
//! ops of `ir`. Must never: allocate, recurse without a bound (expression and statement
//! nesting are bounded by the parser, call depth by `CALL_DEPTH_MAX`; operator chains, which the
//! parser does not bound, are walked with an explicit stack), spend more than the
//! `WORK_MAX` steps of work on one compile (unrolling and inlining), assume a constant on a path
//! where it was not assigned (only `const` variables and loop indices are known constants), let a
//! callee see its caller's locals, or panic on any tree the parser can build.
//!
//! One pass, one state ([`Sema`], here with the driver, error reporting, the work budget and
//! emission), its methods split by concern: `types` (values and type predicates), `scope`
//! (scopes and symbol lookup), `decl` (global declarations, interface binding, prologue and
//! epilogue), `stmt` (statements, unrolling, assignment), `expr` (expressions and operators),
//! `call` (user calls and inlining), `builtins` (the built-in functions), `ctor`
//! (constructors), and profile 2's `p2types` (uint, bvec and every matrix shape: conversions,
//! linear algebra, equality) and `builtins2` (profile 2's built-in library). Constant folding happens where each operation is lowered: an operation whose
//! operands are all constants yields a constant `Val` instead of IR.
use core::fmt;

use heapless::Vec;

use crate::front::ast::*;
use crate::front::diag::Diagnostics;
use crate::front::lex::Tokens;
use crate::front::profile::P2_HINT;
use crate::ir::*;
use crate::limits::*;

use self::aggregate::{AggTy, Member, StructDef};
use self::types::Val;

macro_rules! bail {
    ($s:expr, $node:expr, $($arg:tt)*) => {{
        $s.err($node, format_args!($($arg)*));
        return Err(());
    }};
}

mod aggregate;
pub mod builtins;
pub mod builtins2;
mod call;
mod ctor;
mod decl;
mod expr;
mod index;
mod ints;
mod ioblock;
mod loops;
mod p2types;
mod removed;
mod replay;
mod scope;
mod stmt;
mod switch;
pub mod textures;
mod textures_array;
mod textures_cube;
mod types;

type R<T> = Result<T, ()>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SymKind {
    In,
    Out,
    Uniform,
    Sampler,
    Local,
    Const,
    LoopVar,
    Func,
    Position,
    FragCoord,
    /// Profile 2's gl_FragDepth (a fragment output; named in a vertex shader, an error).
    FragDepth,
    /// Profile 2's gl_ClipDistance (a vertex output array of CLIP_DISTANCE_MAX floats; named
    /// in a fragment shader, an error).
    ClipDistance,
    /// Profile 2's vertex-stage gl_VertexID / gl_InstanceID (`slot` = the LOAD_SYSVAL value),
    /// and the fragment stage's gl_FrontFacing (`slot` = [`FRONT_FACING_SLOT`]).
    SysVal,
}

/// The `slot` of the gl_FrontFacing symbol (a fragment-stage system value, LOAD_FACE).
pub(super) const FRONT_FACING_SLOT: i16 = 2;

/// A symbol's name: a slice of the compile's source (by offset, so the symbol table can live in
/// the caller's [`SemaTables`] across compiles), or a built-in's literal.
#[derive(Clone, Copy, Debug)]
enum SymName {
    Src { off: u32, len: u32 },
    Static(&'static str),
}

/// Names of built-in symbols that are not slices of the source (GLSL 3.30's built-in variables).
const STATIC_NAMES: &[&str] = &[
    "gl_Position",
    "gl_FragCoord",
    "gl_VertexID",
    "gl_InstanceID",
    "gl_PointSize",
    "gl_PointCoord",
    "gl_FrontFacing",
    "gl_FragDepth",
    "gl_ClipDistance",
    "gl_PrimitiveID",
];

#[derive(Clone, Debug)]
struct Sym {
    /// A slice of the source (or a built-in's literal): symbols are never copied names.
    name: SymName,
    /// [`name_key`] of the name: most lookups reject a symbol on this word alone.
    key: u32,
    /// The next older symbol whose key falls in the same bucket (`SemaTables::sym_heads`),
    /// `NO_SYM` for none.
    next: u16,
    kind: SymKind,
    ty: Type,
    scope: u16,
    /// Base temp (matrices: first column), -1 when none.
    tmp: i16,
    known: Option<[f32; 4]>,
    /// Declaring node (Func: the function node).
    node: i16,
    /// Location, slot or sampler unit.
    slot: i16,
    /// Profile 2: a struct variable's type (its value is the block of temps from `tmp`; a
    /// uniform's leaves are in consecutive vec4 slots from `slot`); NONE otherwise.
    agg: AggTy,
    /// Profile 2: the first sampler unit of a struct value with sampler members (a uniform or
    /// an `in` parameter), -1 otherwise.
    unit: i8,
}

#[derive(Clone, Copy, Debug)]
struct Scope {
    parent: u16,
    sym_base: u16,
}

/// The state of the semantic pass over one shader.
// repr(C) with the fixed tables last: with the compiler's field order, building this struct
// zeroed the uninitialised symbol table storage (5 KB) on every compile.
#[repr(C)]
pub struct Sema<'a> {
    src: &'a [u8],
    /// The whole source as text when it is valid UTF-8 (validated once, so that token names
    /// are plain slices instead of one validation per lookup).
    text: Option<&'a str>,
    toks: &'a Tokens,
    ast: &'a Ast,
    diag: &'a mut Diagnostics,
    pub module: &'a mut Module,
    stage: Stage,
    cur: u16,
    ntemp: u16,
    /// Active inlined functions (function node indices), main first.
    calls: Vec<i16, CALL_DEPTH_CAP>,
    /// Per call: where a non-void result goes, and the function's last top-level statement.
    ret_tmp: i16,
    ret_ty: Type,
    /// Profile 2, a function with an early return: its "returned" flag temp (-1 otherwise).
    ret_flag: i16,
    last_stmt: i16,
    if_depth: usize,
    /// Profile 2's open dynamic loops, innermost last: (`continue` and `break` leave a one-trip
    /// wrapper loop around the body, the break flag temp); see `loops`.
    dloops: Vec<(bool, i16), LOOP_DEPTH_MAX>,
    /// The entries of `dloops` that belong to callers of the function being inlined
    /// (`break`, `continue` and `return` act only on the loops above it).
    loop_base: usize,
    /// Profile 2: the product of the proven trip counts of the open dynamic loops, or 0 inside
    /// a loop that spends the invocation budget (see `loops`).
    loop_work: u32,
    /// Set by the unroller when a profile-2 loop must run dynamically instead.
    unroll_failed: bool,
    limit_reported: bool,
    cur_node: i16,
    dry: bool,
    pos_written: bool,
    /// Profile 2: gl_FragDepth is assigned somewhere (statically): main stores it.
    depth_written: bool,
    /// Profile 2: the gl_ClipDistance elements assigned somewhere (statically; bit k): main
    /// stores them, and they are the enabled user clip planes.
    clip_written: u8,
    /// First temp allocated by the current statement (temps below hold variables).
    stmt_mark: u16,
    /// Work spent so far (see [`WORK_MAX`]): one step per statement and expression lowered, per
    /// unrolled loop iteration and per inlined call.
    work: u32,
    /// The budget ran out: the error is reported, every later step fails at once.
    work_spent: bool,
    /// The outermost loop or call being expanded in the current top-level function, where a
    /// spent budget is reported (-1 when none).
    expansion: i16,
    /// The tables, in the caller's storage (see [`SemaTables`]).
    t: &'a mut SemaTables,
    /// The bounds of the compile's profile.
    lim: &'static Limits,
    /// Profile 2: the aggregate type of the last l-value resolved (NONE for plain targets),
    /// and of the current function's result.
    lv_agg: AggTy,
    ret_agg: AggTy,
    /// Calls inlined so far, and the most symbols in scope at once since `replay_start` (see
    /// `replay`).
    inlines: u32,
    sym_peak: u16,
    /// Profile 2: two top-level functions share a name (an overload or a prototype), so a
    /// call resolves among them; otherwise a name's function is its symbol's.
    overloads: bool,
    /// The pool index of the four zeros `zero` loads, once found in the pool (-1 before):
    /// the pool only grows, so a window found at `k` stays the first match (every window
    /// that starts before `k` was already complete and differed).
    zero4: i16,
    /// The last function `plain_distinct_params` answered for, and its answer (the answer
    /// depends on the tree only; calls of one function often follow each other).
    distinct_memo: (i16, bool),
    /// The last function `fn_facts` answered for, and its answer.
    facts_memo: Option<call::FnFacts>,
}

/// The semantic pass's tables (about 80 KiB at profile-2 capacity), owned by the caller's
/// `Workspace` and reused: built in `analyze`'s frame, their empty storage was zeroed on every
/// compile (a constant `heapless::Vec::new()` is copied as a memset), a fifth of a small
/// shader's compile time.
pub struct SemaTables {
    scopes: Vec<Scope, SCOPE_CAP>,
    syms: Vec<Sym, SYM_CAP>,
    /// Per key bucket ([`scope::bucket`]): the newest symbol in it, `NO_SYM` for none. Each
    /// bucket's symbols are chained newest first through `Sym::next`, so a lookup visits the
    /// symbols of its bucket only, in the order a backward scan of `syms` would.
    sym_heads: [u16; scope::SYM_BUCKETS],
    /// Chain links waiting for their left operand (see `Sema::chain`); a node is here at most
    /// once, as no function is active twice.
    spine: Vec<i16, AST_CAP>,
    /// Per tree node: a function node that some call reached (sized to the tree).
    called: Vec<bool, AST_CAP>,
    /// Per tree node: whether the expression calls a user function (0: not asked yet, 1: no,
    /// 2: yes; see `has_user_call`).
    user_calls: Vec<core::cell::Cell<u8>, AST_CAP>,
    /// Profile 2: the struct types in scope and their members (see `aggregate`).
    structs: Vec<StructDef, P2_STRUCT_MAX>,
    members: Vec<Member, P2_MEMBER_MAX>,
    /// Profile 2: write-backs of dynamically indexed assignment targets (see `index`).
    wb: Vec<index::WriteBack, P2_INDEXED_TARGETS_MAX>,
    /// Profile 2: recorded function bodies and their instructions (see `replay`).
    replay: replay::Bodies,
    replay_insts: replay::BodyInsts,
    /// Per recorded instruction: its temp fields (`replay::moved`), set by a body's first
    /// replay check (read only after it).
    replay_fields: [u8; replay::REPLAY_INSTS],
}

impl Default for SemaTables {
    fn default() -> Self {
        SemaTables::new()
    }
}

impl SemaTables {
    pub const fn new() -> SemaTables {
        SemaTables {
            scopes: Vec::new(),
            syms: Vec::new(),
            sym_heads: [scope::NO_SYM; scope::SYM_BUCKETS],
            spine: Vec::new(),
            called: Vec::new(),
            user_calls: Vec::new(),
            structs: Vec::new(),
            members: Vec::new(),
            wb: Vec::new(),
            replay: Vec::new(),
            replay_insts: Vec::new(),
            replay_fields: [0; replay::REPLAY_INSTS],
        }
    }
}

/// Runs semantic analysis and lowering of `ast` into `module`; returns the work spent (at most
/// [`WORK_MAX`] + 1 steps, see `Sema::spend`).
pub fn analyze(
    src: &[u8],
    toks: &Tokens,
    ast: &Ast,
    stage: Stage,
    diag: &mut Diagnostics,
    module: &mut Module,
    tables: &mut SemaTables,
) -> u32 {
    module.stage = stage;
    module.insts.clear();
    module.imms.clear();
    module.temps = 0;
    // Field by field: assigning a fresh `Interface` zeroes and copies ~3 KB per compile.
    let iface = &mut module.iface;
    iface.attributes.clear();
    iface.varyings.clear();
    iface.uniforms.clear();
    iface.samplers.clear();
    iface.writes_position = false;
    iface.color_output = None;
    iface.frag_outputs.clear();
    iface.reads_fragcoord = false;
    iface.reads_vertex_id = false;
    iface.reads_instance_id = false;
    let mut s = Sema {
        src,
        text: core::str::from_utf8(src).ok(),
        toks,
        ast,
        diag,
        module,
        stage,
        cur: 0,
        ntemp: 0,
        calls: Vec::new(),
        ret_tmp: -1,
        ret_ty: Type::Void,
        ret_flag: -1,
        last_stmt: -1,
        if_depth: 0,
        dloops: Vec::new(),
        loop_base: 0,
        loop_work: 1,
        unroll_failed: false,
        limit_reported: false,
        cur_node: -1,
        dry: false,
        lim: limits(toks.profile),
        pos_written: false,
        depth_written: false,
        clip_written: 0,
        stmt_mark: 0,
        work: 0,
        work_spent: false,
        expansion: -1,
        lv_agg: AggTy::NONE,
        ret_agg: AggTy::NONE,
        inlines: 0,
        sym_peak: 0,
        overloads: false,
        zero4: -1,
        distinct_memo: (-1, false),
        facts_memo: None,
        t: tables,
    };
    s.t.syms.clear();
    s.t.sym_heads = [scope::NO_SYM; scope::SYM_BUCKETS];
    s.t.scopes.clear();
    s.t.spine.clear();
    s.t.structs.clear();
    s.t.members.clear();
    s.t.wb.clear();
    s.t.replay.clear();
    s.t.replay_insts.clear();
    crate::ir::refill(&mut s.t.called, ast.nodes.len(), false);
    crate::ir::refill(
        &mut s.t.user_calls,
        ast.nodes.len(),
        core::cell::Cell::new(0),
    );
    let _ = s.t.scopes.push(Scope {
        parent: 0,
        sym_base: 0,
    });
    let _ = s.run();
    s.work
}

impl<'a> Sema<'a> {
    fn node(&self, i: i16) -> Node {
        self.ast
            .get(i)
            .copied()
            .unwrap_or(Node::new(Kind::Empty, -1))
    }

    fn name_of(&self, node: i16) -> &'a str {
        // Only the node's token is needed (copying the whole node cost more than the lookup).
        let Some(tok) = self.ast.get(node).map(|n| n.tok) else {
            return "";
        };
        let Some(t) = self.toks.get(tok) else {
            return "";
        };
        match self.text {
            // Same result as `Token::text`: a slice that is in range and on char boundaries.
            Some(text) => {
                let start = t.off as usize;
                text.get(start..start.saturating_add(t.len as usize))
                    .unwrap_or("")
            }
            None => t.text(self.src),
        }
    }

    fn err(&mut self, node: i16, args: fmt::Arguments<'_>) {
        if self.dry && self.limit_reported {
            return;
        }
        let (line, col) = self.pos_of(node);
        self.diag.push(line, col, args);
    }

    /// Line and column of a node's token (the end of the source when it has none).
    fn pos_of(&self, node: i16) -> (u32, u32) {
        let n = self.node(node);
        match self.toks.get(n.tok) {
            Some(t) => (t.line, t.col as u32),
            None => match self.toks.toks.last() {
                Some(t) => (t.line, t.col as u32),
                None => (1, 1),
            },
        }
    }

    fn err_tok(&mut self, tok: i16, args: fmt::Arguments<'_>) {
        let (line, col) = match self.toks.get(tok) {
            Some(t) => (t.line, t.col as u32),
            None => (1, 1),
        };
        self.diag.push(line, col, args);
    }

    fn limit(&mut self, args: fmt::Arguments<'_>) -> R<()> {
        if !self.limit_reported {
            self.limit_reported = true;
            let n = self.cur_node;
            self.err(n, args);
        }
        Err(())
    }

    /// Spends one step of the compile's work budget ([`WORK_MAX`]). Unrolling and inlining
    /// multiply the work of a loop body or a function body, so nested loops and calls could
    /// otherwise take exponential time while emitting nothing (empty bodies, constant code).
    /// The first overrun is reported once, at the outermost loop or call being expanded.
    #[inline]
    fn spend(&mut self, at: i16) -> R<()> {
        if (self.work as usize) < self.lim.compile_work_steps_max {
            self.work += 1;
            return Ok(());
        }
        self.budget_spent(at)
    }

    #[inline(never)]
    fn budget_spent(&mut self, at: i16) -> R<()> {
        if !self.work_spent {
            self.work_spent = true;
            let max = self.lim.compile_work_steps_max;
            self.work = (max as u32).saturating_add(1);
            let at = if self.expansion >= 0 {
                self.expansion
            } else {
                at
            };
            let (line, col) = self.pos_of(at);
            self.diag.push(
                line,
                col,
                format_args!(
                    "compile work budget exceeded ({} steps: unrolled loops and inlined calls); reduce loop nesting, iterations or calls in loops",
                    max
                ),
            );
        }
        Err(())
    }

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        op: Op,
        ty: Type,
        lanes: u8,
        dst: i16,
        a: i16,
        b: i16,
        aux: i16,
        aux2: i16,
    ) -> R<()> {
        if self.dry {
            return Ok(());
        }
        let inst = Inst {
            op,
            ty: ty as u8,
            lanes,
            dst,
            a,
            b,
            c: -1,
            aux,
            aux2,
        };
        if self.module.insts.len() < self.lim.ir_instructions_max
            && self.module.insts.push(inst).is_ok()
        {
            return Ok(());
        }
        self.inst_limit()
    }

    /// The instruction limit's error, out of line: with it inline, every [`Self::emit`]
    /// saved and restored six registers for the formatting it almost never reaches.
    #[cold]
    #[inline(never)]
    fn inst_limit(&mut self) -> R<()> {
        let max = self.lim.ir_instructions_max;
        self.limit(format_args!(
            "shader exceeds the instruction limit of {} IR instructions",
            max
        ))
    }

    fn temp(&mut self, n: u16) -> R<i16> {
        let t = self.ntemp;
        let end = t.saturating_add(n);
        if end as usize > self.lim.temporaries_max {
            return self.temp_limit();
        }
        self.ntemp = end;
        if end > self.module.temps {
            self.module.temps = end;
        }
        Ok(t as i16)
    }

    /// [`Self::temp`] past the temporary limit (out of line, as [`Self::inst_limit`]): temp 0
    /// in a dry run, else the limit's error.
    #[cold]
    #[inline(never)]
    fn temp_limit(&mut self) -> R<i16> {
        if self.dry {
            return Ok(0);
        }
        let max = self.lim.temporaries_max;
        self.limit(format_args!(
            "shader exceeds the temporary limit of {} four-lane registers",
            max
        ))?;
        Ok(0)
    }

    /// Index of `vals` in the immediate pool, appended unless already present.
    fn imm(&mut self, vals: &[f32]) -> R<i16> {
        if self.dry {
            return Ok(0);
        }
        let pool = &self.module.imms;
        let n = vals.len();
        if let [v] = vals {
            // One value (most constants): its first occurrence, found by a plain scan.
            let bits = v.to_bits();
            if let Some(k) = pool.iter().position(|p| p.to_bits() == bits) {
                return Ok(k as i16);
            }
        } else if n > 0 && pool.len() >= n {
            for start in 0..=(pool.len() - n) {
                let same = pool
                    .get(start..start + n)
                    .map(|w| w.iter().zip(vals).all(|(a, b)| a.to_bits() == b.to_bits()))
                    .unwrap_or(false);
                if same {
                    return Ok(start as i16);
                }
            }
        }
        self.imm_append(vals)
    }

    /// [`Self::imm`] of values not in the pool yet: appended (out of line, so that the search
    /// above, the usual outcome, saves no registers for the limit's formatting).
    #[inline(never)]
    fn imm_append(&mut self, vals: &[f32]) -> R<i16> {
        let base = self.module.imms.len();
        for &v in vals {
            if self.module.imms.len() >= self.lim.immediates_max
                || self.module.imms.push(v).is_err()
            {
                let max = self.lim.immediates_max;
                self.limit(format_args!(
                    "shader exceeds the constant limit of {} float immediates",
                    max
                ))?;
            }
        }
        Ok(base as i16)
    }

    /// Puts a value in a temp (constants become a CONST).
    #[inline]
    fn mat(&mut self, v: Val) -> R<i16> {
        match v.k {
            Some(k) => self.mat_const(v.ty, k),
            None => Ok(v.tmp),
        }
    }

    /// [`Self::mat`] of a constant: a CONST into a new temp (out of line: a value already in a
    /// temp, the usual operand, then costs no register saves).
    #[inline(never)]
    fn mat_const(&mut self, ty: Type, k: [f32; 4]) -> R<i16> {
        let n = ty.components().clamp(1, 4);
        let base = self.imm(k.get(..n as usize).unwrap_or(&k))?;
        let t = self.temp(1)?;
        self.emit(Op::Const, ty, n, t, -1, -1, base, 0)?;
        Ok(t)
    }

    fn run(&mut self) -> R<()> {
        // Every identifier of the tree, once (the built-in checks below and the prologue).
        let mut idents = decl::Idents::new();
        let ids = if self.identifiers(&mut idents) {
            Some(&idents[..])
        } else {
            None
        };
        // Built-ins are symbols 0 and 1 in the global scope.
        self.builtin_sym("gl_Position", SymKind::Position, Type::Vec4)?;
        self.builtin_sym("gl_FragCoord", SymKind::FragCoord, Type::Vec4)?;
        if self.toks.profile == Profile::P2 {
            // Symbols 2 and 3 (profile 1 has no such names).
            let v = self.builtin_sym("gl_VertexID", SymKind::SysVal, Type::Int)?;
            let n = self.builtin_sym("gl_InstanceID", SymKind::SysVal, Type::Int)?;
            // Symbol 4, only when the source names it (so it takes no room in the symbol
            // table otherwise): the fragment stage's gl_FrontFacing (its `slot` marks it).
            if self.referenced(ids, "gl_FrontFacing") {
                let f = self.add_sym(-1, "gl_FrontFacing", SymKind::SysVal, Type::Bool, -1)?;
                if let Some(sym) = self.t.syms.get_mut(f) {
                    sym.slot = FRONT_FACING_SLOT;
                }
            }
            // Likewise gl_FragDepth (its temp comes in the prologue; see `depth_sym`).
            if self.referenced(ids, "gl_FragDepth") {
                self.add_sym(-1, "gl_FragDepth", SymKind::FragDepth, Type::Float, -1)?;
            }
            // And gl_ClipDistance, float[CLIP_DISTANCE_MAX] (its temps come in the prologue).
            if self.referenced(ids, "gl_ClipDistance") {
                let c = self.add_sym(
                    -1,
                    "gl_ClipDistance",
                    SymKind::ClipDistance,
                    Type::Float,
                    -1,
                )?;
                if let Some(sym) = self.t.syms.get_mut(c) {
                    sym.agg = AggTy {
                        base: Type::Float,
                        strukt: 0,
                        len: CLIP_DISTANCE_MAX as u16,
                    };
                }
            }
            for (s, value) in [(v, SYSVAL_VERTEX_ID), (n, SYSVAL_INSTANCE_ID)] {
                if let Some(sym) = self.t.syms.get_mut(s) {
                    sym.slot = value;
                }
            }
        }

        let mut main: i16 = -1;
        // Profile 2: global struct types, in order (a member names only earlier structs).
        for (i, n) in self.ast.list(self.ast.first) {
            if n.kind == Kind::Struct {
                let _ = self.declare_struct(i);
            }
        }
        // Functions first, so calls resolve whatever the order.
        for (i, n) in self.ast.list(self.ast.first) {
            if n.kind != Kind::Func {
                continue;
            }
            let name = self.name_of(i);
            if self.is_builtin(name) {
                self.err(
                    i,
                    format_args!("'{}' is a built-in function and cannot be redefined", name),
                );
                continue;
            }
            let nparams = self.ast.list(n.a).count();
            let max = self.lim.parameters_max;
            if nparams > max {
                let p = self.ast.list(n.a).nth(max).map(|p| p.0).unwrap_or(i);
                self.err(
                    p,
                    format_args!(
                        "too many parameters: '{}' has {}; the limit is {}",
                        name, nparams, max
                    ),
                );
            }
            for (p, pn) in self.ast.list(n.a) {
                if (pn.ty == Type::Void && pn.c < 0) || pn.ty.is_sampler() {
                    self.err(
                        p,
                        format_args!("parameters cannot have type {}", pn.ty.name()),
                    );
                }
            }
            if name == "main" {
                if n.ty != Type::Void || n.c >= 0 || nparams != 0 {
                    self.err(i, format_args!("main must be declared 'void main()'"));
                }
                if n.b >= 0 {
                    main = i;
                }
            }
            // An earlier function of this name: profile 2 overloads (or declares) it.
            let earlier = self
                .ast
                .list(self.ast.first)
                .take_while(|&(j, _)| j != i)
                .find(|&(j, m)| m.kind == Kind::Func && self.name_of(j) == name);
            if let Some((j, m)) = earlier {
                if self.toks.profile == Profile::P2 {
                    self.overloads = true;
                    self.check_redeclaration(i, n, j, m);
                    continue;
                }
                if !self.same_params(n.a, m.a) {
                    let line = self.toks.get(m.tok).map(|t| t.line).unwrap_or(0);
                    self.err(
                        i,
                        format_args!(
                            "duplicate declaration of '{}' (first declared at line {}){}",
                            name, line, P2_HINT
                        ),
                    );
                    continue;
                }
            }
            if let Ok(s) = self.add_sym(i, name, SymKind::Func, n.ty, -1) {
                if let Some(sym) = self.t.syms.get_mut(s) {
                    sym.node = i;
                }
            }
        }
        let mut names = decl::GlobalNames::new();
        self.bind_interface(&mut names);
        if self.diag.total() > 0 {
            return Err(());
        }
        self.prologue(ids, &names);
        if main < 0 {
            let eof = self.toks.toks.len().saturating_sub(1) as i16;
            self.err_tok(
                eof,
                format_args!("missing 'void main()': every shader needs an entry point"),
            );
            return Err(());
        }
        if self.diag.total() > 0 {
            return Err(());
        }
        let _ = self.call_function(main, &[], &[], main);
        // Functions never called are still checked (their code is discarded).
        for (i, n) in self.ast.list(self.ast.first) {
            if n.kind == Kind::Func
                && i != main
                && n.b >= 0
                && !self.t.called.get(i as usize).copied().unwrap_or(true)
            {
                self.dry_check(i);
            }
        }
        if self.diag.total() > 0 {
            return Err(());
        }
        self.epilogue(main)
    }

    /// Type-checks an uncalled function with placeholder arguments, emitting nothing.
    fn dry_check(&mut self, f: i16) {
        let saved_temp = self.ntemp;
        let saved_hi = self.module.temps;
        let saved_pos = (self.pos_written, self.depth_written, self.clip_written);
        self.dry = true;
        let mut args: Vec<Val, PARAM_CAP> = Vec::new();
        let n = self.node(f);
        for (pi, p) in self.ast.list(n.a).take(PARAM_CAP) {
            let agg = self.node_agg(pi).unwrap_or(AggTy::NONE);
            let v = if agg.is_agg() {
                Val::agg(agg, 0)
            } else {
                Val::temp(p.ty, 0)
            };
            let _ = args.push(v);
        }
        let _ = self.call_function(f, &args, &[], f);
        self.dry = false;
        self.ntemp = saved_temp;
        self.module.temps = saved_hi;
        (self.pos_written, self.depth_written, self.clip_written) = saved_pos;
    }
}
