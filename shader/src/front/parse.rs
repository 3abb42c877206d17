//! The parser: tokens to the flat [`Ast`], by recursive descent with the language's precedence
//! (`||` < `&&` < equality < relational < additive < multiplicative < unary < postfix).
//!
//! Owns: the grammar, syntax diagnostics, the node (`AST_MAX`) and nesting (`NEST_MAX`) limits,
//! and error recovery at statement boundaries. Nesting is what the grammar nests: blocks,
//! statement bodies, expressions (parentheses, arguments, indexes) and prefix operators; a chain
//! of left-associative operators or postfix swizzles and indexes is parsed by a loop and is not
//! nesting, however long. Must never: check types or names (sema does), loop without consuming a
//! token, or recurse without a depth check.
use crate::front::ast::*;
use crate::front::diag::{Diagnostics, P2_HINT};
use crate::front::lex::{Tok, Token, Tokens};
use crate::ir::Type;
use crate::limits::*;

type P = Result<i16, ()>;

pub struct Parser<'a> {
    src: &'a [u8],
    toks: &'a Tokens,
    pos: usize,
    pub ast: &'a mut Ast,
    diag: &'a mut Diagnostics,
    depth: usize,
    /// The node table filled up (reported once).
    ast_full: bool,
    /// The bounds of the compile's profile.
    lim: &'static Limits,
    /// Copies of what the hot paths read, one load from the parser instead of two through
    /// `toks` or `lim`: whether the profile is 2, `lim.ast_nodes_max`, `lim.nesting_max`.
    is_p2: bool,
    ast_max: usize,
    nest_max: usize,
}

/// The type keywords and their types.
const TYPE_WORDS: &[(Tok, Type)] = &[
    (Tok::Void, Type::Void),
    (Tok::Bool, Type::Bool),
    (Tok::Int, Type::Int),
    (Tok::Float, Type::Float),
    (Tok::Vec2, Type::Vec2),
    (Tok::Vec3, Type::Vec3),
    (Tok::Vec4, Type::Vec4),
    (Tok::IVec2, Type::IVec2),
    (Tok::IVec3, Type::IVec3),
    (Tok::IVec4, Type::IVec4),
    (Tok::Mat3, Type::Mat3),
    (Tok::Mat4, Type::Mat4),
    (Tok::Sampler2D, Type::Sampler2D),
    (Tok::Uint, Type::Uint),
    (Tok::UVec2, Type::UVec2),
    (Tok::UVec3, Type::UVec3),
    (Tok::UVec4, Type::UVec4),
    (Tok::BVec2, Type::BVec2),
    (Tok::BVec3, Type::BVec3),
    (Tok::BVec4, Type::BVec4),
    (Tok::Mat2, Type::Mat2),
    (Tok::Mat2x3, Type::Mat2x3),
    (Tok::Mat2x4, Type::Mat2x4),
    (Tok::Mat3x2, Type::Mat3x2),
    (Tok::Mat3x4, Type::Mat3x4),
    (Tok::Mat4x2, Type::Mat4x2),
    (Tok::Mat4x3, Type::Mat4x3),
    (Tok::SamplerCube, Type::SamplerCube),
    (Tok::Sampler2DShadow, Type::Sampler2DShadow),
    (Tok::SamplerCubeShadow, Type::SamplerCubeShadow),
    (Tok::ISampler2D, Type::ISampler2D),
    (Tok::USampler2D, Type::USampler2D),
    (Tok::Sampler2DArray, Type::Sampler2DArray),
    (Tok::ISampler2DArray, Type::ISampler2DArray),
    (Tok::USampler2DArray, Type::USampler2DArray),
];

/// [`type_of`] for every token kind (indexed by the kind's number): one load instead of a call
/// and a jump table (the parser asks at every declaration, statement and constructor).
const TYPE_OF: [Option<Type>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < TYPE_WORDS.len() {
        t[TYPE_WORDS[i].0 as usize] = Some(TYPE_WORDS[i].1);
        i += 1;
    }
    t
};

/// Maps a type keyword to its type.
#[inline(always)]
pub fn type_of(kind: Tok) -> Option<Type> {
    TYPE_OF[kind as usize]
}

/// Parses a whole shader into `ast`. Errors go to `diag`, the token limit last (see
/// [`lex::report_overflow`](crate::front::lex::report_overflow)): it is found past every other error
/// the parser can see.
/// Whether `b` is a swizzle the parser accepts (1-4 letters of one of xyzw, rgba).
pub fn is_swizzle(b: &[u8]) -> bool {
    let xyzw = b.iter().all(|c| b"xyzw".contains(c));
    let rgba = b.iter().all(|c| b"rgba".contains(c));
    (1..=4).contains(&b.len()) && (xyzw || rgba)
}

/// Why `b` is not a swizzle (the parser's messages), for a profile-2 member name used on a
/// value that is not a struct.
pub fn swizzle_problem(b: &[u8]) -> &'static str {
    if b.len() > 4 {
        "at most 4 components"
    } else if b.iter().all(|c| b"xyzwrgba".contains(c)) {
        "mixed"
    } else {
        "use the letters xyzw or rgba"
    }
}

pub fn parse(src: &[u8], toks: &Tokens, ast: &mut Ast, diag: &mut Diagnostics) {
    ast.nodes.clear();
    ast.first = -1;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        ast,
        diag,
        depth: 0,
        ast_full: false,
        lim: limits(toks.profile),
        is_p2: toks.profile == Profile::P2,
        ast_max: limits(toks.profile).ast_nodes_max,
        nest_max: limits(toks.profile).nesting_max,
    };
    p.program();
    crate::front::lex::report_overflow(toks, p.diag);
}

