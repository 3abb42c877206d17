//! The GLSL 3.30 preprocessor (profile 2, GLSL 3.30 §3.3; Mesa's glcpp decides what GLSL leaves
//! open): source bytes to a stream of preprocessing tokens, every one of which remembers where it
//! came from.
//!
//! Owns: line continuations, comments, pp-token scanning, every directive (`#define`, `#undef`,
//! `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`, `#error`, `#line`, `#pragma`,
//! `#extension`, `#version`, the null directive), macro expansion (object-like and function-like
//! macros, argument pre-expansion, rescanning, `##`, a macro never expanding inside its own
//! expansion), the predefined macros, `#if` arithmetic, the recorded `#version` and
//! `#pragma chrisos profile N`, and the rendering of the expanded text (`shc preprocess`).
//!
//! Output: [`Preprocessor::tokens`], each a [`PpToken`] whose spelling is a byte range of the
//! source (or of the preprocessor's own text for made tokens, [`SYNTH`]) and whose `line`/`col`
//! are the ORIGINAL position of that spelling. A token that came from a macro's replacement list
//! carries `exp`, an expansion record: the invocation (the macro name token as it was written,
//! itself possibly from an outer expansion). [`Preprocessor::origin`] turns a token into the
//! position a diagnostic should point at (the invocation in the user's text for replacement-list
//! tokens, the token itself otherwise: an argument is the user's own text), and
//! [`Preprocessor::error`] / [`Preprocessor::warning`] push a diagnostic there that ends in
//! "(in expansion of macro 'NAME')" when the token came from one.
//!
//! All storage is fixed-capacity and lives in the caller-owned [`Preprocessor`] value (about a
//! megabyte: box it or place it statically; `new` is `const`). Every table has a named bound in
//! `limits.rs` (`PP_*`), and exceeding one is a located error naming it, after which the
//! preprocessor stops (so a budget error cannot cascade).
//!
//! Must never: allocate, panic or loop on any input (every loop consumes input or a bounded
//! budget: the source, `PP_EXPAND_MAX` expanded tokens, `PP_DEPTH_MAX` nesting), expand macros
//! inside `#pragma`/`#extension`/`#version`/`#ifdef` operands or the operand of `defined`,
//! classify keywords or parse numbers other than in `#if`/`#line` (the lexer does), or decide
//! the profile (it only records the pragma).
//!
//! Choices where GLSL 3.30 and Mesa differ or GLSL is silent (all as Mesa's desktop glcpp unless
//! said): an identifier left in an `#if` expression after expansion is 0 (GLSL says error; Mesa
//! accepts it on desktop GL); division or modulus by zero in `#if` is an error even in an
//! unevaluated `&&`/`||` operand; `##` pastes (Mesa supports it in every version); macro names
//! beginning with `GL_` cannot be defined or undefined, names containing `__` give a warning;
//! the predefined macros cannot be defined or undefined (GLSL ES 3.00's rule, where Mesa only
//! warns); `GL_core_profile` is defined from `#version 150` on (`GL_compatibility_profile` with
//! `compatibility`), `GL_FRAGMENT_PRECISION_HIGH` from 130 on, `GL_ES` never, `__VERSION__`
//! is 110 without `#version`; `defined(__LINE__)` is true (C; Mesa says false); `__LINE__` in a macro's replacement is the line of the
//! invocation; `#line N` makes the next line N (GLSL 3.30); `#extension` and the profile
//! pragma must come before the first non-directive token; `#extension X : disable` of an
//! unknown extension is silent; a directive inside the arguments of a macro invocation is an
//! error (C leaves it undefined).
use core::fmt::{self, Write};

use heapless::Vec;

use crate::front::diag::{Bounded, Diagnostics, MSG_MAX};
use crate::limits::*;

// Positions and lengths are 16-bit where a source shorter than 64 KiB guarantees they fit.
const _: () = assert!(PP_SRC_MAX <= 65536);
const _: () = assert!(PP_ARGS_MAX <= 32); // argument sets are u32 bit masks
const _: () = assert!(PP_EXPANSION_MAX < u16::MAX as usize);
const _: () = assert!(PP_MACRO_MAX < u16::MAX as usize);

/// Kinds of preprocessing tokens. Only the first four appear in [`Preprocessor::tokens`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PpKind {
    /// `[A-Za-z_][A-Za-z0-9_]*` (keywords included: the lexer classifies them).
    Ident,
    /// A pp-number as in C: a digit (or `.` and a digit) then letters, digits, `_`, `.` and
    /// `e+ e- E+ E- p+ p- P+ P-`. The lexer decides whether it is a valid GLSL literal.
    Number,
    /// An operator or punctuator, longest match (`<<=`, `++`, `^^`, `##`, `#`, ...).
    Punct,
    /// Any other single byte (`@`, `$`, `"`, `\`, non-ASCII, control characters): the lexer
    /// rejects it; the preprocessor lets it through skipped blocks and macro bodies.
    Other,
    // Internal: never in the output.
    #[doc(hidden)]
    Param,
    #[doc(hidden)]
    End,
    #[doc(hidden)]
    Newline,
    #[doc(hidden)]
    Eof,
}

/// Whitespace (or a comment, or a line break) came before the token where it was spelled.
pub const SPACE_BEFORE: u8 = 1;
/// The token is the first one on its source line.
pub const LINE_START: u8 = 2;
/// The spelling lives in the preprocessor's own text ([`Preprocessor::spelling`] knows).
pub const SYNTH: u8 = 4;
/// Internal: the token names a macro that was being expanded when it was read (it never
/// expands again, C's "painted blue").
pub const NOEXPAND: u8 = 8;

/// One preprocessing token. 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PpToken {
    pub kind: PpKind,
    /// [`SPACE_BEFORE`], [`LINE_START`], [`SYNTH`], [`NOEXPAND`].
    pub flags: u8,
    /// Spelling: `len` bytes at `off` in the source, or in the preprocessor's text if [`SYNTH`].
    pub len: u16,
    pub off: u32,
    /// 1-based line and column (bytes) of the spelling in the original source; 0 for tokens
    /// made by the preprocessor, whose `exp` is then always set.
    pub line: u32,
    pub col: u16,
    /// 0: not from a macro's replacement list; n: from the expansion recorded as n
    /// ([`Preprocessor::expansion_site`]).
    pub exp: u16,
}

impl PpToken {
    const NONE: PpToken = PpToken {
        kind: PpKind::Eof,
        flags: 0,
        len: 0,
        off: 0,
        line: 0,
        col: 0,
        exp: 0,
    };
}

/// Where a diagnostic about a token should point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub line: u32,
    pub col: u32,
    /// The expansion whose invocation is at that position (0: the token is the user's own
    /// text); [`Preprocessor::macro_name`] names its macro.
    pub exp: u16,
}

/// The recorded `#version` (or the implicit 110).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// 110, 120, 130, 140, 150 or 330.
    pub number: u32,
    /// `#version N compatibility`.
    pub compatibility: bool,
    /// Written in the source (false: implicit 110).
    pub explicit: bool,
    pub line: u32,
    pub col: u32,
}

/// A `#pragma chrisos profile N` found in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfilePragma {
    /// 1 or 2.
    pub profile: u8,
    pub line: u32,
    pub col: u32,
}

/// `#extension` names this compiler implements (none yet): `require` of any other is an error,
/// `enable`/`warn` a warning.
pub const EXTENSIONS: &[&str] = &[];

/// GLSL versions accepted by `#version` in profile 2.
pub const VERSIONS: &[u32] = &[110, 120, 130, 140, 150, 330];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MacroKind {
    Object,
    Function,
    Line,
    File,
    Free,
}

#[derive(Clone, Copy, Debug)]
struct Macro {
    /// The name's spelling (off/len/SYNTH).
    name: PpToken,
    hash: u32,
    /// Next macro in the same bucket, or in the free list; `NIL` ends.
    next: u16,
    kind: MacroKind,
    predefined: bool,
    nparams: u8,
    /// Pool index: `nparams` parameter names, then `body` replacement tokens.
    start: u32,
    body: u16,
}

const NIL: u16 = u16::MAX;
const BUCKETS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondState {
    /// This branch is being taken.
    Taking,
    /// No branch taken yet: a later `#elif`/`#else` may be.
    Seeking,
    /// A branch was taken: the rest are skipped.
    Done,
    /// Inside a skipped block: every branch is skipped.
    Dead,
}

#[derive(Clone, Copy, Debug)]
struct Cond {
    state: CondState,
    has_else: bool,
    /// "if", "ifdef" or "ifndef", for the unterminated message.
    what: &'static str,
    line: u32,
    col: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    If,
    Ifdef,
    Ifndef,
    Elif,
    Else,
    Endif,
    Define,
    Undef,
    Error,
    Pragma,
    Extension,
    Version,
    Line,
    Include,
    Unknown,
    NotName,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sink {
    Out,
    Work,
}

/// Displays bytes as text (printable ASCII; anything else as `?`).
pub struct Bytes<'a>(pub &'a [u8]);

impl fmt::Display for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in self.0 {
            f.write_char(if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '?'
            })?;
        }
        Ok(())
    }
}

/// The preprocessor and all its storage. Reusable: [`Preprocessor::run`] starts afresh.
pub struct Preprocessor {
    // scanner
    pos: usize,
    line: u32,
    line_start: usize,
    bol: bool,
    splices: u32,
    /// Just after the last byte consumed, before the continuations that follow it, and the
    /// continuation count there: a token ends here.
    end: usize,
    end_splices: u32,
    /// The source has no backslash, so no line continuation: the scanner skips its splice
    /// checks (same tokens, fewer steps per byte).
    clean: bool,
    unread: Option<PpToken>,
    // token storage
    out: Vec<PpToken, PP_TOK_MAX>,
    pending: Vec<PpToken, PP_PENDING_MAX>,
    work: Vec<PpToken, PP_WORK_MAX>,
    exps: Vec<PpToken, PP_EXPANSION_MAX>,
    pool: Vec<PpToken, PP_BODY_POOL>,
    synth: Vec<u8, PP_SYNTH_MAX>,
    // macros
    macros: Vec<Macro, PP_MACRO_MAX>,
    buckets: [u16; BUCKETS],
    free: u16,
    /// Bit `b` set: some macro stored this run has a name starting with byte `b` (never
    /// cleared by `#undef`). Most identifiers start with a byte no macro does, and `find`
    /// answers them without hashing the name.
    first: [u64; 4],
    active: [u16; PP_MACRO_MAX],
    // conditionals
    conds: Vec<Cond, PP_IF_MAX>,
    // expansion state
    depth: usize,
    recursion: usize,
    budget: usize,
    if_mode: bool,
    fatal: bool,
    // recorded facts
    seen_any: bool,
    seen_token: bool,
    version: Version,
    version_resolved: bool,
    profile: Option<ProfilePragma>,
    line_delta: i64,
    file: i64,
}

impl Default for Preprocessor {
    fn default() -> Self {
        Preprocessor::new()
    }
}

// --- character classes -------------------------------------------------------------------

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Skips a block comment of clean text from its `/*` at `pos` to just past its `*/`, counting
/// the lines it ends (`line`, and `line_start`: the byte after the last newline); false when it
/// is unterminated (`pos` is then the end of `src`).
#[inline(always)]
pub(crate) fn skip_block_comment(
    src: &[u8],
    pos: &mut usize,
    line: &mut u32,
    line_start: &mut usize,
) -> bool {
    *pos += 2;
    loop {
        match src.get(*pos) {
            None => return false,
            Some(b'*') if src.get(*pos + 1) == Some(&b'/') => {
                *pos += 2;
                return true;
            }
            Some(b'\n') => {
                *pos += 1;
                *line = line.saturating_add(1);
                *line_start = *pos;
            }
            Some(_) => *pos += 1,
        }
    }
}

/// Length of the preprocessing number at the start of clean text `b` (which starts with a digit,
/// or a dot and a digit): identifier bytes, dots, and signs after an exponent letter.
#[inline(always)]
pub(crate) fn number_len(b: &[u8]) -> usize {
    let Some(&first) = b.first() else {
        return 0;
    };
    let mut prev = first;
    let mut n = 1;
    while let Some(&d) = b.get(n) {
        if ident_char(d) || d == b'.' || (matches!(d, b'+' | b'-') && b"eEpP".contains(&prev)) {
            prev = d;
            n += 1;
        } else {
            break;
        }
    }
    n
}

