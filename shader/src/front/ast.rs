//! The syntax tree: a flat array of at most `AST_MAX` nodes linked by `i16` indices (-1 = none).
//!
//! Owns: node kinds and their field conventions (below). Must never: hold types or slots decided
//! by semantic analysis (sema keeps its own tables), or allocate.
//!
//! | kind | fields |
//! |---|---|
//! | Struct | tok = name, a = first member (Decl nodes: ty, c, tok = name), d = `struct` token (profile 2) |
//! | Decl | ty, quals, op = `D_*` flags (profile 2), tok = name, a = initialiser, ival = location (-1 none), d = first qualifier token; ty None with `D_INVARIANT`: `invariant NAME;` |
//! | Func | ty = return type, tok = name, a = first Param, b = body Block (-1: a prototype, profile 2) |
//! | Param | ty, tok = name, quals = Q_IN/Q_OUT/Q_CONST (profile 2; inout = in + out), ival = 1 when unnamed |
//! | Block | a = first statement |
//! | Return | a = value |
//! | If | a = condition, b = then, c = else |
//! | For | a = init, b = condition, c = step (profile 2: a `next` list, the comma operator), d = body |
//! | While, DoWhile | a = condition, b = body (profile 2) |
//! | Break, Continue | - (profile 2) |
//! | Assign | a = target, b = value, tok = `=`, op = 0 or the [`BinOp`] of `+= -= *= /= %=` (profile 2) |
//! | Cond | a = condition, b = value if true, c = value if false, tok = `?` (profile 2) |
//! | ExprStmt | a = expression |
//! | Discard, Empty | - |
//! | Call | tok = name, a = first argument |
//! | Ctor | ty, tok = type name, a = first argument |
//! | Binary | op, a, b, tok = operator |
//! | Unary | op (Neg, Not), a |
//! | Incr | op (PreInc, PreDec, PostInc, PostDec), a |
//! | Ident | tok |
//! | IntLit, FloatLit, BoolLit | ival (int / f32 bits / 0-1) |
//! | Swizzle | a = value, op = length, ival = 2-bit selectors, tok = the letters; op 0 (profile 2): a struct member's name |
//! | Index | a = value, b = index |
//!
//! Profile 2: a Decl, Param or Func whose type is a struct's name has ty Void and c = that name's
//! token (-1 otherwise).
//!
//! Lists (statements, parameters, arguments, globals) chain through `next`.
use heapless::Vec;

use crate::ir::Type;
use crate::limits::AST_CAP;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    Decl,
    Func,
    Param,
    Block,
    Return,
    If,
    For,
    Assign,
    ExprStmt,
    Discard,
    Empty,
    Call,
    Ctor,
    Binary,
    Unary,
    Incr,
    Ident,
    IntLit,
    FloatLit,
    BoolLit,
    Swizzle,
    Index,
    Cond,
    Struct,
    While,
    DoWhile,
    Break,
    Continue,
    /// Profile 2: `switch (a) b` (b: the body block) and a `case a:` / `default:` (a = -1)
    /// label in that body.
    Switch,
    Case,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Decl => "decl",
            Kind::Func => "func",
            Kind::Param => "param",
            Kind::Block => "block",
            Kind::Return => "return",
            Kind::If => "if",
            Kind::For => "for",
            Kind::Assign => "assign",
            Kind::ExprStmt => "expr",
            Kind::Discard => "discard",
            Kind::Empty => "empty",
            Kind::Call => "call",
            Kind::Ctor => "ctor",
            Kind::Binary => "binary",
            Kind::Unary => "unary",
            Kind::Incr => "incr",
            Kind::Ident => "ident",
            Kind::IntLit => "int",
            Kind::FloatLit => "float",
            Kind::BoolLit => "bool",
            Kind::Swizzle => "swz",
            Kind::Index => "index",
            Kind::Cond => "cond",
            Kind::Struct => "struct",
            Kind::While => "while",
            Kind::DoWhile => "do",
            Kind::Break => "break",
            Kind::Switch => "switch",
            Kind::Case => "case",
            Kind::Continue => "continue",
        }
    }
}

