//! Semantic analysis and lowering: scopes, symbols, types, slot binding, constant folding,
//! inlining of user functions, unrolling of `for` loops, and emission of the IR in one pass.
//!
//! Owns: every semantic rule of the language (see docs/LANGUAGE.md) and the exact lowering to the
//! ops of `ir.rs`. Must never: allocate, recurse without a bound (expression and statement
//! nesting are bounded by the parser, call depth by `CALL_DEPTH_MAX`; operator chains, which the
//! parser does not bound, are walked with an explicit stack), spend more than the
//! `WORK_MAX` steps of work on one compile (unrolling and inlining), assume a constant on a path
//! where it was not assigned (only `const` variables and loop indices are known constants), let a
//! callee see its caller's locals, or panic on any tree the parser can build.
use core::fmt;

use heapless::Vec;

use crate::front::ast::*;
use crate::front::diag::{bounded_string, Diagnostics};
use crate::front::lex::Tokens;
use crate::ir::*;
use crate::limits::*;

type R<T> = Result<T, ()>;

/// An assignment target: symbol index, storage temp, type stored there, and the written lanes
/// (swizzle length and selectors) when only some lanes are written.
type LValue = (usize, i16, Type, Option<(u8, i32)>);

/// Built-in functions: name, accepted argument counts, and the signatures shown by `shc builtins`.
pub const BUILTINS: &[(&str, u8, u8, &str)] = &[
    (
        "texture",
        2,
        2,
        "vec4 texture(sampler2D s, vec2 uv); vec4 texture(sampler2D s, vec3 uv); vec4 texture(sampler2D s, vec4 uv) (samples at uv.xy)",
    ),
    ("dot", 2, 2, "float dot(genType a, genType b)"),
    ("cross", 2, 2, "vec3 cross(vec3 a, vec3 b)"),
    ("length", 1, 1, "float length(genType v)"),
    ("normalize", 1, 1, "genType normalize(genType v)"),
    ("abs", 1, 1, "genType abs(genType x); genIType abs(genIType x)"),
    ("sin", 1, 1, "genType sin(genType radians)"),
    ("cos", 1, 1, "genType cos(genType radians)"),
    ("min", 2, 2, "genType min(genType a, genType b); genType min(genType a, float b)"),
    ("max", 2, 2, "genType max(genType a, genType b); genType max(genType a, float b)"),
    (
        "clamp",
        3,
        3,
        "genType clamp(genType x, genType lo, genType hi); genType clamp(genType x, float lo, float hi)",
    ),
    ("mix", 3, 3, "genType mix(genType a, genType b, genType t); genType mix(genType a, genType b, float t)"),
    ("pow", 2, 2, "genType pow(genType x, genType y)"),
    ("reflect", 2, 2, "genType reflect(genType i, genType n)"),
];

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
}

#[derive(Clone, Debug)]
struct Sym<'a> {
    /// A slice of the source (or a built-in's literal): symbols are never copied names.
    name: &'a str,
    /// [`name_key`] of `name`: most lookups reject a symbol on this word alone.
    key: u32,
    kind: SymKind,
    ty: Type,
    scope: u8,
    /// Base temp (matrices: first column), -1 when none.
    tmp: i16,
    known: Option<[f32; 4]>,
    /// Declaring node (Func: the function node).
    node: i16,
    /// Location, slot or sampler unit.
    slot: i16,
}

/// Name equality as an inline byte loop: names are short, and a library compare call per
/// candidate cost more.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Identifiers gathered for the used-global check (see `Sema::identifiers`).
const IDENTS_MAX: usize = 128;

/// Length and first, middle and last bytes of a name, packed: equal names have equal keys, and
/// the names of one shader nearly always differ in one of these.
fn name_key(name: &str) -> u32 {
    key_of(name.as_bytes())
}

/// [`name_key`] of a name's bytes.
fn key_of(b: &[u8]) -> u32 {
    let at = |i: usize| b.get(i).copied().unwrap_or(0) as u32;
    (b.len() as u32 & 0xff)
        | at(0) << 8
        | at(b.len() / 2) << 16
        | at(b.len().saturating_sub(1)) << 24
}

#[derive(Clone, Copy, Debug)]
struct Scope {
    parent: u8,
    sym_base: u8,
}

/// An expression's value: a constant (not yet in IR), a temp, or a sampler unit.
#[derive(Clone, Copy, Debug)]
struct Val {
    ty: Type,
    tmp: i16,
    k: Option<[f32; 4]>,
    unit: i8,
}

impl Val {
    fn konst(ty: Type, k: [f32; 4]) -> Val {
        Val {
            ty,
            tmp: -1,
            k: Some(k),
            unit: -1,
        }
    }
    fn temp(ty: Type, tmp: i16) -> Val {
        Val {
            ty,
            tmp,
            k: None,
            unit: -1,
        }
    }
}

fn is_int_based(t: Type) -> bool {
    matches!(t, Type::Int | Type::IVec2 | Type::IVec3 | Type::IVec4)
}
fn is_numeric(t: Type) -> bool {
    matches!(
        t,
        Type::Int
            | Type::Float
            | Type::Vec2
            | Type::Vec3
            | Type::Vec4
            | Type::IVec2
            | Type::IVec3
            | Type::IVec4
    )
}
fn is_scalar(t: Type) -> bool {
    matches!(t, Type::Bool | Type::Int | Type::Float)
}
fn is_matrix(t: Type) -> bool {
    matches!(t, Type::Mat3 | Type::Mat4)
}
fn vec_type(int: bool, n: u8) -> Type {
    match (int, n) {
        (true, 1) => Type::Int,
        (true, 2) => Type::IVec2,
        (true, 3) => Type::IVec3,
        (true, _) => Type::IVec4,
        (false, 1) => Type::Float,
        (false, 2) => Type::Vec2,
        (false, 3) => Type::Vec3,
        (false, _) => Type::Vec4,
    }
}
fn float_of(t: Type) -> Type {
    vec_type(false, t.components().max(1))
}
fn lane(k: &[f32; 4], i: usize) -> f32 {
    k.get(i).copied().unwrap_or(0.0)
}
fn sel(mask: i32, k: usize) -> usize {
    ((mask >> (2 * k)) & 3) as usize
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
    cur: u8,
    ntemp: u16,
    /// Active inlined functions (function node indices), main first.
    calls: Vec<i16, CALL_DEPTH_MAX>,
    /// Per call: where a non-void result goes, and the function's last top-level statement.
    ret_tmp: i16,
    ret_ty: Type,
    last_stmt: i16,
    if_depth: usize,
    limit_reported: bool,
    cur_node: i16,
    dry: bool,
    called: [bool; AST_MAX],
    pos_written: bool,
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
    scopes: Vec<Scope, SCOPE_MAX>,
    syms: Vec<Sym<'a>, SYM_MAX>,
    /// Chain links waiting for their left operand (see `Sema::chain`); a node is here at most
    /// once, as no function is active twice.
    spine: Vec<i16, AST_MAX>,
}

macro_rules! bail {
    ($s:expr, $node:expr, $($arg:tt)*) => {{
        $s.err($node, format_args!($($arg)*));
        return Err(());
    }};
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
    iface.reads_fragcoord = false;
    let mut s = Sema {
        src,
        text: core::str::from_utf8(src).ok(),
        toks,
        ast,
        diag,
        module,
        stage,
        syms: Vec::new(),
        scopes: Vec::new(),
        spine: Vec::new(),
        cur: 0,
        ntemp: 0,
        calls: Vec::new(),
        ret_tmp: -1,
        ret_ty: Type::Void,
        last_stmt: -1,
        if_depth: 0,
        limit_reported: false,
        cur_node: -1,
        dry: false,
        called: [false; AST_MAX],
        pos_written: false,
        stmt_mark: 0,
        work: 0,
        work_spent: false,
        expansion: -1,
    };
    let _ = s.scopes.push(Scope {
        parent: 0,
        sym_base: 0,
    });
    let _ = s.run();
    s.work
}