/// Length of the punctuator starting with `a b c`, 0 if none.
pub(crate) fn punct_len(a: u8, b: Option<u8>, c: Option<u8>) -> usize {
    if matches!(
        (a, b, c),
        (b'<', Some(b'<'), Some(b'=')) | (b'>', Some(b'>'), Some(b'='))
    ) {
        return 3;
    }
    // Matches instead of searching tables: this runs for every punctuator of the source.
    if matches!(
        (a, b),
        (b'+', Some(b'+' | b'='))
            | (b'-', Some(b'-' | b'='))
            | (b'<', Some(b'<' | b'='))
            | (b'>', Some(b'>' | b'='))
            | (b'=' | b'!' | b'*' | b'/' | b'%', Some(b'='))
            | (b'&', Some(b'&' | b'='))
            | (b'|', Some(b'|' | b'='))
            | (b'^', Some(b'^' | b'='))
            | (b'#', Some(b'#'))
    ) {
        return 2;
    }
    match a {
        b'[' | b']' | b'(' | b')' | b'{' | b'}' | b'.' | b',' | b';' | b':' | b'?' | b'+'
        | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'~' | b'&' | b'|' | b'^'
        | b'#' => 1,
        _ => 0,
    }
}

/// The first pp-token of clean text (no continuations, no comments): its kind and length.
fn first_token(b: &[u8]) -> Option<(PpKind, usize)> {
    let c = *b.first()?;
    let at = |i: usize| b.get(i).copied();
    if ident_start(c) {
        let n = b.iter().take_while(|&&c| ident_char(c)).count();
        return Some((PpKind::Ident, n));
    }
    if c.is_ascii_digit() || (c == b'.' && at(1).is_some_and(|d| d.is_ascii_digit())) {
        let mut i = 1;
        while let Some(d) = at(i) {
            let prev = at(i - 1).unwrap_or(0);
            if ident_char(d) || d == b'.' || (matches!(d, b'+' | b'-') && b"eEpP".contains(&prev)) {
                i += 1;
            } else {
                break;
            }
        }
        return Some((PpKind::Number, i));
    }
    if c == b'/' && matches!(at(1), Some(b'/') | Some(b'*')) {
        return None; // a comment, not a token
    }
    match punct_len(c, at(1), at(2)) {
        0 => Some((PpKind::Other, 1)),
        n => Some((PpKind::Punct, n)),
    }
}

fn skip_splices(src: &[u8], mut p: usize) -> usize {
    loop {
        if src.get(p) != Some(&b'\\') {
            return p;
        }
        match (src.get(p + 1), src.get(p + 2)) {
            (Some(b'\n'), _) => p += 2,
            (Some(b'\r'), Some(b'\n')) => p += 3,
            _ => return p,
        }
    }
}