impl<'a> Parser<'a> {
    fn tok(&self) -> Token {
        let last = self.toks.toks.len().saturating_sub(1);
        self.toks
            .toks
            .get(self.pos.min(last))
            .copied()
            .unwrap_or(Token {
                kind: Tok::Eof,
                off: 0,
                len: 0,
                line: 1,
                col: 1,
                exp: 0,
                value: 0,
            })
    }
    fn peek_kind(&self, k: usize) -> Tok {
        self.toks
            .toks
            .get(self.pos + k)
            .map(|t| t.kind)
            .unwrap_or(Tok::Eof)
    }
    #[inline]
    fn kind(&self) -> Tok {
        // The cursor never passes the final EOF, so this is nearly always a plain load; past
        // the end it is the same clamped lookup as `tok`.
        match self.toks.toks.get(self.pos) {
            Some(t) => t.kind,
            None => self.tok().kind,
        }
    }
    fn at(&self, k: Tok) -> bool {
        self.kind() == k
    }
    /// Profile 2's grammar (assignment and `?:` expressions, compound assignment, parameter
    /// qualifiers, prototypes, the comma operator in `for` headers).
    fn p2(&self) -> bool {
        self.is_p2
    }
    fn idx(&self) -> i16 {
        let last = self.toks.toks.len().saturating_sub(1);
        self.pos.min(last) as i16
    }
    fn advance(&mut self) {
        if self.kind() != Tok::Eof {
            self.pos += 1;
        }
    }
    fn eat(&mut self, k: Tok) -> bool {
        if self.at(k) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn err_at(&mut self, t: Token, args: core::fmt::Arguments<'_>) {
        // A source cut at the token limit ends early: what is missing at that end (a '}', a ';')
        // is not an error of its own.
        if t.kind == Tok::Eof && self.toks.overflow.is_some() {
            return;
        }
        self.diag.push(t.line, t.col as u32, args);
    }

    /// Error at the current token, describing it ("found ...").
    #[inline(never)]
    fn expected(&mut self, what: &str) -> Result<(), ()> {
        let t = self.tok();
        if t.kind == Tok::Eof {
            self.err_at(
                t,
                format_args!("expected {}, found the end of the source", what),
            );
        } else {
            let found = t.text(self.src);
            self.err_at(t, format_args!("expected {}, found '{}'", what, found));
        }
        Err(())
    }

    /// A missing `;` at the end of a line is reported and then assumed, so the next line parses
    /// normally instead of being skipped by recovery.
    /// Inlined check; the report is out of line (most statements have their ';').
    #[inline]
    fn expect_semi(&mut self, what: &str) -> Result<(), ()> {
        if self.eat(Tok::Semi) {
            return Ok(());
        }
        self.missing_semi(what)
    }

    #[inline(never)]
    fn missing_semi(&mut self, what: &str) -> Result<(), ()> {
        let prev = self
            .pos
            .checked_sub(1)
            .and_then(|p| self.toks.toks.get(p))
            .copied();
        let here = self.tok();
        match prev {
            Some(p) if here.line > p.line && here.kind != Tok::Eof => {
                // Point just past the end of the line that lacks it.
                let col = (p.col as u32).saturating_add(p.len as u32);
                self.diag.push(
                    p.line,
                    col,
                    format_args!("expected {} at the end of this line", what),
                );
                Ok(())
            }
            _ => self.expected(what),
        }
    }

    #[inline]
    fn expect(&mut self, k: Tok, what: &str) -> Result<(), ()> {
        if self.eat(k) {
            Ok(())
        } else {
            self.expected(what)
        }
    }

    /// Appends `n`. Inlined: a node built in the caller's frame and passed by reference was
    /// written field by field and then copied with wider loads, which the processor cannot
    /// forward from the narrow stores (perf put a stall on every node's copy); inlined, the
    /// fields are stored into the table directly.
    #[inline(always)]
    fn node(&mut self, n: Node) -> P {
        let idx = self.ast.nodes.len();
        if idx >= self.ast_max || self.ast.nodes.push(n).is_err() {
            return self.ast_is_full();
        }
        Ok(idx as i16)
    }

    #[cold]
    #[inline(never)]
    fn ast_is_full(&mut self) -> P {
        // Once: every later statement would hit the same full table.
        if !self.ast_full {
            self.ast_full = true;
            let t = self.tok();
            self.err_at(
                t,
                format_args!(
                    "shader exceeds the syntax tree limit of {} nodes",
                    self.lim.ast_nodes_max
                ),
            );
        }
        Err(())
    }

    fn set<F: FnOnce(&mut Node)>(&mut self, i: i16, f: F) {
        if i >= 0 {
            if let Some(n) = self.ast.nodes.get_mut(i as usize) {
                f(n);
            }
        }
    }

    /// One nesting level deeper (inlined: every expression level passes here; the report is
    /// out of line).
    #[inline]
    fn enter(&mut self) -> Result<(), ()> {
        self.depth += 1;
        if self.depth > self.nest_max {
            return self.too_deep();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Result<(), ()> {
        let t = self.tok();
        let max = self.lim.nesting_max;
        self.err_at(
            t,
            format_args!("nesting exceeds the limit of {} levels", max),
        );
        self.depth -= 1;
        Err(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ---- top level ----

    fn program(&mut self) {
        let mut last: i16 = -1;
        while !self.at(Tok::Eof) && !self.diag.full() {
            let before = self.pos;
            match self.global() {
                Ok(first) => {
                    // A declaration statement may produce several nodes (a, b, c); link them all.
                    let mut cur = first;
                    while cur >= 0 {
                        if last < 0 {
                            self.ast.first = cur;
                        } else {
                            self.set(last, |n| n.next = cur);
                        }
                        last = cur;
                        cur = self.ast.get(cur).map(|n| n.next).unwrap_or(-1);
                    }
                }
                Err(()) => self.sync(true),
            }
            if self.pos == before {
                self.advance();
            }
        }
    }

    /// Skips to a statement boundary: past a `;` or a balanced `{...}`; at top level a stray
    /// `}` is consumed too (so recovery always makes progress).
    fn sync(&mut self, top: bool) {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                Tok::Eof => return,
                Tok::Semi if depth == 0 => {
                    self.advance();
                    return;
                }
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    if depth == 0 {
                        if top {
                            self.advance();
                        }
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.advance();
                        return;
                    }
                }
                _ => {}
            }
            self.advance();
        }
    }

    fn global(&mut self) -> P {
        if self.at(Tok::Semi) {
            self.advance();
            return self.node(Node::new(Kind::Empty, self.idx() - 1));
        }
        if self.at(Tok::Precision) {
            return self.precision_statement();
        }
        if self.at_struct() {
            return self.struct_decl();
        }
        self.declaration(true)
    }

    fn reserved(&mut self) -> Result<(), ()> {
        let t = self.tok();
        let w = t.text(self.src);
        if self.toks.profile == Profile::P2
            && crate::front::lex::p2_word(w.as_bytes()) == Some(crate::front::lex::P2Word::Later)
        {
            self.err_at(
                t,
                format_args!(
                    "'{}' is a GLSL 3.30 keyword that profile 2 does not support yet",
                    w
                ),
            );
            return Err(());
        }
        let why = match w {
            "while" | "do" => {
                "only 'for' loops with at most 8 iterations exist (they are unrolled)"
            }
            "switch" | "case" | "default" => "use if/else",
            "break" | "continue" => "loops are unrolled and run every iteration",
            "struct" => "user-defined types are not supported",
            "precision" => "precision statements are not supported",
            _ => "not part of this language",
        };
        let hint = if w == "precision" && self.toks.profile == Profile::P1 {
            P2_HINT
        } else {
            ""
        };
        self.err_at(t, format_args!("'{}' is not supported: {}{}", w, why, hint));
        Err(())
    }

    /// `[layout(location = N)] [smooth] [in|out|uniform|const] [const] type name ...`: a function
    /// (global only) or one or more variables.
    fn declaration(&mut self, global: bool) -> P {
        let first_tok = self.idx();
        if let Some((quals, location, ty, name)) = self.simple_head(global) {
            if self.at(Tok::LParen) {
                // A function (unqualified, at global scope), as below.
                let f = self.function(ty, name)?;
                self.set(f, |n| {
                    n.c = -1;
                    n.d = -1;
                });
                return Ok(f);
            }
            return self.declarators(name, ty, quals, 0, location, first_tok, -1, -1);
        }
        let mut quals = 0u8;
        let mut location: i32 = -1;
        // Profile 2's block layout words: 1 a packing (std140, shared, packed), 2 row_major,
        // 4 column_major.
        let mut lay = 0u8;
        if self.p2() && self.at(Tok::Layout) {
            lay = self.p2_layout(&mut location)?;
            if location >= 0 {
                quals |= Q_LAYOUT;
            }
        } else if self.at(Tok::Layout) {
            self.advance();
            self.expect(Tok::LParen, "'(' after layout")?;
            if !(self.at(Tok::Ident) && self.tok().bytes(self.src) == b"location") {
                let t = self.tok();
                let w = t.text(self.src);
                self.err_at(
                    t,
                    format_args!(
                        "unsupported layout qualifier '{}': only layout(location = N) is supported",
                        w
                    ),
                );
                return Err(());
            }
            self.advance();
            self.expect(Tok::Assign, "'=' in layout(location = N)")?;
            if !self.at(Tok::IntLit) {
                return self.expected("an integer location").map(|_| -1);
            }
            location = self.tok().int() as i32;
            self.advance();
            if self.at(Tok::Comma) {
                let t = self.tok();
                self.err_at(
                    t,
                    format_args!("only one layout qualifier, location = N, is supported"),
                );
                return Err(());
            }
            self.expect(Tok::RParen, "')' after layout(location = N")?;
            quals |= Q_LAYOUT;
        }
        let mut flags = 0u8;
        if self.toks.profile == Profile::P2 {
            if self.at(Tok::Invariant) && self.peek_kind(1) == Tok::Ident && quals == 0 {
                return self.invariant_redeclaration(first_tok);
            }
            self.p2_qualifiers(&mut quals, &mut flags, false)?;
        } else if self.eat(Tok::Smooth) {
            quals |= Q_SMOOTH;
        }
        match self.kind() {
            Tok::In => quals |= Q_IN,
            Tok::Out => quals |= Q_OUT,
            Tok::Uniform => quals |= Q_UNIFORM,
            Tok::Const => quals |= Q_CONST,
            _ => {}
        }
        if quals & (Q_IN | Q_OUT | Q_UNIFORM | Q_CONST) != 0 {
            self.advance();
            if self.p2() && quals & (Q_IN | Q_OUT | Q_UNIFORM) != 0 {
                if self.at(Tok::Ident) && self.peek_kind(1) == Tok::LBrace {
                    return self.block_decl(first_tok, quals, flags, lay);
                }
                if quals & Q_UNIFORM != 0 && lay != 0 && location < 0 && self.at(Tok::Semi) {
                    // `layout(std140) uniform;`: the default layout of later blocks (accepted;
                    // blocks have no storage layout here).
                    let i = self.idx();
                    self.advance();
                    return self.node(Node::new(Kind::Empty, i));
                }
            }
            if quals & Q_CONST == 0 && self.eat(Tok::Const) {
                quals |= Q_CONST;
            }
            if matches!(self.kind(), Tok::In | Tok::Out | Tok::Uniform) {
                let t = self.tok();
                self.err_at(t, format_args!("only one of in, out, uniform may be given"));
                return Err(());
            }
        }
        if self.at(Tok::PrecQual) {
            self.advance();
            flags |= D_PRECISION;
        }
        if self.at(Tok::Reserved) {
            self.reserved()?;
        }
        if lay != 0 {
            let t = self
                .toks
                .get(first_tok)
                .copied()
                .unwrap_or_else(|| self.tok());
            self.err_at(
                t,
                format_args!("layout(std140, shared, packed, row_major, column_major) only applies to uniform blocks and their members"),
            );
            return Err(());
        }
        let type_tok = self.tok();
        let type_idx = self.idx();
        let mut user_ty = -1;
        let ty = match type_of(type_tok.kind) {
            Some(t) => t,
            // Profile 2: a struct type's name (sema resolves it); `ty` is Void with `c` set.
            None if self.p2()
                && type_tok.kind == Tok::Ident
                && matches!(self.peek_kind(1), Tok::Ident | Tok::LBracket) =>
            {
                user_ty = type_idx;
                Type::Void
            }
            None => {
                if type_tok.kind == Tok::Ident && self.peek_kind(1) == Tok::Ident {
                    let w = type_tok.text(self.src);
                    self.err_at(type_tok, format_args!("unknown type '{}'", w));
                    return Err(());
                }
                return self.expected("a type").map(|_| -1);
            }
        };
        self.advance();
        // Profile 2: `TYPE[SIZE] name`, the array size with the type.
        let mut type_size = -1;
        if self.p2() && self.at(Tok::LBracket) {
            type_size = self.array_size(false)?;
        }
        let name = self.idx();
        if !self.at(Tok::Ident) {
            if self.at(Tok::Reserved) && self.toks.profile == Profile::P2 {
                return self.reserved().map(|_| -1);
            }
            return self.expected("a name").map(|_| -1);
        }
        self.advance();
        if self.at(Tok::LParen) {
            if !global {
                let t = self.toks.get(name).copied().unwrap_or_else(|| self.tok());
                self.err_at(
                    t,
                    format_args!("functions cannot be defined inside another function"),
                );
                return Err(());
            }
            if quals != 0 || flags & !D_PRECISION != 0 {
                let t = self
                    .toks
                    .get(first_tok)
                    .copied()
                    .unwrap_or_else(|| self.tok());
                self.err_at(t, format_args!("a function cannot have qualifiers"));
                return Err(());
            }
            let f = self.function(ty, name)?;
            self.set(f, |n| {
                n.c = user_ty;
                n.d = type_size;
            });
            return Ok(f);
        }
        self.declarators(
            name, ty, quals, flags, location, first_tok, user_ty, type_size,
        )
    }

    /// The usual declaration's head, `[layout(location = N)] [in|out|uniform|const] TYPE NAME`
    /// followed by `=`, `,` or `;` (the layout as profile 1 writes it), or an unqualified
    /// `TYPE NAME (` at global scope (a function), read in one step: its
    /// qualifiers, location, type and name, with the cursor moved past the name. `declaration`'s general
    /// path reads such a head to the same values and nothing else (no report, no other node);
    /// None (the cursor unmoved) for every other shape.
    #[inline]
    fn simple_head(&mut self, global: bool) -> Option<(u8, i32, Type, i16)> {
        let toks = self.toks.toks.as_slice();
        let at = self.pos;
        let kind = |i: usize| toks.get(at + i).map_or(Tok::Eof, |t| t.kind);
        let (mut i, mut quals, mut location) = (0, 0u8, -1i32);
        if kind(0) == Tok::Layout {
            if self.p2()
                || kind(1) != Tok::LParen
                || kind(2) != Tok::Ident
                || kind(3) != Tok::Assign
                || kind(4) != Tok::IntLit
                || kind(5) != Tok::RParen
                || toks.get(at + 2)?.bytes(self.src) != b"location"
            {
                return None;
            }
            location = toks.get(at + 4)?.int() as i32;
            quals = Q_LAYOUT;
            i = 6;
        }
        quals |= match kind(i) {
            Tok::In => Q_IN,
            Tok::Out => Q_OUT,
            Tok::Uniform => Q_UNIFORM,
            Tok::Const => Q_CONST,
            _ => 0,
        };
        if quals & !Q_LAYOUT != 0 {
            i += 1;
        }
        let ty = type_of(kind(i))?;
        let follows = match kind(i + 2) {
            Tok::Assign | Tok::Comma | Tok::Semi => true,
            Tok::LParen => global && quals == 0,
            _ => false,
        };
        if kind(i + 1) != Tok::Ident || !follows {
            return None;
        }
        self.pos = at + i + 2;
        Some((quals, location, ty, (at + i + 1) as i16))
    }

    /// A declaration's declarators from just past its first name (`name`) to its `;`: one
    /// Decl node each, chained.
    #[allow(clippy::too_many_arguments)]
    fn declarators(
        &mut self,
        mut name: i16,
        ty: Type,
        quals: u8,
        flags: u8,
        location: i32,
        first_tok: i16,
        user_ty: i16,
        type_size: i16,
    ) -> P {
        let mut first = -1;
        let mut prev = -1;
        loop {
            let mut size = type_size;
            let mut no_size = false;
            if self.at(Tok::LBracket) {
                if !self.p2() {
                    let t = self.tok();
                    self.err_at(t, format_args!("arrays are not supported"));
                    return Err(());
                }
                if type_size >= 0 {
                    let t = self.tok();
                    self.err_at(
                        t,
                        format_args!("arrays of arrays are not part of GLSL 3.30"),
                    );
                    return Err(());
                }
                size = self.array_size(true)?;
                if size == -2 {
                    size = -1;
                    no_size = true;
                }
            }
            let mut init = -1;
            if self.eat(Tok::Assign) {
                init = self.expr()?;
            }
            let mut n = Node::new(Kind::Decl, name);
            n.ty = ty;
            n.quals = quals;
            n.op = flags;
            n.a = init;
            n.ival = location;
            n.d = first_tok;
            n.c = user_ty;
            n.b = size;
            if no_size {
                n.op |= D_UNSIZED;
            }
            let d = self.node(n)?;
            if first < 0 {
                first = d;
            } else {
                self.set(prev, |n| n.next = d);
            }
            prev = d;
            if self.eat(Tok::Comma) {
                name = self.idx();
                if !self.at(Tok::Ident) {
                    return self.expected("a name").map(|_| -1);
                }
                self.advance();
                continue;
            }
            break;
        }
        self.expect_semi("';' after the declaration")?;
        Ok(first)
    }

    /// Profile 2: `invariant`, an interpolation qualifier and `centroid` before the storage
    /// qualifier, in GLSL 3.30's order (invariant, interpolation, centroid with in/out). On an
    /// interface block `member`, `centroid` stands alone (before the member's type).
    fn p2_qualifiers(&mut self, quals: &mut u8, flags: &mut u8, member: bool) -> Result<(), ()> {
        // Rank of the last qualifier seen: 1 invariant, 2 interpolation, 3 centroid.
        let mut rank = 0u8;
        let mut last = self.tok();
        loop {
            let t = self.tok();
            let (r, q, f) = match t.kind {
                Tok::Invariant => (1, 0, D_INVARIANT),
                Tok::Smooth => (2, Q_SMOOTH, 0),
                Tok::Flat => (2, 0, D_FLAT),
                Tok::NoPerspective => (2, 0, D_NOPERSPECTIVE),
                Tok::Centroid => (3, 0, D_CENTROID),
                _ => break,
            };
            if r == rank {
                let (w, prev) = (t.text(self.src), last.text(self.src));
                if r == 2 {
                    self.err_at(
                        t,
                        format_args!(
                            "two interpolation qualifiers: '{}' after '{}' (give at most one of smooth, flat, noperspective)",
                            w, prev
                        ),
                    );
                } else {
                    self.err_at(t, format_args!("'{}' is given twice", w));
                }
                return Err(());
            }
            if r < rank {
                let (w, prev) = (t.text(self.src), last.text(self.src));
                self.err_at(
                    t,
                    format_args!(
                        "'{}' must come before '{}' (GLSL 3.30 order: invariant, interpolation, centroid, storage, precision)",
                        w, prev
                    ),
                );
                return Err(());
            }
            rank = r;
            last = t;
            *quals |= q;
            *flags |= f;
            self.advance();
        }
        if rank == 3 && !member && !matches!(self.kind(), Tok::In | Tok::Out) {
            self.err_at(
                last,
                format_args!("'centroid' must be followed by 'in' or 'out'"),
            );
            return Err(());
        }
        Ok(())
    }

    /// Profile 2: `invariant NAME [, NAME]... ;` at global scope (makes a declared output,
    /// or `gl_Position`, invariant): Decl nodes of type None with `D_INVARIANT`.
    fn invariant_redeclaration(&mut self, first_tok: i16) -> P {
        self.advance();
        let mut first = -1;
        let mut prev = -1;
        loop {
            let name = self.idx();
            if !self.at(Tok::Ident) {
                return self.expected("a name after 'invariant'").map(|_| -1);
            }
            self.advance();
            let mut n = Node::new(Kind::Decl, name);
            n.op = D_INVARIANT;
            n.ival = -1;
            n.d = first_tok;
            let d = self.node(n)?;
            if first < 0 {
                first = d;
            } else {
                self.set(prev, |n| n.next = d);
            }
            prev = d;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_semi("';' after the invariant declaration")?;
        Ok(first)
    }

    /// Profile 2: `[SIZE]` after a declared name: the size expression's node (sema requires a
    /// constant).
    fn array_size(&mut self, unsized_ok: bool) -> P {
        let t = self.tok();
        self.advance();
        if unsized_ok && self.at(Tok::RBracket) && self.peek_kind(1) == Tok::Assign {
            self.advance();
            return Ok(-2); // `name[] = T[](...)`: the initializer gives the size
        }
        if self.at(Tok::RBracket) {
            self.err_at(
                t,
                format_args!("an array declaration needs a size here: give it inside [ ]"),
            );
            return Err(());
        }
        let e = self.expr()?;
        self.expect(Tok::RBracket, "']' after the array size")?;
        if self.at(Tok::LBracket) {
            let t = self.tok();
            self.err_at(
                t,
                format_args!("arrays of arrays are not part of GLSL 3.30"),
            );
            return Err(());
        }
        Ok(e)
    }

    /// Profile 2: `TYPE[SIZE](args)` or `TYPE[](args)` after the type name (at `[`): a Ctor
    /// node with op 1, b = the size expression (-1 without one), c = a struct type's name token.
    fn array_ctor(&mut self, i: i16, ty: Type, user: i16) -> P {
        self.advance(); // [
        let mut size = -1;
        if !self.at(Tok::RBracket) {
            size = self.expr()?;
        }
        self.expect(Tok::RBracket, "']' in the array constructor")?;
        if !self.at(Tok::LParen) {
            return self
                .expected("'(' after the array type (an array constructor)")
                .map(|_| -1);
        }
        let args = self.args()?;
        let mut n = Node::new(Kind::Ctor, i);
        n.ty = ty;
        n.op = 1;
        n.a = args;
        n.b = size;
        n.c = user;
        self.node(n)
    }

    /// Profile 2: `layout(ID [= N], ...)` with the ids GLSL 3.30 has for vertex inputs,
    /// fragment outputs and uniform blocks: `location = N` (into `location`), and the block
    /// words, returned as bits (1 std140/shared/packed, 2 row_major, 4 column_major).
    fn p2_layout(&mut self, location: &mut i32) -> Result<u8, ()> {
        self.advance();
        self.expect(Tok::LParen, "'(' after layout")?;
        let mut lay = 0u8;
        loop {
            let t = self.tok();
            let w = t.bytes(self.src);
            match w {
                b"location" => {
                    self.advance();
                    self.expect(Tok::Assign, "'=' in layout(location = N)")?;
                    if !self.at(Tok::IntLit) {
                        return self.expected("an integer location").map(|_| 0);
                    }
                    *location = self.tok().int() as i32;
                }
                b"std140" | b"shared" | b"packed" => lay |= 1,
                b"row_major" => lay = (lay & !4) | 2,
                b"column_major" => lay = (lay & !2) | 4,
                _ => {
                    let w = t.text(self.src);
                    self.err_at(
                        t,
                        format_args!(
                            "unsupported layout qualifier '{}': profile 2 has location = N, std140, shared, packed, row_major and column_major",
                            w
                        ),
                    );
                    return Err(());
                }
            }
            self.advance();
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')' after the layout qualifiers")?;
        Ok(lay)
    }

    /// Profile 2: an interface block (`in`/`out`) or a uniform block, at `NAME {`:
    /// `QUALIFIER NAME { [layout(..)] TYPE NAME; ... } [INSTANCE];`. With an instance name: a
    /// Struct node (op 1) of the members, then a Decl of the instance (`c` = the block name,
    /// `D_BLOCK`); without one, the members themselves as Decls with the block's qualifier.
    fn block_decl(&mut self, first_tok: i16, quals: u8, flags: u8, lay: u8) -> P {
        let name = self.idx();
        self.advance();
        self.advance(); // {
        self.enter()?;
        let members = self.struct_members(true, lay & 2 != 0);
        self.leave();
        let members = members?;
        self.expect(Tok::RBrace, "'}' after the block members")?;
        // A block array (`uniform B { ... } b[3];`, `out B { ... } b[2];`): each element its
        // own block, its members named `B[k].member` as GL names them.
        let mut arr = -1;
        let instance = if self.at(Tok::Ident) {
            let v = self.idx();
            self.advance();
            if self.at(Tok::LBracket) {
                arr = self.array_size(false)?;
            }
            v
        } else {
            -1
        };
        self.expect_semi("';' after the block")?;
        if instance < 0 && quals & Q_UNIFORM != 0 {
            let mut cur = members;
            while cur >= 0 {
                if let Some(m) = self.ast.get(cur).copied().filter(|m| m.ty.is_sampler()) {
                    let t = self.toks.get(m.tok).copied();
                    if let Some(t) = t {
                        self.err_at(
                            t,
                            format_args!("uniform block members cannot be samplers (GLSL 3.30, section 4.3.7): declare it as a plain uniform"),
                        );
                    }
                }
                self.set(cur, |n| {
                    n.quals |= quals;
                    n.op |= flags;
                    n.d = first_tok;
                });
                cur = self.ast.get(cur).map(|n| n.next).unwrap_or(-1);
            }
            return Ok(members);
        }
        let mut n = Node::new(Kind::Struct, name);
        n.a = members;
        n.d = first_tok;
        n.op = 1;
        let s = self.node(n)?;
        // An in/out block without an instance name: the Decl is named by the block (ival -2)
        // and its members are names of their own.
        let mut d = Node::new(Kind::Decl, if instance < 0 { name } else { instance });
        d.ty = Type::Void;
        d.c = name;
        d.quals = quals;
        d.op = flags | D_BLOCK;
        d.ival = if instance < 0 { -2 } else { -1 };
        d.d = first_tok;
        d.b = arr;
        let di = self.node(d)?;
        self.set(s, |n| n.next = di);
        Ok(s)
    }

    /// Profile 2: the `struct` keyword starts a struct declaration.
    fn at_struct(&self) -> bool {
        self.p2() && self.at(Tok::Reserved) && self.tok().bytes(self.src) == b"struct"
    }

    /// Profile 2: `struct NAME { TYPE NAME [, NAME]...; ... } [NAME [= INIT] [, ...]];`: a
    /// Struct node (tok = name, a = first member Decl, d = the `struct` token), followed (through
    /// `next`) by a Decl of each variable declared with it.
    fn struct_decl(&mut self) -> P {
        let kw = self.idx();
        self.advance();
        let name = self.idx();
        if !self.at(Tok::Ident) {
            return self.expected("a struct name after 'struct'").map(|_| -1);
        }
        self.advance();
        self.expect(Tok::LBrace, "'{' after the struct name")?;
        self.enter()?;
        let members = self.struct_members(false, false);
        self.leave();
        let members = members?;
        self.expect(Tok::RBrace, "'}' after the struct members")?;
        let mut n = Node::new(Kind::Struct, name);
        n.a = members;
        n.d = kw;
        let s = self.node(n)?;
        let mut prev = s;
        while self.at(Tok::Ident) {
            let v = self.idx();
            self.advance();
            let mut d = Node::new(Kind::Decl, v);
            d.ty = Type::Void;
            d.c = name;
            d.ival = -1;
            d.d = kw;
            if self.eat(Tok::Assign) {
                d.a = self.expr()?;
            }
            let di = self.node(d)?;
            self.set(prev, |n| n.next = di);
            prev = di;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect_semi("';' after the struct declaration")?;
        Ok(s)
    }

    /// The members of a struct: Decl nodes (ty, c = a struct type's name token, d = the type
    /// token) chained through `next`.
    fn struct_members(&mut self, block: bool, row_major: bool) -> P {
        let mut first = -1;
        let mut prev = -1;
        while !self.at(Tok::RBrace) && !self.at(Tok::Eof) {
            // Block members: `layout(row_major | column_major)` (D_ROW_MAJOR on matrices).
            let mut row = row_major;
            if block && self.at(Tok::Layout) {
                let mut loc = -1;
                let lay = self.p2_layout(&mut loc)?;
                if loc >= 0 || lay & 1 != 0 {
                    let t = self.tok();
                    self.err_at(
                        t,
                        format_args!(
                            "a block member's layout can only be row_major or column_major"
                        ),
                    );
                    return Err(());
                }
                row = (row || lay & 2 != 0) && lay & 4 == 0;
            }
            // Block members: interpolation, centroid and invariant qualifiers (GLSL 3.30
            // §4.3.7; sema allows them on in/out blocks only).
            let (mut mq, mut mf) = (0u8, 0u8);
            if block {
                self.p2_qualifiers(&mut mq, &mut mf, true)?;
            }
            self.eat(Tok::PrecQual);
            let t = self.tok();
            let ti = self.idx();
            let (ty, user) = match type_of(t.kind) {
                Some(ty) => (ty, -1),
                None if t.kind == Tok::Ident => (Type::Void, ti),
                None if t.kind == Tok::Reserved => return self.reserved().map(|_| -1),
                None => return self.expected("a member type").map(|_| -1),
            };
            self.advance();
            loop {
                let m = self.idx();
                if !self.at(Tok::Ident) {
                    return self.expected("a member name").map(|_| -1);
                }
                self.advance();
                let mut d = Node::new(Kind::Decl, m);
                d.ty = ty;
                d.c = user;
                d.ival = -1;
                d.d = ti;
                d.quals |= mq;
                d.op |= mf;
                if row && matches!(ty, Type::Mat3 | Type::Mat4) {
                    d.op |= D_ROW_MAJOR;
                }
                if self.at(Tok::LBracket) {
                    d.b = self.array_size(false)?;
                }
                let di = self.node(d)?;
                if first < 0 {
                    first = di;
                } else {
                    self.set(prev, |n| n.next = di);
                }
                prev = di;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect_semi("';' after the struct member")?;
        }
        if first < 0 {
            let t = self.tok();
            self.err_at(t, format_args!("a struct needs at least one member"));
            return Err(());
        }
        Ok(first)
    }

    /// Profile 2: `precision highp|mediump|lowp TYPE;` (accepted and ignored, as GLSL 3.30
    /// does), an Empty node. GLSL allows it for float, int and sampler types.
    fn precision_statement(&mut self) -> P {
        let i = self.idx();
        self.advance();
        if !self.eat(Tok::PrecQual) {
            return self
                .expected("a precision qualifier (highp, mediump or lowp) after 'precision'")
                .map(|_| -1);
        }
        let t = self.tok();
        match t.kind {
            Tok::Float
            | Tok::Int
            | Tok::Sampler2D
            | Tok::SamplerCube
            | Tok::Sampler2DShadow
            | Tok::SamplerCubeShadow
            | Tok::ISampler2D
            | Tok::USampler2D
            | Tok::Sampler2DArray
            | Tok::ISampler2DArray
            | Tok::USampler2DArray => self.advance(),
            Tok::Reserved => {
                self.reserved()?;
            }
            _ => {
                return self
                    .expected("float, int or a sampler type in the precision statement")
                    .map(|_| -1)
            }
        }
        self.expect_semi("';' after the precision statement")?;
        self.node(Node::new(Kind::Empty, i))
    }

    fn function(&mut self, ret: Type, name: i16) -> P {
        self.advance(); // (
        let mut first = -1;
        let mut prev = -1;
        if self.at(Tok::Void) && self.peek_kind(1) == Tok::RParen {
            self.advance();
        }
        while !self.at(Tok::RParen) {
            let mut pquals = 0u8;
            if self.p2() {
                pquals = self.param_qualifiers()?;
            } else if matches!(self.kind(), Tok::In | Tok::Out | Tok::Const | Tok::Uniform) {
                let t = self.tok();
                let w = t.text(self.src);
                self.err_at(
                    t,
                    format_args!(
                        "parameter qualifier '{}' is not supported: parameters are passed by value{}",
                        w, P2_HINT
                    ),
                );
                return Err(());
            }
            // Profile 2: a precision qualifier (ignored).
            self.eat(Tok::PrecQual);
            let t = self.tok();
            let mut user_ty = -1;
            let ty = match type_of(t.kind) {
                Some(ty) => ty,
                None if self.p2() && t.kind == Tok::Ident => {
                    user_ty = self.idx();
                    Type::Void
                }
                None => return self.expected("a parameter type").map(|_| -1),
            };
            self.advance();
            let mut pname = self.idx();
            let mut unnamed = false;
            if self.p2() && matches!(self.kind(), Tok::Comma | Tok::RParen) {
                // Profile 2: a parameter may be unnamed (typically in a prototype).
                pname = self.idx() - 1;
                unnamed = true;
            } else if !self.at(Tok::Ident) {
                return self.expected("a parameter name").map(|_| -1);
            } else {
                self.advance();
            }
            let mut size = -1;
            if self.p2() && self.at(Tok::LBracket) {
                size = self.array_size(false)?;
            }
            let mut n = Node::new(Kind::Param, pname);
            n.b = size;
            n.ty = ty;
            n.c = user_ty;
            n.quals = pquals;
            n.ival = unnamed as i32;
            let p = self.node(n)?;
            if first < 0 {
                first = p;
            } else {
                self.set(prev, |n| n.next = p);
            }
            prev = p;
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "')' after the parameters")?;
        if self.p2() && self.eat(Tok::Semi) {
            // A prototype: the definition comes later (or the call is an error).
            let mut n = Node::new(Kind::Func, name);
            n.ty = ret;
            n.a = first;
            return self.node(n);
        }
        if !self.at(Tok::LBrace) {
            if self.at(Tok::Semi) {
                let t = self.tok();
                self.err_at(
                    t,
                    format_args!(
                        "function prototypes are not supported: give the body here{}",
                        P2_HINT
                    ),
                );
                return Err(());
            }
            return self.expected("a function body '{'").map(|_| -1);
        }
        let body = self.block()?;
        let mut n = Node::new(Kind::Func, name);
        n.ty = ret;
        n.a = first;
        n.b = body;
        self.node(n)
    }

    /// Profile 2: `[const] [in | out | inout]` before a parameter's type.
    fn param_qualifiers(&mut self) -> Result<u8, ()> {
        let mut q = 0u8;
        if self.eat(Tok::Const) {
            q |= Q_CONST;
        }
        match self.kind() {
            Tok::In => q |= Q_IN,
            Tok::Out => q |= Q_OUT,
            Tok::InOut => q |= Q_IN | Q_OUT,
            _ => {}
        }
        if q & (Q_IN | Q_OUT) != 0 {
            let t = self.tok();
            self.advance();
            if q & Q_CONST != 0 && q & Q_OUT != 0 {
                let w = t.text(self.src);
                self.err_at(
                    t,
                    format_args!("a const parameter cannot be '{}': it would be written", w),
                );
                return Err(());
            }
        }
        if matches!(
            self.kind(),
            Tok::In | Tok::Out | Tok::InOut | Tok::Const | Tok::Uniform
        ) {
            let t = self.tok();
            let w = t.text(self.src);
            self.err_at(
                t,
                format_args!(
                    "parameter qualifier '{}' is not valid here: write [const] [in | out | inout] TYPE NAME",
                    w
                ),
            );
            return Err(());
        }
        Ok(q)
    }

    // ---- statements ----

    fn block(&mut self) -> P {
        let open = self.idx();
        self.expect(Tok::LBrace, "'{'")?;
        self.enter()?;
        let mut first = -1;
        let mut prev = -1;
        while !self.at(Tok::RBrace) && !self.at(Tok::Eof) && !self.diag.full() {
            let before = self.pos;
            match self.statement() {
                Ok(s) => {
                    if first < 0 {
                        first = s;
                    } else {
                        self.set(prev, |n| n.next = s);
                    }
                    // declarations may chain several nodes
                    let mut last = s;
                    while let Some(n) = self.ast.get(last) {
                        if n.next < 0 {
                            break;
                        }
                        last = n.next;
                    }
                    prev = last;
                }
                Err(()) => self.sync(false),
            }
            if self.pos == before && !self.at(Tok::RBrace) {
                self.advance();
            }
        }
        self.leave();
        if !self.eat(Tok::RBrace) {
            if !self.diag.full() {
                let t = self.toks.get(open).copied().unwrap_or_else(|| self.tok());
                let cur = self.tok();
                self.err_at(
                    cur,
                    format_args!("expected '}}' to close the block opened at line {}", t.line),
                );
            }
            return Err(());
        }
        let mut n = Node::new(Kind::Block, open);
        n.a = first;
        self.node(n)
    }

    fn statement(&mut self) -> P {
        let t = self.tok();
        let i = self.idx();
        match t.kind {
            Tok::Semi => {
                self.advance();
                self.node(Node::new(Kind::Empty, i))
            }
            Tok::LBrace => self.block(),
            Tok::Discard => {
                self.advance();
                self.expect_semi("';' after discard")?;
                self.node(Node::new(Kind::Discard, i))
            }
            Tok::Return => {
                self.advance();
                let mut n = Node::new(Kind::Return, i);
                if !self.at(Tok::Semi) {
                    n.a = self.expr()?;
                }
                self.expect_semi("';' after return")?;
                self.node(n)
            }
            Tok::If => {
                self.advance();
                self.expect(Tok::LParen, "'(' after if")?;
                let cond = self.expr()?;
                self.expect(Tok::RParen, "')' after the if condition")?;
                self.enter()?;
                let then = self.statement();
                let mut els = Ok(-1);
                if then.is_ok() && self.eat(Tok::Else) {
                    els = self.statement();
                }
                self.leave();
                let mut n = Node::new(Kind::If, i);
                n.a = cond;
                n.b = then?;
                n.c = els?;
                self.node(n)
            }
            Tok::For => self.for_statement(),
            Tok::Else => {
                self.err_at(t, format_args!("'else' without a matching 'if'"));
                Err(())
            }
            Tok::Reserved if self.at_struct() => self.struct_decl(),
            Tok::Reserved
                if self.p2()
                    && matches!(t.text(self.src), "while" | "do" | "break" | "continue") =>
            {
                self.loop_statement()
            }
            Tok::Reserved
                if self.p2() && matches!(t.text(self.src), "switch" | "case" | "default") =>
            {
                self.switch_part()
            }
            Tok::Reserved => {
                self.reserved()?;
                Err(())
            }
            Tok::In | Tok::Out | Tok::Uniform | Tok::Const | Tok::Layout | Tok::Smooth => {
                self.declaration(false)
            }
            // Profile 2 only (profile 1 never lexes these).
            Tok::Flat | Tok::NoPerspective | Tok::Centroid | Tok::Invariant | Tok::PrecQual => {
                self.declaration(false)
            }
            Tok::Precision => self.precision_statement(),
            k if type_of(k).is_some() && self.peek_kind(1) == Tok::Ident => self.declaration(false),
            Tok::Ident if self.p2() && self.peek_kind(1) == Tok::Ident => self.declaration(false),
            // Profile 2: `TYPE[N] name ...` (an array-typed declaration, not a constructor).
            k if self.p2()
                && (type_of(k).is_some() || k == Tok::Ident)
                && self.peek_kind(1) == Tok::LBracket
                && ((self.peek_kind(2) == Tok::RBracket && self.peek_kind(3) == Tok::Ident)
                    || (self.peek_kind(3) == Tok::RBracket && self.peek_kind(4) == Tok::Ident)) =>
            {
                self.declaration(false)
            }
            Tok::Ident if self.peek_kind(1) == Tok::Ident => {
                let w = t.text(self.src);
                self.err_at(t, format_args!("unknown type '{}'", w));
                Err(())
            }
            _ => {
                let s = self.simple_statement()?;
                self.expect_semi("';' after the statement")?;
                Ok(s)
            }
        }
    }

    /// An assignment `target = value` or an expression, without the `;`.
    fn simple_statement(&mut self) -> P {
        let start = self.idx();
        let e = self.expr()?;
        if self.p2() {
            // Profile 2 parses assignments as expressions; one at the top is the statement.
            if self.ast.get(e).map(|n| n.kind) == Some(Kind::Assign) {
                return Ok(e);
            }
            let mut n = Node::new(Kind::ExprStmt, start);
            n.a = e;
            return self.node(n);
        }
        if self.at(Tok::Assign) {
            let eq = self.idx();
            self.advance();
            let v = self.expr()?;
            if self.at(Tok::Assign) {
                let t = self.tok();
                self.err_at(
                    t,
                    format_args!(
                        "chained assignment is not supported: assign one variable per statement{}",
                        P2_HINT
                    ),
                );
                return Err(());
            }
            let mut n = Node::new(Kind::Assign, eq);
            n.a = e;
            n.b = v;
            return self.node(n);
        }
        if self.at(Tok::CompoundAssign) {
            let t = self.tok();
            let w = t.text(self.src);
            self.err_at(
                t,
                format_args!(
                    "compound assignment '{}' is not supported: write 'x = x {} y'{}",
                    w,
                    w.get(..1).unwrap_or("+"),
                    P2_HINT
                ),
            );
            return Err(());
        }
        let mut n = Node::new(Kind::ExprStmt, start);
        n.a = e;
        self.node(n)
    }

    /// Profile 2: `switch (e) { ... }`, and the `case e:` and `default:` labels of its body
    /// (parsed wherever a statement may stand; the semantic pass rejects them outside a
    /// switch body).
    fn switch_part(&mut self) -> P {
        let t = self.tok();
        let i = self.idx();
        let w = t.text(self.src);
        self.advance();
        match w {
            "switch" => {
                self.expect(Tok::LParen, "'(' after switch")?;
                let sel = self.expr()?;
                self.expect(Tok::RParen, "')' after the switch selector")?;
                if !self.at(Tok::LBrace) {
                    let cur = self.tok();
                    self.err_at(cur, format_args!("expected '{{' to open the switch body"));
                    return Err(());
                }
                let body = self.block()?;
                let mut n = Node::new(Kind::Switch, i);
                n.a = sel;
                n.b = body;
                self.node(n)
            }
            "case" => {
                let e = self.expr()?;
                self.expect(Tok::Colon, "':' after the case label")?;
                let mut n = Node::new(Kind::Case, i);
                n.a = e;
                self.node(n)
            }
            _ => {
                self.expect(Tok::Colon, "':' after default")?;
                self.node(Node::new(Kind::Case, i))
            }
        }
    }

    /// Profile 2: `while (c) s`, `do s while (c);`, `break;`, `continue;`.
    fn loop_statement(&mut self) -> P {
        let t = self.tok();
        let i = self.idx();
        let w = t.text(self.src);
        self.advance();
        match w {
            "break" | "continue" => {
                let kind = if w == "break" {
                    Kind::Break
                } else {
                    Kind::Continue
                };
                self.expect_semi(if w == "break" {
                    "';' after break"
                } else {
                    "';' after continue"
                })?;
                self.node(Node::new(kind, i))
            }
            "while" => {
                self.expect(Tok::LParen, "'(' after while")?;
                let cond = self.expr()?;
                self.expect(Tok::RParen, "')' after the while condition")?;
                self.enter()?;
                let body = self.statement();
                self.leave();
                let mut n = Node::new(Kind::While, i);
                n.a = cond;
                n.b = body?;
                self.node(n)
            }
            _ => {
                self.enter()?;
                let body = self.statement();
                self.leave();
                let body = body?;
                let wt = self.tok();
                if !(wt.kind == Tok::Reserved && wt.text(self.src) == "while") {
                    self.err_at(
                        wt,
                        format_args!("expected 'while' after the body of a do loop"),
                    );
                    return Err(());
                }
                self.advance();
                self.expect(Tok::LParen, "'(' after while")?;
                let cond = self.expr()?;
                self.expect(Tok::RParen, "')' after the while condition")?;
                self.expect_semi("';' after do ... while (...)")?;
                let mut n = Node::new(Kind::DoWhile, i);
                n.a = cond;
                n.b = body;
                self.node(n)
            }
        }
    }

    fn for_statement(&mut self) -> P {
        let i = self.idx();
        self.advance();
        self.expect(Tok::LParen, "'(' after for")?;
        let init = if self.at(Tok::Semi) {
            self.advance();
            -1
        } else if type_of(self.kind()).is_some() || self.at(Tok::Const) {
            self.declaration(false)?
        } else {
            let s = self.comma_list()?;
            if self.at(Tok::Comma) {
                self.comma_hint("initializer")?;
            }
            self.expect(Tok::Semi, "';' after the loop initializer")?;
            s
        };
        let cond = if self.at(Tok::Semi) { -1 } else { self.expr()? };
        self.expect(Tok::Semi, "';' after the loop condition")?;
        let step = if self.at(Tok::RParen) {
            -1
        } else {
            self.comma_list()?
        };
        if self.at(Tok::Comma) {
            self.comma_hint("step")?;
        }
        self.expect(Tok::RParen, "')' after the loop step")?;
        self.enter()?;
        let body = self.statement();
        self.leave();
        let mut n = Node::new(Kind::For, i);
        n.a = init;
        n.b = cond;
        n.c = step;
        n.d = body?;
        self.node(n)
    }

    /// A `for` initializer or step: one simple statement, or in profile 2 several separated
    /// by the comma operator (chained through `next`, evaluated in order).
    fn comma_list(&mut self) -> P {
        let first = self.simple_statement()?;
        let mut prev = first;
        while self.p2() && self.eat(Tok::Comma) {
            let s = self.simple_statement()?;
            self.set(prev, |n| n.next = s);
            prev = s;
        }
        Ok(first)
    }

    /// Profile 1: the comma operator in a `for` header.
    fn comma_hint(&mut self, part: &str) -> Result<(), ()> {
        let t = self.tok();
        let what = if part == "step" {
            "')' after the loop step"
        } else {
            "';' after the loop initializer"
        };
        self.err_at(t, format_args!("expected {}, found ','{}", what, P2_HINT));
        Err(())
    }

    // ---- expressions ----

    fn expr(&mut self) -> P {
        self.enter()?;
        let r = if self.p2() {
            self.assignment()
        } else {
            self.binary(1)
        };
        self.leave();
        r
    }

    /// A call's argument: [`expr`](Self::expr), with the usual argument, a lone name or literal
    /// (or one negated) before `,` or `)`, parsed through `unary` directly: the levels between
    /// `expr` and `unary` would only look at that next token and pass the operand up (the same
    /// nodes and reports).
    fn arg(&mut self) -> P {
        let operand = |k: Tok| {
            matches!(
                k,
                Tok::Ident | Tok::FloatLit | Tok::IntLit | Tok::True | Tok::False
            )
        };
        let ends = |k: Tok| matches!(k, Tok::Comma | Tok::RParen);
        let (k0, k1) = (self.kind(), self.peek_kind(1));
        if operand(k0) && ends(k1) || k0 == Tok::Minus && operand(k1) && ends(self.peek_kind(2)) {
            self.enter()?;
            let r = self.unary();
            self.leave();
            return r;
        }
        self.expr()
    }

    /// Profile 2: `unary = value`, `unary OP= value` (right-associative) or a conditional.
    fn assignment(&mut self) -> P {
        let lhs = self.binary(1)?;
        let op = match self.kind() {
            Tok::Assign => 0,
            Tok::CompoundAssign => {
                let t = self.tok();
                match t.bytes(self.src).first() {
                    Some(b'+') => BinOp::Add as u8,
                    Some(b'-') => BinOp::Sub as u8,
                    Some(b'*') => BinOp::Mul as u8,
                    Some(b'/') => BinOp::Div as u8,
                    Some(b'&') => BinOp::BitAnd as u8,
                    Some(b'|') => BinOp::BitOr as u8,
                    Some(b'^') => BinOp::BitXor as u8,
                    Some(b'<') => BinOp::Shl as u8,
                    Some(b'>') => BinOp::Shr as u8,
                    _ => BinOp::Mod as u8,
                }
            }
            _ => return Ok(lhs),
        };
        let eq = self.idx();
        self.advance();
        self.enter()?;
        let v = self.assignment();
        self.leave();
        let mut n = Node::new(Kind::Assign, eq);
        n.op = op;
        n.a = lhs;
        n.b = v?;
        self.node(n)
    }

    /// Profile 2: `cond ? expression : assignment-expression` after the condition `cond`.
    fn conditional(&mut self, cond: i16) -> P {
        let q = self.idx();
        self.advance();
        self.enter()?;
        let r = (|| {
            let then = self.assignment()?;
            self.expect(Tok::Colon, "':' in the conditional operator ?:")?;
            let els = self.assignment()?;
            Ok((then, els))
        })();
        self.leave();
        let (then, els) = r?;
        let mut n = Node::new(Kind::Cond, q);
        n.a = cond;
        n.b = then;
        n.c = els;
        self.node(n)
    }

    /// GLSL's precedence levels, loosest first: `||`, `&&`, `|`, `^`, `&` (profile 2), equality,
    /// relational, shifts (profile 2), additive, multiplicative. Profile 1's operators keep
    /// their relative order, so its trees are unchanged.
    fn binop(&self) -> Option<(BinOp, u8)> {
        Some(match self.kind() {
            Tok::OrOr => (BinOp::Or, 1),
            Tok::AndAnd => (BinOp::And, 2),
            Tok::Pipe => (BinOp::BitOr, 3),
            Tok::Caret => (BinOp::BitXor, 4),
            Tok::Amp => (BinOp::BitAnd, 5),
            Tok::EqEq => (BinOp::Eq, 6),
            Tok::NotEq => (BinOp::Ne, 6),
            Tok::Lt => (BinOp::Lt, 7),
            Tok::Gt => (BinOp::Gt, 7),
            Tok::Le => (BinOp::Le, 7),
            Tok::Ge => (BinOp::Ge, 7),
            Tok::Shift if self.p2() => {
                if self.tok().bytes(self.src).first() == Some(&b'<') {
                    (BinOp::Shl, 8)
                } else {
                    (BinOp::Shr, 8)
                }
            }
            Tok::Plus => (BinOp::Add, 9),
            Tok::Minus => (BinOp::Sub, 9),
            Tok::Star => (BinOp::Mul, 10),
            Tok::Slash => (BinOp::Div, 10),
            Tok::Percent => (BinOp::Mod, 10),
            _ => return None,
        })
    }

    /// Precedence climbing: all binary operators are left-associative.
    fn binary(&mut self, min: u8) -> P {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binop() {
            if prec < min {
                break;
            }
            let optok = self.idx();
            self.advance();
            let rhs = if prec < 10 {
                self.binary(prec + 1)?
            } else {
                self.unary()?
            };
            let mut n = Node::new(Kind::Binary, optok);
            n.op = op as u8;
            n.a = lhs;
            n.b = rhs;
            lhs = self.node(n)?;
        }
        if self.at(Tok::Shift) {
            let t = self.tok();
            let w = t.text(self.src);
            self.err_at(
                t,
                format_args!(
                    "operator '{}' is not supported: this language has no shift or bitwise operators",
                    w
                ),
            );
            return Err(());
        }
        if self.at(Tok::Question) {
            if self.p2() {
                // Only the outermost level takes it (it binds more loosely than '||').
                return if min == 1 {
                    self.conditional(lhs)
                } else {
                    Ok(lhs)
                };
            }
            let t = self.tok();
            self.err_at(
                t,
                format_args!(
                    "the conditional operator ?: is not supported: use if/else{}",
                    P2_HINT
                ),
            );
            return Err(());
        }
        Ok(lhs)
    }

    /// The usual operand, a name or a literal that no postfix operator, call or index follows,
    /// is one node made here (the same node as [`unary_general`](Self::unary_general) makes
    /// for it) without that function's frame; everything else goes there.
    #[inline]
    fn unary(&mut self) -> P {
        let Some(t) = self.toks.toks.get(self.pos) else {
            return self.unary_general();
        };
        let kind = match t.kind {
            Tok::Ident => Kind::Ident,
            Tok::FloatLit => Kind::FloatLit,
            Tok::IntLit => Kind::IntLit,
            _ => return self.unary_general(),
        };
        if matches!(
            self.peek_kind(1),
            Tok::LParen | Tok::LBracket | Tok::Dot | Tok::PlusPlus | Tok::MinusMinus
        ) {
            return self.unary_general();
        }
        let mut n = Node::new(kind, self.pos as i16);
        if kind != Kind::Ident {
            n.ival = t.value as i32;
            // Profile 2: a `u`/`U` suffix makes a uint literal (as in `primary`).
            if kind == Kind::IntLit && matches!(t.bytes(self.src).last(), Some(b'u' | b'U')) {
                n.ty = Type::Uint;
            }
        }
        // Not the end (the token is a name or a literal).
        self.pos += 1;
        self.node(n)
    }

    #[inline(never)]
    fn unary_general(&mut self) -> P {
        let t = self.tok();
        let i = self.idx();
        let op = match t.kind {
            Tok::Plus => 0,
            Tok::Minus => UN_NEG,
            Tok::Not => UN_NOT,
            Tok::Tilde => UN_BITNOT,
            Tok::PlusPlus => 100 + INC_PRE,
            Tok::MinusMinus => 100 + DEC_PRE,
            _ => return self.postfix(),
        };
        self.advance();
        self.enter()?;
        let operand = self.unary();
        self.leave();
        let operand = operand?;
        if op == 0 {
            return Ok(operand);
        }
        let mut n = if op > 100 {
            let mut n = Node::new(Kind::Incr, i);
            n.op = op - 100;
            n
        } else {
            let mut n = Node::new(Kind::Unary, i);
            n.op = op;
            n
        };
        n.a = operand;
        self.node(n)
    }

    fn postfix(&mut self) -> P {
        let mut e = self.primary()?;
        loop {
            match self.kind() {
                Tok::Dot => {
                    self.advance();
                    let st = self.tok();
                    let si = self.idx();
                    if st.kind != Tok::Ident {
                        return self.expected("a swizzle after '.'").map(|_| -1);
                    }
                    self.advance();
                    // Profile 2: a name that is not a swizzle is a struct member (`op` 0);
                    // sema reports the swizzle error when the value is not a struct.
                    let (len, mask) = if self.p2() && !is_swizzle(st.bytes(self.src)) {
                        (0, 0)
                    } else {
                        self.swizzle(st)?
                    };
                    let mut n = Node::new(Kind::Swizzle, si);
                    n.a = e;
                    n.op = len;
                    n.ival = mask as i32;
                    if len == 0
                        && st.bytes(self.src) == b"length"
                        && self.at(Tok::LParen)
                        && self.peek_kind(1) == Tok::RParen
                    {
                        // Profile 2: `a.length()` (ival 1).
                        self.advance();
                        self.advance();
                        n.ival = 1;
                    }
                    e = self.node(n)?;
                }
                Tok::LBracket => {
                    let bi = self.idx();
                    self.advance();
                    let index = self.expr()?;
                    self.expect(Tok::RBracket, "']'")?;
                    let mut n = Node::new(Kind::Index, bi);
                    n.a = e;
                    n.b = index;
                    e = self.node(n)?;
                }
                Tok::PlusPlus | Tok::MinusMinus => {
                    let mut n = Node::new(Kind::Incr, self.idx());
                    n.op = if self.at(Tok::PlusPlus) {
                        INC_POST
                    } else {
                        DEC_POST
                    };
                    n.a = e;
                    self.advance();
                    e = self.node(n)?;
                }
                _ => return Ok(e),
            }
        }
    }

    /// Checks a swizzle and encodes it: length and 2 bits per component (x/r = 0 ... w/a = 3).
    fn swizzle(&mut self, t: Token) -> Result<(u8, u8), ()> {
        // Bytes for the check (no UTF-8 validation on the success path), text for messages.
        let b = t.bytes(self.src);
        let w = || t.text(self.src);
        let mut xyzw = false;
        let mut rgba = false;
        let mut mask = 0u8;
        if b.len() > 4 {
            self.err_at(
                t,
                format_args!("invalid swizzle '{}': at most 4 components", w()),
            );
            return Err(());
        }
        for (k, &ch) in b.iter().enumerate() {
            let (sel, set_xyzw) = match ch {
                b'x' => (0, true),
                b'y' => (1, true),
                b'z' => (2, true),
                b'w' => (3, true),
                b'r' => (0, false),
                b'g' => (1, false),
                b'b' => (2, false),
                b'a' => (3, false),
                _ => {
                    self.err_at(
                        t,
                        format_args!("invalid swizzle '{}': use the letters xyzw or rgba", w()),
                    );
                    return Err(());
                }
            };
            if set_xyzw {
                xyzw = true;
            } else {
                rgba = true;
            }
            mask |= sel << (2 * k);
        }
        if xyzw && rgba {
            self.err_at(
                t,
                format_args!(
                    "mixed swizzle sets in '{}': use only xyzw or only rgba",
                    w()
                ),
            );
            return Err(());
        }
        Ok((b.len() as u8, mask))
    }

    fn args(&mut self) -> P {
        self.advance(); // (
        let mut first = -1;
        let mut prev = -1;
        if self.at(Tok::Void) && self.peek_kind(1) == Tok::RParen {
            self.advance();
        }
        if !self.at(Tok::RParen) {
            loop {
                let a = self.arg()?;
                if first < 0 {
                    first = a;
                } else {
                    self.set(prev, |n| n.next = a);
                }
                prev = a;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RParen, "')' after the arguments")?;
        Ok(first)
    }

    fn primary(&mut self) -> P {
        let t = self.tok();
        let i = self.idx();
        match t.kind {
            Tok::IntLit => {
                self.advance();
                let mut n = Node::new(Kind::IntLit, i);
                n.ival = t.int() as i32;
                // Profile 2: a `u`/`U` suffix makes a uint literal (profile 1's lexer refuses it).
                if matches!(t.bytes(self.src).last(), Some(b'u' | b'U')) {
                    n.ty = Type::Uint;
                }
                self.node(n)
            }
            Tok::FloatLit => {
                self.advance();
                let mut n = Node::new(Kind::FloatLit, i);
                n.ival = t.value as i32;
                self.node(n)
            }
            Tok::True | Tok::False => {
                self.advance();
                let mut n = Node::new(Kind::BoolLit, i);
                n.ival = (t.kind == Tok::True) as i32;
                self.node(n)
            }
            Tok::Ident
                if self.p2()
                    && self.peek_kind(1) == Tok::LBracket
                    && (self.peek_kind(2) == Tok::RBracket
                        || (self.peek_kind(3) == Tok::RBracket
                            && self.peek_kind(4) == Tok::LParen)) =>
            {
                // Profile 2: `S[N](...)` / `S[](...)`, an array constructor of a struct type.
                self.advance();
                self.array_ctor(i, Type::Void, i)
            }
            Tok::Ident => {
                self.advance();
                if self.at(Tok::LParen) {
                    let args = self.args()?;
                    let mut n = Node::new(Kind::Call, i);
                    n.a = args;
                    return self.node(n);
                }
                self.node(Node::new(Kind::Ident, i))
            }
            Tok::LParen => {
                self.advance();
                let e = self.expr()?;
                self.expect(Tok::RParen, "')'")?;
                Ok(e)
            }
            Tok::Reserved => {
                self.reserved()?;
                Err(())
            }
            k => {
                if let Some(ty) = type_of(k) {
                    self.advance();
                    if self.p2() && self.at(Tok::LBracket) {
                        return self.array_ctor(i, ty, -1);
                    }
                    if !self.at(Tok::LParen) {
                        if self.at(Tok::LBracket) {
                            let b = self.tok();
                            self.err_at(b, format_args!("arrays are not supported"));
                            return Err(());
                        }
                        return self
                            .expected("'(' after the type name (a constructor)")
                            .map(|_| -1);
                    }
                    let args = self.args()?;
                    let mut n = Node::new(Kind::Ctor, i);
                    n.ty = ty;
                    n.a = args;
                    return self.node(n);
                }
                self.expected("an expression").map(|_| -1)
            }
        }
    }
}