/// Binary and unary operators (`Node::op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BinOp {
    Or = 1,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    // Profile 2's bitwise operators (issue 14).
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    pub const ALL: [BinOp; 18] = [
        BinOp::Or,
        BinOp::And,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Gt,
        BinOp::Le,
        BinOp::Ge,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Mod,
        BinOp::BitAnd,
        BinOp::BitOr,
        BinOp::BitXor,
        BinOp::Shl,
        BinOp::Shr,
    ];
    pub fn from_u8(v: u8) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|o| *o as u8 == v)
    }
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }
}

pub const UN_NEG: u8 = 1;
pub const UN_NOT: u8 = 2;
/// Profile 2: `~` (bitwise not).
pub const UN_BITNOT: u8 = 3;
pub const INC_PRE: u8 = 1;
pub const DEC_PRE: u8 = 2;
pub const INC_POST: u8 = 3;
pub const DEC_POST: u8 = 4;

/// Declaration qualifier bits (`Node::quals`).
pub const Q_IN: u8 = 1;
pub const Q_OUT: u8 = 2;
pub const Q_UNIFORM: u8 = 4;
pub const Q_CONST: u8 = 8;
pub const Q_SMOOTH: u8 = 16;
pub const Q_LAYOUT: u8 = 32;

/// Profile-2 declaration flags (`Node::op` of a Decl): the interpolation, `centroid`,
/// `invariant` and whether a precision qualifier was given (accepted and ignored).
pub const D_FLAT: u8 = 1;
pub const D_NOPERSPECTIVE: u8 = 2;
pub const D_CENTROID: u8 = 4;
pub const D_INVARIANT: u8 = 8;
pub const D_PRECISION: u8 = 16;
/// Profile 2: `T name[] = ...`, an array whose size its initializer gives.
pub const D_UNSIZED: u8 = 32;
/// Profile 2: the instance of an interface or uniform block (a Decl whose `c` names the
/// block, a Struct node with op 1), and `layout(row_major)` on a matrix member.
pub const D_BLOCK: u8 = 64;
pub const D_ROW_MAJOR: u8 = 128;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub op: u8,
    pub ty: Type,
    pub quals: u8,
    pub a: i16,
    pub b: i16,
    pub c: i16,
    pub d: i16,
    pub next: i16,
    pub tok: i16,
    pub ival: i32,
}

impl Node {
    pub const fn new(kind: Kind, tok: i16) -> Node {
        Node {
            kind,
            op: 0,
            ty: Type::None,
            quals: 0,
            a: -1,
            b: -1,
            c: -1,
            d: -1,
            next: -1,
            tok,
            ival: 0,
        }
    }
}

/// The tree of one shader: `first` is the first global (declaration or function).
// repr(C) with the scalar first: otherwise LLVM merges the initial stores of `first` and the
// length into a 10 KB memset over the (uninitialised) node storage on every compile.
#[repr(C)]
pub struct Ast {
    pub first: i16,
    pub nodes: Vec<Node, AST_CAP>,
}

impl Ast {
    pub const fn new() -> Ast {
        Ast {
            nodes: Vec::new(),
            first: -1,
        }
    }

    pub fn get(&self, i: i16) -> Option<&Node> {
        if i < 0 {
            None
        } else {
            self.nodes.get(i as usize)
        }
    }

    /// Iterates a `next`-linked list starting at `first` (bounded by the node count, so a
    /// malformed link can never loop forever).
    pub fn list(&self, first: i16) -> ListIter<'_> {
        ListIter {
            ast: self,
            cur: first,
            left: self.nodes.len(),
        }
    }
}

impl Default for Ast {
    fn default() -> Self {
        Ast::new()
    }
}

pub struct ListIter<'a> {
    ast: &'a Ast,
    cur: i16,
    left: usize,
}

impl Iterator for ListIter<'_> {
    type Item = (i16, Node);
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let i = self.cur;
        let n = *self.ast.get(i)?;
        self.left -= 1;
        self.cur = n.next;
        Some((i, n))
    }
}