fn hash(name: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in name {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    h
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// An integer constant as `#if` and `#line` read it: decimal, octal (leading 0) or hexadecimal,
/// with an optional `u`/`U`. None if it is not one; Some(None) if it overflows i64.
fn parse_int(b: &[u8]) -> Option<Option<i64>> {
    let b = match b.split_last() {
        Some((b'u' | b'U', head)) => head,
        _ => b,
    };
    let (digits, radix) = match b {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', rest @ ..] => (rest, 8),
        _ => (b, 10),
    };
    if digits.is_empty() && radix != 8 {
        return None;
    }
    let mut v: i64 = 0;
    let mut overflow = false;
    for &d in digits {
        let x = (d as char).to_digit(radix)? as i64;
        match v.checked_mul(radix as i64).and_then(|v| v.checked_add(x)) {
            Some(n) => v = n,
            None => overflow = true,
        }
    }
    Some(if overflow { None } else { Some(v) })
}

// --- #if expression evaluation --------------------------------------------------------------

struct Eval<'a> {
    pp: &'a Preprocessor,
    src: &'a [u8],
    toks: &'a [PpToken],
    i: usize,
    depth: usize,
    /// The first error (evaluation stops at it).
    err: Option<EvalError>,
}

/// An evaluation stopped; the error is in `Eval::err`.
struct Fail;

/// An evaluation error: the token to point at (None: the directive) and the message.
struct EvalError {
    at: Option<PpToken>,
    msg: heapless::String<MSG_MAX>,
}

fn eval_error(at: Option<PpToken>, args: fmt::Arguments<'_>) -> EvalError {
    let mut msg = heapless::String::new();
    let _ = Bounded(&mut msg).write_fmt(args);
    EvalError { at, msg }
}

impl<'a> Eval<'a> {
    fn fail(&mut self, at: Option<PpToken>, args: fmt::Arguments<'_>) -> Fail {
        if self.err.is_none() {
            self.err = Some(eval_error(at, args));
        }
        Fail
    }

    fn peek(&self) -> Option<PpToken> {
        self.toks.get(self.i).copied()
    }

    fn sp(&self, t: &PpToken) -> &'a [u8] {
        let (pp, src) = (self.pp, self.src);
        pp.spelling(src, t)
    }

    fn is(&self, t: &PpToken, p: &[u8]) -> bool {
        t.kind == PpKind::Punct && self.sp(t) == p
    }

    fn binop(&self, t: &PpToken) -> Option<u8> {
        if t.kind != PpKind::Punct {
            return None;
        }
        Some(match self.sp(t) {
            b"||" => 1,
            b"&&" => 2,
            b"|" => 3,
            b"^" => 4,
            b"&" => 5,
            b"==" | b"!=" => 6,
            b"<" | b">" | b"<=" | b">=" => 7,
            b"<<" | b">>" => 8,
            b"+" | b"-" => 9,
            b"*" | b"/" | b"%" => 10,
            _ => return None,
        })
    }

    fn expr(&mut self, min: u8) -> Result<i64, Fail> {
        let mut lhs = self.unary()?;
        while let Some(t) = self.peek() {
            let Some(prec) = self.binop(&t) else { break };
            if prec < min {
                break;
            }
            self.i += 1;
            let rhs = self.expr(prec + 1)?;
            lhs = self.apply(&t, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn apply(&mut self, t: &PpToken, a: i64, b: i64) -> Result<i64, Fail> {
        let bool_ = |c: bool| c as i64;
        Ok(match self.sp(t) {
            b"||" => bool_(a != 0 || b != 0),
            b"&&" => bool_(a != 0 && b != 0),
            b"|" => a | b,
            b"^" => a ^ b,
            b"&" => a & b,
            b"==" => bool_(a == b),
            b"!=" => bool_(a != b),
            b"<" => bool_(a < b),
            b">" => bool_(a > b),
            b"<=" => bool_(a <= b),
            b">=" => bool_(a >= b),
            b"<<" | b">>" => {
                if !(0..64).contains(&b) {
                    return Err(self.fail(
                        Some(*t),
                        format_args!("shift by {} in #if: the count must be 0 to 63", b),
                    ));
                }
                if self.sp(t) == b"<<" {
                    a.wrapping_shl(b as u32)
                } else {
                    a.wrapping_shr(b as u32)
                }
            }
            b"+" => a.wrapping_add(b),
            b"-" => a.wrapping_sub(b),
            b"*" => a.wrapping_mul(b),
            b"/" | b"%" => {
                if b == 0 {
                    return Err(self.fail(
                        Some(*t),
                        format_args!(
                            "{} in #if",
                            if self.sp(t) == b"/" {
                                "division by zero"
                            } else {
                                "modulus by zero"
                            }
                        ),
                    ));
                }
                if self.sp(t) == b"/" {
                    a.wrapping_div(b)
                } else {
                    a.wrapping_rem(b)
                }
            }
            _ => 0,
        })
    }

    fn unary(&mut self) -> Result<i64, Fail> {
        self.depth += 1;
        if self.depth > PP_EXPR_DEPTH_MAX {
            return Err(self.fail(
                self.peek(),
                format_args!(
                    "#if expression nested too deeply: the limit is {} (PP_EXPR_DEPTH_MAX)",
                    PP_EXPR_DEPTH_MAX
                ),
            ));
        }
        let Some(t) = self.peek() else {
            return Err(self.fail(
                None,
                format_args!("#if expression ends where a value is expected"),
            ));
        };
        self.i += 1;
        let v = match t.kind {
            PpKind::Number => match parse_int(self.sp(&t)) {
                Some(Some(v)) => v,
                Some(None) => {
                    return Err(self.fail(
                        Some(t),
                        format_args!(
                            "integer constant '{}' is too large for #if",
                            Bytes(self.sp(&t))
                        ),
                    ))
                }
                None => {
                    return Err(self.fail(
                        Some(t),
                        format_args!(
                            "'{}' is not an integer constant: #if takes integers only",
                            Bytes(self.sp(&t))
                        ),
                    ))
                }
            },
            // What is left of an identifier after expansion is 0 (Mesa on desktop GL).
            PpKind::Ident => 0,
            PpKind::Punct if self.is(&t, b"(") => {
                let v = self.expr(1)?;
                match self.peek() {
                    Some(c) if self.is(&c, b")") => self.i += 1,
                    Some(c) => {
                        return Err(self.fail(
                            Some(c),
                            format_args!("expected ')' in #if, found '{}'", Bytes(self.sp(&c))),
                        ))
                    }
                    None => {
                        return Err(self.fail(
                            Some(t),
                            format_args!("unbalanced '(' in #if: no ')' before the end"),
                        ))
                    }
                }
                v
            }
            PpKind::Punct if self.is(&t, b"+") => self.unary()?,
            PpKind::Punct if self.is(&t, b"-") => self.unary()?.wrapping_neg(),
            PpKind::Punct if self.is(&t, b"~") => !self.unary()?,
            PpKind::Punct if self.is(&t, b"!") => (self.unary()? == 0) as i64,
            _ => {
                return Err(self.fail(
                    Some(t),
                    format_args!("unexpected '{}' in #if expression", Bytes(self.sp(&t))),
                ))
            }
        };
        self.depth -= 1;
        Ok(v)
    }
}

// --- the preprocessor ------------------------------------------------------------------------

impl Preprocessor {
    /// An empty preprocessor (`const`: it may be placed in a `static`).
    pub const fn new() -> Preprocessor {
        Preprocessor {
            pos: 0,
            line: 1,
            line_start: 0,
            bol: true,
            splices: 0,
            end: 0,
            end_splices: 0,
            clean: false,
            unread: None,
            out: Vec::new(),
            pending: Vec::new(),
            work: Vec::new(),
            exps: Vec::new(),
            pool: Vec::new(),
            synth: Vec::new(),
            macros: Vec::new(),
            buckets: [NIL; BUCKETS],
            free: NIL,
            first: [0; 4],
            active: [0; PP_MACRO_MAX],
            conds: Vec::new(),
            depth: 0,
            recursion: 0,
            budget: 0,
            if_mode: false,
            fatal: false,
            seen_any: false,
            seen_token: false,
            version: Version {
                number: 110,
                compatibility: false,
                explicit: false,
                line: 0,
                col: 0,
            },
            version_resolved: false,
            profile: None,
            line_delta: 0,
            file: 0,
        }
    }

    fn reset(&mut self) {
        self.pos = 0;
        self.line = 1;
        self.line_start = 0;
        self.bol = true;
        self.splices = 0;
        self.end = 0;
        self.end_splices = 0;
        self.unread = None;
        // Only slots of this run's table were counted (`insert` also zeroes its slot).
        let used = self.macros.len().min(PP_MACRO_MAX);
        if let Some(a) = self.active.get_mut(..used) {
            a.fill(0);
        }
        self.first = [0; 4];
        self.out.clear();
        self.pending.clear();
        self.work.clear();
        self.exps.clear();
        self.pool.clear();
        self.synth.clear();
        self.macros.clear();
        self.buckets = [NIL; BUCKETS];
        self.free = NIL;
        self.conds.clear();
        self.depth = 0;
        self.recursion = 0;
        self.budget = 0;
        self.if_mode = false;
        self.fatal = false;
        self.seen_any = false;
        self.seen_token = false;
        self.version = Version {
            number: 110,
            compatibility: false,
            explicit: false,
            line: 0,
            col: 0,
        };
        self.version_resolved = false;
        self.profile = None;
        self.line_delta = 0;
        self.file = 0;
        // "0" and "1" for `defined` results live at synth offsets 0 and 1.
        let _ = self.synth.extend_from_slice(b"01");
        let _ = self.define_predefined(b"__LINE__", MacroKind::Line, None);
        let _ = self.define_predefined(b"__FILE__", MacroKind::File, None);
    }

    /// Preprocesses `src`. Errors and warnings go to `diag`; returns true when no error was
    /// reported. The tokens, the version and the profile pragma stay readable until the next
    /// run. A limit error (`PP_*`) stops the run; other errors do not.
    pub fn run(&mut self, src: &[u8], diag: &mut Diagnostics) -> bool {
        self.reset();
        let errors = diag.total();
        if src.len() >= PP_SRC_MAX {
            diag.push(
                1,
                1,
                format_args!(
                    "source is {} bytes: the limit is {} bytes (PP_SRC_MAX)",
                    src.len(),
                    PP_SRC_MAX - 1
                ),
            );
            return false;
        }
        self.clean = !src.contains(&b'\\');
        self.splice(src);
        while !self.fatal {
            let t = self.raw(src, diag);
            match t.kind {
                PpKind::Eof => break,
                PpKind::Newline => {}
                _ if t.flags & LINE_START != 0 && self.is_punct(src, &t, b"#") => {
                    self.directive(src, diag, t)
                }
                _ if self.skipping() => {}
                _ => {
                    self.resolve_version();
                    self.seen_any = true;
                    self.seen_token = true;
                    self.process(src, diag, t);
                }
            }
        }
        if !self.fatal {
            for i in 0..self.conds.len() {
                if let Some(c) = self.conds.get(i).copied() {
                    diag.push(
                        c.line,
                        c.col,
                        format_args!(
                            "unterminated #{}: no #endif before the end of the source",
                            c.what
                        ),
                    );
                }
            }
        }
        diag.total() == errors
    }

    // --- results ---

    /// The preprocessed tokens, in order.
    pub fn tokens(&self) -> &[PpToken] {
        &self.out
    }

    /// The `#version` of the source (implicit 110 when absent).
    pub fn version(&self) -> Version {
        self.version
    }

    /// The `#pragma chrisos profile N` of the source, if any.
    pub fn profile_pragma(&self) -> Option<ProfilePragma> {
        self.profile
    }

    /// The text the preprocessor made (the spellings of [`SYNTH`] tokens, which index it).
    pub fn synth_text(&self) -> &[u8] {
        &self.synth
    }

    /// A token's bytes (`src` must be the source given to [`Preprocessor::run`]).
    pub fn spelling<'a>(&'a self, src: &'a [u8], t: &PpToken) -> &'a [u8] {
        let s = t.off as usize;
        let e = s.saturating_add(t.len as usize);
        if t.flags & SYNTH != 0 {
            self.synth.get(s..e).unwrap_or(&[])
        } else {
            src.get(s..e).unwrap_or(&[])
        }
    }

    /// A token's text ("" if it is not UTF-8, which only an `Other` token can be).
    pub fn text<'a>(&'a self, src: &'a [u8], t: &PpToken) -> &'a str {
        core::str::from_utf8(self.spelling(src, t)).unwrap_or("")
    }

    /// The invocation of expansion `exp`: the macro name token as it was written (its own `exp`
    /// is the enclosing expansion, 0 if it was in the user's text).
    pub fn expansion_site(&self, exp: u16) -> Option<&PpToken> {
        self.exps.get((exp as usize).checked_sub(1)?)
    }

    /// The name of the macro of expansion `exp` (empty if there is none).
    pub fn macro_name<'a>(&'a self, src: &'a [u8], exp: u16) -> &'a [u8] {
        match self.expansion_site(exp) {
            Some(site) => self.spelling(src, site),
            None => &[],
        }
    }

    /// Where a diagnostic about `t` should point: `t` itself when it is the user's text
    /// (arguments included), else the outermost invocation in the user's text of the macro it
    /// came from.
    pub fn origin(&self, t: &PpToken) -> Origin {
        let mut at = *t;
        let mut exp = 0u16;
        // Every step goes to an older record, so this ends; the bound is belt and braces.
        for _ in 0..=PP_EXPANSION_MAX {
            if at.exp == 0 {
                break;
            }
            exp = at.exp;
            match self.expansion_site(at.exp) {
                Some(site) if site.exp < at.exp => at = *site,
                _ => break,
            }
        }
        Origin {
            line: at.line,
            col: at.col as u32,
            exp,
        }
    }

    /// Pushes an error about `t` at its [`Preprocessor::origin`], naming the macro it came from.
    pub fn error(&self, src: &[u8], diag: &mut Diagnostics, t: &PpToken, args: fmt::Arguments) {
        self.report(src, diag, t, args, Diagnostics::push);
    }

    /// [`Preprocessor::error`] as a warning.
    pub fn warning(&self, src: &[u8], diag: &mut Diagnostics, t: &PpToken, args: fmt::Arguments) {
        self.report(src, diag, t, args, Diagnostics::warn);
    }

    /// `push` (an error or a warning) at `t`'s origin, naming the macro it came from.
    fn report(
        &self,
        src: &[u8],
        diag: &mut Diagnostics,
        t: &PpToken,
        args: fmt::Arguments,
        push: fn(&mut Diagnostics, u32, u32, fmt::Arguments),
    ) {
        let o = self.origin(t);
        if o.exp != 0 {
            let name = Bytes(self.macro_name(src, o.exp));
            push(
                diag,
                o.line,
                o.col,
                format_args!("{} (in expansion of macro '{}')", args, name),
            );
        } else {
            push(diag, o.line, o.col, args);
        }
    }

    /// Writes the expanded text: the explicit `#version` and the profile pragma first, then the
    /// tokens, each on the line of its [`Preprocessor::origin`] (so line N of the output is
    /// line N of the source), spaced where the source had space or where two tokens would
    /// otherwise read as one.
    pub fn render(&self, src: &[u8], out: &mut dyn Write) -> fmt::Result {
        let mut line = 1u32;
        let mut fresh = true; // nothing written on the current output line
        let v = self.version;
        let mut header = [(0u32, 0u8); 2];
        if v.explicit {
            header[0] = (v.line, 1);
        }
        if let Some(p) = self.profile {
            header[1] = (p.line, 2);
        }
        for &(at, what) in header.iter() {
            if what == 0 {
                continue;
            }
            while line < at {
                out.write_char('\n')?;
                line += 1;
            }
            if !fresh {
                out.write_char('\n')?;
                line += 1;
            }
            if what == 1 {
                write!(out, "#version {}", v.number)?;
                if v.compatibility {
                    out.write_str(" compatibility")?;
                }
            } else if let Some(p) = self.profile {
                write!(out, "#pragma chrisos profile {}", p.profile)?;
            }
            fresh = false;
        }
        let mut prev: Option<&PpToken> = None;
        for t in self.out.iter() {
            let o = self.origin(t);
            if o.line > line {
                while line < o.line {
                    out.write_char('\n')?;
                    line += 1;
                }
                fresh = true;
            } else if !fresh && prev.is_none() {
                out.write_char('\n')?;
                line += 1;
                fresh = true;
            }
            let sp = self.spelling(src, t);
            if fresh {
                for _ in 1..o.col.min(200) {
                    out.write_char(' ')?;
                }
            } else if let Some(p) = prev {
                if t.flags & SPACE_BEFORE != 0 || self.would_join(src, p, sp) {
                    out.write_char(' ')?;
                }
            }
            for &b in sp {
                out.write_char(if b == b'\t' || (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '?'
                })?;
            }
            fresh = false;
            prev = Some(t);
        }
        if !fresh {
            out.write_char('\n')?;
        }
        Ok(())
    }

    /// Two tokens written side by side would scan as something else.
    fn would_join(&self, src: &[u8], a: &PpToken, b: &[u8]) -> bool {
        let a = self.spelling(src, a);
        let mut both: heapless::Vec<u8, 8> = heapless::Vec::new();
        let tail = a.get(a.len().saturating_sub(4)..).unwrap_or(a);
        let head = b.get(..b.len().min(4)).unwrap_or(b);
        if both.extend_from_slice(tail).is_err() || both.extend_from_slice(head).is_err() {
            return true;
        }
        match first_token(&both) {
            Some((_, n)) => n != tail.len(),
            None => true,
        }
    }

    // --- scanner ---

    fn splice(&mut self, src: &[u8]) {
        if self.clean {
            return;
        }
        loop {
            let p = skip_splices(src, self.pos);
            if p == self.pos {
                return;
            }
            // One splice at a time so each counts a line.
            let one = if src.get(self.pos + 1) == Some(&b'\n') {
                2
            } else {
                3
            };
            self.pos += one;
            self.line = self.line.saturating_add(1);
            self.line_start = self.pos;
            self.splices = self.splices.wrapping_add(1);
        }
    }

    fn cur(&self, src: &[u8]) -> Option<u8> {
        src.get(self.pos).copied()
    }

    /// The `k`-th character after the current one, continuations skipped.
    fn peek(&self, src: &[u8], k: usize) -> Option<u8> {
        if self.clean {
            // No continuation to skip (past the end, both ways answer None).
            return src.get(self.pos.saturating_add(k)).copied();
        }
        let mut p = self.pos;
        for _ in 0..k {
            if p >= src.len() {
                return None;
            }
            p = skip_splices(src, p + 1);
        }
        src.get(p).copied()
    }

    fn bump(&mut self, src: &[u8]) {
        if let Some(&b) = src.get(self.pos) {
            self.pos += 1;
            if b == b'\n' {
                self.line = self.line.saturating_add(1);
                self.line_start = self.pos;
            }
        }
        self.end = self.pos;
        self.end_splices = self.splices;
        self.splice(src);
    }

    /// How many bytes from the current position on satisfy `f`.
    fn run_of(&self, src: &[u8], f: impl Fn(u8) -> bool) -> usize {
        src.get(self.pos..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&b| f(b))
            .count()
    }

    fn col(&self) -> u16 {
        (self.pos.saturating_sub(self.line_start) + 1).min(u16::MAX as usize) as u16
    }

    /// The next raw token: a token, `Newline` or `Eof` (repeated at the end).
    fn raw(&mut self, src: &[u8], diag: &mut Diagnostics) -> PpToken {
        if let Some(t) = self.unread.take() {
            return t;
        }
        if self.clean {
            return self.raw_clean(src, diag);
        }
        let mut space = false;
        loop {
            let here = PpToken {
                kind: PpKind::Eof,
                flags: 0,
                len: 0,
                off: self.pos as u32,
                line: self.line,
                col: self.col(),
                exp: 0,
            };
            let Some(c) = self.cur(src) else {
                return here;
            };
            match c {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    // A run of blanks at once: none is a newline or a backslash, so the splice
                    // check `bump` makes after each but the last finds nothing.
                    let run = self.run_of(src, |b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c));
                    self.pos += run.saturating_sub(1);
                    self.bump(src);
                    space = true;
                }
                b'\n' => {
                    self.bump(src);
                    self.bol = true;
                    return PpToken {
                        kind: PpKind::Newline,
                        ..here
                    };
                }
                b'/' if self.peek(src, 1) == Some(b'/') => {
                    loop {
                        // Runs without a newline or a backslash at once (see the blanks).
                        let run = self.run_of(src, |b| b != b'\n' && b != b'\\');
                        if run > 0 {
                            self.pos += run - 1;
                            self.bump(src);
                            continue;
                        }
                        match self.cur(src) {
                            Some(c) if c != b'\n' => self.bump(src),
                            _ => break,
                        }
                    }
                    space = true;
                }
                b'/' if self.peek(src, 1) == Some(b'*') => {
                    self.bump(src);
                    self.bump(src);
                    loop {
                        match self.cur(src) {
                            None => {
                                diag.push(
                                    here.line,
                                    here.col as u32,
                                    format_args!("unterminated comment: '/*' without '*/'"),
                                );
                                break;
                            }
                            Some(b'*') if self.peek(src, 1) == Some(b'/') => {
                                self.bump(src);
                                self.bump(src);
                                break;
                            }
                            Some(_) => {
                                let run =
                                    self.run_of(src, |b| b != b'*' && b != b'\n' && b != b'\\');
                                self.pos += run.saturating_sub(1);
                                self.bump(src);
                            }
                        }
                    }
                    space = true;
                }
                _ => return self.scan_token(src, diag, here, c, space),
            }
        }
    }

    /// [`Preprocessor::raw`] for a source without a backslash (no line continuation): the same
    /// tokens, scanned with the cursor in locals and written back once (`pp::clean_raw_tests`
    /// compares it with the general scanner).
    fn raw_clean(&mut self, src: &[u8], diag: &mut Diagnostics) -> PpToken {
        let mut pos = self.pos;
        let mut line = self.line;
        let mut line_start = self.line_start;
        let mut space = false;
        let at = |i: usize| src.get(i).copied();
        let col = |pos: usize, line_start: usize| {
            (pos.saturating_sub(line_start) + 1).min(u16::MAX as usize) as u16
        };
        let t = loop {
            let here = PpToken {
                kind: PpKind::Eof,
                flags: 0,
                len: 0,
                off: pos as u32,
                line,
                col: col(pos, line_start),
                exp: 0,
            };
            let Some(c) = at(pos) else {
                break here;
            };
            match c {
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    pos += 1;
                    while matches!(at(pos), Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c)) {
                        pos += 1;
                    }
                    space = true;
                }
                b'\n' => {
                    pos += 1;
                    line = line.saturating_add(1);
                    line_start = pos;
                    self.bol = true;
                    break PpToken {
                        kind: PpKind::Newline,
                        ..here
                    };
                }
                b'/' if at(pos + 1) == Some(b'/') => {
                    let rest = src.get(pos..).unwrap_or(&[]);
                    pos += crate::front::lex::line_len(rest);
                    space = true;
                }
                b'/' if at(pos + 1) == Some(b'*') => {
                    if !skip_block_comment(src, &mut pos, &mut line, &mut line_start) {
                        diag.push(
                            here.line,
                            here.col as u32,
                            format_args!("unterminated comment: '/*' without '*/'"),
                        );
                    }
                    space = true;
                }
                _ => {
                    let start = pos;
                    let kind = if ident_start(c) {
                        // The lexer's table-driven run (the same bytes as `ident_char`).
                        pos += crate::front::lex::ident_run(src.get(pos..).unwrap_or(&[])).max(1);
                        PpKind::Ident
                    } else if c.is_ascii_digit()
                        || (c == b'.' && at(pos + 1).is_some_and(|d| d.is_ascii_digit()))
                    {
                        pos += number_len(src.get(pos..).unwrap_or(&[]));
                        PpKind::Number
                    } else {
                        let n = punct_len(c, at(pos + 1), at(pos + 2));
                        pos += n.max(1);
                        if n == 0 {
                            PpKind::Other
                        } else {
                            PpKind::Punct
                        }
                    };
                    let mut flags = if space { SPACE_BEFORE } else { 0 };
                    if self.bol {
                        flags |= LINE_START | SPACE_BEFORE;
                    }
                    self.bol = false;
                    break PpToken {
                        kind,
                        flags,
                        len: (pos - start).min(u16::MAX as usize) as u16,
                        off: start as u32,
                        ..here
                    };
                }
            }
        };
        self.pos = pos;
        self.line = line;
        self.line_start = line_start;
        self.end = pos;
        self.end_splices = self.splices;
        t
    }

    fn scan_token(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        here: PpToken,
        c: u8,
        space: bool,
    ) -> PpToken {
        let start = self.pos;
        let splices = self.splices;
        let kind = if ident_start(c) {
            // A run of identifier bytes at a time (no newline can be in it), then whatever
            // continuations follow, as `bump` would take them one byte at a time.
            loop {
                let run = src
                    .get(self.pos..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|&&b| ident_char(b))
                    .count();
                if run == 0 {
                    break;
                }
                self.pos += run;
                self.end = self.pos;
                self.end_splices = self.splices;
                if self.clean {
                    // No continuation can follow: the run ended at a non-identifier byte.
                    break;
                }
                self.splice(src);
            }
            PpKind::Ident
        } else if c.is_ascii_digit()
            || (c == b'.' && self.peek(src, 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let mut prev = c;
            self.bump(src);
            while let Some(d) = self.cur(src) {
                if ident_char(d)
                    || d == b'.'
                    || (matches!(d, b'+' | b'-') && b"eEpP".contains(&prev))
                {
                    prev = d;
                    self.bump(src);
                } else {
                    break;
                }
            }
            PpKind::Number
        } else {
            let n = punct_len(c, self.peek(src, 1), self.peek(src, 2));
            for _ in 0..n.max(1) {
                self.bump(src);
            }
            if n == 0 {
                PpKind::Other
            } else {
                PpKind::Punct
            }
        };
        let mut flags = 0;
        if space {
            flags |= SPACE_BEFORE;
        }
        if self.bol {
            flags |= LINE_START | SPACE_BEFORE;
        }
        self.bol = false;
        let end = self.end.max(start);
        let mut t = PpToken {
            kind,
            flags,
            len: (end - start).min(u16::MAX as usize) as u16,
            off: start as u32,
            ..here
        };
        if self.end_splices != splices {
            // A continuation inside the token: its spelling is the bytes without them.
            let s = self.synth.len();
            let mut p = start;
            while p < end {
                p = skip_splices(src, p);
                if p >= end {
                    break;
                }
                if let Some(&b) = src.get(p) {
                    if self.synth.push(b).is_err() {
                        self.synth_full(diag, &t);
                        break;
                    }
                }
                p += 1;
            }
            t.off = s as u32;
            t.len = (self.synth.len() - s) as u16;
            t.flags |= SYNTH;
        }
        t
    }

    fn synth_full(&mut self, diag: &mut Diagnostics, t: &PpToken) {
        self.limit(
            diag,
            t.line,
            t.col as u32,
            "bytes of preprocessor text",
            PP_SYNTH_MAX,
            "PP_SYNTH_MAX",
        );
    }

    /// Reports a limit and stops the run.
    fn limit(
        &mut self,
        diag: &mut Diagnostics,
        line: u32,
        col: u32,
        what: &str,
        n: usize,
        name: &str,
    ) {
        if !self.fatal {
            diag.push(
                line,
                col,
                format_args!("too many {}: the limit is {} ({})", what, n, name),
            );
        }
        self.fatal = true;
    }

    fn limit_at(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        t: &PpToken,
        what: &str,
        n: usize,
        name: &str,
    ) {
        if !self.fatal {
            self.error(
                src,
                diag,
                t,
                format_args!("too many {}: the limit is {} ({})", what, n, name),
            );
        }
        self.fatal = true;
    }

    fn is_punct(&self, src: &[u8], t: &PpToken, p: &[u8]) -> bool {
        t.kind == PpKind::Punct && self.spelling(src, t) == p
    }

    fn is_ident(&self, src: &[u8], t: &PpToken, p: &[u8]) -> bool {
        t.kind == PpKind::Ident && self.spelling(src, t) == p
    }

    fn skipping(&self) -> bool {
        self.conds
            .last()
            .is_some_and(|c| c.state != CondState::Taking)
    }

    // --- macro table ---

    fn find(&self, src: &[u8], name: &[u8]) -> Option<usize> {
        let b = *name.first()? as usize;
        if self
            .first
            .get(b / 64)
            .is_none_or(|w| w & (1 << (b % 64)) == 0)
        {
            return None;
        }
        let h = hash(name);
        let mut i = *self.buckets.get(h as usize % BUCKETS)?;
        for _ in 0..=PP_MACRO_MAX {
            if i == NIL {
                return None;
            }
            let m = self.macros.get(i as usize)?;
            if m.hash == h && self.spelling(src, &m.name) == name {
                return Some(i as usize);
            }
            i = m.next;
        }
        None
    }

    /// Stores a new macro (its name token, pool range) and links it; false when the table is
    /// full.
    fn insert(&mut self, src: &[u8], mut m: Macro) -> bool {
        let name = self.spelling(src, &m.name);
        m.hash = hash(name);
        if let Some(&c) = name.first() {
            if let Some(w) = self.first.get_mut(c as usize / 64) {
                *w |= 1 << (c % 64);
            }
        }
        let b = m.hash as usize % BUCKETS;
        m.next = self.buckets.get(b).copied().unwrap_or(NIL);
        let slot = if self.free != NIL {
            let s = self.free;
            match self.macros.get_mut(s as usize) {
                Some(old) => {
                    self.free = old.next;
                    *old = m;
                }
                None => return false,
            }
            s
        } else {
            let s = self.macros.len() as u16;
            if self.macros.push(m).is_err() {
                return false;
            }
            s
        };
        if let Some(head) = self.buckets.get_mut(b) {
            *head = slot;
        }
        if let Some(a) = self.active.get_mut(slot as usize) {
            *a = 0;
        }
        true
    }

    fn remove(&mut self, idx: usize) {
        let Some(m) = self.macros.get(idx).copied() else {
            return;
        };
        let b = m.hash as usize % BUCKETS;
        let mut prev = NIL;
        let mut i = self.buckets.get(b).copied().unwrap_or(NIL);
        for _ in 0..=PP_MACRO_MAX {
            if i == NIL {
                break;
            }
            let next = self.macros.get(i as usize).map_or(NIL, |m| m.next);
            if i as usize == idx {
                if prev == NIL {
                    if let Some(h) = self.buckets.get_mut(b) {
                        *h = next;
                    }
                } else if let Some(p) = self.macros.get_mut(prev as usize) {
                    p.next = next;
                }
                break;
            }
            prev = i;
            i = next;
        }
        let free = self.free;
        if let Some(slot) = self.macros.get_mut(idx) {
            slot.kind = MacroKind::Free;
            slot.next = free;
            self.free = idx as u16;
        }
    }

    /// A predefined macro: the name and an optional number body go into the synth text.
    fn define_predefined(&mut self, name: &[u8], kind: MacroKind, value: Option<u32>) -> bool {
        let s = self.synth.len();
        if self.synth.extend_from_slice(name).is_err() {
            return false;
        }
        let name_tok = PpToken {
            kind: PpKind::Ident,
            flags: SYNTH,
            len: name.len() as u16,
            off: s as u32,
            ..PpToken::NONE
        };
        let start = self.pool.len() as u32;
        let mut body = 0;
        if let Some(v) = value {
            let Some(t) = self.synth_number(v as i64) else {
                return false;
            };
            if self.pool.push(t).is_err() {
                return false;
            }
            body = 1;
        }
        let m = Macro {
            name: name_tok,
            hash: 0,
            next: NIL,
            kind,
            predefined: true,
            nparams: 0,
            start,
            body,
        };
        // The source is not needed: the name is synth text.
        self.insert(&[], m)
    }

    /// A Number token spelling `v`, in the synth text.
    fn synth_number(&mut self, v: i64) -> Option<PpToken> {
        let mut digits: heapless::String<24> = heapless::String::new();
        let _ = write!(digits, "{}", v);
        let s = self.synth.len();
        self.synth.extend_from_slice(digits.as_bytes()).ok()?;
        Some(PpToken {
            kind: PpKind::Number,
            flags: SYNTH,
            len: digits.len() as u16,
            off: s as u32,
            ..PpToken::NONE
        })
    }

    /// Defines the version's predefined macros, once per run (at the first token or directive
    /// that is not `#version`).
    #[inline(always)]
    fn resolve_version(&mut self) {
        if !self.version_resolved {
            self.define_version_macros();
        }
    }

    #[inline(never)]
    fn define_version_macros(&mut self) {
        self.version_resolved = true;
        let v = self.version;
        let _ = self.define_predefined(b"__VERSION__", MacroKind::Object, Some(v.number));
        if v.number >= 150 {
            let name: &[u8] = if v.compatibility {
                b"GL_compatibility_profile"
            } else {
                b"GL_core_profile"
            };
            let _ = self.define_predefined(name, MacroKind::Object, Some(1));
        }
        if v.number >= 130 {
            let _ =
                self.define_predefined(b"GL_FRAGMENT_PRECISION_HIGH", MacroKind::Object, Some(1));
        }
    }

    // --- expansion ---

    /// Expands `t` (from the source text) and everything it pulls in, into the output.
    fn process(&mut self, src: &[u8], diag: &mut Diagnostics, t: PpToken) {
        self.handle(src, diag, t, 0, true, Sink::Out);
        while !self.fatal {
            match self.pop_pending(0) {
                Some(t) => self.handle(src, diag, t, 0, true, Sink::Out),
                None => break,
            }
        }
    }

    /// The next pending token above `floor`; end markers on the way end their expansions.
    fn pop_pending(&mut self, floor: usize) -> Option<PpToken> {
        while self.pending.len() > floor {
            let t = self.pending.pop()?;
            if t.kind == PpKind::End {
                if let Some(a) = self.active.get_mut(t.off as usize) {
                    *a = a.saturating_sub(1);
                }
                self.depth = self.depth.saturating_sub(1);
                continue;
            }
            return Some(t);
        }
        None
    }

    /// The next input token: pending ones above `floor`, then (if `base`) the source text,
    /// where line breaks are spaces and a directive line ends the input. The bool is true
    /// for a token from the source.
    fn next_input(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        floor: usize,
        base: bool,
    ) -> Option<(PpToken, bool)> {
        if let Some(t) = self.pop_pending(floor) {
            return Some((t, false));
        }
        if !base {
            return None;
        }
        loop {
            let t = self.raw(src, diag);
            match t.kind {
                PpKind::Newline => continue,
                PpKind::Eof => {
                    self.unread = Some(t);
                    return None;
                }
                _ if t.flags & LINE_START != 0 && self.is_punct(src, &t, b"#") => {
                    self.unread = Some(t);
                    return None;
                }
                _ => return Some((t, true)),
            }
        }
    }

    fn push_back(&mut self, src: &[u8], diag: &mut Diagnostics, t: PpToken, from_source: bool) {
        if from_source {
            self.unread = Some(t);
        } else if self.pending.push(t).is_err() {
            self.limit_at(
                src,
                diag,
                &t,
                "pending tokens",
                PP_PENDING_MAX,
                "PP_PENDING_MAX",
            );
        }
    }

    fn emit(&mut self, src: &[u8], diag: &mut Diagnostics, t: PpToken, sink: Sink) {
        let full = match sink {
            Sink::Out => self.out.push(t).is_err(),
            Sink::Work => self.work.push(t).is_err(),
        };
        if full {
            match sink {
                Sink::Out => self.limit_at(
                    src,
                    diag,
                    &t,
                    "tokens after preprocessing",
                    PP_TOK_MAX,
                    "PP_TOK_MAX",
                ),
                Sink::Work => self.limit_at(
                    src,
                    diag,
                    &t,
                    "tokens in macro arguments",
                    PP_WORK_MAX,
                    "PP_WORK_MAX",
                ),
            }
        }
    }

    /// One token: emitted, or (a macro) replaced by its expansion on the pending stack.
    fn handle(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        mut t: PpToken,
        floor: usize,
        base: bool,
        sink: Sink,
    ) {
        if self.fatal {
            return;
        }
        if t.kind != PpKind::Ident || t.flags & NOEXPAND != 0 {
            return self.emit(src, diag, t, sink);
        }
        if self.if_mode && self.is_ident(src, &t, b"defined") {
            return self.defined_operator(src, diag, t, floor, sink);
        }
        let Some(m) = self.find(src, self.spelling(src, &t)) else {
            return self.emit(src, diag, t, sink);
        };
        if self.active.get(m).is_some_and(|&a| a > 0) {
            t.flags |= NOEXPAND;
            return self.emit(src, diag, t, sink);
        }
        let Some(mac) = self.macros.get(m).copied() else {
            return self.emit(src, diag, t, sink);
        };
        match mac.kind {
            MacroKind::Line | MacroKind::File => {
                let v = if mac.kind == MacroKind::Line {
                    (self.origin(&t).line as i64).saturating_add(self.line_delta)
                } else {
                    self.file
                };
                let Some(exp) = self.record(src, diag, &t) else {
                    return;
                };
                match self.synth_number(v) {
                    Some(mut n) => {
                        n.flags |= t.flags & SPACE_BEFORE;
                        n.exp = exp;
                        n.line = t.line;
                        n.col = t.col;
                        self.emit(src, diag, n, sink)
                    }
                    None => self.synth_full(diag, &t),
                }
            }
            MacroKind::Object => self.expand(src, diag, m, &mac, &t, 0, &[], &[]),
            MacroKind::Function => match self.next_input(src, diag, floor, base) {
                Some((p, _)) if self.is_punct(src, &p, b"(") => {
                    self.expand_function(src, diag, m, &mac, &t, floor, base)
                }
                Some((p, from_source)) => {
                    self.push_back(src, diag, p, from_source);
                    self.emit(src, diag, t, sink)
                }
                None => self.emit(src, diag, t, sink),
            },
            MacroKind::Free => self.emit(src, diag, t, sink),
        }
    }

    /// `defined X` / `defined ( X )` in `#if`: 1 or 0, operand not expanded.
    fn defined_operator(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        t: PpToken,
        floor: usize,
        sink: Sink,
    ) {
        let mut name = self.pop_pending(floor);
        let paren = name.is_some_and(|n| self.is_punct(src, &n, b"("));
        if paren {
            name = self.pop_pending(floor);
        }
        let ok = match name {
            Some(n) if n.kind == PpKind::Ident => {
                if paren {
                    match self.pop_pending(floor) {
                        Some(c) if self.is_punct(src, &c, b")") => true,
                        Some(c) => {
                            self.push_back(src, diag, c, false);
                            false
                        }
                        None => false,
                    }
                } else {
                    true
                }
            }
            Some(n) => {
                self.push_back(src, diag, n, false);
                false
            }
            None => false,
        };
        let defined = match (ok, name) {
            (true, Some(n)) => self.find(src, self.spelling(src, &n)).is_some(),
            _ => {
                self.error(
                    src,
                    diag,
                    &t,
                    format_args!("'defined' needs a macro name: defined NAME or defined(NAME)"),
                );
                false
            }
        };
        let v = PpToken {
            kind: PpKind::Number,
            flags: SYNTH | (t.flags & SPACE_BEFORE),
            len: 1,
            off: defined as u32,
            ..t
        };
        self.emit(src, diag, v, sink);
    }

    /// Records an invocation; None (and a limit error) when the table is full.
    fn record(&mut self, src: &[u8], diag: &mut Diagnostics, t: &PpToken) -> Option<u16> {
        if self.exps.push(*t).is_err() {
            self.limit_at(
                src,
                diag,
                t,
                "macro invocations",
                PP_EXPANSION_MAX,
                "PP_EXPANSION_MAX",
            );
            return None;
        }
        Some(self.exps.len() as u16)
    }

    fn too_deep(&mut self, src: &[u8], diag: &mut Diagnostics, t: &PpToken) -> bool {
        if self.depth + self.recursion >= PP_DEPTH_MAX {
            if !self.fatal {
                self.error(
                    src,
                    diag,
                    t,
                    format_args!(
                        "macro expansion nested too deeply: the limit is {} (PP_DEPTH_MAX)",
                        PP_DEPTH_MAX
                    ),
                );
            }
            self.fatal = true;
            return true;
        }
        false
    }

    /// Collects the arguments of function-like macro `m` (its '(' read), pre-expands them and
    /// expands the macro.
    #[allow(clippy::too_many_arguments)]
    fn expand_function(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        m: usize,
        mac: &Macro,
        t: &PpToken,
        floor: usize,
        base: bool,
    ) {
        let mark = self.work.len();
        let mut raw = [(0u32, 0u32); PP_ARGS_MAX];
        let mut nargs = 0usize;
        let mut start = mark;
        let mut depth = 1u32;
        loop {
            if self.fatal {
                self.work.truncate(mark);
                return;
            }
            let Some((x, _)) = self.next_input(src, diag, floor, base) else {
                self.error(
                    src,
                    diag,
                    t,
                    format_args!(
                        "unterminated invocation of macro '{}': no ')' before {}",
                        Bytes(self.spelling(src, t)),
                        if base {
                            "the next directive or the end of the source"
                        } else {
                            "the end of its context"
                        }
                    ),
                );
                self.work.truncate(mark);
                return;
            };
            let close = self.is_punct(src, &x, b")");
            let comma = self.is_punct(src, &x, b",");
            if self.is_punct(src, &x, b"(") {
                depth += 1;
            } else if close {
                depth -= 1;
            }
            if (close && depth == 0) || (comma && depth == 1) {
                let Some(slot) = raw.get_mut(nargs) else {
                    self.limit_at(src, diag, t, "macro arguments", PP_ARGS_MAX, "PP_ARGS_MAX");
                    self.work.truncate(mark);
                    return;
                };
                *slot = (start as u32, self.work.len() as u32);
                nargs += 1;
                start = self.work.len();
                if close {
                    break;
                }
                continue;
            }
            if self.work.push(x).is_err() {
                self.limit_at(
                    src,
                    diag,
                    &x,
                    "tokens in macro arguments",
                    PP_WORK_MAX,
                    "PP_WORK_MAX",
                );
                self.work.truncate(mark);
                return;
            }
        }
        let np = mac.nparams as usize;
        let empty_call = np == 0 && nargs == 1 && raw[0].0 == raw[0].1;
        if nargs != np && !empty_call {
            self.error(
                src,
                diag,
                t,
                format_args!(
                    "macro '{}' takes {} argument{}, but {} {} given",
                    Bytes(self.spelling(src, t)),
                    np,
                    if np == 1 { "" } else { "s" },
                    nargs,
                    if nargs == 1 { "was" } else { "were" }
                ),
            );
            self.work.truncate(mark);
            return;
        }
        // Pre-expand the arguments used outside '##'.
        let body = self.body_range(mac);
        let mut need = 0u32;
        for k in body.clone() {
            let Some(b) = self.pool.get(k).copied() else {
                continue;
            };
            if b.kind == PpKind::Param {
                let beside_paste = self.pool_is_paste(k.wrapping_sub(1), &body, src)
                    || self.pool_is_paste(k + 1, &body, src);
                if !beside_paste {
                    need |= 1 << (b.off & 31);
                }
            }
        }
        let mut expanded = raw;
        for (i, r) in raw.iter().enumerate().take(np) {
            if need & (1 << i) != 0 {
                match self.expand_arg(src, diag, t, r.0 as usize, r.1 as usize) {
                    Some(e) => {
                        if let Some(slot) = expanded.get_mut(i) {
                            *slot = e;
                        }
                    }
                    None => {
                        self.work.truncate(mark);
                        return;
                    }
                }
            }
        }
        self.expand(src, diag, m, mac, t, np, &raw[..np], &expanded[..np]);
        self.work.truncate(mark);
    }

    fn body_range(&self, mac: &Macro) -> core::ops::Range<usize> {
        let s = mac.start as usize + mac.nparams as usize;
        s..s + mac.body as usize
    }

    fn pool_is_paste(&self, k: usize, body: &core::ops::Range<usize>, src: &[u8]) -> bool {
        body.contains(&k)
            && self
                .pool
                .get(k)
                .is_some_and(|b| self.is_punct(src, b, b"##"))
    }

    /// Fully expands work tokens `s..e` on their own; the result is appended to the work
    /// area and its range returned.
    fn expand_arg(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        t: &PpToken,
        s: usize,
        e: usize,
    ) -> Option<(u32, u32)> {
        if self.too_deep(src, diag, t) {
            return None;
        }
        let floor = self.pending.len();
        for i in (s..e).rev() {
            let Some(x) = self.work.get(i).copied() else {
                continue;
            };
            self.budget += 1;
            if self.budget > PP_EXPAND_MAX {
                self.limit_at(
                    src,
                    diag,
                    t,
                    "tokens produced by macro expansion",
                    PP_EXPAND_MAX,
                    "PP_EXPAND_MAX",
                );
                return None;
            }
            if self.pending.push(x).is_err() {
                self.limit_at(
                    src,
                    diag,
                    t,
                    "pending tokens",
                    PP_PENDING_MAX,
                    "PP_PENDING_MAX",
                );
                return None;
            }
        }
        let out = self.work.len();
        self.recursion += 1;
        while !self.fatal {
            match self.pop_pending(floor) {
                Some(x) => self.handle(src, diag, x, floor, false, Sink::Work),
                None => break,
            }
        }
        self.recursion -= 1;
        if self.fatal {
            return None;
        }
        Some((out as u32, self.work.len() as u32))
    }

    /// Replaces macro `m` invoked by `t`: the replacement list with arguments substituted
    /// (`raw` beside `##`, `expanded` elsewhere) and pastes done, pushed for rescanning
    /// behind an end marker that keeps `m` disabled until it is read.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        m: usize,
        mac: &Macro,
        t: &PpToken,
        np: usize,
        raw: &[(u32, u32)],
        expanded: &[(u32, u32)],
    ) {
        if self.too_deep(src, diag, t) {
            return;
        }
        let Some(exp) = self.record(src, diag, t) else {
            return;
        };
        let body = self.body_range(mac);
        let out = self.work.len();
        let mut paste = false; // the previous replacement token was '##'
        let mut left = false; // the operand before it produced a token
        let mut first = true;
        for k in body.clone() {
            if self.fatal {
                return;
            }
            let Some(b) = self.pool.get(k).copied() else {
                continue;
            };
            if self.is_punct(src, &b, b"##") {
                paste = true;
                continue;
            }
            let space = if first {
                t.flags & SPACE_BEFORE
            } else {
                b.flags & SPACE_BEFORE
            };
            first = false;
            if b.kind == PpKind::Param && (b.off as usize) < np {
                let i = b.off as usize;
                let beside = paste || self.pool_is_paste(k + 1, &body, src);
                let (s, e) = if beside {
                    raw.get(i).copied().unwrap_or((0, 0))
                } else {
                    expanded.get(i).copied().unwrap_or((0, 0))
                };
                let mut n = 0;
                for j in s as usize..e as usize {
                    let Some(mut x) = self.work.get(j).copied() else {
                        continue;
                    };
                    if n == 0 {
                        x.flags = (x.flags & !SPACE_BEFORE) | space;
                    }
                    if n == 0 && paste && left {
                        self.paste(src, diag, x);
                    } else {
                        self.push_work(src, diag, x, t);
                    }
                    n += 1;
                }
                // An empty argument is a placeholder: `x ## placeholder` leaves x (still
                // pasteable), `placeholder ## y` leaves y (pasted onto nothing).
                left = if n > 0 { true } else { paste && left };
            } else {
                let mut x = b;
                x.exp = exp;
                x.flags = (x.flags & !SPACE_BEFORE) | space;
                if paste && left {
                    self.paste(src, diag, x);
                } else {
                    self.push_work(src, diag, x, t);
                }
                left = true;
            }
            paste = false;
        }
        if self.fatal {
            return;
        }
        // Rescan: the end marker first (it is read last), then the tokens in reverse.
        let n = self.work.len() - out;
        self.budget += n;
        if self.budget > PP_EXPAND_MAX {
            return self.limit_at(
                src,
                diag,
                t,
                "tokens produced by macro expansion",
                PP_EXPAND_MAX,
                "PP_EXPAND_MAX",
            );
        }
        let end = PpToken {
            kind: PpKind::End,
            off: m as u32,
            ..PpToken::NONE
        };
        if self.pending.push(end).is_err() {
            return self.limit_at(
                src,
                diag,
                t,
                "pending tokens",
                PP_PENDING_MAX,
                "PP_PENDING_MAX",
            );
        }
        if let Some(a) = self.active.get_mut(m) {
            *a = a.saturating_add(1);
        }
        self.depth += 1;
        for j in (out..self.work.len()).rev() {
            let Some(x) = self.work.get(j).copied() else {
                continue;
            };
            if self.pending.push(x).is_err() {
                return self.limit_at(
                    src,
                    diag,
                    t,
                    "pending tokens",
                    PP_PENDING_MAX,
                    "PP_PENDING_MAX",
                );
            }
        }
        self.work.truncate(out);
    }

    fn push_work(&mut self, src: &[u8], diag: &mut Diagnostics, x: PpToken, t: &PpToken) {
        if self.work.push(x).is_err() {
            self.limit_at(
                src,
                diag,
                t,
                "tokens in macro arguments",
                PP_WORK_MAX,
                "PP_WORK_MAX",
            );
        }
    }

    /// `##`: joins the last work token and `right` into one token, which must be one.
    fn paste(&mut self, src: &[u8], diag: &mut Diagnostics, right: PpToken) {
        let Some(left) = self.work.last().copied() else {
            return self.push_work(src, diag, right, &right);
        };
        let s = self.synth.len();
        let ok = {
            let (a, b) = (self.spelling(src, &left), self.spelling(src, &right));
            let mut both: heapless::Vec<u8, 256> = heapless::Vec::new();
            if both.extend_from_slice(a).is_ok() && both.extend_from_slice(b).is_ok() {
                match first_token(&both) {
                    Some((kind, n)) if n == both.len() => {
                        if self.synth.extend_from_slice(&both).is_err() {
                            return self.synth_full(diag, &left);
                        }
                        Some(kind)
                    }
                    _ => None,
                }
            } else {
                None
            }
        };
        match ok {
            Some(kind) => {
                if let Some(l) = self.work.last_mut() {
                    l.kind = kind;
                    l.flags = (l.flags & (SPACE_BEFORE | LINE_START)) | SYNTH;
                    l.off = s as u32;
                    l.len = (self.synth.len() - s) as u16;
                }
            }
            None => {
                self.error(
                    src,
                    diag,
                    &left,
                    format_args!(
                        "pasting '{}' and '{}' does not give a valid token",
                        Bytes(self.spelling(src, &left)),
                        Bytes(self.spelling(src, &right))
                    ),
                );
                self.push_work(src, diag, right, &right);
            }
        }
    }

    // --- directives ---

    /// Reads the rest of the directive line (after `#` and its name): the next token, or None
    /// at the line's end (the newline is consumed).
    fn dtok(&mut self, src: &[u8], diag: &mut Diagnostics) -> Option<PpToken> {
        let t = self.raw(src, diag);
        match t.kind {
            PpKind::Newline => None,
            PpKind::Eof => {
                self.unread = Some(t);
                None
            }
            _ => Some(t),
        }
    }

    fn skip_line(&mut self, src: &[u8], diag: &mut Diagnostics) {
        while self.dtok(src, diag).is_some() {}
    }

    /// Errors on anything left on the directive line, then skips it.
    fn end_line(&mut self, src: &[u8], diag: &mut Diagnostics, what: &str) {
        if let Some(t) = self.dtok(src, diag) {
            diag.push(
                t.line,
                t.col as u32,
                format_args!(
                    "unexpected '{}' after #{}",
                    Bytes(self.spelling(src, &t)),
                    what
                ),
            );
            self.skip_line(src, diag);
        }
    }

    fn directive(&mut self, src: &[u8], diag: &mut Diagnostics, hash: PpToken) {
        let Some(name) = self.dtok(src, diag) else {
            // The null directive.
            if !self.skipping() {
                self.resolve_version();
                self.seen_any = true;
            }
            return;
        };
        let word = if name.kind == PpKind::Ident {
            match self.spelling(src, &name) {
                b"if" => Dir::If,
                b"ifdef" => Dir::Ifdef,
                b"ifndef" => Dir::Ifndef,
                b"elif" => Dir::Elif,
                b"else" => Dir::Else,
                b"endif" => Dir::Endif,
                b"define" => Dir::Define,
                b"undef" => Dir::Undef,
                b"error" => Dir::Error,
                b"pragma" => Dir::Pragma,
                b"extension" => Dir::Extension,
                b"version" => Dir::Version,
                b"line" => Dir::Line,
                b"include" => Dir::Include,
                _ => Dir::Unknown,
            }
        } else {
            Dir::NotName
        };
        let (hl, hc) = (hash.line, hash.col as u32);
        match word {
            Dir::If | Dir::Ifdef | Dir::Ifndef => {
                let what = match word {
                    Dir::If => "if",
                    Dir::Ifdef => "ifdef",
                    _ => "ifndef",
                };
                if self.skipping() {
                    self.skip_line(src, diag);
                    return self.push_cond(diag, CondState::Dead, what, hl, hc);
                }
                self.resolve_version();
                self.seen_any = true;
                let v = if what == "if" {
                    self.condition(src, diag, &hash, "if")
                } else {
                    self.ifdef_operand(src, diag, what, &hash)
                };
                let state = if v {
                    CondState::Taking
                } else {
                    CondState::Seeking
                };
                self.push_cond(diag, state, what, hl, hc)
            }
            Dir::Elif => {
                let Some(top) = self.conds.last().copied() else {
                    diag.push(hl, hc, format_args!("#elif without #if"));
                    return self.skip_line(src, diag);
                };
                if top.has_else {
                    diag.push(hl, hc, format_args!("#elif after #else"));
                    return self.skip_line(src, diag);
                }
                let state = match top.state {
                    CondState::Seeking => {
                        if self.condition(src, diag, &hash, "elif") {
                            CondState::Taking
                        } else {
                            CondState::Seeking
                        }
                    }
                    CondState::Taking => {
                        self.skip_line(src, diag);
                        CondState::Done
                    }
                    s => {
                        self.skip_line(src, diag);
                        s
                    }
                };
                if let Some(c) = self.conds.last_mut() {
                    c.state = state;
                }
            }
            Dir::Else => {
                let Some(top) = self.conds.last().copied() else {
                    diag.push(hl, hc, format_args!("#else without #if"));
                    return self.skip_line(src, diag);
                };
                if top.has_else {
                    diag.push(hl, hc, format_args!("#else after #else"));
                    return self.skip_line(src, diag);
                }
                if top.state == CondState::Dead {
                    self.skip_line(src, diag);
                } else {
                    self.end_line(src, diag, "else");
                }
                if let Some(c) = self.conds.last_mut() {
                    c.has_else = true;
                    c.state = match c.state {
                        CondState::Seeking => CondState::Taking,
                        CondState::Taking => CondState::Done,
                        s => s,
                    };
                }
            }
            Dir::Endif => {
                let Some(top) = self.conds.pop() else {
                    diag.push(hl, hc, format_args!("#endif without #if"));
                    return self.skip_line(src, diag);
                };
                if top.state == CondState::Dead {
                    self.skip_line(src, diag);
                } else {
                    self.end_line(src, diag, "endif");
                }
            }
            _ if self.skipping() => self.skip_line(src, diag),
            Dir::Version => self.version_directive(src, diag, &hash),
            _ => {
                self.resolve_version();
                self.seen_any = true;
                match word {
                    Dir::Define => self.define(src, diag, &hash),
                    Dir::Undef => self.undef(src, diag, &hash),
                    Dir::Error => self.error_directive(src, diag, &hash),
                    Dir::Pragma => self.pragma(src, diag, &hash),
                    Dir::Extension => self.extension(src, diag, &hash),
                    Dir::Line => self.line_directive(src, diag, &hash),
                    _ => {
                        if name.kind == PpKind::Ident {
                            diag.push(
                                name.line,
                                name.col as u32,
                                format_args!(
                                    "unknown directive '#{}'{}",
                                    Bytes(self.spelling(src, &name)),
                                    if word == Dir::Include {
                                        ": #include is not supported"
                                    } else {
                                        ""
                                    }
                                ),
                            );
                        } else {
                            diag.push(
                                name.line,
                                name.col as u32,
                                format_args!(
                                    "'#' must be followed by a directive name, not '{}'",
                                    Bytes(self.spelling(src, &name))
                                ),
                            );
                        }
                        self.skip_line(src, diag);
                    }
                }
            }
        }
    }

    fn push_cond(
        &mut self,
        diag: &mut Diagnostics,
        state: CondState,
        what: &'static str,
        line: u32,
        col: u32,
    ) {
        let c = Cond {
            state,
            has_else: false,
            what,
            line,
            col,
        };
        if self.conds.push(c).is_err() {
            self.limit(
                diag,
                line,
                col,
                "nested #if directives",
                PP_IF_MAX,
                "PP_IF_MAX",
            );
        }
    }

    fn ifdef_operand(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        what: &str,
        hash: &PpToken,
    ) -> bool {
        match self.dtok(src, diag) {
            Some(n) if n.kind == PpKind::Ident => {
                let v = self.find(src, self.spelling(src, &n)).is_some();
                self.end_line(src, diag, what);
                v == (what == "ifdef")
            }
            Some(n) => {
                diag.push(
                    n.line,
                    n.col as u32,
                    format_args!(
                        "#{} needs a macro name, not '{}'",
                        what,
                        Bytes(self.spelling(src, &n))
                    ),
                );
                self.skip_line(src, diag);
                false
            }
            None => {
                diag.push(
                    hash.line,
                    hash.col as u32,
                    format_args!("#{} needs a macro name", what),
                );
                false
            }
        }
    }

    /// Reads the rest of the line into the work area and expands it (`defined` evaluated when
    /// `if_mode`); returns the range of the result.
    fn expand_line(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        hash: &PpToken,
        if_mode: bool,
    ) -> Option<(usize, usize, usize)> {
        let mark = self.work.len();
        while let Some(t) = self.dtok(src, diag) {
            if self.work.push(t).is_err() {
                self.limit_at(
                    src,
                    diag,
                    &t,
                    "tokens in macro arguments",
                    PP_WORK_MAX,
                    "PP_WORK_MAX",
                );
                self.skip_line(src, diag);
                self.work.truncate(mark);
                return None;
            }
        }
        let end = self.work.len();
        self.if_mode = if_mode;
        let r = self.expand_arg(src, diag, hash, mark, end);
        self.if_mode = false;
        match r {
            Some((s, e)) => Some((mark, s as usize, e as usize)),
            None => {
                self.work.truncate(mark);
                None
            }
        }
    }

    /// `#if`/`#elif`: reads, expands and evaluates the expression; errors count as false.
    fn condition(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        hash: &PpToken,
        what: &str,
    ) -> bool {
        let Some((mark, s, e)) = self.expand_line(src, diag, hash, true) else {
            return false;
        };
        let r = if s == e {
            diag.push(
                hash.line,
                hash.col as u32,
                format_args!("#{} needs an expression", what),
            );
            None
        } else {
            let toks = self.work.get(s..e).unwrap_or(&[]);
            let mut ev = Eval {
                pp: self,
                src,
                toks,
                i: 0,
                depth: 0,
                err: None,
            };
            let r = ev.expr(1).and_then(|v| match ev.peek() {
                None => Ok(v),
                Some(t) => Err(ev.fail(
                    Some(t),
                    format_args!(
                        "unexpected '{}' after the #{} expression",
                        Bytes(self.spelling(src, &t)),
                        what
                    ),
                )),
            });
            match (r, ev.err) {
                (Ok(v), _) => Some(v),
                (Err(Fail), err) => {
                    match err {
                        Some(EvalError { at: Some(t), msg }) => {
                            self.error(src, diag, &t, format_args!("{}", msg))
                        }
                        Some(EvalError { at: None, msg }) => {
                            diag.push(hash.line, hash.col as u32, format_args!("{}", msg))
                        }
                        None => {}
                    }
                    None
                }
            }
        };
        self.work.truncate(mark);
        r.is_some_and(|v| v != 0)
    }

    /// Checks a name given to `#define`/`#undef`; false if it may not be used.
    fn check_name(&self, src: &[u8], diag: &mut Diagnostics, n: &PpToken, what: &str) -> bool {
        let s = self.spelling(src, n);
        if s == b"defined" {
            diag.push(
                n.line,
                n.col as u32,
                format_args!("'defined' cannot be used as a macro name"),
            );
            return false;
        }
        if s.starts_with(b"GL_") {
            diag.push(
                n.line,
                n.col as u32,
                format_args!(
                    "cannot {} '{}': macro names beginning with 'GL_' are reserved",
                    what,
                    Bytes(s)
                ),
            );
            return false;
        }
        if s.len() >= PP_NAME_MAX {
            diag.push(
                n.line,
                n.col as u32,
                format_args!(
                    "macro name is {} characters long; the limit is {} (PP_NAME_MAX)",
                    s.len(),
                    PP_NAME_MAX - 1
                ),
            );
            return false;
        }
        if let Some(m) = self.find(src, s).and_then(|m| self.macros.get(m)) {
            if m.predefined {
                diag.push(
                    n.line,
                    n.col as u32,
                    format_args!("cannot {} the predefined macro '{}'", what, Bytes(s)),
                );
                return false;
            }
        }
        if contains(s, b"__") {
            diag.warn(
                n.line,
                n.col as u32,
                format_args!(
                    "macro names containing '__' are reserved for the implementation ('{}')",
                    Bytes(s)
                ),
            );
        }
        true
    }

    /// The macro name after `#define`/`#undef` (`directive`); a missing or non-identifier name is
    /// reported (and the rest of the line skipped) and gives `None`.
    fn macro_name_of(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        hash: &PpToken,
        directive: &str,
    ) -> Option<PpToken> {
        let Some(name) = self.dtok(src, diag) else {
            diag.push(
                hash.line,
                hash.col as u32,
                format_args!("#{} needs a macro name", directive),
            );
            return None;
        };
        if name.kind != PpKind::Ident {
            diag.push(
                name.line,
                name.col as u32,
                format_args!(
                    "#{} needs a macro name, not '{}'",
                    directive,
                    Bytes(self.spelling(src, &name))
                ),
            );
            self.skip_line(src, diag);
            return None;
        }
        Some(name)
    }

    fn define(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let Some(name) = self.macro_name_of(src, diag, hash, "define") else {
            return;
        };
        if !self.check_name(src, diag, &name, "define") {
            return self.skip_line(src, diag);
        }
        let mark = self.pool.len();
        let mut kind = MacroKind::Object;
        let mut nparams = 0usize;
        let mut next = self.dtok(src, diag);
        if let Some(p) = next {
            if p.flags & SPACE_BEFORE == 0 && self.is_punct(src, &p, b"(") {
                kind = MacroKind::Function;
                if !self.params(src, diag, &name, &mut nparams) {
                    self.pool.truncate(mark);
                    return;
                }
                next = self.dtok(src, diag);
            }
        }
        // The replacement list.
        let mut body = 0usize;
        let mut first = true;
        let mut last_paste: Option<PpToken> = None;
        let mut t = next;
        while let Some(mut x) = t {
            if first {
                x.flags &= !SPACE_BEFORE;
                if self.is_punct(src, &x, b"##") {
                    diag.push(
                        x.line,
                        x.col as u32,
                        format_args!("'##' cannot be at either end of a macro's replacement"),
                    );
                    self.skip_line(src, diag);
                    self.pool.truncate(mark);
                    return;
                }
            }
            first = false;
            last_paste = self.is_punct(src, &x, b"##").then_some(x);
            x.flags &= !LINE_START;
            if x.kind == PpKind::Ident {
                let sp = self.spelling(src, &x);
                let found = (0..nparams).find(|&i| {
                    self.pool
                        .get(mark + i)
                        .is_some_and(|p| self.spelling(src, p) == sp)
                });
                if let Some(i) = found {
                    x.kind = PpKind::Param;
                    x.off = i as u32;
                    x.flags &= !SYNTH;
                }
            }
            body += 1;
            if body > PP_BODY_MAX {
                diag.push(
                    x.line,
                    x.col as u32,
                    format_args!(
                        "macro '{}' has too many replacement tokens: the limit is {} (PP_BODY_MAX)",
                        Bytes(self.spelling(src, &name)),
                        PP_BODY_MAX
                    ),
                );
                self.skip_line(src, diag);
                self.pool.truncate(mark);
                return;
            }
            if self.pool.push(x).is_err() {
                self.limit(
                    diag,
                    x.line,
                    x.col as u32,
                    "macro replacement tokens",
                    PP_BODY_POOL,
                    "PP_BODY_POOL",
                );
                self.pool.truncate(mark);
                return;
            }
            t = self.dtok(src, diag);
        }
        if let Some(x) = last_paste {
            diag.push(
                x.line,
                x.col as u32,
                format_args!("'##' cannot be at either end of a macro's replacement"),
            );
            self.pool.truncate(mark);
            return;
        }
        let m = Macro {
            name,
            hash: 0,
            next: NIL,
            kind,
            predefined: false,
            nparams: nparams as u8,
            start: mark as u32,
            body: body as u16,
        };
        if let Some(old) = self.find(src, self.spelling(src, &name)) {
            let same = self
                .macros
                .get(old)
                .is_some_and(|o| self.same_macro(src, o, &m));
            self.pool.truncate(mark);
            if !same {
                diag.push(
                    name.line,
                    name.col as u32,
                    format_args!(
                        "macro '{}' redefined differently (only an identical redefinition is allowed: #undef it first)",
                        Bytes(self.spelling(src, &name))
                    ),
                );
            }
            return;
        }
        if !self.insert(src, m) {
            self.pool.truncate(mark);
            self.limit(
                diag,
                name.line,
                name.col as u32,
                "macros",
                PP_MACRO_MAX,
                "PP_MACRO_MAX",
            );
        }
    }

    /// The parameter list after `(`: names into the pool; false (after an error) if malformed.
    fn params(
        &mut self,
        src: &[u8],
        diag: &mut Diagnostics,
        name: &PpToken,
        n: &mut usize,
    ) -> bool {
        let mark = self.pool.len();
        let mut expect_name = false;
        loop {
            let Some(t) = self.dtok(src, diag) else {
                diag.push(
                    name.line,
                    name.col as u32,
                    format_args!(
                        "missing ')' in the parameter list of macro '{}'",
                        Bytes(self.spelling(src, name))
                    ),
                );
                return false;
            };
            if !expect_name && *n == 0 && self.is_punct(src, &t, b")") {
                return true;
            }
            if t.kind != PpKind::Ident {
                diag.push(
                    t.line,
                    t.col as u32,
                    format_args!(
                        "expected a parameter name in macro '{}', found '{}'",
                        Bytes(self.spelling(src, name)),
                        Bytes(self.spelling(src, &t))
                    ),
                );
                self.skip_line(src, diag);
                return false;
            }
            let sp = self.spelling(src, &t);
            let dup = (0..*n).any(|i| {
                self.pool
                    .get(mark + i)
                    .is_some_and(|p| self.spelling(src, p) == sp)
            });
            if dup {
                diag.push(
                    t.line,
                    t.col as u32,
                    format_args!("duplicate macro parameter '{}'", Bytes(sp)),
                );
                self.skip_line(src, diag);
                return false;
            }
            if *n >= PP_ARGS_MAX {
                diag.push(
                    t.line,
                    t.col as u32,
                    format_args!(
                        "macro '{}' has too many parameters: the limit is {} (PP_ARGS_MAX)",
                        Bytes(self.spelling(src, name)),
                        PP_ARGS_MAX
                    ),
                );
                self.skip_line(src, diag);
                return false;
            }
            if self.pool.push(t).is_err() {
                self.limit(
                    diag,
                    t.line,
                    t.col as u32,
                    "macro replacement tokens",
                    PP_BODY_POOL,
                    "PP_BODY_POOL",
                );
                return false;
            }
            *n += 1;
            match self.dtok(src, diag) {
                Some(c) if self.is_punct(src, &c, b",") => expect_name = true,
                Some(c) if self.is_punct(src, &c, b")") => return true,
                Some(c) => {
                    diag.push(
                        c.line,
                        c.col as u32,
                        format_args!(
                            "expected ',' or ')' in the parameter list of macro '{}'",
                            Bytes(self.spelling(src, name))
                        ),
                    );
                    self.skip_line(src, diag);
                    return false;
                }
                None => {
                    diag.push(
                        name.line,
                        name.col as u32,
                        format_args!(
                            "missing ')' in the parameter list of macro '{}'",
                            Bytes(self.spelling(src, name))
                        ),
                    );
                    return false;
                }
            }
        }
    }

    /// Redefinition rule: same kind, same parameter names, same replacement tokens with
    /// whitespace between them in the same places.
    fn same_macro(&self, src: &[u8], a: &Macro, b: &Macro) -> bool {
        if a.kind != b.kind || a.nparams != b.nparams || a.body != b.body {
            return false;
        }
        let n = a.nparams as usize + a.body as usize;
        (0..n).all(|i| {
            let (Some(x), Some(y)) = (
                self.pool.get(a.start as usize + i),
                self.pool.get(b.start as usize + i),
            ) else {
                return false;
            };
            if x.kind != y.kind || (x.flags & SPACE_BEFORE) != (y.flags & SPACE_BEFORE) {
                return false;
            }
            if x.kind == PpKind::Param {
                x.off == y.off
            } else {
                self.spelling(src, x) == self.spelling(src, y)
            }
        })
    }

    fn undef(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let Some(name) = self.macro_name_of(src, diag, hash, "undef") else {
            return;
        };
        if self.check_name(src, diag, &name, "undefine") {
            if let Some(m) = self.find(src, self.spelling(src, &name)) {
                self.remove(m);
            }
        }
        self.end_line(src, diag, "undef");
    }

    fn error_directive(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let mut text: heapless::String<MSG_MAX> = heapless::String::new();
        let mut first = true;
        while let Some(t) = self.dtok(src, diag) {
            let mut w = Bounded(&mut text);
            if !first && t.flags & SPACE_BEFORE != 0 {
                let _ = w.write_char(' ');
            }
            let _ = write!(w, "{}", Bytes(self.spelling(src, &t)));
            first = false;
        }
        diag.push(hash.line, hash.col as u32, format_args!("#error {}", text));
    }

    fn pragma(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let first = self.dtok(src, diag);
        if !first.is_some_and(|t| self.is_ident(src, &t, b"chrisos")) {
            // Other pragmas (STDGL, optimize, debug, ...) are ignored, as GLSL says.
            if first.is_some() {
                self.skip_line(src, diag);
            }
            return;
        }
        let word = self.dtok(src, diag);
        let num = word.and_then(|_| self.dtok(src, diag));
        let rest = num.and_then(|_| self.dtok(src, diag));
        let profile = match (word, num, rest) {
            (Some(w), Some(n), None) if self.is_ident(src, &w, b"profile") => {
                match self.spelling(src, &n) {
                    b"1" => Some(1u8),
                    b"2" => Some(2u8),
                    _ => None,
                }
            }
            _ => None,
        };
        if rest.is_some() {
            self.skip_line(src, diag);
        }
        let (l, c) = (hash.line, hash.col as u32);
        let Some(p) = profile else {
            return diag.push(
                l,
                c,
                format_args!("malformed pragma: write '#pragma chrisos profile 1' or '#pragma chrisos profile 2'"),
            );
        };
        if self.seen_token {
            return diag.push(
                l,
                c,
                format_args!("'#pragma chrisos profile' must come before the first declaration"),
            );
        }
        match self.profile {
            Some(old) if old.profile != p => diag.push(
                l,
                c,
                format_args!(
                    "conflicting '#pragma chrisos profile {}': line {} says profile {}",
                    p, old.line, old.profile
                ),
            ),
            Some(_) => {}
            None => {
                self.profile = Some(ProfilePragma {
                    profile: p,
                    line: l,
                    col: c,
                })
            }
        }
    }

    fn extension(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let name = self.dtok(src, diag);
        let colon = name.and_then(|_| self.dtok(src, diag));
        let behavior = colon.and_then(|_| self.dtok(src, diag));
        let rest = behavior.and_then(|_| self.dtok(src, diag));
        let (l, c) = (hash.line, hash.col as u32);
        let well_formed = match (name, colon, behavior, rest) {
            (Some(n), Some(c), Some(b), None) => {
                n.kind == PpKind::Ident && self.is_punct(src, &c, b":") && b.kind == PpKind::Ident
            }
            _ => false,
        };
        if rest.is_some() {
            self.skip_line(src, diag);
        }
        let (Some(n), Some(b), true) = (name, behavior, well_formed) else {
            return diag.push(
                l,
                c,
                format_args!(
                    "malformed #extension: write '#extension NAME : require|enable|warn|disable'"
                ),
            );
        };
        if self.seen_token {
            return diag.push(
                l,
                c,
                format_args!("#extension must come before the first declaration"),
            );
        }
        let ext = self.spelling(src, &n);
        let how = self.spelling(src, &b);
        if !matches!(how, b"require" | b"enable" | b"warn" | b"disable") {
            return diag.push(
                b.line,
                b.col as u32,
                format_args!(
                    "unknown #extension behavior '{}': use require, enable, warn or disable",
                    Bytes(how)
                ),
            );
        }
        if ext == b"all" {
            if matches!(how, b"require" | b"enable") {
                diag.push(
                    b.line,
                    b.col as u32,
                    format_args!(
                        "'#extension all' takes only warn or disable, not '{}'",
                        Bytes(how)
                    ),
                );
            }
            return;
        }
        if EXTENSIONS.iter().any(|e| e.as_bytes() == ext) {
            return;
        }
        match how {
            b"require" => diag.push(
                n.line,
                n.col as u32,
                format_args!(
                    "extension '{}' is not supported (required by #extension)",
                    Bytes(ext)
                ),
            ),
            b"enable" | b"warn" => diag.warn(
                n.line,
                n.col as u32,
                format_args!(
                    "extension '{}' is not supported: '#extension {} : {}' has no effect",
                    Bytes(ext),
                    Bytes(ext),
                    Bytes(how)
                ),
            ),
            _ => {}
        }
    }

    fn version_directive(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let (l, c) = (hash.line, hash.col as u32);
        if self.version.explicit || self.seen_any {
            if self.version.explicit {
                diag.push(l, c, format_args!("#version may appear only once"));
            } else {
                diag.push(
                    l,
                    c,
                    format_args!(
                        "#version must come first: only comments and whitespace may come before it"
                    ),
                );
            }
            self.seen_any = true;
            return self.skip_line(src, diag);
        }
        self.seen_any = true;
        let Some(n) = self.dtok(src, diag) else {
            return diag.push(
                l,
                c,
                format_args!("expected a version number after #version"),
            );
        };
        let digits = self.spelling(src, &n);
        let number = if n.kind == PpKind::Number && digits.iter().all(u8::is_ascii_digit) {
            match parse_int(digits) {
                Some(Some(v)) if digits.first() != Some(&b'0') => Some(v),
                _ => None,
            }
        } else {
            None
        };
        let Some(number) = number else {
            diag.push(
                n.line,
                n.col as u32,
                format_args!(
                    "expected a decimal version number after #version, found '{}'",
                    Bytes(digits)
                ),
            );
            return self.skip_line(src, diag);
        };
        if !VERSIONS.iter().any(|&v| v as i64 == number) {
            diag.push(
                n.line,
                n.col as u32,
                format_args!(
                    "unsupported #version {}: profile 2 accepts 110, 120, 130, 140, 150 and 330",
                    number
                ),
            );
            return self.skip_line(src, diag);
        }
        let mut compatibility = false;
        let mut ok = true;
        if let Some(p) = self.dtok(src, diag) {
            let word = self.spelling(src, &p);
            let (pl, pc) = (p.line, p.col as u32);
            match word {
                b"core" | b"compatibility" if number >= 150 => {
                    compatibility = word == b"compatibility";
                    self.end_line(src, diag, "version");
                }
                b"core" | b"compatibility" => {
                    ok = false;
                    diag.push(
                        pl,
                        pc,
                        format_args!(
                            "#version {} takes no profile: 'core' and 'compatibility' begin at 150",
                            number
                        ),
                    );
                    self.skip_line(src, diag);
                }
                b"es" => {
                    ok = false;
                    diag.push(
                        pl,
                        pc,
                        format_args!(
                            "OpenGL ES shaders ('#version {} es') are not supported",
                            number
                        ),
                    );
                    self.skip_line(src, diag);
                }
                _ => {
                    ok = false;
                    diag.push(
                        pl,
                        pc,
                        format_args!(
                            "unknown #version profile '{}': use core or compatibility",
                            Bytes(word)
                        ),
                    );
                    self.skip_line(src, diag);
                }
            }
        }
        if ok {
            self.version = Version {
                number: number as u32,
                compatibility,
                explicit: true,
                line: l,
                col: c,
            };
        }
        self.resolve_version();
    }

    fn line_directive(&mut self, src: &[u8], diag: &mut Diagnostics, hash: &PpToken) {
        let Some((mark, s, e)) = self.expand_line(src, diag, hash, false) else {
            return;
        };
        // The next physical line (the directive's newline is consumed).
        let next = self.line as i64;
        let get = |i: usize| {
            if s + i < e {
                self.work.get(s + i).copied()
            } else {
                None
            }
        };
        let (a, b, c) = (get(0), get(1), get(2));
        let int = |t: &PpToken| -> Option<i64> {
            if t.kind != PpKind::Number {
                return None;
            }
            parse_int(self.spelling(src, t)).flatten()
        };
        let na = a.as_ref().and_then(int).filter(|&n| n <= u32::MAX as i64);
        let nb = b.as_ref().and_then(int);
        match (a, na, b, nb, c) {
            (None, ..) => diag.push(
                hash.line,
                hash.col as u32,
                format_args!("#line needs a line number"),
            ),
            (_, _, _, _, Some(x)) => self.error(
                src,
                diag,
                &x,
                format_args!("unexpected '{}' after #line", Bytes(self.spelling(src, &x))),
            ),
            (Some(t), None, ..) => self.error(
                src,
                diag,
                &t,
                format_args!(
                    "#line expects a line number, not '{}'",
                    Bytes(self.spelling(src, &t))
                ),
            ),
            (_, Some(_), Some(x), None, _) => self.error(
                src,
                diag,
                &x,
                format_args!(
                    "#line expects a source string number, not '{}'",
                    Bytes(self.spelling(src, &x))
                ),
            ),
            (_, Some(n), _, f, _) => {
                self.line_delta = n - next;
                if let Some(f) = f {
                    self.file = f;
                }
            }
        }
        self.work.truncate(mark);
    }
}