impl<'a> Sema<'a> {
    // ---------------------------------------------------------------- basics

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
            Some(t) => (t.line as u32, t.col as u32),
            None => match self.toks.toks.last() {
                Some(t) => (t.line as u32, t.col as u32),
                None => (1, 1),
            },
        }
    }

    fn err_tok(&mut self, tok: i16, args: fmt::Arguments<'_>) {
        let (line, col) = match self.toks.get(tok) {
            Some(t) => (t.line as u32, t.col as u32),
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
        if self.work < WORK_MAX {
            self.work += 1;
            return Ok(());
        }
        self.budget_spent(at)
    }

    #[inline(never)]
    fn budget_spent(&mut self, at: i16) -> R<()> {
        if !self.work_spent {
            self.work_spent = true;
            self.work = WORK_MAX.saturating_add(1);
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
                    WORK_MAX
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
        if self.module.insts.push(inst).is_err() {
            return self.limit(format_args!(
                "shader exceeds the instruction limit of {} IR instructions",
                IR_MAX
            ));
        }
        Ok(())
    }

    fn temp(&mut self, n: u16) -> R<i16> {
        let t = self.ntemp;
        let end = t.saturating_add(n);
        if end as usize > TEMP_MAX {
            if self.dry {
                return Ok(0);
            }
            self.limit(format_args!(
                "shader exceeds the temporary limit of {} four-lane registers",
                TEMP_MAX
            ))?;
        }
        self.ntemp = end;
        if end > self.module.temps {
            self.module.temps = end;
        }
        Ok(t as i16)
    }

    /// Index of `vals` in the immediate pool, appended unless already present.
    fn imm(&mut self, vals: &[f32]) -> R<i16> {
        if self.dry {
            return Ok(0);
        }
        let pool = &self.module.imms;
        let n = vals.len();
        if n > 0 && pool.len() >= n {
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
        let base = pool.len();
        for &v in vals {
            if self.module.imms.push(v).is_err() {
                self.limit(format_args!(
                    "shader exceeds the constant limit of {} float immediates",
                    IMM_MAX
                ))?;
            }
        }
        Ok(base as i16)
    }

    /// Puts a value in a temp (constants become a CONST).
    fn mat(&mut self, v: Val) -> R<i16> {
        if let Some(k) = v.k {
            let n = v.ty.components().clamp(1, 4);
            let base = self.imm(k.get(..n as usize).unwrap_or(&k))?;
            let t = self.temp(1)?;
            self.emit(Op::Const, v.ty, n, t, -1, -1, base, 0)?;
            return Ok(t);
        }
        Ok(v.tmp)
    }

    fn push_scope(&mut self, parent: u8, at: i16) -> R<u8> {
        let id = self.scopes.len();
        let base = self.syms.len() as u8;
        if self
            .scopes
            .push(Scope {
                parent,
                sym_base: base,
            })
            .is_err()
        {
            bail!(
                self,
                at,
                "too many nested scopes: the limit is {} (blocks, loops and inlined calls count)",
                SCOPE_MAX
            );
        }
        let prev = self.cur;
        self.cur = id as u8;
        Ok(prev)
    }

    fn pop_scope(&mut self, prev: u8) {
        if let Some(s) = self.scopes.pop() {
            self.syms.truncate(s.sym_base as usize);
        }
        self.cur = prev;
    }

    fn visible(&self, scope: u8) -> bool {
        let mut s = self.cur;
        for _ in 0..=SCOPE_MAX {
            if s == scope {
                return true;
            }
            if s == 0 {
                return false;
            }
            s = self.scopes.get(s as usize).map(|r| r.parent).unwrap_or(0);
        }
        false
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        let key = name_key(name);
        (0..self.syms.len()).rev().find(|&i| {
            self.syms
                .get(i)
                .map(|s| s.key == key && same_name(s.name, name) && self.visible(s.scope))
                .unwrap_or(false)
        })
    }

    fn add_sym(&mut self, at: i16, name: &'a str, kind: SymKind, ty: Type, tmp: i16) -> R<usize> {
        let cur = self.cur;
        let key = name_key(name);
        if let Some(prev) = self
            .syms
            .iter()
            .find(|s| s.key == key && s.scope == cur && same_name(s.name, name))
        {
            let line = self
                .toks
                .get(self.node(prev.node).tok)
                .map(|t| t.line)
                .unwrap_or(0);
            if prev.kind == SymKind::Position || prev.kind == SymKind::FragCoord {
                bail!(
                    self,
                    at,
                    "'{}' is a built-in variable and cannot be redeclared",
                    name
                );
            }
            bail!(
                self,
                at,
                "duplicate declaration of '{}' (first declared at line {})",
                name,
                line
            );
        }
        let sym = Sym {
            name,
            key,
            kind,
            ty,
            scope: cur,
            tmp,
            known: None,
            node: at,
            slot: -1,
        };
        if self.syms.push(sym).is_err() {
            bail!(
                self,
                at,
                "too many symbols: the limit is {} names in scope at once",
                SYM_MAX
            );
        }
        Ok(self.syms.len() - 1)
    }

    fn sym(&self, i: usize) -> Option<&Sym<'a>> {
        self.syms.get(i)
    }

    // ---------------------------------------------------------------- driver

    fn run(&mut self) -> R<()> {
        // Built-ins are symbols 0 and 1 in the global scope.
        self.add_sym(-1, "gl_Position", SymKind::Position, Type::Vec4, -1)?;
        self.add_sym(-1, "gl_FragCoord", SymKind::FragCoord, Type::Vec4, -1)?;

        let mut main: i16 = -1;
        // Functions first, so calls resolve whatever the order.
        for (i, n) in self.ast.list(self.ast.first) {
            if n.kind != Kind::Func {
                continue;
            }
            let name = self.name_of(i);
            if BUILTINS.iter().any(|b| b.0 == name) {
                self.err(
                    i,
                    format_args!("'{}' is a built-in function and cannot be redefined", name),
                );
                continue;
            }
            let nparams = self.ast.list(n.a).count();
            if nparams > PARAM_MAX {
                let p = self.ast.list(n.a).nth(PARAM_MAX).map(|p| p.0).unwrap_or(i);
                self.err(
                    p,
                    format_args!(
                        "too many parameters: '{}' has {}; the limit is {}",
                        name, nparams, PARAM_MAX
                    ),
                );
            }
            for (p, pn) in self.ast.list(n.a) {
                if pn.ty == Type::Void || pn.ty == Type::Sampler2D {
                    self.err(
                        p,
                        format_args!("parameters cannot have type {}", pn.ty.name()),
                    );
                }
            }
            if name == "main" {
                if n.ty != Type::Void || nparams != 0 {
                    self.err(i, format_args!("main must be declared 'void main()'"));
                }
                main = i;
            }
            if let Ok(s) = self.add_sym(i, name, SymKind::Func, n.ty, -1) {
                if let Some(sym) = self.syms.get_mut(s) {
                    sym.node = i;
                }
            }
        }
        self.bind_interface();
        if self.diag.total() > 0 {
            return Err(());
        }
        self.prologue();
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
        let _ = self.call_function(main, &[], main);
        // Functions never called are still checked (their code is discarded).
        for (i, n) in self.ast.list(self.ast.first) {
            if n.kind == Kind::Func
                && i != main
                && !self.called.get(i as usize).copied().unwrap_or(true)
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
        let saved_pos = self.pos_written;
        self.dry = true;
        let mut args: Vec<Val, PARAM_MAX> = Vec::new();
        let n = self.node(f);
        for (_, p) in self.ast.list(n.a).take(PARAM_MAX) {
            let _ = args.push(Val::temp(p.ty, 0));
        }
        let _ = self.call_function(f, &args, f);
        self.dry = false;
        self.ntemp = saved_temp;
        self.module.temps = saved_hi;
        self.pos_written = saved_pos;
    }

    /// The global declarations' node indices, walked straight from the AST (which `self` only
    /// borrows): collecting them first copied a 1 KB list twice per compile.
    fn global_decls(&self) -> impl Iterator<Item = i16> + 'a {
        let ast: &'a Ast = self.ast;
        ast.list(ast.first)
            .filter(|(_, n)| n.kind == Kind::Decl)
            .map(|(i, _)| i)
    }

    /// Interface checks and slot binding: attributes, varyings, uniforms, samplers, the output.
    fn bind_interface(&mut self) {
        let vs = self.stage == Stage::Vertex;
        let mut used_attr: [i16; ATTR_MAX] = [-1; ATTR_MAX];
        let mut used_var: [i16; VARYING_MAX] = [-1; VARYING_MAX];
        // Checks, then explicit locations.
        for i in self.global_decls() {
            let n = self.node(i);
            let name = self.name_of(i);
            let q = n.quals;
            if name.starts_with("gl_") {
                self.err(i, format_args!("names beginning with 'gl_' are reserved"));
                continue;
            }
            let io = q & (Q_IN | Q_OUT) != 0;
            if q & Q_LAYOUT != 0 && !io {
                self.err_tok(
                    n.d,
                    format_args!("layout(location) is only valid on shader inputs and outputs"),
                );
                continue;
            }
            let varying = (vs && q & Q_OUT != 0) || (!vs && q & Q_IN != 0);
            if q & Q_SMOOTH != 0 && !varying {
                self.err_tok(
                    n.d,
                    format_args!("'smooth' only applies to vertex outputs and fragment inputs"),
                );
                continue;
            }
            if n.ty == Type::Void {
                self.err(i, format_args!("variables cannot be void"));
                continue;
            }
            if n.ty == Type::Sampler2D && q & Q_UNIFORM == 0 {
                self.err(i, format_args!("sampler2D must be a uniform"));
                continue;
            }
            if io && q & Q_CONST != 0 {
                self.err_tok(
                    n.d,
                    format_args!("shader inputs and outputs cannot be const"),
                );
                continue;
            }
            if n.a >= 0 && q & Q_UNIFORM != 0 {
                self.err(
                    n.a,
                    format_args!("uniforms cannot have an initializer (the application sets them)"),
                );
                continue;
            }
            if n.a >= 0 && io {
                self.err(
                    n.a,
                    format_args!("shader inputs and outputs cannot have an initializer"),
                );
                continue;
            }
            if q & Q_CONST != 0 && q & Q_UNIFORM == 0 && n.a < 0 {
                self.err(i, format_args!("const '{}' needs an initializer", name));
                continue;
            }
            if io {
                let float_vec = matches!(n.ty, Type::Float | Type::Vec2 | Type::Vec3 | Type::Vec4);
                let what = if vs && q & Q_IN != 0 {
                    "attribute"
                } else if !vs && q & Q_OUT != 0 {
                    "fragment output"
                } else {
                    "varying"
                };
                if !vs && q & Q_OUT != 0 {
                    if n.ty != Type::Vec4 {
                        self.err(
                            i,
                            format_args!(
                                "fragment output must be vec4; '{}' is {}",
                                name,
                                n.ty.name()
                            ),
                        );
                        continue;
                    }
                    if q & Q_LAYOUT != 0 && n.ival != 0 {
                        self.err_tok(
                            n.d,
                            format_args!(
                                "the fragment output is always location 0; found location {}",
                                n.ival
                            ),
                        );
                        continue;
                    }
                    continue;
                }
                if !float_vec {
                    self.err(
                        i,
                        format_args!(
                            "{} '{}' has type {}; it must be float, vec2, vec3 or vec4",
                            what,
                            name,
                            n.ty.name()
                        ),
                    );
                    continue;
                }
                if q & Q_LAYOUT != 0 {
                    let (table, max): (&mut [i16], usize) = if what == "attribute" {
                        (&mut used_attr, ATTR_MAX)
                    } else {
                        (&mut used_var, VARYING_MAX)
                    };
                    let loc = n.ival;
                    if loc < 0 || loc as usize >= max {
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} is out of range: the locations are 0 to {}",
                                what,
                                loc,
                                max - 1
                            ),
                        );
                        continue;
                    }
                    let slot = table.get(loc as usize).copied().unwrap_or(-1);
                    if slot >= 0 {
                        let other = self.name_of(slot);
                        self.err_tok(
                            n.d,
                            format_args!(
                                "{} location {} is already used by '{}'",
                                what, loc, other
                            ),
                        );
                        continue;
                    }
                    if let Some(t) = table.get_mut(loc as usize) {
                        *t = i;
                    }
                }
            }
        }
        if self.diag.total() > 0 {
            return;
        }
        // Automatic locations and the reflection tables, in declaration order.
        let mut uni_slot = 0usize;
        let mut units = 0usize;
        let mut outputs = 0usize;
        for i in self.global_decls() {
            let n = self.node(i);
            let name = self.name_of(i);
            let q = n.quals;
            let nm: Name = bounded_string(name);
            if q & Q_UNIFORM != 0 {
                if n.ty == Type::Sampler2D {
                    if units >= SAMPLER_MAX {
                        self.err(
                            i,
                            format_args!(
                                "too many samplers: '{}' would be sampler {}; the limit is {}",
                                name,
                                units + 1,
                                SAMPLER_MAX
                            ),
                        );
                        continue;
                    }
                    let _ = self.module.iface.samplers.push(Sampler {
                        name: nm,
                        unit: units as u8,
                    });
                    units += 1;
                } else {
                    let slots = n.ty.uniform_slots() as usize;
                    if uni_slot + slots > UNIFORM_VEC4_MAX {
                        self.err(
                            i,
                            format_args!(
                                "too many uniforms: '{}' needs {} vec4 slot(s) from slot {}; the limit is {} vec4 slots (mat3 takes 3, mat4 takes 4)",
                                name, slots, uni_slot, UNIFORM_VEC4_MAX
                            ),
                        );
                        continue;
                    }
                    let _ = self.module.iface.uniforms.push(Uniform {
                        name: nm,
                        ty: n.ty,
                        slot: uni_slot as u8,
                        slots: slots as u8,
                    });
                    uni_slot += slots;
                }
            } else if q & Q_IN != 0 || (vs && q & Q_OUT != 0) {
                let attr = vs && q & Q_IN != 0;
                let (table, what): (&mut [i16; 8], &str) = if attr {
                    (&mut used_attr, "attribute")
                } else {
                    (&mut used_var, "varying")
                };
                let loc = if q & Q_LAYOUT != 0 {
                    n.ival as usize
                } else {
                    match table.iter().position(|&s| s < 0) {
                        Some(free) => {
                            if let Some(t) = table.get_mut(free) {
                                *t = i;
                            }
                            free
                        }
                        None => {
                            self.err(
                                i,
                                format_args!(
                                    "too many {}s: '{}' does not fit; the limit is {}",
                                    what, name, 8
                                ),
                            );
                            continue;
                        }
                    }
                };
                if attr {
                    let _ = self.module.iface.attributes.push(Attribute {
                        name: nm,
                        ty: n.ty,
                        location: loc as u8,
                        components: n.ty.components(),
                    });
                } else {
                    let _ = self.module.iface.varyings.push(Varying {
                        name: nm,
                        ty: n.ty,
                        slot: loc as u8,
                    });
                }
            } else if q & Q_OUT != 0 {
                outputs += 1;
                if outputs > 1 {
                    self.err(
                        i,
                        format_args!(
                            "only one fragment output is supported; '{}' is a second one",
                            name
                        ),
                    );
                    continue;
                }
                self.module.iface.color_output = Some(nm);
            }
        }
    }

    /// The [`name_key`] and node of every identifier in the tree, for [`Sema::referenced`]:
    /// gathered once instead of walking the whole tree per global declaration. None when the
    /// tree has more than [`IDENTS_MAX`] identifiers (a larger table cost more to set up on
    /// every compile than it saved); then each check walks the tree.
    fn identifiers(&self) -> Option<Vec<(u32, i16), IDENTS_MAX>> {
        let mut ids = Vec::new();
        for n in self.ast.nodes.iter() {
            if n.kind == Kind::Ident {
                ids.push((key_of(self.token_bytes(n.tok)), n.tok)).ok()?;
            }
        }
        Some(ids)
    }

    /// The bytes of token `tok` (empty when there is none): the same bytes as the name
    /// `name_of` returns for its node, since every identifier token is ASCII.
    fn token_bytes(&self, tok: i16) -> &'a [u8] {
        self.toks.get(tok).map_or(&[][..], |t| t.bytes(self.src))
    }

    /// Whether any identifier in the tree names `name` (unused inputs are not loaded).
    fn referenced(&self, ids: &Option<Vec<(u32, i16), IDENTS_MAX>>, name: &str) -> bool {
        match ids {
            Some(ids) => {
                let key = name_key(name);
                ids.iter()
                    .any(|&(k, tok)| k == key && same_bytes(self.token_bytes(tok), name.as_bytes()))
            }
            None => self
                .ast
                .nodes
                .iter()
                .enumerate()
                .any(|(i, n)| n.kind == Kind::Ident && self.name_of(i as i16) == name),
        }
    }

    /// Loads of used inputs and uniforms, zeroed outputs, and global initialisers, in
    /// declaration order; then symbols for everything global.
    fn prologue(&mut self) {
        let vs = self.stage == Stage::Vertex;
        let ids = self.identifiers();
        if vs {
            if let Ok(t) = self.temp(1) {
                let _ = self.zero(t);
                if let Some(s) = self.syms.get_mut(0) {
                    s.tmp = t;
                }
            }
        } else if self.referenced(&ids, "gl_FragCoord") {
            if let Ok(t) = self.temp(1) {
                let _ = self.emit(Op::LoadFcoord, Type::Vec4, 4, t, -1, -1, 0, 0);
                self.module.iface.reads_fragcoord = true;
                if let Some(s) = self.syms.get_mut(1) {
                    s.tmp = t;
                }
            }
        }
        for i in self.global_decls() {
            let n = self.node(i);
            if self.diag.full() {
                return;
            }
            self.cur_node = i;
            self.stmt_mark = self.ntemp;
            let name = self.name_of(i);
            let q = n.quals;
            let used = self.referenced(&ids, name);
            let r: R<()> = (|| {
                if q & Q_UNIFORM != 0 {
                    if n.ty == Type::Sampler2D {
                        let unit = self
                            .module
                            .iface
                            .samplers
                            .iter()
                            .find(|s| same_name(s.name.as_str(), name))
                            .map(|s| s.unit);
                        let s = self.add_sym(i, name, SymKind::Sampler, n.ty, -1)?;
                        if let Some(sym) = self.syms.get_mut(s) {
                            sym.slot = unit.map(|u| u as i16).unwrap_or(0);
                        }
                        return Ok(());
                    }
                    let slot = self
                        .module
                        .iface
                        .uniforms
                        .iter()
                        .find(|u| same_name(u.name.as_str(), name))
                        .map(|u| u.slot)
                        .unwrap_or(0);
                    let mut tmp = -1;
                    if used {
                        let count = n.ty.uniform_slots();
                        tmp = self.temp(count as u16)?;
                        self.emit(Op::LoadUni, n.ty, 4, tmp, -1, -1, slot as i16, count as i16)?;
                        if n.ty == Type::Bool {
                            // Any non-zero value the application stores means true.
                            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                            self.emit(Op::Cmp, Type::Bool, 1, tmp, tmp, z, CmpCode::Ne as i16, 0)?;
                        }
                    }
                    self.add_sym(i, name, SymKind::Uniform, n.ty, tmp)?;
                } else if q & Q_IN != 0 {
                    let mut tmp = -1;
                    if used {
                        tmp = self.temp(1)?;
                        if vs {
                            let loc = self
                                .module
                                .iface
                                .attributes
                                .iter()
                                .find(|a| same_name(a.name.as_str(), name))
                                .map(|a| a.location)
                                .unwrap_or(0);
                            self.emit(Op::LoadAttr, n.ty, 4, tmp, -1, -1, loc as i16, 0)?;
                        } else {
                            let slot = self
                                .module
                                .iface
                                .varyings
                                .iter()
                                .find(|v| same_name(v.name.as_str(), name))
                                .map(|v| v.slot)
                                .unwrap_or(0);
                            self.emit(Op::LoadVar, n.ty, 4, tmp, -1, -1, slot as i16, 0)?;
                        }
                    }
                    self.add_sym(i, name, SymKind::In, n.ty, tmp)?;
                } else if q & Q_OUT != 0 {
                    let tmp = self.temp(1)?;
                    self.zero(tmp)?;
                    self.add_sym(i, name, SymKind::Out, n.ty, tmp)?;
                } else {
                    self.local_decl(i, n, true)?;
                }
                Ok(())
            })();
            let _ = r;
        }
    }

    fn zero(&mut self, t: i16) -> R<()> {
        let base = self.imm(&[0.0, 0.0, 0.0, 0.0])?;
        self.emit(Op::Const, Type::Vec4, 4, t, -1, -1, base, 0)
    }

    /// Stores of gl_Position, the vertex outputs or the colour, once, at the end of main.
    fn epilogue(&mut self, main: i16) -> R<()> {
        self.cur_node = main;
        if self.stage == Stage::Vertex {
            if !self.pos_written {
                bail!(self, main, "vertex shader does not write gl_Position");
            }
            self.module.iface.writes_position = true;
            let t = self.syms.first().map(|s| s.tmp).unwrap_or(-1);
            self.emit(Op::StorePos, Type::Vec4, 4, -1, t, -1, 0, 0)?;
            for i in 0..self.syms.len() {
                let Some(s) = self.sym(i) else { continue };
                if s.kind != SymKind::Out {
                    continue;
                }
                let (tmp, ty) = (s.tmp, s.ty);
                let slot = self
                    .module
                    .iface
                    .varyings
                    .iter()
                    .find(|v| same_name(v.name.as_str(), s.name))
                    .map(|v| v.slot)
                    .unwrap_or(0);
                self.emit(Op::StoreVar, ty, 4, -1, tmp, -1, slot as i16, 0)?;
            }
        } else {
            let out = self
                .syms
                .iter()
                .find(|s| s.kind == SymKind::Out)
                .map(|s| s.tmp);
            match out {
                Some(t) => self.emit(Op::StoreColor, Type::Vec4, 4, -1, t, -1, 0, 0)?,
                None => bail!(
                    self,
                    main,
                    "fragment shader has no output: declare one 'out vec4 <name>;'"
                ),
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------- functions

    /// Inlines function `f` with `args` (already evaluated); `at` is the call node for errors.
    fn call_function(&mut self, f: i16, args: &[Val], at: i16) -> R<Val> {
        self.spend(at)?;
        // A call from main (or from an uncalled function being checked) is the outermost
        // expansion unless a loop around it already is.
        let outer = self.expansion < 0 && !self.calls.is_empty();
        if outer {
            self.expansion = at;
        }
        let r = self.inline_call(f, args, at);
        if outer {
            self.expansion = -1;
        }
        r
    }

    fn inline_call(&mut self, f: i16, args: &[Val], at: i16) -> R<Val> {
        let fnode = self.node(f);
        let name = self.name_of(f);
        if let Some(c) = self.called.get_mut(f as usize) {
            *c = true;
        }
        if self.calls.contains(&f) {
            bail!(
                self,
                at,
                "recursion is not supported: '{}' is already being called",
                name
            );
        }
        if self.calls.len() >= CALL_DEPTH_MAX {
            bail!(
                self,
                at,
                "call depth exceeds the limit of {} nested functions (main counts as one)",
                CALL_DEPTH_MAX
            );
        }
        let params: Vec<(i16, Node), PARAM_MAX> = self.ast.list(fnode.a).take(PARAM_MAX).collect();
        let nparams = self.ast.list(fnode.a).count();
        if nparams > PARAM_MAX {
            return Err(()); // reported at registration
        }
        if args.len() != nparams {
            bail!(
                self,
                at,
                "'{}' takes {} argument(s), {} given",
                name,
                nparams,
                args.len()
            );
        }
        // The result lives below the callee's temps so it survives the callee's statements.
        let ret_tmp = if fnode.ty == Type::Void {
            -1
        } else {
            let cols = fnode.ty.columns().max(1);
            self.temp(cols as u16)?
        };
        let prev_scope = self.push_scope(0, at)?;
        let _ = self.calls.push(f);
        let saved = (self.ret_tmp, self.ret_ty, self.last_stmt, self.if_depth);
        let r = (|| {
            for (k, (p, pn)) in params.iter().enumerate() {
                let Some(&arg) = args.get(k) else {
                    return Err(());
                };
                let arg = match self.convert(arg, pn.ty) {
                    Some(v) => v,
                    None => {
                        let pname = self.name_of(*p);
                        bail!(
                            self,
                            at,
                            "argument {} of '{}' is {}; the parameter '{}' is {}",
                            k + 1,
                            name,
                            arg.ty.name(),
                            pname,
                            pn.ty.name()
                        );
                    }
                };
                let cols = pn.ty.columns().max(1) as u16;
                let t = self.temp(cols)?;
                self.store(t, pn.ty, arg)?;
                let pname = self.name_of(*p);
                self.add_sym(*p, pname, SymKind::Local, pn.ty, t)?;
            }
            self.ret_tmp = ret_tmp;
            self.ret_ty = fnode.ty;
            let body = self.node(fnode.b);
            self.last_stmt = self.ast.list(body.a).last().map(|(i, _)| i).unwrap_or(-1);
            // Code after a `return` is the error (not the function's missing final return).
            if let Some((_, r)) = self
                .ast
                .list(body.a)
                .find(|(_, n)| n.kind == Kind::Return && n.next >= 0)
            {
                return self.after_return(r.next);
            }
            let last = self.node(self.last_stmt);
            if fnode.ty != Type::Void && !(last.kind == Kind::Return && last.a >= 0) {
                bail!(
                    self,
                    f,
                    "function '{}' must end with 'return <{}>;'",
                    name,
                    fnode.ty.name()
                );
            }
            self.block_body(fnode.b, false)
        })();
        self.ret_tmp = saved.0;
        self.ret_ty = saved.1;
        self.last_stmt = saved.2;
        self.if_depth = saved.3;
        let _ = self.calls.pop();
        self.pop_scope(prev_scope);
        r?;
        if ret_tmp >= 0 {
            // Callee temps above the result are dead now.
            self.ntemp = (ret_tmp as u16).saturating_add(fnode.ty.columns().max(1) as u16);
        }
        Ok(Val::temp(fnode.ty, ret_tmp))
    }

    // ---------------------------------------------------------------- statements

    /// Statements of a block; `scoped` pushes a scope (function bodies share the params' scope).
    fn block_body(&mut self, block: i16, scoped: bool) -> R<()> {
        let b = self.node(block);
        let prev = if scoped {
            Some(self.push_scope(self.cur, block)?)
        } else {
            None
        };
        let mark = self.ntemp;
        let mut ok = true;
        for (i, _) in self.ast.list(b.a) {
            if self.diag.full() {
                ok = false;
                break;
            }
            if self.stmt(i).is_err() {
                ok = false;
            }
        }
        self.ntemp = mark;
        if let Some(p) = prev {
            self.pop_scope(p);
        }
        if ok {
            Ok(())
        } else {
            Err(())
        }
    }

    fn stmt(&mut self, i: i16) -> R<()> {
        self.spend(i)?;
        let n = self.node(i);
        self.cur_node = i;
        let mark = self.ntemp;
        let saved_mark = self.stmt_mark;
        self.stmt_mark = mark;
        let r = match n.kind {
            Kind::Decl => self.local_decl(i, n, false),
            Kind::Block => self.block_body(i, true),
            Kind::Empty => Ok(()),
            Kind::ExprStmt => self.expr(n.a).map(|_| ()),
            Kind::Assign => self.assign(n),
            Kind::If => self.if_stmt(i, n),
            Kind::For => self.for_stmt(i, n),
            Kind::Discard => {
                if self.stage != Stage::Fragment {
                    bail!(self, i, "discard is only valid in a fragment shader");
                }
                self.emit(Op::Discard, Type::None, 0, -1, -1, -1, 0, 0)
            }
            Kind::Return => self.return_stmt(i, n),
            _ => {
                self.err(i, format_args!("unsupported statement"));
                Err(())
            }
        };
        self.stmt_mark = saved_mark;
        if n.kind != Kind::Decl {
            self.ntemp = mark;
        }
        r
    }

    fn return_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let fname = self
            .calls
            .last()
            .map(|&f| self.name_of(f))
            .unwrap_or("main");
        if i != self.last_stmt {
            if n.next >= 0 {
                return self.after_return(n.next);
            }
            bail!(self, i, "return must be the last statement of the function");
        }
        if self.ret_ty == Type::Void {
            if n.a >= 0 {
                bail!(self, n.a, "void function '{}' cannot return a value", fname);
            }
            return Ok(());
        }
        let v = self.value(n.a)?;
        let want = self.ret_ty;
        let Some(v) = self.convert(v, want) else {
            bail!(
                self,
                n.a,
                "'{}' returns {}; found {}",
                fname,
                want.name(),
                v.ty.name()
            );
        };
        let t = self.ret_tmp;
        self.store(t, want, v)
    }

    /// Reports statement `next`, which follows a `return` in the same block.
    fn after_return(&mut self, next: i16) -> R<()> {
        let tok = self.first_token(next);
        self.err_tok(
            tok,
            format_args!(
                "statement after 'return': return must be the last statement of the function"
            ),
        );
        Err(())
    }

    /// The first token of statement `i` (a declaration's type or qualifier, an assignment's
    /// target), for errors about the statement as a whole.
    fn first_token(&self, i: i16) -> i16 {
        let n = self.node(i);
        match n.kind {
            Kind::Decl => n.d,
            Kind::Assign | Kind::ExprStmt => {
                // The leftmost token of the target or expression: down the operand chain.
                let mut e = if n.kind == Kind::Assign { n.a } else { i };
                let mut tok = n.tok;
                for _ in 0..AST_MAX {
                    let m = self.node(e);
                    if e < 0 {
                        break;
                    }
                    if m.kind == Kind::ExprStmt {
                        e = m.a;
                        continue;
                    }
                    tok = tok.min(m.tok);
                    match m.kind {
                        Kind::Binary | Kind::Swizzle | Kind::Index => e = m.a,
                        _ => break,
                    }
                }
                tok
            }
            _ => n.tok,
        }
    }

    fn if_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let c = self.value(n.a)?;
        if !is_scalar(c.ty) {
            bail!(
                self,
                n.a,
                "if condition must be a bool or a scalar; found {}",
                c.ty.name()
            );
        }
        if self.if_depth >= IF_DEPTH_MAX {
            bail!(
                self,
                i,
                "if statements are nested too deeply: the limit is {} (inlined calls count)",
                IF_DEPTH_MAX
            );
        }
        let t = self.mat(c)?;
        self.emit(Op::If, Type::None, 0, -1, t, -1, 0, 0)?;
        self.if_depth += 1;
        let r1 = self.scoped_stmt(n.b);
        let mut r2 = Ok(());
        if n.c >= 0 {
            self.emit(Op::Else, Type::None, 0, -1, -1, -1, 0, 0)?;
            r2 = self.scoped_stmt(n.c);
        }
        self.if_depth -= 1;
        self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
        r1.and(r2)
    }

    fn scoped_stmt(&mut self, s: i16) -> R<()> {
        let prev = self.push_scope(self.cur, s)?;
        let r = self.stmt(s);
        self.pop_scope(prev);
        r
    }

    fn for_stmt(&mut self, i: i16, n: Node) -> R<()> {
        let prev = self.push_scope(self.cur, i)?;
        let outer = self.expansion < 0;
        if outer {
            self.expansion = i;
        }
        let r = self.for_inner(i, n);
        if outer {
            self.expansion = -1;
        }
        self.pop_scope(prev);
        r
    }

    fn for_inner(&mut self, i: i16, n: Node) -> R<()> {
        let init = self.node(n.a);
        if n.a < 0 || init.kind != Kind::Decl {
            let at = if n.a >= 0 { n.a } else { i };
            bail!(self, at, "unsupported loop: the initializer must declare an int loop variable, as in 'for (int i = 0; ...)'");
        }
        if init.next >= 0 && self.node(init.next).kind == Kind::Decl {
            bail!(
                self,
                init.next,
                "unsupported loop: declare exactly one loop variable"
            );
        }
        if init.ty != Type::Int || init.quals != 0 {
            bail!(
                self,
                n.a,
                "the loop variable must be a plain int; found {}",
                init.ty.name()
            );
        }
        if init.a < 0 {
            bail!(
                self,
                n.a,
                "loop initializer is missing: the loop variable needs a constant start"
            );
        }
        let start = self.value(init.a)?;
        let Some(k) = start.k.filter(|_| start.ty == Type::Int) else {
            bail!(self, init.a, "loop initializer is not a constant integer");
        };
        let vname = self.name_of(n.a);
        let v = self.add_sym(n.a, vname, SymKind::LoopVar, Type::Int, -1)?;
        let mut value = lane(&k, 0);
        if n.b < 0 {
            bail!(
                self,
                i,
                "unsupported loop: a condition is required (the loop is unrolled)"
            );
        }
        let errors_before = self.diag.total();
        let mut iterations = 0usize;
        loop {
            if let Some(s) = self.syms.get_mut(v) {
                s.known = Some([value, 0.0, 0.0, 0.0]);
            }
            let mark = self.ntemp;
            let c = self.value(n.b)?;
            self.ntemp = mark;
            let Some(ck) = c.k.filter(|_| c.ty == Type::Bool) else {
                bail!(
                    self,
                    n.b,
                    "unsupported loop condition: it must be a comparison of the loop variable with constants"
                );
            };
            if lane(&ck, 0) == 0.0 {
                break;
            }
            if iterations >= UNROLL_MAX {
                bail!(
                    self,
                    i,
                    "loop bound exceeds the unroll limit of {} iterations",
                    UNROLL_MAX
                );
            }
            self.spend(i)?;
            let _ = self.scoped_stmt(n.d);
            if self.diag.total() > errors_before {
                return Err(());
            }
            iterations += 1;
            value = self.loop_step(n.c, v, value)?;
        }
        Ok(())
    }

    /// The next value of the loop variable `v` after `step`.
    fn loop_step(&mut self, step: i16, v: usize, value: f32) -> R<f32> {
        let mut s = self.node(step);
        if s.kind == Kind::ExprStmt {
            s = self.node(s.a);
        }
        let vname = self.sym(v).map(|s| s.name).unwrap_or_default();
        let target = match s.kind {
            Kind::Incr => s.a,
            Kind::Assign => s.a,
            _ => -1,
        };
        let tn = self.node(target);
        if step < 0 || target < 0 || tn.kind != Kind::Ident || self.name_of(target) != vname {
            let at = if step >= 0 { step } else { self.cur_node };
            bail!(
                self,
                at,
                "unsupported loop step: use {v}++, {v}--, ++{v}, --{v} or {v} = <constant expression of {v}>",
                v = vname
            );
        }
        if s.kind == Kind::Incr {
            return Ok(if s.op == INC_PRE || s.op == INC_POST {
                value + 1.0
            } else {
                value - 1.0
            });
        }
        let mark = self.ntemp;
        let nv = self.value(s.b)?;
        self.ntemp = mark;
        match nv.k {
            Some(k) if nv.ty == Type::Int => Ok(lane(&k, 0)),
            _ => bail!(
                self,
                s.b,
                "unsupported loop step: the new value must be a constant integer expression"
            ),
        }
    }

    /// A local (or, with `global`, a plain/const global) declaration with its initializer.
    fn local_decl(&mut self, i: i16, n: Node, global: bool) -> R<()> {
        let name = self.name_of(i);
        self.cur_node = i;
        if !global && n.quals & !Q_CONST != 0 {
            self.err_tok(
                n.d,
                format_args!("qualifiers are only valid at global scope"),
            );
            return Err(());
        }
        if n.ty == Type::Void {
            bail!(self, i, "variables cannot be void");
        }
        if n.ty == Type::Sampler2D {
            bail!(self, i, "sampler2D must be a uniform");
        }
        let is_const = n.quals & Q_CONST != 0;
        if is_const && n.a < 0 {
            bail!(self, i, "const '{}' needs an initializer", name);
        }
        let mark = self.ntemp;
        let cols = n.ty.columns().max(1) as u16;
        // The variable's storage sits below the initializer's temps.
        let tmp = self.temp(cols)?;
        let mut known = None;
        if n.a >= 0 {
            let v = self.value(n.a)?;
            let Some(v) = self.convert(v, n.ty) else {
                bail!(
                    self,
                    n.a,
                    "cannot initialize {} '{}' with a {} value",
                    n.ty.name(),
                    name,
                    v.ty.name()
                );
            };
            if is_const && v.k.is_some() {
                known = v.k;
            } else {
                self.store(tmp, n.ty, v)?;
            }
        } else {
            // Uninitialised locals read as zero (temps may be reused).
            for c in 0..cols {
                self.zero(tmp + c as i16)?;
            }
        }
        if known.is_some() {
            self.ntemp = mark;
        } else {
            self.ntemp = (tmp as u16).saturating_add(cols);
        }
        let kind = if is_const {
            SymKind::Const
        } else {
            SymKind::Local
        };
        let s = self.add_sym(i, name, kind, n.ty, if known.is_some() { -1 } else { tmp })?;
        if let Some(sym) = self.syms.get_mut(s) {
            sym.known = known;
        }
        Ok(())
    }

    /// Writes `v` (already of type `ty`) into the storage at `dst` (all columns of a matrix).
    fn store(&mut self, dst: i16, ty: Type, v: Val) -> R<()> {
        if is_matrix(ty) {
            let cols = ty.columns();
            for c in 0..cols as i16 {
                self.emit(
                    Op::Mov,
                    float_of(Type::Vec4),
                    cols,
                    dst + c,
                    v.tmp + c,
                    -1,
                    0,
                    0,
                )?;
            }
            return Ok(());
        }
        let n = ty.components().max(1);
        if let Some(k) = v.k {
            let base = self.imm(k.get(..n as usize).unwrap_or(&k))?;
            return self.emit(Op::Const, ty, n, dst, -1, -1, base, 0);
        }
        if v.tmp == dst {
            return Ok(());
        }
        if self.retarget(v.tmp, dst, n) || (n == 4 && self.retarget_run(v.tmp, dst)) {
            return Ok(());
        }
        self.emit(Op::Mov, ty, n, dst, v.tmp, -1, 0, 0)
    }

    /// Like [`Self::retarget`] for a value built by several instructions (a constructor: a
    /// CONST, then lanes and partial moves into it): when the last instructions all write only
    /// the expression temp `from`, the earliest of them writes all four lanes, and none reads
    /// `to`, they are made to write (and read) `to` instead of `from`, and the whole-vector MOV
    /// that would follow is not needed. Nothing runs in between, so every value is the same.
    fn retarget_run(&mut self, from: i16, to: i16) -> bool {
        /// Longest run looked at (constructors of a vec4 need at most a CONST and four lanes).
        const RUN_MAX: usize = 8;
        if self.dry || from < self.stmt_mark as i16 || from == to {
            return false;
        }
        let insts = &self.module.insts;
        let mut start = None;
        for (k, i) in insts.iter().enumerate().rev().take(RUN_MAX) {
            let single = matches!(
                i.op,
                Op::Const
                    | Op::Mov
                    | Op::SetLane
                    | Op::Swz
                    | Op::Add
                    | Op::Sub
                    | Op::Mul
                    | Op::Div
                    | Op::Max
                    | Op::Min
                    | Op::Abs
            );
            if !single || i.dst != from || i.a == to || i.b == to {
                return false;
            }
            // Writes all four lanes of `from`: the value starts here.
            let whole = match i.op {
                Op::Const | Op::Swz => true,
                Op::SetLane => false,
                _ => i.lanes == 0 || i.lanes >= 4,
            };
            if whole {
                // The value before the run is another one: the first writer must not read it.
                if i.a == from || i.b == from {
                    return false;
                }
                start = Some(k);
                break;
            }
        }
        let Some(start) = start else {
            return false;
        };
        for i in self.module.insts.iter_mut().skip(start) {
            i.dst = to;
            if i.a == from {
                i.a = to;
            }
            if i.b == from {
                i.b = to;
            }
        }
        true
    }

    /// When the last instruction alone produced lanes 0..n of the expression temp `from`, makes it
    /// write `to` directly instead of emitting a MOV (same lanes written, same values).
    fn retarget(&mut self, from: i16, to: i16, n: u8) -> bool {
        if self.dry || from < self.stmt_mark as i16 {
            return false; // a variable's storage, not an expression temp
        }
        let Some(last) = self.module.insts.last_mut() else {
            return false;
        };
        if last.dst != from || last.a == to || last.b == to {
            return false;
        }
        let whole = match last.op {
            Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Max
            | Op::Min
            | Op::Abs
            | Op::Rsq
            | Op::Rcp
            | Op::Sin
            | Op::Cos
            | Op::Pow
            | Op::Sqrt
            | Op::Trunc
            | Op::Swz => last.lanes == n,
            Op::Cmp | Op::Dot => n == 1,
            Op::Sample => true,
            Op::MulMV => !(last.a..last.a.saturating_add(last.aux.max(1))).contains(&to),
            _ => false,
        };
        if whole {
            last.dst = to;
        }
        whole
    }

    fn assign(&mut self, n: Node) -> R<()> {
        let (sym, tmp, ty, swz) = self.lvalue(n.a)?;
        let v = self.value(n.b)?;
        let target_ty = match swz {
            Some((len, _)) => vec_type(is_int_based(ty), len),
            None => ty,
        };
        let Some(v) = self.convert(v, target_ty) else {
            let what = match self.sym(sym).map(|s| s.kind) {
                Some(SymKind::Position) => "gl_Position must be a vec4",
                _ => "type mismatch in assignment",
            };
            bail!(
                self,
                n.b,
                "{}: the target is {}, the value is {}",
                what,
                target_ty.name(),
                v.ty.name()
            );
        };
        if self.sym(sym).map(|s| s.kind) == Some(SymKind::Position) {
            self.pos_written = true;
        }
        match swz {
            None => self.store(tmp, ty, v),
            Some((len, mask)) => {
                let src = self.mat(v)?;
                for k in 0..len as usize {
                    self.emit(
                        Op::SetLane,
                        ty,
                        1,
                        tmp,
                        src,
                        -1,
                        sel(mask, k) as i16,
                        k as i16,
                    )?;
                }
                Ok(())
            }
        }
    }

    /// Resolves an assignment target: (symbol, storage temp, type at that temp, written lanes).
    /// Its swizzles and indexes form a chain, resolved from the name outwards (see `chain`).
    fn lvalue(&mut self, i: i16) -> R<LValue> {
        let base = self.spine.len();
        let r = self.lvalue_from(i, base);
        self.spine.truncate(base);
        r
    }

    fn lvalue_from(&mut self, i: i16, base: usize) -> R<LValue> {
        let root = self.push_chain(i, true)?;
        let mut lv = self.lvalue_link(root, None)?;
        while self.spine.len() > base {
            let Some(link) = self.spine.pop() else {
                break;
            };
            lv = self.lvalue_link(link, Some(lv))?;
        }
        Ok(lv)
    }

    /// One node of an assignment target: the name (`inner` None) or a swizzle or index applied
    /// to the target `inner` below it.
    fn lvalue_link(&mut self, i: i16, inner: Option<LValue>) -> R<LValue> {
        let n = self.node(i);
        match (n.kind, inner) {
            (Kind::Ident, None) => {
                let name = self.name_of(i);
                let Some(s) = self.lookup(name) else {
                    bail!(self, i, "unknown identifier '{}'", name);
                };
                let Some(sym) = self.sym(s) else {
                    return Err(());
                };
                let (kind, ty, tmp) = (sym.kind, sym.ty, sym.tmp);
                match kind {
                    SymKind::Local | SymKind::Out => {}
                    SymKind::Position if self.stage == Stage::Vertex => {}
                    SymKind::Position => {
                        bail!(self, i, "gl_Position is not available in a fragment shader")
                    }
                    SymKind::FragCoord => bail!(self, i, "gl_FragCoord is read-only"),
                    SymKind::In => bail!(self, i, "cannot assign to shader input '{}'", name),
                    SymKind::Uniform | SymKind::Sampler => {
                        bail!(self, i, "cannot assign to uniform '{}'", name)
                    }
                    SymKind::Const => bail!(self, i, "cannot assign to const '{}'", name),
                    SymKind::LoopVar => {
                        bail!(self, i, "cannot assign the loop variable '{}'", name)
                    }
                    SymKind::Func => bail!(self, i, "cannot assign to function '{}'", name),
                }
                Ok((s, tmp, ty, None))
            }
            (Kind::Index, Some((s, tmp, ty, swz))) => {
                if swz.is_some() {
                    bail!(
                        self,
                        i,
                        "assignment target must be a name, a swizzle or an index of one"
                    );
                }
                let idx = self.const_index(n.b, ty)?;
                if is_matrix(ty) {
                    return Ok((s, tmp + idx as i16, vec_type(false, ty.components()), None));
                }
                Ok((s, tmp, ty, Some((1, idx as i32))))
            }
            (Kind::Swizzle, Some((s, tmp, ty, swz))) => {
                if swz.is_some() {
                    bail!(
                        self,
                        i,
                        "assignment target must be a name, a swizzle or an index of one"
                    );
                }
                if is_matrix(ty) {
                    bail!(
                        self,
                        i,
                        "cannot swizzle a matrix (index a column first, as in m[0].xyz)"
                    );
                }
                let len = n.op as usize;
                let comps = ty.components() as usize;
                let mut seen = 0u8;
                for k in 0..len {
                    let c = sel(n.ival, k);
                    if c >= comps {
                        let w = self.name_of(i);
                        bail!(
                            self,
                            i,
                            "invalid swizzle '{}': {} has {} component(s)",
                            w,
                            ty.name(),
                            comps
                        );
                    }
                    if seen & (1 << c) != 0 {
                        let w = self.name_of(i);
                        bail!(
                            self,
                            i,
                            "swizzle '{}' repeats a component on the left of '='",
                            w
                        );
                    }
                    seen |= 1 << c;
                }
                Ok((s, tmp, ty, Some((n.op, n.ival))))
            }
            _ => bail!(
                self,
                i,
                "assignment target must be a name, a swizzle or an index of one"
            ),
        }
    }

    // ---------------------------------------------------------------- expressions

    /// An expression that must have a value (not a void call).
    fn value(&mut self, i: i16) -> R<Val> {
        let v = self.expr(i)?;
        if v.ty == Type::Void {
            let name = self.name_of(i);
            bail!(self, i, "void function '{}' used as a value", name);
        }
        Ok(v)
    }

    /// Converts `v` to `want`: equal types, or int-based to the float type of the same size
    /// (ints are whole floats, so the value is unchanged).
    fn convert(&self, v: Val, want: Type) -> Option<Val> {
        if v.ty == want {
            return Some(v);
        }
        if is_int_based(v.ty)
            && !is_int_based(want)
            && is_numeric(want)
            && v.ty.components() == want.components()
        {
            return Some(Val { ty: want, ..v });
        }
        None
    }

    fn const_index(&mut self, i: i16, of: Type) -> R<usize> {
        let v = self.value(i)?;
        let Some(k) = v.k.filter(|_| v.ty == Type::Int) else {
            bail!(self, i, "only constant integer indexes are supported");
        };
        let idx = lane(&k, 0);
        let count = if is_matrix(of) {
            of.columns()
        } else {
            of.components()
        } as f32;
        if is_scalar(of) || !is_matrix(of) && !is_numeric(of) {
            bail!(self, i, "cannot index a {}", of.name());
        }
        if !(idx >= 0.0 && idx < count) {
            bail!(
                self,
                i,
                "index {} is out of range: {} has {} element(s)",
                idx,
                of.name(),
                count
            );
        }
        Ok(idx as usize)
    }

    fn expr(&mut self, i: i16) -> R<Val> {
        self.spend(i)?;
        let n = self.node(i);
        self.cur_node = i;
        match n.kind {
            Kind::IntLit => Ok(Val::konst(Type::Int, [n.ival as u32 as f32, 0.0, 0.0, 0.0])),
            Kind::FloatLit => Ok(Val::konst(
                Type::Float,
                [f32::from_bits(n.ival as u32), 0.0, 0.0, 0.0],
            )),
            Kind::BoolLit => Ok(Val::konst(Type::Bool, [n.ival as f32, 0.0, 0.0, 0.0])),
            Kind::Ident => self.ident(i),
            Kind::Binary | Kind::Swizzle | Kind::Index => self.chain(i),
            Kind::Unary => self.unary(i, n),
            Kind::Incr => bail!(
                self,
                i,
                "increment and decrement are only supported as a for-loop step"
            ),
            Kind::Call => self.call(i, n),
            Kind::Ctor => self.ctor(i, n),
            _ => bail!(self, i, "unsupported expression"),
        }
    }

    /// A left operand chain: binary operators (left-associative) and postfix swizzles and
    /// indexes, each applied to the value of the one below it, as in `a + b + c` or `m[0].xy`.
    /// Chains are as long as the node table allows and are not nesting, so they are lowered
    /// with an explicit stack ([`Sema::spine`]) rather than by recursion: the walk down pushes
    /// the chain, its innermost operand is lowered, and each link is applied on the way back,
    /// in the same order (and with the same diagnostics) as a recursive descent.
    fn chain(&mut self, top: i16) -> R<Val> {
        let base = self.spine.len();
        let r = self.chain_from(top, base);
        self.spine.truncate(base);
        r
    }

    fn chain_from(&mut self, top: i16, base: usize) -> R<Val> {
        let mut cur = self.push_chain(top, false)?;
        let mut v = self.value(cur)?;
        while self.spine.len() > base {
            let Some(link) = self.spine.pop() else {
                break;
            };
            cur = link;
            v = self.link(cur, v)?;
        }
        Ok(v)
    }

    /// Pushes the chain from `top` down and returns its innermost operand. An expression's
    /// chain includes binary operators and each node below `top` is one step of work, as `top`
    /// was in `expr`; an assignment target's (`target`) has only swizzles and indexes.
    fn push_chain(&mut self, top: i16, target: bool) -> R<i16> {
        let mut cur = top;
        for _ in 0..=AST_MAX {
            let n = self.node(cur);
            let linked = match n.kind {
                Kind::Swizzle | Kind::Index => true,
                Kind::Binary => !target,
                _ => false,
            };
            if !linked {
                return Ok(cur);
            }
            if cur != top && !target {
                self.spend(cur)?;
                self.cur_node = cur;
            }
            if n.kind == Kind::Binary && BinOp::from_u8(n.op).is_none() {
                bail!(self, cur, "unsupported operator");
            }
            if self.spine.push(cur).is_err() {
                // Unreachable: a node is on the stack at most once (no recursion).
                bail!(self, cur, "expression is too long");
            }
            cur = n.a;
        }
        bail!(self, top, "expression is too long")
    }

    /// Applies chain link `i` to `lhs`, the value of its left operand.
    fn link(&mut self, i: i16, lhs: Val) -> R<Val> {
        let n = self.node(i);
        match n.kind {
            Kind::Swizzle => self.swizzle(i, lhs, n.op, n.ival),
            Kind::Index => {
                let idx = self.const_index(n.b, lhs.ty)?;
                if is_matrix(lhs.ty) {
                    return Ok(Val::temp(
                        vec_type(false, lhs.ty.components()),
                        lhs.tmp + idx as i16,
                    ));
                }
                self.swizzle(i, lhs, 1, idx as i32)
            }
            _ => self.binary(i, n, lhs),
        }
    }

    fn ident(&mut self, i: i16) -> R<Val> {
        let name = self.name_of(i);
        let Some(s) = self.lookup(name) else {
            if BUILTINS.iter().any(|b| b.0 == name) {
                bail!(self, i, "'{}' is a built-in function, not a value", name);
            }
            bail!(self, i, "unknown identifier '{}'", name);
        };
        let Some(sym) = self.sym(s) else {
            return Err(());
        };
        let (kind, ty, tmp, known, slot) = (sym.kind, sym.ty, sym.tmp, sym.known, sym.slot);
        match kind {
            SymKind::Func => bail!(self, i, "'{}' is a function; call it with ( )", name),
            SymKind::Position if self.stage != Stage::Vertex => {
                bail!(self, i, "gl_Position is not available in a fragment shader")
            }
            SymKind::FragCoord if self.stage != Stage::Fragment => {
                bail!(self, i, "gl_FragCoord is not available in a vertex shader")
            }
            SymKind::Sampler => {
                return Ok(Val {
                    ty,
                    tmp: -1,
                    k: None,
                    unit: slot as i8,
                })
            }
            _ => {}
        }
        if let Some(k) = known {
            return Ok(Val::konst(ty, k));
        }
        if tmp < 0 {
            bail!(self, i, "'{}' has no value here", name);
        }
        Ok(Val::temp(ty, tmp))
    }

    fn swizzle(&mut self, i: i16, b: Val, len: u8, mask: i32) -> R<Val> {
        if is_matrix(b.ty) {
            bail!(
                self,
                i,
                "cannot swizzle a matrix (index a column first, as in m[0].xyz)"
            );
        }
        if !is_scalar(b.ty) && !is_numeric(b.ty) {
            bail!(self, i, "cannot swizzle a {}", b.ty.name());
        }
        let comps = b.ty.components() as usize;
        for k in 0..len as usize {
            if sel(mask, k) >= comps {
                let w = self.name_of(i);
                bail!(
                    self,
                    i,
                    "invalid swizzle '{}': {} has {} component(s)",
                    w,
                    b.ty.name(),
                    comps
                );
            }
        }
        let ty = if b.ty == Type::Bool {
            if len != 1 {
                bail!(self, i, "a bool can only be swizzled to one component");
            }
            Type::Bool
        } else {
            vec_type(is_int_based(b.ty), len)
        };
        if let Some(k) = b.k {
            let mut out = [0.0f32; 4];
            for (kk, o) in out.iter_mut().enumerate().take(len as usize) {
                *o = lane(&k, sel(mask, kk));
            }
            return Ok(Val::konst(ty, out));
        }
        let identity = (0..len as usize).all(|k| sel(mask, k) == k);
        if identity {
            return Ok(Val::temp(ty, b.tmp));
        }
        let t = self.temp(1)?;
        self.emit(Op::Swz, ty, len, t, b.tmp, -1, (mask & 0xff) as i16, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Broadcasts a scalar to `n` lanes.
    fn splat(&mut self, v: Val, n: u8) -> R<Val> {
        let ty = vec_type(is_int_based(v.ty), n);
        if n <= 1 {
            return Ok(v);
        }
        if let Some(k) = v.k {
            let x = lane(&k, 0);
            let mut out = [0.0; 4];
            for o in out.iter_mut().take(n as usize) {
                *o = x;
            }
            return Ok(Val::konst(ty, out));
        }
        let t = self.temp(1)?;
        self.emit(Op::Swz, ty, n, t, v.tmp, -1, 0, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Whether expression `i` calls a user function. Left operands (chains) are followed in a
    /// loop; the recursion is only into right operands and arguments, which are real nesting.
    fn has_user_call(&self, i: i16, depth: usize) -> bool {
        if depth > AST_MAX {
            return true;
        }
        let mut i = i;
        for _ in 0..=AST_MAX {
            if i < 0 {
                return false;
            }
            let n = self.node(i);
            match n.kind {
                Kind::Call => {
                    let name = self.name_of(i);
                    if !BUILTINS.iter().any(|b| b.0 == name) {
                        return true;
                    }
                    return self
                        .ast
                        .list(n.a)
                        .any(|(a, _)| self.has_user_call(a, depth + 1));
                }
                Kind::Ctor => {
                    return self
                        .ast
                        .list(n.a)
                        .any(|(a, _)| self.has_user_call(a, depth + 1))
                }
                _ => {
                    if n.kind != Kind::Swizzle && self.has_user_call(n.b, depth + 1) {
                        return true;
                    }
                    i = n.a;
                }
            }
        }
        true
    }

    /// The vector side of a matrix-vector product (either order): not a scalar, float-based,
    /// with as many components as the matrix has columns.
    fn check_matrix_vector(
        &mut self,
        i: i16,
        left: Type,
        right: Type,
        vec: Type,
        cols: u8,
    ) -> R<()> {
        if vec.components() == 1 {
            bail!(
                self,
                i,
                "cannot multiply a matrix by a scalar (scale the vector instead)"
            );
        }
        if is_int_based(vec) || vec.components() != cols {
            bail!(
                self,
                i,
                "cannot multiply {} by {}: the vector must be vec{}",
                left.name(),
                right.name(),
                cols
            );
        }
        Ok(())
    }

    /// Binary operator node `i` with its left operand's value `a`.
    fn binary(&mut self, i: i16, n: Node, a: Val) -> R<Val> {
        let Some(op) = BinOp::from_u8(n.op) else {
            bail!(self, i, "unsupported operator")
        };
        if op == BinOp::And || op == BinOp::Or {
            return self.logic(i, n, op, a);
        }
        let mut a = a;
        if self.has_user_call(n.b, 0) {
            a = self.snapshot(a)?;
        }
        let b = self.value(n.b)?;
        self.cur_node = i;
        match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => {
                self.compare(i, op, a, b)
            }
            BinOp::Mod => {
                let ok = a.ty == Type::Int && b.ty == Type::Int;
                match (a.k, b.k) {
                    (Some(x), Some(y)) if ok => {
                        let (x, y) = (lane(&x, 0) as i32, lane(&y, 0) as i32);
                        if y == 0 {
                            bail!(self, n.b, "division by zero in '%'");
                        }
                        Ok(Val::konst(
                            Type::Int,
                            [x.wrapping_rem(y) as f32, 0.0, 0.0, 0.0],
                        ))
                    }
                    _ => bail!(self, i, "operator % is only supported on constant integers"),
                }
            }
            _ => self.arith(i, n, op, a, b),
        }
    }

    fn logic(&mut self, i: i16, n: Node, op: BinOp, a: Val) -> R<Val> {
        if a.ty != Type::Bool {
            bail!(
                self,
                n.a,
                "operands of '{}' must be bool; found {}",
                op.symbol(),
                a.ty.name()
            );
        }
        if self.has_user_call(n.b, 0) {
            // A user function may write globals: evaluate it only when GLSL would.
            let r = self.temp(1)?;
            self.store(r, Type::Bool, a)?;
            let cond = if op == BinOp::And {
                r
            } else {
                let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
                let t = self.temp(1)?;
                self.emit(Op::Cmp, Type::Bool, 1, t, r, z, CmpCode::Eq as i16, 0)?;
                t
            };
            if self.if_depth >= IF_DEPTH_MAX {
                bail!(
                    self,
                    i,
                    "if statements are nested too deeply: the limit is {}",
                    IF_DEPTH_MAX
                );
            }
            self.emit(Op::If, Type::None, 0, -1, cond, -1, 0, 0)?;
            self.if_depth += 1;
            let b = self.value(n.b);
            self.if_depth -= 1;
            let b = b?;
            if b.ty != Type::Bool {
                bail!(
                    self,
                    n.b,
                    "operands of '{}' must be bool; found {}",
                    op.symbol(),
                    b.ty.name()
                );
            }
            self.store(r, Type::Bool, b)?;
            self.emit(Op::Endif, Type::None, 0, -1, -1, -1, 0, 0)?;
            return Ok(Val::temp(Type::Bool, r));
        }
        let b = self.value(n.b)?;
        if b.ty != Type::Bool {
            bail!(
                self,
                n.b,
                "operands of '{}' must be bool; found {}",
                op.symbol(),
                b.ty.name()
            );
        }
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let (x, y) = (lane(&x, 0) != 0.0, lane(&y, 0) != 0.0);
            let r = if op == BinOp::And { x && y } else { x || y };
            return Ok(Val::konst(Type::Bool, [r as u8 as f32, 0.0, 0.0, 0.0]));
        }
        // Bools are exactly 0.0 or 1.0, so MUL is AND and MAX is OR.
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let irop = if op == BinOp::And { Op::Mul } else { Op::Max };
        self.emit(irop, Type::Bool, 1, t, ta, tb, 0, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    fn compare(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Val> {
        if !is_scalar(a.ty) || !is_scalar(b.ty) {
            let ty = if is_scalar(a.ty) { b.ty } else { a.ty };
            bail!(
                self,
                i,
                "vector comparisons are not supported: compare components (found {})",
                ty.name()
            );
        }
        let bools = (a.ty == Type::Bool) as u8 + (b.ty == Type::Bool) as u8;
        if bools == 1 || (bools == 2 && !matches!(op, BinOp::Eq | BinOp::Ne)) {
            bail!(
                self,
                i,
                "cannot compare {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        let code = match op {
            BinOp::Lt => CmpCode::Lt,
            BinOp::Gt => CmpCode::Gt,
            BinOp::Le => CmpCode::Le,
            BinOp::Ge => CmpCode::Ge,
            BinOp::Eq => CmpCode::Eq,
            _ => CmpCode::Ne,
        };
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let (x, y) = (lane(&x, 0), lane(&y, 0));
            let r = match code {
                CmpCode::Lt => x < y,
                CmpCode::Gt => x > y,
                CmpCode::Le => x <= y,
                CmpCode::Ge => x >= y,
                CmpCode::Eq => x == y,
                CmpCode::Ne => x != y,
            };
            return Ok(Val::konst(Type::Bool, [r as u8 as f32, 0.0, 0.0, 0.0]));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(Op::Cmp, Type::Bool, 1, t, ta, tb, code as i16, 0)?;
        Ok(Val::temp(Type::Bool, t))
    }

    fn arith(&mut self, i: i16, n: Node, op: BinOp, a: Val, b: Val) -> R<Val> {
        for v in [a, b] {
            if !is_numeric(v.ty) && !is_matrix(v.ty) {
                bail!(
                    self,
                    i,
                    "operator '{}' needs numbers; found {}",
                    op.symbol(),
                    v.ty.name()
                );
            }
        }
        if is_matrix(a.ty) || is_matrix(b.ty) {
            return self.matrix_arith(i, op, a, b);
        }
        let int = is_int_based(a.ty) && is_int_based(b.ty);
        let (na, nb) = (a.ty.components(), b.ty.components());
        if na != nb && na != 1 && nb != 1 {
            bail!(
                self,
                i,
                "type mismatch: {} {} {}",
                a.ty.name(),
                op.symbol(),
                b.ty.name()
            );
        }
        let len = na.max(nb);
        let ty = vec_type(int, len);
        if op == BinOp::Div {
            if let Some(k) = b.k {
                if (0..nb as usize).any(|l| lane(&k, l) == 0.0) {
                    bail!(self, n.b, "division by zero");
                }
            }
        }
        let a = if na < len { self.splat(a, len)? } else { a };
        let b = if nb < len { self.splat(b, len)? } else { b };
        if let (Some(x), Some(y)) = (a.k, b.k) {
            let mut out = [0.0f32; 4];
            for (l, o) in out.iter_mut().enumerate().take(len as usize) {
                let (p, q) = (lane(&x, l), lane(&y, l));
                *o = match op {
                    BinOp::Add => p + q,
                    BinOp::Sub => p - q,
                    BinOp::Mul => p * q,
                    _ => {
                        let d = p / q;
                        if int {
                            libm::truncf(d)
                        } else {
                            d
                        }
                    }
                };
            }
            return Ok(Val::konst(ty, out));
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        let irop = match op {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            _ => Op::Div,
        };
        self.emit(irop, ty, len, t, ta, tb, 0, 0)?;
        if int && op == BinOp::Div {
            self.emit(Op::Trunc, ty, len, t, t, -1, 0, 0)?;
        }
        Ok(Val::temp(ty, t))
    }

    fn matrix_arith(&mut self, i: i16, op: BinOp, a: Val, b: Val) -> R<Val> {
        let (ma, mb) = (is_matrix(a.ty), is_matrix(b.ty));
        match op {
            BinOp::Mul if ma && mb => {
                if a.ty != b.ty {
                    bail!(
                        self,
                        i,
                        "matrix size mismatch: {} * {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                let cols = a.ty.columns();
                let t = self.temp(cols as u16)?;
                self.emit(Op::MulMM, a.ty, 4, t, a.tmp, b.tmp, cols as i16, 0)?;
                Ok(Val::temp(a.ty, t))
            }
            BinOp::Mul if ma => {
                let cols = a.ty.columns();
                self.check_matrix_vector(i, a.ty, b.ty, b.ty, cols)?;
                let tb = self.mat(b)?;
                let t = self.temp(1)?;
                self.emit(Op::MulMV, b.ty, 4, t, a.tmp, tb, cols as i16, 0)?;
                Ok(Val::temp(b.ty, t))
            }
            BinOp::Mul => {
                // Row vector times matrix: component j is dot(v, column j).
                let cols = b.ty.columns();
                self.check_matrix_vector(i, a.ty, b.ty, a.ty, cols)?;
                let ta = self.mat(a)?;
                let t = self.temp(1)?;
                let d = self.temp(1)?;
                self.zero(t)?;
                for c in 0..cols as i16 {
                    self.emit(Op::Dot, Type::Float, 1, d, ta, b.tmp + c, cols as i16, 0)?;
                    self.emit(Op::SetLane, a.ty, 1, t, d, -1, c, 0)?;
                }
                Ok(Val::temp(a.ty, t))
            }
            BinOp::Add | BinOp::Sub if a.ty == b.ty => {
                let cols = a.ty.columns();
                let t = self.temp(cols as u16)?;
                let irop = if op == BinOp::Add { Op::Add } else { Op::Sub };
                for c in 0..cols as i16 {
                    self.emit(
                        irop,
                        vec_type(false, cols),
                        cols,
                        t + c,
                        a.tmp + c,
                        b.tmp + c,
                        0,
                        0,
                    )?;
                }
                Ok(Val::temp(a.ty, t))
            }
            _ => bail!(
                self,
                i,
                "operator '{}' is not supported between {} and {}",
                op.symbol(),
                a.ty.name(),
                b.ty.name()
            ),
        }
    }

    fn unary(&mut self, i: i16, n: Node) -> R<Val> {
        let v = self.value(n.a)?;
        self.cur_node = i;
        if n.op == UN_NOT {
            if v.ty != Type::Bool {
                bail!(self, i, "operator '!' needs a bool; found {}", v.ty.name());
            }
            if let Some(k) = v.k {
                return Ok(Val::konst(
                    Type::Bool,
                    [(lane(&k, 0) == 0.0) as u8 as f32, 0.0, 0.0, 0.0],
                ));
            }
            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, v.tmp, z, CmpCode::Eq as i16, 0)?;
            return Ok(Val::temp(Type::Bool, t));
        }
        if !is_numeric(v.ty) {
            bail!(
                self,
                i,
                "operator '-' needs a number or vector; found {}",
                v.ty.name()
            );
        }
        let len = v.ty.components();
        if let Some(k) = v.k {
            let mut out = [0.0; 4];
            for (l, o) in out.iter_mut().enumerate().take(len as usize) {
                *o = -lane(&k, l);
            }
            return Ok(Val::konst(v.ty, out));
        }
        let m = self.splat(Val::konst(Type::Float, [-1.0, 0.0, 0.0, 0.0]), len)?;
        let tm = self.mat(m)?;
        let t = self.temp(1)?;
        self.emit(Op::Mul, v.ty, len, t, v.tmp, tm, 0, 0)?;
        Ok(Val::temp(v.ty, t))
    }

    // ---------------------------------------------------------------- calls

    fn args(&mut self, first: i16, max: usize, at: i16) -> R<Vec<(i16, Val), 16>> {
        let mut out: Vec<(i16, Val), 16> = Vec::new();
        let count = self.ast.list(first).count();
        if count > max {
            bail!(
                self,
                at,
                "too many arguments: {} given, at most {} accepted",
                count,
                max
            );
        }
        for (a, node) in self.ast.list(first) {
            let v = self.value(a)?;
            // GLSL evaluates left to right: a later argument that calls a user function may
            // write a global this value still refers to.
            let later_call = self
                .ast
                .list(node.next)
                .any(|(b, _)| self.has_user_call(b, 0));
            let v = if later_call { self.snapshot(v)? } else { v };
            let _ = out.push((a, v));
        }
        Ok(out)
    }

    /// A copy of a variable's current value, so later writes to the variable do not change it.
    fn snapshot(&mut self, v: Val) -> R<Val> {
        if v.k.is_some() || v.tmp < 0 || v.ty == Type::Sampler2D {
            return Ok(v);
        }
        let cols = v.ty.columns().max(1);
        let t = self.temp(cols as u16)?;
        for c in 0..cols as i16 {
            self.emit(Op::Mov, v.ty, 4, t + c, v.tmp + c, -1, 0, 0)?;
        }
        Ok(Val::temp(v.ty, t))
    }

    fn call(&mut self, i: i16, n: Node) -> R<Val> {
        let name = self.name_of(i);
        if let Some(&(bname, lo, hi, sig)) = BUILTINS.iter().find(|b| b.0 == name) {
            let args = self.args(n.a, 16, i)?;
            if args.len() < lo as usize || args.len() > hi as usize {
                bail!(
                    self,
                    i,
                    "wrong argument count: {}() takes {} argument(s), {} given ({})",
                    bname,
                    lo,
                    args.len(),
                    sig
                );
            }
            self.cur_node = i;
            return self.builtin(i, bname, &args);
        }
        let Some(s) = self.lookup(name) else {
            bail!(self, i, "unknown function '{}'", name);
        };
        let Some(sym) = self.sym(s) else {
            return Err(());
        };
        if sym.kind != SymKind::Func {
            bail!(self, i, "'{}' is not a function", name);
        }
        let f = sym.node;
        let args = self.args(n.a, 8, i)?;
        let mut vals: Vec<Val, PARAM_MAX> = Vec::new();
        for (_, v) in args.iter() {
            if vals.push(*v).is_err() {
                bail!(
                    self,
                    i,
                    "too many arguments: '{}' takes at most {}",
                    name,
                    PARAM_MAX
                );
            }
        }
        self.cur_node = i;
        self.call_function(f, &vals, i)
    }

    /// Float arguments for a genType built-in: numeric non-matrix, ints converted to float.
    fn float_arg(&mut self, name: &str, k: usize, a: (i16, Val)) -> R<Val> {
        let v = a.1;
        if !is_numeric(v.ty) {
            bail!(
                self,
                a.0,
                "argument {} of {}() must be float or a vector; found {}",
                k + 1,
                name,
                v.ty.name()
            );
        }
        Ok(Val {
            ty: float_of(v.ty),
            ..v
        })
    }

    fn op1(&mut self, op: Op, v: Val) -> R<Val> {
        let t = self.temp(1)?;
        let src = self.mat(v)?;
        self.emit(op, v.ty, v.ty.components(), t, src, -1, 0, 0)?;
        Ok(Val::temp(v.ty, t))
    }

    fn op2(&mut self, op: Op, ty: Type, a: Val, b: Val) -> R<Val> {
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(op, ty, ty.components(), t, ta, tb, 0, 0)?;
        Ok(Val::temp(ty, t))
    }

    /// Makes `b` the same size as `a` (a scalar is broadcast); errors name the built-in.
    /// The two arguments of `name()` have the same type.
    fn same_type(&mut self, name: &str, at: i16, a: Val, b: Val) -> R<()> {
        if a.ty != b.ty {
            bail!(
                self,
                at,
                "{}() expects two values of the same type; found {} and {}",
                name,
                a.ty.name(),
                b.ty.name()
            );
        }
        Ok(())
    }

    fn match_size(&mut self, name: &str, at: i16, a: Val, b: Val) -> R<Val> {
        let (na, nb) = (a.ty.components(), b.ty.components());
        if na == nb {
            return Ok(b);
        }
        if nb == 1 {
            return self.splat(b, na);
        }
        bail!(
            self,
            at,
            "{}() arguments do not match: {} and {}",
            name,
            a.ty.name(),
            b.ty.name()
        );
    }

    fn dot(&mut self, a: Val, b: Val) -> R<Val> {
        let n = a.ty.components();
        if n == 1 {
            return self.op2(Op::Mul, Type::Float, a, b);
        }
        let (ta, tb) = (self.mat(a)?, self.mat(b)?);
        let t = self.temp(1)?;
        self.emit(Op::Dot, Type::Float, 1, t, ta, tb, n as i16, 0)?;
        Ok(Val::temp(Type::Float, t))
    }

    fn builtin(&mut self, i: i16, name: &str, args: &[(i16, Val)]) -> R<Val> {
        let arg = |k: usize| {
            args.get(k)
                .copied()
                .unwrap_or((-1, Val::konst(Type::Float, [0.0; 4])))
        };
        match name {
            "texture" => {
                let (s, uv) = (arg(0), arg(1));
                if s.1.ty != Type::Sampler2D || s.1.unit < 0 {
                    bail!(
                        self,
                        s.0,
                        "texture() expects a sampler2D uniform as its first argument; found {}",
                        s.1.ty.name()
                    );
                }
                let uv_v = self.float_arg(name, 1, uv)?;
                if uv_v.ty.components() < 2 {
                    bail!(
                        self,
                        uv.0,
                        "texture() expects a vec2, vec3 or vec4 coordinate (it samples at .xy); found {}",
                        uv.1.ty.name()
                    );
                }
                // A longer coordinate is sampled at its .xy (the same temp: no instruction).
                const XY: i32 = 1 << 2;
                let uv_v = self.swizzle(uv.0, uv_v, 2, XY)?;
                let tc = self.mat(uv_v)?;
                let t = self.temp(1)?;
                self.emit(Op::Sample, Type::Vec4, 4, t, tc, -1, s.1.unit as i16, 0)?;
                Ok(Val::temp(Type::Vec4, t))
            }
            "dot" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, a, b)?;
                self.dot(a, b)
            }
            "cross" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                if a.ty != Type::Vec3 || b.ty != Type::Vec3 {
                    bail!(
                        self,
                        i,
                        "cross() expects two vec3 values; found {} and {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                // a.yzx * b.zxy - a.zxy * b.yzx
                const YZX: i32 = 1 | (2 << 2);
                const ZXY: i32 = 2 | (1 << 4);
                let a1 = self.swizzle(i, a, 3, YZX)?;
                let b1 = self.swizzle(i, b, 3, ZXY)?;
                let a2 = self.swizzle(i, a, 3, ZXY)?;
                let b2 = self.swizzle(i, b, 3, YZX)?;
                let p = self.arith(i, Node::new(Kind::Binary, -1), BinOp::Mul, a1, b1)?;
                let q = self.arith(i, Node::new(Kind::Binary, -1), BinOp::Mul, a2, b2)?;
                self.arith(i, Node::new(Kind::Binary, -1), BinOp::Sub, p, q)
            }
            "length" => {
                let v = self.float_arg(name, 0, arg(0))?;
                if v.ty.components() == 1 {
                    return self.op1(Op::Abs, v);
                }
                let d = self.dot(v, v)?;
                self.op1(Op::Sqrt, d)
            }
            "normalize" => {
                let v = self.float_arg(name, 0, arg(0))?;
                let d = self.dot(v, v)?;
                let r = self.op1(Op::Rsq, d)?;
                let s = self.splat(r, v.ty.components())?;
                self.op2(Op::Mul, v.ty, v, s)
            }
            "abs" => {
                let v = arg(0);
                if !is_numeric(v.1.ty) {
                    bail!(
                        self,
                        v.0,
                        "abs() expects a number or vector; found {}",
                        v.1.ty.name()
                    );
                }
                if let Some(k) = v.1.k {
                    let mut out = k;
                    for o in out.iter_mut() {
                        *o = libm::fabsf(*o);
                    }
                    return Ok(Val::konst(v.1.ty, out));
                }
                self.op1(Op::Abs, v.1)
            }
            "sin" | "cos" => {
                let v = self.float_arg(name, 0, arg(0))?;
                self.op1(if name == "sin" { Op::Sin } else { Op::Cos }, v)
            }
            "min" | "max" => {
                let a = arg(0);
                let b = arg(1);
                for (k, v) in [a, b].iter().enumerate() {
                    if !is_numeric(v.1.ty) {
                        bail!(
                            self,
                            v.0,
                            "argument {} of {}() must be a number or vector; found {}",
                            k + 1,
                            name,
                            v.1.ty.name()
                        );
                    }
                }
                let int = is_int_based(a.1.ty) && is_int_based(b.1.ty);
                let fa = if int {
                    a.1
                } else {
                    Val {
                        ty: float_of(a.1.ty),
                        ..a.1
                    }
                };
                let fb = if int {
                    b.1
                } else {
                    Val {
                        ty: float_of(b.1.ty),
                        ..b.1
                    }
                };
                let fb = self.match_size(name, i, fa, fb)?;
                self.op2(if name == "min" { Op::Min } else { Op::Max }, fa.ty, fa, fb)
            }
            "clamp" => {
                let x = self.float_arg(name, 0, arg(0))?;
                let lo = self.float_arg(name, 1, arg(1))?;
                let hi = self.float_arg(name, 2, arg(2))?;
                let lo = self.match_size(name, i, x, lo)?;
                let hi = self.match_size(name, i, x, hi)?;
                let m = self.op2(Op::Max, x.ty, x, lo)?;
                self.op2(Op::Min, x.ty, m, hi)
            }
            "mix" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                let t = self.float_arg(name, 2, arg(2))?;
                if a.ty != b.ty {
                    bail!(
                        self,
                        i,
                        "mix() expects a and b of the same type; found {} and {}",
                        a.ty.name(),
                        b.ty.name()
                    );
                }
                let t = self.match_size(name, i, a, t)?;
                // a + (b - a) * t
                let d = self.op2(Op::Sub, a.ty, b, a)?;
                let m = self.op2(Op::Mul, a.ty, d, t)?;
                self.op2(Op::Add, a.ty, a, m)
            }
            "pow" => {
                let a = self.float_arg(name, 0, arg(0))?;
                let b = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, a, b)?;
                self.op2(Op::Pow, a.ty, a, b)
            }
            "reflect" => {
                let v = self.float_arg(name, 0, arg(0))?;
                let nn = self.float_arg(name, 1, arg(1))?;
                self.same_type(name, i, v, nn)?;
                // i - 2 * dot(n, i) * n
                let d = self.dot(nn, v)?;
                let d2 = self.op2(Op::Add, Type::Float, d, d)?;
                let s = self.splat(d2, v.ty.components())?;
                let p = self.op2(Op::Mul, v.ty, s, nn)?;
                self.op2(Op::Sub, v.ty, v, p)
            }
            _ => bail!(self, i, "unknown function '{}'", name),
        }
    }

    // ---------------------------------------------------------------- constructors

    fn ctor(&mut self, i: i16, n: Node) -> R<Val> {
        let ty = n.ty;
        let args = self.args(n.a, 16, i)?;
        self.cur_node = i;
        if matches!(ty, Type::Void | Type::Sampler2D) {
            bail!(self, i, "cannot construct a {}", ty.name());
        }
        if args.is_empty() {
            bail!(self, i, "{}() needs at least one argument", ty.name());
        }
        for &(a, v) in args.iter() {
            if !is_scalar(v.ty) && !is_numeric(v.ty) && !is_matrix(v.ty) {
                bail!(
                    self,
                    a,
                    "bad constructor argument: {} cannot build a {}",
                    v.ty.name(),
                    ty.name()
                );
            }
        }
        let first = args
            .first()
            .map(|a| a.1)
            .unwrap_or(Val::konst(Type::Float, [0.0; 4]));
        if is_matrix(ty) {
            return self.mat_ctor(i, ty, &args);
        }
        if args.iter().any(|a| is_matrix(a.1.ty)) {
            bail!(
                self,
                i,
                "bad constructor argument: a matrix cannot build a {}",
                ty.name()
            );
        }
        let n_out = ty.components() as usize;
        // One argument: conversion, broadcast or truncation.
        if args.len() == 1 {
            let fc = first.ty.components() as usize;
            let src = if fc == 1 || is_scalar(ty) {
                let s = self.swizzle(i, first, 1, 0)?;
                let s = self.conv_scalar_kind(s, ty)?;
                return self.splat(s, n_out as u8).map(|v| Val { ty, ..v });
            } else {
                first
            };
            if fc < n_out {
                bail!(self, i, "constructor component count does not match: {} needs {}, the argument gives {}", ty.name(), n_out, fc);
            }
            let v = self.conv_scalar_kind(src, vec_type(is_int_based(ty), fc as u8))?;
            return Ok(Val { ty, ..v });
        }
        let total: usize = args.iter().map(|a| a.1.ty.components() as usize).sum();
        if total != n_out {
            bail!(
                self,
                i,
                "constructor component count does not match: {} needs {}, the arguments give {}",
                ty.name(),
                n_out,
                total
            );
        }
        if let Some(k) = self.fill_const(ty, &args) {
            return Ok(Val::konst(ty, k));
        }
        let t = self.temp(1)?;
        self.fill(t, ty, &args)?;
        Ok(Val::temp(ty, t))
    }

    /// Converts a value's element kind to that of `target` (int<->float<->bool), keeping size.
    fn conv_scalar_kind(&mut self, v: Val, target: Type) -> R<Val> {
        let n = v.ty.components().max(1);
        let to_int = is_int_based(target);
        let to_bool = target == Type::Bool;
        let from_int = is_int_based(v.ty);
        let from_bool = v.ty == Type::Bool;
        let ty = if to_bool {
            Type::Bool
        } else {
            vec_type(to_int, n)
        };
        if to_bool {
            if from_bool {
                return Ok(v);
            }
            if let Some(k) = v.k {
                return Ok(Val::konst(
                    Type::Bool,
                    [(lane(&k, 0) != 0.0) as u8 as f32, 0.0, 0.0, 0.0],
                ));
            }
            let z = self.mat(Val::konst(Type::Float, [0.0; 4]))?;
            let t = self.temp(1)?;
            self.emit(Op::Cmp, Type::Bool, 1, t, v.tmp, z, CmpCode::Ne as i16, 0)?;
            return Ok(Val::temp(Type::Bool, t));
        }
        if to_int && !from_int && !from_bool {
            if let Some(k) = v.k {
                let mut out = k;
                for o in out.iter_mut() {
                    *o = libm::truncf(*o);
                }
                return Ok(Val::konst(ty, out));
            }
            let t = self.temp(1)?;
            self.emit(Op::Trunc, ty, n, t, v.tmp, -1, 0, 0)?;
            return Ok(Val::temp(ty, t));
        }
        Ok(Val { ty, ..v })
    }

    /// When every argument is constant, the folded components of a vector constructor.
    fn fill_const(&self, ty: Type, args: &[(i16, Val)]) -> Option<[f32; 4]> {
        let mut out = [0.0f32; 4];
        let mut k = 0usize;
        for &(_, v) in args {
            let c = v.k?;
            for l in 0..v.ty.components() as usize {
                let mut x = lane(&c, l);
                if is_int_based(ty) && !is_int_based(v.ty) {
                    x = libm::truncf(x);
                }
                if let Some(o) = out.get_mut(k) {
                    *o = x;
                }
                k += 1;
            }
        }
        Some(out)
    }

    /// Builds the components of `args` (total = size of `ty`'s column) into temp `t`.
    fn fill(&mut self, t: i16, ty: Type, args: &[(i16, Val)]) -> R<()> {
        if self.fill_const(ty, args).is_some() {
            return Ok(());
        }
        let col = vec_type(is_int_based(ty), ty.components());
        // Constant parts first (zeros where values go), then the values lane by lane.
        let mut base = [0.0f32; 4];
        let mut lane_at = 0usize;
        for &(_, v) in args {
            let c = v.ty.components() as usize;
            if let Some(k) = v.k {
                for l in 0..c {
                    let mut x = lane(&k, l);
                    if is_int_based(ty) && !is_int_based(v.ty) {
                        x = libm::truncf(x);
                    }
                    if let Some(b) = base.get_mut(lane_at + l) {
                        *b = x;
                    }
                }
            }
            lane_at += c;
        }
        let n = ty.components().max(1);
        let b = self.imm(base.get(..n as usize).unwrap_or(&base))?;
        self.emit(Op::Const, col, n, t, -1, -1, b, 0)?;
        let mut lane_at = 0usize;
        for &(_, v) in args {
            let c = v.ty.components() as usize;
            if v.k.is_none() {
                let v = self.conv_scalar_kind(v, vec_type(is_int_based(ty), c as u8))?;
                if lane_at == 0 && c > 1 {
                    self.emit(Op::Mov, col, c as u8, t, v.tmp, -1, 0, 0)?;
                } else {
                    for l in 0..c {
                        self.emit(
                            Op::SetLane,
                            col,
                            1,
                            t,
                            v.tmp,
                            -1,
                            (lane_at + l) as i16,
                            l as i16,
                        )?;
                    }
                }
            }
            lane_at += c;
        }
        Ok(())
    }

    fn mat_ctor(&mut self, i: i16, ty: Type, args: &[(i16, Val)]) -> R<Val> {
        let cols = ty.columns() as usize;
        let colty = vec_type(false, cols as u8);
        let first = args
            .first()
            .map(|a| a.1)
            .unwrap_or(Val::konst(Type::Float, [0.0; 4]));
        if args.len() == 1 && is_matrix(first.ty) {
            if first.ty == ty {
                return Ok(first);
            }
            if ty == Type::Mat3 {
                // The upper-left 3x3: the same columns read three lanes.
                return Ok(Val::temp(ty, first.tmp));
            }
            let t = self.temp(4)?;
            for c in 0..4i16 {
                let mut k = [0.0f32; 4];
                if c == 3 {
                    k[3] = 1.0;
                }
                let b = self.imm(&k)?;
                self.emit(Op::Const, Type::Vec4, 4, t + c, -1, -1, b, 0)?;
                if c < 3 {
                    self.emit(Op::Mov, Type::Vec4, 3, t + c, first.tmp + c, -1, 0, 0)?;
                }
            }
            return Ok(Val::temp(ty, t));
        }
        if args.iter().any(|a| is_matrix(a.1.ty)) {
            bail!(
                self,
                i,
                "unsupported matrix constructor: a matrix argument must be the only one"
            );
        }
        if args.len() == 1 && first.ty.components() == 1 {
            // Diagonal matrix.
            let s = self.conv_scalar_kind(first, Type::Float)?;
            let t = self.temp(cols as u16)?;
            for c in 0..cols {
                let mut k = [0.0f32; 4];
                if let Some(sk) = s.k {
                    if let Some(x) = k.get_mut(c) {
                        *x = lane(&sk, 0);
                    }
                }
                let b = self.imm(k.get(..cols).unwrap_or(&k))?;
                self.emit(Op::Const, colty, cols as u8, t + c as i16, -1, -1, b, 0)?;
                if s.k.is_none() {
                    self.emit(Op::SetLane, colty, 1, t + c as i16, s.tmp, -1, c as i16, 0)?;
                }
            }
            return Ok(Val::temp(ty, t));
        }
        let total: usize = args.iter().map(|a| a.1.ty.components() as usize).sum();
        if total != cols * cols {
            bail!(
                self,
                i,
                "unsupported matrix constructor: {} takes one scalar (diagonal), {} column vectors or {} scalars; the arguments give {} components",
                ty.name(),
                cols,
                cols * cols,
                total
            );
        }
        let t = self.temp(cols as u16)?;
        // Split the arguments into columns; an argument may not straddle two columns.
        let mut col_args: Vec<(i16, Val), 16> = Vec::new();
        let mut filled = 0usize;
        let mut c = 0i16;
        for &(a, v) in args {
            let n = v.ty.components() as usize;
            if filled + n > cols {
                bail!(
                    self,
                    a,
                    "bad matrix column: this argument crosses a column boundary of {}",
                    ty.name()
                );
            }
            let _ = col_args.push((a, v));
            filled += n;
            if filled == cols {
                let ctmp = t + c;
                self.fill(ctmp, colty, &col_args)?;
                if let Some(k) = self.fill_const(colty, &col_args) {
                    let b = self.imm(k.get(..cols).unwrap_or(&k))?;
                    self.emit(Op::Const, colty, cols as u8, ctmp, -1, -1, b, 0)?;
                }
                col_args.clear();
                filled = 0;
                c += 1;
            }
        }
        Ok(Val::temp(ty, t))
    }
}