#[cfg(test)]
mod punct_tests {
    use super::punct_len;

    /// The table search `punct_len` replaced (kept as the reference).
    fn by_table(a: u8, b: Option<u8>, c: Option<u8>) -> usize {
        if matches!(
            (a, b, c),
            (b'<', Some(b'<'), Some(b'=')) | (b'>', Some(b'>'), Some(b'='))
        ) {
            return 3;
        }
        if let Some(b) = b {
            const TWO: &[&[u8; 2]] = &[
                b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"^^", b"+=",
                b"-=", b"*=", b"/=", b"%=", b"&=", b"|=", b"^=", b"##",
            ];
            if TWO.iter().any(|p| p[0] == a && p[1] == b) {
                return 2;
            }
        }
        usize::from(b"[](){}.,;:?+-*/%<>=!~&|^#".contains(&a))
    }

    /// Every first and second byte (and the third where it matters) gives the table's answer.
    #[test]
    fn punctuators_match_the_table() {
        for a in 0..=255u8 {
            for b in (0..=255u8).map(Some).chain([None]) {
                for c in [None, Some(b'='), Some(b'<'), Some(b'a')] {
                    assert_eq!(punct_len(a, b, c), by_table(a, b, c), "{:?}", (a, b, c));
                }
            }
        }
    }
}

#[cfg(test)]
mod clean_scan_tests {
    use super::Preprocessor;
    use crate::front::diag::Diagnostics;

    /// Tokens, version and diagnostics of one run, rendered for comparison.
    fn run(
        src: &[u8],
    ) -> (
        std::vec::Vec<super::PpToken>,
        super::Version,
        std::string::String,
    ) {
        let mut pp = std::boxed::Box::new(Preprocessor::new());
        let mut d = Diagnostics::new("t");
        pp.run(src, &mut d);
        let mut text = std::string::String::new();
        d.render(src, &mut text).unwrap();
        (pp.tokens().to_vec(), pp.version(), text)
    }

    /// A source without a backslash takes the scanner's no-continuation path; the same source
    /// with a backslash in a comment at its end takes the general path. Every token before that
    /// comment, the version and the diagnostics are the same either way.
    #[test]
    fn the_no_continuation_path_scans_as_the_general_one() {
        let sources: &[&[u8]] = &[
            include_bytes!("../../../tools/shc/tests/compat/fog_linear.frag"),
            include_bytes!("../../../tools/shc/tests/compat/proc_rings.frag"),
            include_bytes!("../../../tools/shc/tests/compat/pp_sobel.frag"),
            b"#version 330\n#define F(a, b) ((a) >>= (b)) <<= 1.5e+3 .5 0x1F\nint x = F(y, 2);\n",
            b"#pragma chrisos profile 2\na/**/b // c\n\t x+++=y...z<<=w ## q $ @\n/* open",
            b"#if 1\nfloat f = 1.0e-2f;\n#else\nbad\n#endif\n#ifdef",
            b"x",
            b"",
            b"a\r\n\x0b\x0cb\t/* one\ntwo\n */ c /**/d\n  # define X 1\n .5e+1 1.e-x 0x1Fu a.b.c",
            b"\xc3\xa9 \x01 ` \"s\" <<=>>=^^||&&!=~\n\n\n#version 330\n/* a * / b **/ e",
        ];
        for (i, src) in sources.iter().enumerate() {
            let mut general = src.to_vec();
            general.extend_from_slice(b"\n/* \\ */");
            let (a, va, da) = run(src);
            let (b, vb, db) = run(&general);
            // An unterminated comment or #if reports at the end: compare only where both end.
            let same_end = !da.contains("unterminated");
            assert_eq!(a, b, "source {}", i);
            assert_eq!(va, vb, "source {}", i);
            if same_end {
                assert_eq!(da, db, "source {}", i);
            }
        }
    }

    /// The same comparison over every shader of the golden corpus and the compatibility suite.
    #[test]
    fn the_no_continuation_path_scans_every_corpus_shader_as_the_general_one() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut n = 0;
        for dir in ["tests/in", "../tools/shc/tests/compat"] {
            let mut files: std::vec::Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            for f in files {
                let shader = f
                    .extension()
                    .is_some_and(|e| e == "vert" || e == "frag" || e == "glsl");
                if !shader {
                    continue;
                }
                let src = std::fs::read(&f).unwrap();
                if src.contains(&b'\\') {
                    continue;
                }
                let mut general = src.clone();
                general.extend_from_slice(b"\n/* \\ */");
                let (a, va, da) = run(&src);
                let (b, vb, db) = run(&general);
                assert_eq!(a, b, "{}", f.display());
                assert_eq!(va, vb, "{}", f.display());
                if !da.contains("unterminated") {
                    assert_eq!(da, db, "{}", f.display());
                }
                n += 1;
            }
        }
        assert!(n > 100, "only {} corpus shaders read", n);
    }
}
