//! The lexer: source bytes to at most `TOK_MAX` tokens (plus a final EOF), each with its byte
//! offset, length, line and column, and the `#version` directive.
//!
//! Owns: the keyword table, the rejected-qualifier list, number scanning and the directive rules.
//! Must never: allocate, panic on any byte sequence, or let a rejected word through as an
//! identifier (it is reported here and dropped, so the parser does not pile up follow-on errors).
use core::fmt;
use heapless::Vec;

use crate::front::diag::{Diagnostics, P2_HINT};
use crate::front::pp::{PpKind, Preprocessor, SYNTH};
use crate::limits::*;

/// Token kinds. Keywords are separate kinds; `Reserved` marks GLSL words this language does not
/// have (while, struct, ...) so the parser can say so clearly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Tok {
    Eof,
    Ident,
    IntLit,
    FloatLit,
    // keywords
    In,
    Out,
    Uniform,
    Const,
    Layout,
    Smooth,
    Void,
    Bool,
    Int,
    Float,
    Vec2,
    Vec3,
    Vec4,
    IVec2,
    IVec3,
    IVec4,
    Mat3,
    Mat4,
    Sampler2D,
    If,
    Else,
    For,
    Return,
    Discard,
    True,
    False,
    Reserved,
    // punctuation
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Gt,
    Le,
    Ge,
    AndAnd,
    OrOr,
    Not,
    PlusPlus,
    MinusMinus,
    /// `+=`, `-=`, `*=`, `/=`, `%=`: lexed so the parser can reject them by name.
    CompoundAssign,
    /// `?` and `:`: lexed so the parser can reject the conditional operator by name.
    Question,
    Colon,
    /// `<<` and `>>`: lexed so the parser can reject shifts by name (profile 2 has them).
    Shift,
    /// Profile 2's bitwise operators `&`, `|`, `^`, `~` (profile 1 rejects the bytes in the lexer).
    Amp,
    Pipe,
    Caret,
    Tilde,
    /// Profile 2: the `inout` parameter qualifier (profile 1 rejects the word in the lexer).
    InOut,
    // Profile-2 keywords (profile 1 rejects these words in the lexer: see `P2_WORDS`).
    Flat,
    NoPerspective,
    Centroid,
    Invariant,
    /// `highp`, `mediump`, `lowp` (accepted and ignored, as GLSL 3.30 does).
    PrecQual,
    /// `precision` (a precision statement).
    Precision,
    // Profile-2 types (issue 13); `mat2x2`, `mat3x3`, `mat4x4` are `Mat2`, `Mat3`, `Mat4`.
    Uint,
    UVec2,
    UVec3,
    UVec4,
    BVec2,
    BVec3,
    BVec4,
    Mat2,
    Mat2x3,
    Mat2x4,
    Mat3x2,
    Mat3x4,
    Mat4x2,
    Mat4x3,
    // Profile 2's cube and shadow samplers (issue 15).
    SamplerCube,
    Sampler2DShadow,
    SamplerCubeShadow,
    // Profile 2's integer samplers (issue 15).
    ISampler2D,
    USampler2D,
    // Profile 2's 2D array sampler (session 6).
    Sampler2DArray,
    // Profile 2's integer 2D array samplers (session 9).
    ISampler2DArray,
    USampler2DArray,
}

/// One token. `value` holds an int literal's value or a float literal's f32 bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub kind: Tok,
    pub len: u16,
    pub col: u16,
    /// Profile 2: the macro expansion this token came from (the preprocessor's record number;
    /// 0 = the user's own text). Always 0 in profile 1.
    pub exp: u16,
    /// Byte offset of the spelling in the text the parser reads (the source; in profile 2 the
    /// source followed by the preprocessor's synthesized text).
    pub off: u32,
    pub line: u32,
    pub value: u32,
}

impl Token {
    pub fn int(&self) -> u32 {
        self.value
    }
    pub fn float(&self) -> f32 {
        f32::from_bits(self.value)
    }
    /// The token's bytes (ASCII for every token the lexer produces).
    pub fn bytes<'s>(&self, src: &'s [u8]) -> &'s [u8] {
        let start = self.off as usize;
        src.get(start..start.saturating_add(self.len as usize))
            .unwrap_or(&[])
    }
    pub fn text<'s>(&self, src: &'s [u8]) -> &'s str {
        let start = self.off as usize;
        let end = start.saturating_add(self.len as usize);
        src.get(start..end)
            .and_then(|b| core::str::from_utf8(b).ok())
            .unwrap_or("")
    }
}

/// Keywords of the language, with their kinds.
pub const KEYWORDS: &[(&str, Tok)] = &[
    ("in", Tok::In),
    ("out", Tok::Out),
    ("uniform", Tok::Uniform),
    ("const", Tok::Const),
    ("layout", Tok::Layout),
    ("smooth", Tok::Smooth),
    ("void", Tok::Void),
    ("bool", Tok::Bool),
    ("int", Tok::Int),
    ("float", Tok::Float),
    ("vec2", Tok::Vec2),
    ("vec3", Tok::Vec3),
    ("vec4", Tok::Vec4),
    ("ivec2", Tok::IVec2),
    ("ivec3", Tok::IVec3),
    ("ivec4", Tok::IVec4),
    ("mat3", Tok::Mat3),
    ("mat4", Tok::Mat4),
    ("sampler2D", Tok::Sampler2D),
    ("if", Tok::If),
    ("else", Tok::Else),
    ("for", Tok::For),
    ("return", Tok::Return),
    ("discard", Tok::Discard),
    ("true", Tok::True),
    ("false", Tok::False),
];

/// GLSL qualifiers this language rejects, with advice shown in the diagnostic.
pub const REJECTED_QUALIFIERS: &[(&str, &str)] = &[
    ("attribute", "use 'in' in a vertex shader"),
    (
        "varying",
        "use 'out' in the vertex shader and 'in' in the fragment shader",
    ),
    (
        "highp",
        "precision qualifiers are not part of this language",
    ),
    (
        "mediump",
        "precision qualifiers are not part of this language",
    ),
    ("lowp", "precision qualifiers are not part of this language"),
    ("inout", "parameters are passed by value only"),
    ("centroid", "interpolation is always smooth"),
    ("flat", "interpolation is always smooth"),
    ("noperspective", "interpolation is always smooth"),
    ("invariant", "not part of this language"),
    ("precise", "not part of this language"),
    (
        "readonly",
        "memory qualifiers are not part of this language",
    ),
    (
        "writeonly",
        "memory qualifiers are not part of this language",
    ),
    (
        "coherent",
        "memory qualifiers are not part of this language",
    ),
    (
        "volatile",
        "memory qualifiers are not part of this language",
    ),
    (
        "restrict",
        "memory qualifiers are not part of this language",
    ),
    ("shared", "not part of this language"),
    ("patch", "not part of this language"),
    ("sample", "not part of this language"),
];

/// GLSL words that are not in this language; the parser names them in its diagnostic.
pub const RESERVED: &[&str] = &[
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "struct",
    "precision",
];

/// How profile 2 reads a word that profile 1 classifies otherwise (or not at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P2Word {
    /// A keyword of the profile-2 language.
    Keyword(Tok),
    /// A plain identifier in GLSL 3.30 (profile 1 rejects it as a qualifier of later GLSL).
    Ident,
    /// A GLSL 3.30 keyword that profile 2 does not implement yet (a type of a later part):
    /// a `Reserved` token, which the parser names.
    Later,
    /// Reserved for future use by GLSL 3.30 (§3.6): an error as an identifier.
    Reserved,
}

/// Profile 2's own words, sorted by their bytes and unique (checked by a test; looked up through `P2_TABLE`). GLSL 3.30
/// §3.6 lists the keywords and the words reserved for future use; the keywords profile 1 also
/// has, and `while`/`struct`/... (`RESERVED`), are found in the shared tables.
pub const P2_WORDS: &[(&str, P2Word)] = {
    use P2Word::*;
    &[
        ("active", Reserved),
        ("asm", Reserved),
        ("bvec2", Keyword(Tok::BVec2)),
        ("bvec3", Keyword(Tok::BVec3)),
        ("bvec4", Keyword(Tok::BVec4)),
        ("cast", Reserved),
        ("centroid", Keyword(Tok::Centroid)),
        ("class", Reserved),
        ("coherent", Ident),
        ("common", Reserved),
        ("double", Reserved),
        ("dvec2", Reserved),
        ("dvec3", Reserved),
        ("dvec4", Reserved),
        ("enum", Reserved),
        ("extern", Reserved),
        ("external", Reserved),
        ("filter", Reserved),
        ("fixed", Reserved),
        ("flat", Keyword(Tok::Flat)),
        ("fvec2", Reserved),
        ("fvec3", Reserved),
        ("fvec4", Reserved),
        ("goto", Reserved),
        ("half", Reserved),
        ("highp", Keyword(Tok::PrecQual)),
        ("hvec2", Reserved),
        ("hvec3", Reserved),
        ("hvec4", Reserved),
        ("iimage1D", Reserved),
        ("iimage1DArray", Reserved),
        ("iimage2D", Reserved),
        ("iimage2DArray", Reserved),
        ("iimage3D", Reserved),
        ("iimageBuffer", Reserved),
        ("iimageCube", Reserved),
        ("image1D", Reserved),
        ("image1DArray", Reserved),
        ("image1DArrayShadow", Reserved),
        ("image1DShadow", Reserved),
        ("image2D", Reserved),
        ("image2DArray", Reserved),
        ("image2DArrayShadow", Reserved),
        ("image2DShadow", Reserved),
        ("image3D", Reserved),
        ("imageBuffer", Reserved),
        ("imageCube", Reserved),
        ("inline", Reserved),
        ("input", Reserved),
        ("interface", Reserved),
        ("invariant", Keyword(Tok::Invariant)),
        ("isampler1D", Later),
        ("isampler1DArray", Later),
        ("isampler2D", Keyword(Tok::ISampler2D)),
        ("isampler2DArray", Keyword(Tok::ISampler2DArray)),
        ("isampler2DMS", Later),
        ("isampler2DMSArray", Later),
        ("isampler2DRect", Later),
        ("isampler3D", Later),
        ("isamplerBuffer", Later),
        ("isamplerCube", Later),
        ("long", Reserved),
        ("lowp", Keyword(Tok::PrecQual)),
        ("mat2", Keyword(Tok::Mat2)),
        ("mat2x2", Keyword(Tok::Mat2)),
        ("mat2x3", Keyword(Tok::Mat2x3)),
        ("mat2x4", Keyword(Tok::Mat2x4)),
        ("mat3x2", Keyword(Tok::Mat3x2)),
        ("mat3x3", Keyword(Tok::Mat3)),
        ("mat3x4", Keyword(Tok::Mat3x4)),
        ("mat4x2", Keyword(Tok::Mat4x2)),
        ("mat4x3", Keyword(Tok::Mat4x3)),
        ("mat4x4", Keyword(Tok::Mat4)),
        ("mediump", Keyword(Tok::PrecQual)),
        ("namespace", Reserved),
        ("noinline", Reserved),
        ("noperspective", Keyword(Tok::NoPerspective)),
        ("output", Reserved),
        ("packed", Reserved),
        ("partition", Reserved),
        ("patch", Ident),
        ("precise", Ident),
        ("precision", Keyword(Tok::Precision)),
        ("public", Reserved),
        ("readonly", Ident),
        ("restrict", Ident),
        ("row_major", Reserved),
        ("sample", Ident),
        ("sampler1D", Later),
        ("sampler1DArray", Later),
        ("sampler1DArrayShadow", Later),
        ("sampler1DShadow", Later),
        ("sampler2DArray", Keyword(Tok::Sampler2DArray)),
        ("sampler2DArrayShadow", Later),
        ("sampler2DMS", Later),
        ("sampler2DMSArray", Later),
        ("sampler2DRect", Later),
        ("sampler2DRectShadow", Later),
        ("sampler2DShadow", Keyword(Tok::Sampler2DShadow)),
        ("sampler3D", Later),
        ("sampler3DRect", Reserved),
        ("samplerBuffer", Later),
        ("samplerCube", Keyword(Tok::SamplerCube)),
        ("samplerCubeShadow", Keyword(Tok::SamplerCubeShadow)),
        ("shared", Ident),
        ("short", Reserved),
        ("sizeof", Reserved),
        ("static", Reserved),
        ("superp", Reserved),
        ("template", Reserved),
        ("this", Reserved),
        ("typedef", Reserved),
        ("uimage1D", Reserved),
        ("uimage1DArray", Reserved),
        ("uimage2D", Reserved),
        ("uimage2DArray", Reserved),
        ("uimage3D", Reserved),
        ("uimageBuffer", Reserved),
        ("uimageCube", Reserved),
        ("uint", Keyword(Tok::Uint)),
        ("union", Reserved),
        ("unsigned", Reserved),
        ("usampler1D", Later),
        ("usampler1DArray", Later),
        ("usampler2D", Keyword(Tok::USampler2D)),
        ("usampler2DArray", Keyword(Tok::USampler2DArray)),
        ("usampler2DMS", Later),
        ("usampler2DMSArray", Later),
        ("usampler2DRect", Later),
        ("usampler3D", Later),
        ("usamplerBuffer", Later),
        ("usamplerCube", Later),
        ("using", Reserved),
        ("uvec2", Keyword(Tok::UVec2)),
        ("uvec3", Keyword(Tok::UVec3)),
        ("uvec4", Keyword(Tok::UVec4)),
        ("volatile", Reserved),
        ("writeonly", Ident),
    ]
};

/// Open-addressed hash of [`P2_WORDS`] built at compile time (an entry is 0, empty, or the
/// word's index + 1): a word costs one hash and usually one compare instead of a binary
/// search's eight.
const P2_SLOTS: usize = 512;
const _: () = assert!(P2_WORDS.len() < P2_SLOTS / 2);

const fn p2_hash(w: &[u8]) -> usize {
    // FNV-1a.
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < w.len() {
        h ^= w[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    (h ^ (h >> 16)) as usize & (P2_SLOTS - 1)
}

const P2_TABLE: [u16; P2_SLOTS] = {
    let mut t = [0u16; P2_SLOTS];
    let mut i = 0;
    while i < P2_WORDS.len() {
        let mut h = p2_hash(P2_WORDS[i].0.as_bytes());
        while t[h] != 0 {
            h = (h + 1) & (P2_SLOTS - 1);
        }
        t[h] = i as u16 + 1;
        i += 1;
    }
    t
};

/// The longest word of [`P2_WORDS`] is shorter than this.
const P2_LEN_LIMIT: usize = 21;

/// For each lower-case first letter, a bit per length that some word of [`P2_WORDS`] has: most
/// identifiers are ruled out by this one load, before the hash.
const P2_SHAPES: [u32; 26] = {
    let mut t = [0u32; 26];
    let mut i = 0;
    while i < P2_WORDS.len() {
        let w = P2_WORDS[i].0.as_bytes();
        assert!(w[0].is_ascii_lowercase() && w.len() < P2_LEN_LIMIT);
        t[(w[0] - b'a') as usize] |= 1 << w.len();
        i += 1;
    }
    t
};

/// Profile 2's reading of `w` when it differs from the shared tables' (see [`P2_WORDS`]).
pub fn p2_word(w: &[u8]) -> Option<P2Word> {
    let first = *w.first()?;
    // Every word starts with a lower-case letter; most identifiers are ruled out here.
    if !first.is_ascii_lowercase() || w.len() >= P2_LEN_LIMIT {
        return None;
    }
    let shapes = P2_SHAPES.get(first.wrapping_sub(b'a') as usize).copied();
    if shapes.unwrap_or(0) & (1 << w.len()) == 0 {
        return None;
    }
    let mut h = p2_hash(w);
    // Bounded by the table size; the table is at most half full, so an empty slot ends it.
    for _ in 0..P2_SLOTS {
        let e = *P2_TABLE.get(h)? as usize;
        let &(text, kind) = P2_WORDS.get(e.checked_sub(1)?)?;
        if text.as_bytes() == w {
            return Some(kind);
        }
        h = (h + 1) & (P2_SLOTS - 1);
    }
    None
}

/// Whether profile 2 accepts the rejected qualifier `w` (its profile-1 diagnostic gets the hint).
fn p2_accepts(w: &str) -> bool {
    matches!(p2_word(w.as_bytes()), Some(P2Word::Keyword(_)))
}

/// The keyword tables' first lookup (one hash per table word's first and last byte and length,
/// behind a first-byte/length filter), kept as the reference [`READINGS`] is tested against.
#[cfg(test)]
mod word_oracle {
    use super::*;

    /// What a word of the three tables above is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) enum Word {
        Keyword(Tok),
        /// Index in [`REJECTED_QUALIFIERS`].
        Rejected(usize),
        Reserved,
    }

    /// Open-addressed hash of every word of [`KEYWORDS`], [`REJECTED_QUALIFIERS`] and [`RESERVED`],
    /// built at compile time: an identifier costs one hash and usually one probe instead of a
    /// string compare per table entry. An entry is 0 (empty) or a table tag plus an index.
    const WORD_SLOTS: usize = 128;
    const TAG_KEYWORD: u8 = 0x40;
    const TAG_REJECTED: u8 = 0x80;
    const TAG_RESERVED: u8 = 0xc0;
    /// Every table word is 2 to 13 bytes long.
    const WORD_LEN_MIN: usize = 2;
    const WORD_LEN_MAX: usize = 13;

    const fn word_hash(first: u8, last: u8, len: usize) -> usize {
        // Coefficients chosen offline for few collisions among the 54 words (probing handles them).
        (first as usize + last as usize * 19 + len * 5) & (WORD_SLOTS - 1)
    }

    const fn insert(t: &mut [u8; WORD_SLOTS], w: &[u8], entry: u8) {
        let mut h = word_hash(w[0], w[w.len() - 1], w.len());
        while t[h] != 0 {
            h = (h + 1) & (WORD_SLOTS - 1);
        }
        t[h] = entry;
    }

    /// For each ASCII first byte, a bit per length (2 to 13) that some table word has: most
    /// identifiers are ruled out by this one load, before any hashing.
    const WORD_SHAPES: [u16; 128] = {
        const fn mark(t: &mut [u16; 128], w: &[u8]) {
            t[w[0] as usize & 127] |= 1 << w.len();
        }
        let mut t = [0u16; 128];
        let mut i = 0;
        while i < KEYWORDS.len() {
            mark(&mut t, KEYWORDS[i].0.as_bytes());
            i += 1;
        }
        i = 0;
        while i < REJECTED_QUALIFIERS.len() {
            mark(&mut t, REJECTED_QUALIFIERS[i].0.as_bytes());
            i += 1;
        }
        i = 0;
        while i < RESERVED.len() {
            mark(&mut t, RESERVED[i].as_bytes());
            i += 1;
        }
        t
    };

    /// Whether `w` has the first byte and length of some table word.
    #[inline(always)]
    pub(super) fn may_be_word(w: &[u8]) -> bool {
        match w.first() {
            Some(&c) if w.len() <= WORD_LEN_MAX => {
                (WORD_SHAPES[c as usize & 127] >> w.len()) & 1 != 0
            }
            _ => false,
        }
    }

    const WORD_TABLE: [u8; WORD_SLOTS] = {
        let mut t = [0u8; WORD_SLOTS];
        let mut i = 0;
        while i < KEYWORDS.len() {
            insert(&mut t, KEYWORDS[i].0.as_bytes(), TAG_KEYWORD | i as u8);
            i += 1;
        }
        i = 0;
        while i < REJECTED_QUALIFIERS.len() {
            insert(
                &mut t,
                REJECTED_QUALIFIERS[i].0.as_bytes(),
                TAG_REJECTED | i as u8,
            );
            i += 1;
        }
        i = 0;
        while i < RESERVED.len() {
            insert(&mut t, RESERVED[i].as_bytes(), TAG_RESERVED | i as u8);
            i += 1;
        }
        t
    };

    /// Looks an identifier-shaped word up in the keyword, rejected and reserved tables.
    #[inline]
    pub(super) fn word(w: &[u8]) -> Option<Word> {
        if !(WORD_LEN_MIN..=WORD_LEN_MAX).contains(&w.len()) {
            return None;
        }
        let (&first, &last) = (w.first()?, w.last()?);
        let mut h = word_hash(first, last, w.len());
        // Bounded by the table size; the table always has empty slots, which end the probe.
        for _ in 0..WORD_SLOTS {
            let e = *WORD_TABLE.get(h)?;
            if e == 0 {
                return None;
            }
            let i = (e & 0x3f) as usize;
            let (text, found) = match e & 0xc0 {
                TAG_KEYWORD => {
                    let &(t, k) = KEYWORDS.get(i)?;
                    (t, Word::Keyword(k))
                }
                TAG_REJECTED => (REJECTED_QUALIFIERS.get(i)?.0, Word::Rejected(i)),
                _ => (*RESERVED.get(i)?, Word::Reserved),
            };
            // An inline byte loop: the words are short, and a library compare call cost more.
            let t = text.as_bytes();
            if t.len() == w.len() && t.iter().zip(w).all(|(a, b)| a == b) {
                return Some(found);
            }
            h = (h + 1) & (WORD_SLOTS - 1);
        }
        None
    }
}

/// How a name reads in one profile: what the shared tables ([`KEYWORDS`],
/// [`REJECTED_QUALIFIERS`], [`RESERVED`]) make of it (profile 1), or profile 2's rule (its own
/// words first, [`P2_WORDS`], then the shared tables), found in [`READINGS`] by one hash of the
/// name's bytes instead of shape filters, a hash per table and byte compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    /// An identifier.
    Name,
    /// A keyword token (profile 2's `inout` is `Tok::InOut`).
    Keyword(Tok),
    /// A `Tok::Reserved` token (a word the parser names).
    Reserved,
    /// Profile 2: a word reserved for future use, an error as a name.
    ReservedName,
    /// A rejected qualifier (index in [`REJECTED_QUALIFIERS`]), reported and dropped.
    Rejected(u8),
}

/// Slots of [`READINGS`] (a power of two; about a third are used).
const READING_SLOTS: usize = 512;
/// Table names are at most this long as a key; longer names are answered without the table.
const KEY_LEN: usize = 16;

/// A name of 1 to 16 bytes as a number: its bytes in order from the low byte, zero above
/// (names have no NUL byte, so each name has its own key).
const fn const_key(w: &[u8]) -> u128 {
    let mut k = 0u128;
    let mut i = 0;
    while i < w.len() {
        k |= (w[i] as u128) << (8 * i);
        i += 1;
    }
    k
}

#[inline(always)]
const fn key_slot(key: u128) -> usize {
    let folded = (key as u64)
        .wrapping_add((key >> 64) as u64)
        .rotate_left(29);
    (folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 55) as usize & (READING_SLOTS - 1)
}

/// Every word of [`KEYWORDS`], [`REJECTED_QUALIFIERS`], [`RESERVED`] and [`P2_WORDS`] of at
/// most [`KEY_LEN`] bytes, open-addressed by [`key_slot`] (key 0: an empty slot), with how each
/// profile reads it.
struct Readings {
    keys: [u128; READING_SLOTS],
    p1: [Reading; READING_SLOTS],
    p2: [Reading; READING_SLOTS],
}

const fn reading_slot_of(keys: &mut [u128; READING_SLOTS], w: &[u8]) -> usize {
    assert!(!w.is_empty() && w.len() <= KEY_LEN);
    let key = const_key(w);
    let mut h = key_slot(key);
    while keys[h] != 0 && keys[h] != key {
        h = (h + 1) & (READING_SLOTS - 1);
    }
    keys[h] = key;
    h
}

const READINGS: Readings = {
    let mut t = Readings {
        keys: [0; READING_SLOTS],
        p1: [Reading::Name; READING_SLOTS],
        p2: [Reading::Name; READING_SLOTS],
    };
    // The shared tables first (no word is in two of them: a test checks it), as `word` and
    // profile 2's fallback to it read them; then profile 2's own words, which come first there.
    let mut i = 0;
    while i < KEYWORDS.len() {
        let s = reading_slot_of(&mut t.keys, KEYWORDS[i].0.as_bytes());
        t.p1[s] = Reading::Keyword(KEYWORDS[i].1);
        t.p2[s] = Reading::Keyword(KEYWORDS[i].1);
        i += 1;
    }
    i = 0;
    while i < REJECTED_QUALIFIERS.len() {
        let w = REJECTED_QUALIFIERS[i].0.as_bytes();
        let s = reading_slot_of(&mut t.keys, w);
        t.p1[s] = Reading::Rejected(i as u8);
        t.p2[s] = if const_key(w) == const_key(b"inout") {
            Reading::Keyword(Tok::InOut)
        } else {
            Reading::Rejected(i as u8)
        };
        i += 1;
    }
    i = 0;
    while i < RESERVED.len() {
        let s = reading_slot_of(&mut t.keys, RESERVED[i].as_bytes());
        t.p1[s] = Reading::Reserved;
        t.p2[s] = Reading::Reserved;
        i += 1;
    }
    i = 0;
    while i < P2_WORDS.len() {
        let w = P2_WORDS[i].0.as_bytes();
        if w.len() <= KEY_LEN {
            let s = reading_slot_of(&mut t.keys, w);
            t.p2[s] = p2_reading_of(P2_WORDS[i].1);
        }
        i += 1;
    }
    t
};

/// Profile 2's reading of one of its own words.
const fn p2_reading_of(w: P2Word) -> Reading {
    match w {
        P2Word::Keyword(k) => Reading::Keyword(k),
        P2Word::Later => Reading::Reserved,
        P2Word::Ident => Reading::Name,
        P2Word::Reserved => Reading::ReservedName,
    }
}

/// The low `len` bytes of a key, for each `len` up to [`KEY_LEN`] (one load instead of a
/// variable 128-bit shift).
const KEY_MASK: [u128; KEY_LEN + 1] = {
    let mut t = [0u128; KEY_LEN + 1];
    let mut i = 1;
    while i <= KEY_LEN {
        t[i] = u128::MAX >> (128 - 8 * i as u32);
        i += 1;
    }
    t
};

/// The slot of the name `src[start..start + len]` in [`READINGS`], if it is a table word of at
/// most [`KEY_LEN`] bytes.
#[inline(always)]
fn reading_slot(src: &[u8], start: usize, len: usize) -> Option<usize> {
    if len == 0 || len > KEY_LEN {
        return None;
    }
    // Sixteen bytes in one load where the source has them (the usual case), else copied.
    let raw = match src.get(start..start + KEY_LEN) {
        Some(b) => u128::from_le_bytes(b.try_into().ok()?),
        None => {
            let mut buf = [0u8; KEY_LEN];
            for (d, s) in buf.iter_mut().zip(src.get(start..start + len)?) {
                *d = *s;
            }
            u128::from_le_bytes(buf)
        }
    };
    probe(raw & *KEY_MASK.get(len)?)
}

/// Profile 1's reading of the name `src[start..start + len]` (what the shared keyword tables say).
#[cfg(test)]
fn p1_reading(src: &[u8], start: usize, len: usize) -> Reading {
    reading_slot(src, start, len)
        .and_then(|s| READINGS.p1.get(s).copied())
        .unwrap_or(Reading::Name)
}

/// Profile 2's reading of the name `src[start..start + len]`.
#[inline(always)]
fn p2_reading(src: &[u8], start: usize, len: usize) -> Reading {
    if len > KEY_LEN {
        // Longer than every shared word: only profile 2's own long words are not names.
        let name = src.get(start..start + len).unwrap_or(&[]);
        return p2_word(name).map_or(Reading::Name, p2_reading_of);
    }
    reading_slot(src, start, len)
        .and_then(|s| READINGS.p2.get(s).copied())
        .unwrap_or(Reading::Name)
}

/// A table slot's token in each profile when the name is read there: the keyword's kind,
/// `Tok::Reserved`, `Tok::Ident` for a name, and `Tok::Eof` for the rare readings the lexers
/// handle out of line (profile 1: a rejected qualifier; profile 2: a reserved word or a
/// rejected qualifier, which the preprocessor reports). One byte load instead of a match on
/// the two-byte [`Reading`].
const fn slot_kind(r: Reading, p2: bool) -> Tok {
    match r {
        Reading::Name => Tok::Ident,
        Reading::Keyword(k) => k,
        Reading::Reserved => Tok::Reserved,
        Reading::ReservedName if !p2 => Tok::Reserved,
        Reading::ReservedName | Reading::Rejected(_) => Tok::Eof,
    }
}

const SLOT_KINDS: [[Tok; READING_SLOTS]; 2] = {
    let mut t = [[Tok::Ident; READING_SLOTS]; 2];
    let mut i = 0;
    while i < READING_SLOTS {
        t[0][i] = slot_kind(READINGS.p1[i], false);
        t[1][i] = slot_kind(READINGS.p2[i], true);
        i += 1;
    }
    t
};

/// Slots of [`SHORT`], the table words of at most 8 bytes (two thirds of them, and most of the
/// names a shader spells) keyed by one `u64`: one slot per word, so a name costs one multiply,
/// one load and one compare, with no probing.
const SHORT_SLOTS: usize = 512;
/// A multiplier under which every word of [`SHORT`] has a slot of its own (found by trying
/// random odd numbers; building the table asserts it, so a new word that collides fails the
/// build and needs another multiplier).
const SHORT_MUL: u64 = 0xc44d_7c4f_6f46_66ef;

#[inline(always)]
const fn short_slot(key: u64) -> usize {
    (key.wrapping_mul(SHORT_MUL) >> (64 - SHORT_SLOTS.trailing_zeros())) as usize
}

/// The words of [`READINGS`] of at most 8 bytes (their key's high half is 0) by [`short_slot`]:
/// the low half of the key (0: an empty slot) and the word's slot in [`READINGS`].
struct Short {
    keys: [u64; SHORT_SLOTS],
    slots: [u16; SHORT_SLOTS],
}

const SHORT: Short = {
    let mut t = Short {
        keys: [0; SHORT_SLOTS],
        slots: [0; SHORT_SLOTS],
    };
    let mut i = 0;
    while i < READING_SLOTS {
        let k = READINGS.keys[i];
        if k != 0 && k >> 64 == 0 {
            let h = short_slot(k as u64);
            assert!(
                t.keys[h] == 0,
                "SHORT_MUL must give every short word its own slot"
            );
            t.keys[h] = k as u64;
            t.slots[h] = i as u16;
        }
        i += 1;
    }
    t
};

/// [`probe`] for a key of at most 8 bytes (nonzero: a name's first byte is not NUL).
#[inline(always)]
fn short_probe(key: u64) -> Option<usize> {
    let h = short_slot(key);
    if SHORT.keys.get(h) == Some(&key) {
        // (Always below `READING_SLOTS`: the mask tells the compiler so.)
        SHORT
            .slots
            .get(h)
            .map(|&s| s as usize & (READING_SLOTS - 1))
    } else {
        None
    }
}

/// The slot of `key` (a name of at most [`KEY_LEN`] bytes as [`const_key`] makes it) in
/// [`READINGS`], if it is a table word.
#[inline(always)]
fn probe(key: u128) -> Option<usize> {
    let mut h = key_slot(key);
    // Bounded by the table size; a third full, so an empty slot soon ends a miss.
    for _ in 0..READING_SLOTS {
        let k = *READINGS.keys.get(h)?;
        if k == key {
            return Some(h);
        }
        if k == 0 {
            return None;
        }
        h = (h + 1) & (READING_SLOTS - 1);
    }
    None
}

/// The name starting at `start` (whose first byte is a name byte): its length and its slot in
/// [`READINGS`] when it is a table word. Where the source has sixteen bytes from `start` (the
/// usual case) they are read once, as an array (no bounds test per byte) and as the key.
#[inline(always)]
fn scan_name(src: &[u8], start: usize) -> (usize, Option<usize>) {
    // A reference: a copy of the array was loaded byte by byte and reassembled for the key.
    if let Some(bytes) = src
        .get(start..start + KEY_LEN)
        .and_then(|b| <&[u8; KEY_LEN]>::try_from(b).ok())
    {
        let mut n = 1;
        while n < KEY_LEN && IDENT_BYTE[bytes[n] as usize] {
            n += 1;
        }
        if n == KEY_LEN {
            if let Some(n) = long_name_len(src, start) {
                // Longer than every table word.
                return (n, None);
            }
        }
        if n <= 8 {
            // (The low half of the 16-byte key: one load, not the bytes the scan read.)
            let low = u128::from_le_bytes(*bytes) as u64;
            return (n, short_probe(low & KEY_MASK[n] as u64));
        }
        let key = u128::from_le_bytes(*bytes) & KEY_MASK[n];
        return (n, probe(key));
    }
    scan_name_near_end(src, start)
}

/// The length of a name whose first sixteen bytes are name bytes, when it has more (out of line:
/// few names are that long).
#[cold]
#[inline(never)]
fn long_name_len(src: &[u8], start: usize) -> Option<usize> {
    match ident_run(src.get(start + KEY_LEN..).unwrap_or(&[])) {
        0 => None,
        more => Some(KEY_LEN + more),
    }
}

/// [`scan_name`] for a name less than sixteen bytes from the source's end (the last names of a
/// source): out of line, and its key assembled byte by byte (the copy into a buffer that
/// [`reading_slot`] makes there was a `memcpy` call).
#[cold]
#[inline(never)]
fn scan_name_near_end(src: &[u8], start: usize) -> (usize, Option<usize>) {
    let rest = src.get(start..).unwrap_or(&[]);
    let n = ident_run(rest);
    if n == 0 || n > KEY_LEN {
        return (n, None);
    }
    let mut key = 0u128;
    for (i, &b) in rest.iter().take(n).enumerate() {
        key |= (b as u128) << (8 * i);
    }
    (n, probe(key))
}

/// Integer literals must stay exactly representable in f32 (the IR holds ints as floats).
pub const INT_LITERAL_MAX: u32 = 1 << 24;
/// Profile 2's largest integer literal (its integers are 32-bit).
pub const P2_INT_LITERAL_MAX: u32 = u32::MAX;

/// The tokens of one source, always ending with an EOF token.
// repr(C) with the scalar first keeps construction from memsetting the token storage.
#[repr(C)]
pub struct Tokens {
    /// `#version` number, 0 when absent.
    pub version: u32,
    /// The language profile of the compile: every later phase reads its bounds and features
    /// from here.
    pub profile: Profile,
    /// Where the token after the `TOK_MAX`th begins, when the source has more: lexing stopped
    /// there. The error is reported by [`report_overflow`] after parsing, so that problems
    /// earlier in the source are reported first.
    pub overflow: Option<(u32, u32)>,
    pub toks: Vec<Token, { TOK_CAP + 1 }>,
}

/// Reports the token limit when the source passed it (after the parser's earlier errors).
pub fn report_overflow(toks: &Tokens, diag: &mut Diagnostics) {
    if let Some((line, col)) = toks.overflow {
        diag.push(
            line,
            col,
            format_args!(
                "too many tokens: the limit is {} tokens per shader",
                limits(toks.profile).tokens_max
            ),
        );
    }
}

impl Default for Tokens {
    fn default() -> Self {
        Tokens::new()
    }
}

impl Tokens {
    /// An empty token list (construction touches no token storage).
    #[inline(always)]
    pub const fn new() -> Tokens {
        Tokens {
            version: 0,
            profile: Profile::P1,
            overflow: None,
            toks: Vec::new(),
        }
    }

    pub fn get(&self, i: i16) -> Option<&Token> {
        if i < 0 {
            return None;
        }
        self.toks.get(i as usize)
    }
}

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
    line_start: bool,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.src
            .get(self.pos.saturating_add(k))
            .copied()
            .unwrap_or(0)
    }
    fn bump(&mut self) {
        if let Some(&b) = self.src.get(self.pos) {
            self.pos += 1;
            if b == b'\n' {
                self.line = self.line.saturating_add(1);
                self.col = 1;
                self.line_start = true;
            } else {
                self.col = self.col.saturating_add(1);
            }
        }
    }
}

fn clamp16(v: u32) -> u16 {
    if v > u16::MAX as u32 {
        u16::MAX
    } else {
        v as u16
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Byte classes of the lexer's first dispatch.
const C_OTHER: u8 = 0;
const C_IDENT: u8 = 1;
/// Punctuation that is always a one-byte token: `( ) { } [ ] ; , ? :`.
const C_PUNCT: u8 = 2;
/// Blanks other than the newline: space, tab, CR, VT, FF.
const C_BLANK: u8 = 3;
const C_NEWLINE: u8 = 4;
const C_DIGIT: u8 = 5;
/// Bytes that begin an operator (or, for `/` and `.`, possibly a comment or a number).
const C_OP: u8 = 6;
const CLASS: [u8; 256] = {
    let mut t = [C_OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            t[b] = C_IDENT;
        }
        b += 1;
    }
    let p = b"(){}[];,?:";
    let mut i = 0;
    while i < p.len() {
        t[p[i] as usize] = C_PUNCT;
        i += 1;
    }
    let blanks = b" \t\r\x0b\x0c";
    i = 0;
    while i < blanks.len() {
        t[blanks[i] as usize] = C_BLANK;
        i += 1;
    }
    t[b'\n' as usize] = C_NEWLINE;
    let ops = b".+-*/%=<>!&|";
    i = 0;
    while i < ops.len() {
        t[ops[i] as usize] = C_OP;
        i += 1;
    }
    i = 0;
    while i < 10 {
        t[b'0' as usize + i] = C_DIGIT;
        i += 1;
    }
    t
};
/// The token of each [`C_PUNCT`] byte.
const SINGLE: [Tok; 256] = {
    let mut t = [Tok::Eof; 256];
    t[b'(' as usize] = Tok::LParen;
    t[b')' as usize] = Tok::RParen;
    t[b'{' as usize] = Tok::LBrace;
    t[b'}' as usize] = Tok::RBrace;
    t[b'[' as usize] = Tok::LBracket;
    t[b']' as usize] = Tok::RBracket;
    t[b';' as usize] = Tok::Semi;
    t[b',' as usize] = Tok::Comma;
    t[b'?' as usize] = Tok::Question;
    t[b':' as usize] = Tok::Colon;
    t
};

/// Identifier bytes, for the identifier scan: one table load per byte instead of range tests.
const IDENT_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    t
};

/// Bytes a source may hold, comments included: printable ASCII, space, tab, CR, LF, VT and FF.
const TEXT_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        t[b] = true;
        b += 1;
    }
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[0x0b] = true;
    t[0x0c] = true;
    t
};

/// A NUL, control or non-ASCII byte inside a comment (the first of its comment).
#[inline(never)]
fn bad_comment_byte(diag: &mut Diagnostics, line: u32, col: u32, b: Option<u8>) {
    diag.push(
        line,
        col,
        format_args!(
            "invalid character (byte 0x{:02x}) in a comment: only ASCII text is accepted, comments included",
            b.unwrap_or(0)
        ),
    );
}

/// Length of the identifier run (`[A-Za-z0-9_]*`) at the start of `rest`.
pub(crate) fn ident_run(rest: &[u8]) -> usize {
    // Four bytes a step: most names are a few bytes long, and the loop overhead per byte
    // cost as much as the class test.
    let mut n = 0;
    let mut quads = rest.chunks_exact(4);
    for q in quads.by_ref() {
        if let [a, b, c, d] = *q {
            if !IDENT_BYTE[a as usize] {
                return n;
            }
            if !IDENT_BYTE[b as usize] {
                return n + 1;
            }
            if !IDENT_BYTE[c as usize] {
                return n + 2;
            }
            if !IDENT_BYTE[d as usize] {
                return n + 3;
            }
        }
        n += 4;
    }
    n + quads
        .remainder()
        .iter()
        .position(|&b| !IDENT_BYTE[b as usize])
        .unwrap_or(quads.remainder().len())
}

/// Length of the line at the start of `rest`: the index of its first newline, or `rest`'s
/// length. Eight bytes a step (a byte equal to `\n` is a zero byte of `word ^ 0x0a..0a`, and
/// the lowest flagged byte is always a true zero): comment and directive lines are long.
pub(crate) fn line_len(rest: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut n = 0;
    let mut words = rest.chunks_exact(8);
    for w in words.by_ref() {
        if let Ok(bytes) = <[u8; 8]>::try_from(w) {
            let x = u64::from_le_bytes(bytes) ^ (ONES * b'\n' as u64);
            let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
            if zero != 0 {
                return n + (zero.trailing_zeros() / 8) as usize;
            }
        }
        n += 8;
    }
    let tail = words.remainder();
    n + tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len())
}

/// Lexes `src` (the caller has checked its length). Errors go to `diag`; lexing stops at the
/// token limit or an unterminated comment.
pub fn lex(src: &[u8], diag: &mut Diagnostics, out: &mut Tokens) {
    // Every offset, length, line and column of a source shorter than 64 KiB fits in u16, so
    // the usual case needs no clamping per token.
    if src.len() < u16::MAX as usize {
        lex_with::<false>(src, diag, out)
    } else {
        lex_with::<true>(src, diag, out)
    }
}

/// Narrows a position to a token field: clamped when `WIDE` (a source of 64 KiB or more).
#[inline(always)]
fn narrow<const WIDE: bool>(v: u32) -> u16 {
    if WIDE {
        clamp16(v)
    } else {
        v as u16
    }
}

fn lex_with<const WIDE: bool>(src: &[u8], diag: &mut Diagnostics, out: &mut Tokens) {
    out.toks.clear();
    out.version = 0;
    out.profile = Profile::P1;
    out.overflow = None;
    // The cursor lives in locals (registers) on the hot path: a column is the distance from the
    // line's first byte, so ordinary bytes update nothing but `pos`. Names, one-byte
    // punctuators, blanks and newlines (most of a source) are lexed here; everything else
    // (comments, directives, numbers, operators that may pair up, bad bytes) by `lex_other`,
    // out of line, which keeps this loop's state in registers.
    let mut cur = Cursor {
        pos: 0,
        line: 1,
        line_begin: 0,
        line_start: true,
        seen_version: false,
    };
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    // Stores a token that ends at the cursor (or notes the overflow and leaves the loop), then
    // skips the usual single space after it without a trip round the loop.
    macro_rules! store {
        ($start:expr, $kind:expr, $value:expr) => {{
            let col = column($start, cur.line_begin);
            if out.toks.len() >= TOK_MAX {
                out.overflow = Some((cur.line, col));
                break;
            }
            let _ = out.toks.push(Token {
                kind: $kind,
                off: $start as u32,
                len: narrow::<WIDE>((cur.pos - $start) as u32),
                line: cur.line,
                col: narrow::<WIDE>(col),
                exp: 0,
                value: $value,
            });
            while at(cur.pos) == b' ' {
                cur.pos += 1;
            }
        }};
    }
    // The error list can only fill on the paths that report (names, numbers, `lex_other`):
    // those test it and, when it is full, store their token and leave the loop, so the usual
    // token tests only its position (the loop's condition is the source's own bound).
    // (An error list full before lexing: no token at all.)
    if !diag.full() {
        while let Some(&c) = src.get(cur.pos) {
            let start = cur.pos;
            macro_rules! other {
                () => {{
                    // A copy: the cursor itself stays in registers (its address is not taken).
                    let mut moved = cur;
                    let col = column(start, cur.line_begin);
                    let r = lex_other(src, &mut moved, c, col, diag, out);
                    cur = moved;
                    let full = diag.full();
                    match r {
                        Other::Token(k, v) if full => {
                            store!(start, k, v);
                            break;
                        }
                        Other::Token(k, v) => (k, v),
                        Other::Skip if !full => continue,
                        Other::Skip | Other::Stop => break,
                    }
                }};
            }
            // One class-table load sends each byte to its code.
            let (kind, value) = match CLASS[c as usize] {
                C_IDENT => {
                    cur.line_start = false;
                    let (n, slot) = scan_name(src, start);
                    cur.pos += n;
                    match slot {
                        Some(s) => match SLOT_KINDS[0][s] {
                            Tok::Eof => {
                                if let Some(&Reading::Rejected(i)) = READINGS.p1.get(s) {
                                    let col = column(start, cur.line_begin);
                                    rejected_qualifier(i, out, diag, cur.line, col);
                                }
                                if diag.full() {
                                    break;
                                }
                                continue;
                            }
                            k => (k, 0),
                        },
                        None => {
                            if n >= NAME_MAX {
                                long_name(n, diag, cur.line, column(start, cur.line_begin));
                                if diag.full() {
                                    store!(start, Tok::Ident, 0);
                                    break;
                                }
                            }
                            (Tok::Ident, 0)
                        }
                    }
                }
                C_PUNCT => {
                    cur.line_start = false;
                    cur.pos += 1;
                    (SINGLE[c as usize], 0)
                }
                C_BLANK => {
                    cur.pos += 1;
                    while CLASS[at(cur.pos) as usize] == C_BLANK {
                        cur.pos += 1;
                    }
                    continue;
                }
                C_NEWLINE => {
                    cur.pos += 1;
                    cur.line = cur.line.saturating_add(1);
                    cur.line_begin = cur.pos;
                    cur.line_start = true;
                    // The next line's indentation, without a trip round the loop.
                    while CLASS[at(cur.pos) as usize] == C_BLANK {
                        cur.pos += 1;
                    }
                    continue;
                }
                C_DIGIT => {
                    cur.line_start = false;
                    // The usual literal inline; the general path (and every report) out of line.
                    match plain_number(src.get(start..).unwrap_or(&[])) {
                        Some((n, r)) => {
                            cur.pos += n;
                            r
                        }
                        None => {
                            let col = column(start, cur.line_begin);
                            let (end, r) = number_general(src, start, diag, cur.line, col, false);
                            cur.pos = end;
                            // Reported: a zero literal of the same kind stands in for it, so the
                            // parser does not report the hole it would leave.
                            let r = r.unwrap_or_else(|k| (k, 0));
                            if diag.full() {
                                store!(start, r.0, r.1);
                                break;
                            }
                            r
                        }
                    }
                }
                // An operator, unless it begins a comment or a number (`.5`).
                C_OP if !matches!(
                    (c, at(cur.pos + 1)),
                    (b'/', b'/' | b'*') | (b'.', b'0'..=b'9')
                ) =>
                {
                    match punct(c, at(cur.pos + 1)) {
                        Some((k, n)) => {
                            cur.line_start = false;
                            cur.pos += n;
                            (k, 0)
                        }
                        None => other!(),
                    }
                }
                _ => other!(),
            };
            store!(start, kind, value);
        }
    }
    let eof = Token {
        kind: Tok::Eof,
        off: cur.pos as u32,
        len: 0,
        line: cur.line,
        col: narrow::<WIDE>(column(cur.pos, cur.line_begin)),
        exp: 0,
        value: 0,
    };
    if out.toks.is_full() {
        let _ = out.toks.pop();
    }
    let _ = out.toks.push(eof);
}

/// Profile 1's lexing position (see `lex_with`).
#[derive(Clone, Copy)]
struct Cursor {
    pos: usize,
    line: u32,
    line_begin: usize,
    /// Only blanks and comments since the last newline (a directive may begin here).
    line_start: bool,
    seen_version: bool,
}

/// What `lex_other` found.
enum Other {
    /// A token (kind and value) ending at the cursor.
    Token(Tok, u32),
    /// Nothing to store (a comment, a directive, a reported byte): on with the next byte.
    Skip,
    /// Lexing ends (an unterminated block comment).
    Stop,
}

/// A rejected qualifier (profile 1): reported, and dropped from the tokens.
#[cold]
#[inline(never)]
fn rejected_qualifier(i: u8, out: &Tokens, diag: &mut Diagnostics, line: u32, col: u32) {
    if let Some(&(w, advice)) = REJECTED_QUALIFIERS.get(i as usize) {
        // `inout` as a parameter qualifier (after '(' ',' or 'const').
        let param = matches!(
            out.toks.last().map(|t| t.kind),
            Some(Tok::LParen | Tok::Comma | Tok::Const)
        );
        let hint = if (w == "inout" && param) || (w != "inout" && p2_accepts(w)) {
            P2_HINT
        } else {
            ""
        };
        diag.push(
            line,
            col,
            format_args!("unsupported qualifier '{}': {}{}", w, advice, hint),
        );
    }
}

/// A profile-1 name over the length limit (kept as a name).
#[cold]
#[inline(never)]
fn long_name(n: usize, diag: &mut Diagnostics, line: u32, col: u32) {
    diag.push(
        line,
        col,
        format_args!(
            "identifier is {} characters long; the limit is {}",
            n,
            NAME_MAX - 1
        ),
    );
}

/// Profile 1: the bytes `lex_with` does not lex itself, starting with `c` at the cursor (in
/// column `col`): comments, directives, numbers, operators and bad bytes.
#[inline(never)]
fn lex_other(
    src: &[u8],
    cur: &mut Cursor,
    c: u8,
    col: u32,
    diag: &mut Diagnostics,
    out: &mut Tokens,
) -> Other {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let start = cur.pos;
    match c {
        b'/' if at(cur.pos + 1) == b'/' => {
            let rest = src.get(cur.pos..).unwrap_or(&[]);
            let len = line_len(rest);
            let body = rest.get(..len).unwrap_or(&[]);
            if let Some(k) = body.iter().position(|&b| !TEXT_BYTE[b as usize]) {
                let at_col = column(cur.pos + k, cur.line_begin);
                bad_comment_byte(diag, cur.line, at_col, body.get(k).copied());
            }
            cur.pos += len;
            return Other::Skip;
        }
        b'/' if at(cur.pos + 1) == b'*' => {
            let comment_line = cur.line;
            cur.pos += 2;
            let mut closed = false;
            let mut bad = false;
            while cur.pos < src.len() {
                match at(cur.pos) {
                    b'*' if at(cur.pos + 1) == b'/' => {
                        cur.pos += 2;
                        closed = true;
                        break;
                    }
                    b'\n' => {
                        cur.pos += 1;
                        cur.line = cur.line.saturating_add(1);
                        cur.line_begin = cur.pos;
                    }
                    b => {
                        if !TEXT_BYTE[b as usize] && !bad {
                            // Once per comment.
                            bad = true;
                            let at_col = column(cur.pos, cur.line_begin);
                            bad_comment_byte(diag, cur.line, at_col, Some(b));
                        }
                        cur.pos += 1
                    }
                }
            }
            if !closed {
                diag.push(
                    comment_line,
                    col,
                    format_args!("unterminated block comment: '/*' has no matching '*/'"),
                );
                return Other::Stop;
            }
            cur.line_start = false;
            return Other::Skip;
        }
        b'#' => {
            if !cur.line_start {
                diag.push(
                    cur.line,
                    col,
                    format_args!("invalid token '#': a directive must begin its own line"),
                );
                cur.pos += 1;
                return Other::Skip;
            }
            if !cur.seen_version {
                // The usual first line without `plain_version`'s scan.
                let usual = if cur.pos == 0 {
                    usual_version(src)
                } else {
                    None
                };
                if let Some((end, v)) = usual.or_else(|| plain_version(src, cur.pos)) {
                    out.version = v;
                    cur.seen_version = true;
                    cur.pos = end;
                    return Other::Skip;
                }
            }
            let mut lx = Lexer {
                src,
                pos: cur.pos,
                line: cur.line,
                col,
                line_start: cur.line_start,
            };
            directive(&mut lx, diag, out, &mut cur.seen_version);
            cur.pos = lx.pos;
            cur.line = lx.line;
            cur.line_begin = cur.pos.saturating_sub(lx.col.saturating_sub(1) as usize);
            cur.line_start = lx.line_start;
            return Other::Skip;
        }
        _ => {}
    }
    cur.line_start = false;
    if c.is_ascii_digit() || (c == b'.' && at(cur.pos + 1).is_ascii_digit()) {
        let (end, r) = number(src, start, diag, cur.line, col, false);
        cur.pos = end;
        match r {
            Ok((k, v)) => Other::Token(k, v),
            // Reported: a zero literal of the same kind stands in for it, so the parser does
            // not report the hole it would leave.
            Err(k) => Other::Token(k, 0),
        }
    } else {
        let Some((k, n)) = punct(c, at(cur.pos + 1)) else {
            bad_byte(diag, cur.line, col, c);
            cur.pos += 1;
            return Other::Skip;
        };
        cur.pos += n;
        Other::Token(k, 0)
    }
}

/// The punctuator token starting with `c` (then `next`) and its length, if the language has one.
#[inline(never)]
fn punct(c: u8, next: u8) -> Option<(Tok, usize)> {
    punct_inline(c, next)
}

/// [`punct`], inlined where it is called (the one-pass profile-2 lexer's loop; profile 1's
/// loop is faster calling it).
#[inline(always)]
fn punct_inline(c: u8, next: u8) -> Option<(Tok, usize)> {
    Some(match &[c, next] {
        b"==" => (Tok::EqEq, 2),
        b"!=" => (Tok::NotEq, 2),
        b"<=" => (Tok::Le, 2),
        b">=" => (Tok::Ge, 2),
        b"&&" => (Tok::AndAnd, 2),
        b"||" => (Tok::OrOr, 2),
        b"++" => (Tok::PlusPlus, 2),
        b"--" => (Tok::MinusMinus, 2),
        b"+=" | b"-=" | b"*=" | b"/=" | b"%=" => (Tok::CompoundAssign, 2),
        b"<<" | b">>" => (Tok::Shift, 2),
        _ => (
            match c {
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'{' => Tok::LBrace,
                b'}' => Tok::RBrace,
                b'[' => Tok::LBracket,
                b']' => Tok::RBracket,
                b';' => Tok::Semi,
                b',' => Tok::Comma,
                b'.' => Tok::Dot,
                b'+' => Tok::Plus,
                b'-' => Tok::Minus,
                b'*' => Tok::Star,
                b'/' => Tok::Slash,
                b'%' => Tok::Percent,
                b'=' => Tok::Assign,
                b'<' => Tok::Lt,
                b'>' => Tok::Gt,
                b'!' => Tok::Not,
                b'?' => Tok::Question,
                b':' => Tok::Colon,
                _ => return None,
            },
            1,
        ),
    })
}

/// Profile 2's bitwise punctuators (the preprocessor's tokens): `& | ^ ~` and the compound
/// assignments `&= |= ^= <<= >>=` (CompoundAssign; the parser reads the operator's bytes).
fn p2_bit_punct(bytes: &[u8]) -> Option<Tok> {
    Some(match bytes {
        b"&" => Tok::Amp,
        b"|" => Tok::Pipe,
        b"^" => Tok::Caret,
        b"~" => Tok::Tilde,
        b"&=" | b"|=" | b"^=" | b"<<=" | b">>=" => Tok::CompoundAssign,
        _ => return None,
    })
}

/// Reports a byte that starts no token.
#[cold]
fn bad_byte(diag: &mut Diagnostics, line: u32, col: u32, c: u8) {
    if matches!(c, b'&' | b'|' | b'^' | b'~') {
        diag.push(
            line,
            col,
            format_args!(
                "invalid token '{}': bitwise operators are not supported",
                c as char
            ),
        );
    } else if c.is_ascii_graphic() {
        diag.push(line, col, format_args!("invalid token '{}'", c as char));
    } else {
        diag.push(
            line,
            col,
            format_args!(
                "invalid character (byte 0x{:02x}): only ASCII text is accepted",
                c
            ),
        );
    }
}

/// Bytes of text a profile-2 compile reads: the source followed by the preprocessor's own text.
pub const TEXT_CAP: usize = P2_SRC_MAX + PP_SYNTH_MAX;

/// Profile 2: turns the preprocessor's output into tokens. `text` receives the source followed by
/// the preprocessor's synthesized text, and every token's `off` points into it (pass `text` to
/// the parser and the semantic pass in place of the source). Each token carries the line and
/// column of its origin (the outermost macro invocation for expanded text) and its expansion.
pub fn lex_pp(
    pp: &Preprocessor,
    src: &[u8],
    text: &mut Vec<u8, TEXT_CAP>,
    diag: &mut Diagnostics,
    out: &mut Tokens,
) {
    out.toks.clear();
    let v = pp.version();
    out.version = if v.explicit { v.number } else { 0 };
    out.profile = Profile::P2;
    out.overflow = None;
    text.clear();
    let synth = pp.synth_text();
    if text.extend_from_slice(src).is_err() || text.extend_from_slice(synth).is_err() {
        // The preprocessor refused such a source already; nothing to lex.
        let _ = out.toks.push(eof_token(0, 1, 1));
        return;
    }
    let base = src.len() as u32;
    let (mut last_line, mut last_col) = (1u32, 1u32);
    // 1 after `layout`, 2 inside its parentheses.
    let mut in_layout = 0u8;
    for t in pp.tokens() {
        if diag.full() {
            break;
        }
        let o = pp.origin(t);
        let (line, col) = (o.line.max(1), o.col.max(1));
        let off = if t.flags & SYNTH != 0 {
            base.saturating_add(t.off)
        } else {
            t.off
        };
        let bytes = pp.spelling(src, t);
        // GLSL 3.30 reserves `row_major` and `packed` but has them as layout ids (as Mesa).
        let layout_id = in_layout == 2 && matches!(bytes, b"row_major" | b"packed");
        let report = &mut |d: &mut Diagnostics, a: fmt::Arguments<'_>| pp.error(src, d, t, a);
        let Some((kind, value)) = p2_classify(t.kind, bytes, layout_id, line, col, diag, report)
        else {
            continue;
        };
        in_layout = layout_state(in_layout, kind);
        if out.toks.len() >= P2_TOK_MAX {
            out.overflow = Some((line, col));
            break;
        }
        (last_line, last_col) = (line, col.saturating_add(bytes.len() as u32));
        let _ = out.toks.push(Token {
            kind,
            len: bytes.len().min(u16::MAX as usize) as u16,
            col: col.min(u16::MAX as u32) as u16,
            exp: o.exp,
            off,
            line,
            value,
        });
    }
    if out.toks.is_full() {
        let _ = out.toks.pop();
    }
    let _ = out.toks.push(eof_token(base, last_line, last_col));
}

/// Where a token leaves `layout(...)` tracking: 1 after `layout`, 2 inside its parentheses.
#[inline(always)]
fn layout_state(in_layout: u8, kind: Tok) -> u8 {
    match (in_layout, kind) {
        (_, Tok::Layout) => 1,
        (1, Tok::LParen) | (2, _) if kind != Tok::RParen => 2,
        _ => 0,
    }
}

/// Whether the next token is read inside `layout(...)`, where `row_major` and `packed` are
/// names: [`layout_state`] 2 after `toks`, which it is exactly when the last `layout` or `)`
/// among them is a `layout` followed by `(` (after `layout (` every token but `)` and `layout`
/// keeps the state). False (the caller falls back to the preprocessor, which reads the same
/// tokens) when that token is more than 64 back, so a long list costs no quadratic walk.
#[cold]
#[inline(never)]
fn in_layout_parens(toks: &[Token]) -> bool {
    for (back, t) in toks.iter().rev().enumerate().take(64) {
        match t.kind {
            Tok::RParen => return false,
            Tok::Layout => {
                let after = toks.len() - back;
                return back >= 1 && toks.get(after).map(|t| t.kind) == Some(Tok::LParen);
            }
            _ => {}
        }
    }
    false
}

/// Profile 2 in one pass, for the usual source that needs no preprocessing: it starts with a
/// plain `#version` line, then `#pragma chrisos profile 2` lines, and has no other directive,
/// no line continuation and no name a predefined macro could have (none starting with `__` or
/// `GL_`). Scans the source as [`Preprocessor::run`] does and classifies each token as
/// [`lex_pp`] does, so the tokens are the ones those two make (offsets into the source: the
/// parser reads the source itself). False (with `out` and `diag` to be reset by the caller)
/// for any other source and for any source with an error: the caller then runs the
/// preprocessor and [`lex_pp`], which report it.
pub fn lex_p2_direct(src: &[u8], diag: &mut Diagnostics, out: &mut Tokens) -> bool {
    if src.len() >= PP_SRC_MAX || diag.total() != 0 {
        return false;
    }
    let at = |i: usize| src.get(i).copied();
    let byte = |i: usize| src.get(i).copied().unwrap_or(0);
    // `#version N [core]` as the preprocessor accepts it without a word.
    let Some((end, version)) = usual_version(src).or_else(|| plain_version(src, 0)) else {
        return false;
    };
    let digits = src.get(9..end).unwrap_or(&[]);
    let first_digit = digits.iter().find(|b| !matches!(b, b' ' | b'\t'));
    if !crate::front::pp::VERSIONS.contains(&version)
        || first_digit == Some(&b'0')
        || (version < 150 && digits.contains(&b'c'))
    {
        return false;
    }
    let mut pos = end;
    let mut line = 1u32;
    let mut line_begin = 0usize;
    // The newline of each header line, then `#pragma chrisos profile 2` lines.
    loop {
        if at(pos) == Some(b'\n') {
            pos += 1;
            line += 1;
            line_begin = pos;
        }
        const PRAGMA: &[u8] = b"#pragma chrisos profile 2";
        if src.get(pos..pos + PRAGMA.len()) != Some(PRAGMA) {
            break;
        }
        pos += PRAGMA.len();
        while matches!(at(pos), Some(b' ' | b'\t' | b'\r')) {
            pos += 1;
        }
        if !matches!(at(pos), None | Some(b'\n')) {
            return false;
        }
    }
    // A line continuation needs the preprocessor (it may continue a comment). A backslash,
    // a directive that is not one of the simple ones (`Directives`), or a `#` anywhere else,
    // is found by the loop below, which falls back there: outside comments and directives a
    // backslash begins no token (`p2_other` fails), and the comment and directive paths look
    // for one in the bytes they skip (a byte search of the whole source for `\\` or `#` first
    // cost every source about a byte's instruction; a source that falls back is usually told
    // near its top).
    let mut dirs = Directives::new();
    out.toks.clear();
    out.version = version;
    out.profile = Profile::P2;
    out.overflow = None;
    // Names, one-byte punctuators, plain numbers, the language's operators, blanks and
    // newlines (most of a source) are lexed here; comments, directives and the rest by
    // `p2_other`, out of line, which keeps this loop's state in registers.
    while let Some(c) = at(pos) {
        let start = pos;
        // Stores the token from `start` to the cursor. In each arm rather than after the
        // match: there the kind and value are still in registers (or constants), not spilled.
        macro_rules! store {
            ($kind:expr, $value:expr) => {{
                // (Not `len + 2`: a sum that could wrap kept the push's own capacity test.)
                if out.toks.len() >= P2_TOK_MAX.min(PP_TOK_MAX) - 2 {
                    return false;
                }
                // A source under `PP_SRC_MAX` (64 KiB) bytes: every column and length fits in
                // u16.
                let _ = out.toks.push(Token {
                    kind: $kind,
                    len: (pos - start) as u16,
                    col: (start - line_begin + 1) as u16,
                    exp: 0,
                    off: start as u32,
                    line,
                    value: $value,
                });
                // As in `lex`: most tokens are followed by one space, skipped without a trip
                // round the loop.
                while byte(pos) == b' ' {
                    pos += 1;
                }
            }};
        }
        // As in `lex`: one class-table load sends each byte to its code.
        match CLASS[c as usize] {
            C_IDENT => {
                let (n, slot) = scan_name(src, start);
                pos += n;
                // (These tests come before the kind is read: it is then live only from its
                // load to its store, and not spilled around them.)
                if matches!(c, b'_' | b'G') && predefined_shape(src, start, pos) {
                    return false;
                }
                // A macro would be expanded.
                if dirs.live != 0 && live_macro(&dirs, src, start, pos) {
                    return false;
                }
                let mut kind = match slot {
                    Some(s) => SLOT_KINDS[1][s],
                    None if n <= KEY_LEN => Tok::Ident,
                    // Longer than every shared word: only profile 2's own long words are not
                    // names.
                    None => match long_p2_kind(src, start, pos) {
                        Some(k) => k,
                        // Reported by `lex_pp` (a name over the limit).
                        None => return false,
                    },
                };
                // A rare reading (the slot tables' `Eof`): `row_major` and `packed`, which GLSL
                // 3.30 reserves but has as layout ids (as Mesa), inside `layout(...)` as
                // `lex_pp` reads them; every other one is reported by `lex_pp` (a reserved
                // word, a rejected qualifier).
                // The loop keeps no `layout` state: the tokens so far tell it.
                if kind == Tok::Eof {
                    if layout_id(src, start, pos, &out.toks) {
                        kind = Tok::Ident;
                    } else {
                        return false;
                    }
                }
                store!(kind, 0);
            }
            // The one-byte punctuators, which the preprocessor never joins with the next byte.
            C_PUNCT => {
                pos += 1;
                store!(SINGLE[c as usize], 0);
            }
            C_BLANK => {
                pos += 1;
                while CLASS[byte(pos) as usize] == C_BLANK {
                    pos += 1;
                }
                continue;
            }
            C_NEWLINE => {
                pos += 1;
                line = line.saturating_add(1);
                line_begin = pos;
                // The next line's indentation, without a trip round the loop.
                while CLASS[byte(pos) as usize] == C_BLANK {
                    pos += 1;
                }
                continue;
            }
            class => {
                let next = byte(pos + 1);
                let plain = if class == C_DIGIT || (c == b'.' && next.is_ascii_digit()) {
                    // The preprocessing number ends where `plain_number` stops too (it
                    // stops before no name byte; a '.' would continue it).
                    match plain_number(src.get(pos..).unwrap_or(&[])) {
                        Some((n, r)) if byte(pos + n) != b'.' => Some((n, r)),
                        _ => None,
                    }
                } else if class == C_OP && !matches!((c, next), (b'/', b'/' | b'*')) {
                    // The language's punctuators are the preprocessor's (`punct_len`) but
                    // for `<<=` and `>>=`, three bytes there.
                    match punct_inline(c, next) {
                        Some((k, n)) if !(k == Tok::Shift && byte(pos + 2) == b'=') => {
                            Some((n, (k, 0)))
                        }
                        _ => None,
                    }
                } else {
                    None
                };
                let r = match plain {
                    Some((n, r)) => {
                        pos += n;
                        r
                    }
                    None => {
                        // A copy: the loop's own position stays in registers.
                        let mut moved = P2Cursor {
                            pos,
                            line,
                            line_begin,
                        };
                        let step = p2_other(src, &mut moved, c, &mut dirs, diag);
                        (pos, line, line_begin) = (moved.pos, moved.line, moved.line_begin);
                        match step {
                            Step::Token(k, v) => (k, v),
                            Step::Skip => continue,
                            Step::Fail => return false,
                        }
                    }
                };
                store!(r.0, r.1);
            }
        }
    }
    // An unterminated `#if` is the preprocessor's error.
    if dirs.depth != 0 || diag.total() != 0 || diag.warning_total() != 0 {
        return false;
    }
    // The end is placed just past the last token (its length is exact: a token of a source
    // under `PP_SRC_MAX` bytes is shorter than `u16::MAX`).
    let (last_line, last_col) = out.toks.last().map_or((1, 1), |t| {
        (t.line, (t.col as u32).saturating_add(t.len as u32))
    });
    let _ = out
        .toks
        .push(eof_token(src.len() as u32, last_line, last_col));
    true
}

/// Whether the name `src[start..end]` (starting with `_` or `G`) has the shape of a predefined
/// macro's name: `__...` or `GL_...` (out of line: few names start so).
#[cold]
#[inline(never)]
fn predefined_shape(src: &[u8], start: usize, end: usize) -> bool {
    let name = src.get(start..end).unwrap_or(&[]);
    name.starts_with(b"__") || name.starts_with(b"GL_")
}

/// Whether the name `src[start..end]`, a rare reading, is `row_major` or `packed` read as a
/// layout id inside `layout(...)` (see [`in_layout_parens`]).
#[cold]
#[inline(never)]
fn layout_id(src: &[u8], start: usize, end: usize, toks: &[Token]) -> bool {
    matches!(src.get(start..end), Some(b"row_major" | b"packed")) && in_layout_parens(toks)
}

/// Whether the name `src[start..end]` is a macro (the one-pass lexer, when a `#define` is live):
/// out of line, as most sources define none.
#[cold]
#[inline(never)]
fn live_macro(dirs: &Directives, src: &[u8], start: usize, end: usize) -> bool {
    dirs.is_macro(src, src.get(start..end).unwrap_or(&[]))
}

/// The one-pass lexer's kind for the name `src[start..end]`, longer than every word of the
/// shared tables: profile 2's own long words, else a name (None: over the name limit, which
/// `lex_pp` reports). Out of line: few names are that long.
#[cold]
#[inline(never)]
fn long_p2_kind(src: &[u8], start: usize, end: usize) -> Option<Tok> {
    match src.get(start..end).and_then(p2_word) {
        Some(w) => Some(slot_kind(p2_reading_of(w), true)),
        None if end - start < P2_NAME_MAX => Some(Tok::Ident),
        None => None,
    }
}

/// The one-pass lexer's position (see `lex_p2_direct`).
#[derive(Clone, Copy)]
struct P2Cursor {
    pos: usize,
    line: u32,
    line_begin: usize,
}

/// What `p2_other` found.
enum Step {
    /// A token (kind and value) ending at the cursor.
    Token(Tok, u32),
    /// Nothing to store (a comment, a directive): on with the next byte.
    Skip,
    /// The source needs the preprocessor (or has an error it reports).
    Fail,
}

/// The one-pass lexer's rarer bytes, starting with `c` at the cursor: comments, directives,
/// numbers and operators its loop does not read itself, and bytes that begin no token.
#[inline(never)]
fn p2_other(
    src: &[u8],
    cur: &mut P2Cursor,
    c: u8,
    dirs: &mut Directives,
    diag: &mut Diagnostics,
) -> Step {
    let at = |i: usize| src.get(i).copied();
    let start = cur.pos;
    let next = at(start + 1);
    let col = (start - cur.line_begin + 1) as u32;
    let mut bad = false;
    let report = &mut |_: &mut Diagnostics, _: fmt::Arguments<'_>| bad = true;
    let r = match c {
        b'/' if next == Some(b'/') => {
            let rest = src.get(start..).unwrap_or(&[]);
            // A backslash in it may continue it (the preprocessor's case).
            return match comment_line_len(rest) {
                Some(n) => {
                    cur.pos += n;
                    Step::Skip
                }
                None => Step::Fail,
            };
        }
        b'/' if next == Some(b'*') => {
            // Unterminated: the preprocessor reports it.
            let closed = crate::front::pp::skip_block_comment(
                src,
                &mut cur.pos,
                &mut cur.line,
                &mut cur.line_begin,
            );
            return if closed && !has_backslash(src, start, cur.pos) {
                Step::Skip
            } else {
                Step::Fail
            };
        }
        b'#' if start == cur.line_begin => {
            let handled = dirs.handle(src, &mut cur.pos, &mut cur.line, &mut cur.line_begin);
            return if handled && !has_backslash(src, start, cur.pos) {
                Step::Skip
            } else {
                Step::Fail
            };
        }
        b'#' => return Step::Fail,
        _ if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|d| d.is_ascii_digit())) => {
            // A preprocessing number, as the preprocessor scans it.
            let rest = src.get(start..).unwrap_or(&[]);
            cur.pos += crate::front::pp::number_len(rest);
            let bytes = src.get(start..cur.pos).unwrap_or(&[]);
            p2_classify(PpKind::Number, bytes, false, cur.line, col, diag, report)
        }
        _ => match crate::front::pp::punct_len(c, next, at(start + 2)) {
            0 => return Step::Fail,
            n => {
                cur.pos += n;
                let bytes = src.get(start..cur.pos).unwrap_or(&[]);
                p2_classify(PpKind::Punct, bytes, false, cur.line, col, diag, report)
            }
        },
    };
    match r {
        Some((k, v)) if !bad => Step::Token(k, v),
        _ => Step::Fail,
    }
}

/// Whether `src[from..to]` (bytes the one-pass lexer skipped) holds a backslash.
fn has_backslash(src: &[u8], from: usize, to: usize) -> bool {
    src.get(from..to).is_none_or(|b| b.contains(&b'\\'))
}

/// [`line_len`] for a line comment in the one-pass lexer, None when a backslash comes before
/// the line's end (it may continue the comment: the preprocessor's case). Eight bytes a step,
/// both bytes at once: the lowest flagged byte of each test is a true match.
fn comment_line_len(rest: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & (ONES << 7);
    let mut n = 0;
    let mut words = rest.chunks_exact(8);
    for w in words.by_ref() {
        if let Ok(bytes) = <[u8; 8]>::try_from(w) {
            let x = u64::from_le_bytes(bytes);
            let nl = zero(x ^ (ONES * b'\n' as u64));
            let bs = zero(x ^ (ONES * b'\\' as u64));
            if bs != 0 && (nl == 0 || bs.trailing_zeros() < nl.trailing_zeros()) {
                return None;
            }
            if nl != 0 {
                return Some(n + (nl.trailing_zeros() / 8) as usize);
            }
        }
        n += 8;
    }
    let tail = words.remainder();
    let len = tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len());
    if tail.get(..len).is_none_or(|b| b.contains(&b'\\')) {
        return None;
    }
    Some(n + len)
}

/// Macros and nested conditionals the one-pass lexer follows itself; a source with more falls
/// back to the preprocessor.
const DIRECT_MACROS: usize = 8;
const DIRECT_CONDS: usize = 8;

/// The state of one open conditional, as the preprocessor keeps it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    /// Its text is read.
    Taking,
    /// Not yet: a later `#elif`/`#else` may be taken.
    Seeking,
    /// A branch was taken: the rest is skipped.
    Done,
    /// Inside a skipped group: nothing of it is read.
    Dead,
}

/// The simple directives of [`lex_p2_direct`]: object-like `#define`s (their names and bodies as
/// byte ranges of the source), `#undef`, and `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`
/// whose expressions are made of integers, `defined`, macros whose body is one integer, and
/// the operators `! - + * == != < > <= >= && || ( )`. Anything else (and any use of a macro
/// outside a directive, which would expand it) sends the source to the preprocessor.
struct Directives {
    /// (name start, name end, body start, body end, live): a macro's entry stays after
    /// `#undef` (not live), so that a name is defined at most once.
    macros: [(usize, usize, usize, usize, bool); DIRECT_MACROS],
    n: usize,
    live: usize,
    conds: [(Group, bool); DIRECT_CONDS],
    depth: usize,
}

/// Directive-line blanks as the preprocessor reads them in a clean source.
fn dir_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

fn trim_blanks(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if !dir_blank(*first) {
            break;
        }
        b = rest;
    }
    while let [rest @ .., last] = b {
        if !dir_blank(*last) {
            break;
        }
        b = rest;
    }
    b
}

/// Whether a `#define`/`#undef` may name `name` without the preprocessor reporting it (not
/// `defined`, no predefined-macro or reserved prefix, within the name limit).
fn plain_macro_name(name: &[u8]) -> bool {
    !name.is_empty()
        && !name.first().is_some_and(|b| b.is_ascii_digit())
        && name != b"defined"
        && !name.starts_with(b"GL_")
        && !name.windows(2).any(|w| w == b"__")
        && name.len() < PP_NAME_MAX
}

/// A decimal integer literal without suffix or leading zero (the only literal the one-pass
/// `#if` evaluator reads).
fn plain_decimal(b: &[u8]) -> Option<i64> {
    if b.is_empty() || b.len() > 9 || (b.len() > 1 && b.first() == Some(&b'0')) {
        return None;
    }
    let mut v = 0i64;
    for &d in b {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (d - b'0') as i64;
    }
    Some(v)
}

/// The operators of the one-pass `#if` evaluator (binary ones with their C precedence).
const E_OR: u8 = 1;
const E_AND: u8 = 2;
const E_EQ: u8 = 3;
const E_NE: u8 = 4;
const E_LT: u8 = 5;
const E_GT: u8 = 6;
const E_LE: u8 = 7;
const E_GE: u8 = 8;
const E_ADD: u8 = 9;
const E_SUB: u8 = 10;
const E_MUL: u8 = 11;
const E_NOT: u8 = 12;
const E_OPEN: u8 = 13;
const E_CLOSE: u8 = 14;
/// Most operands and operators an expression may have.
const E_MAX: usize = 32;

fn e_prec(op: u8) -> u8 {
    match op {
        E_OR => 1,
        E_AND => 2,
        E_EQ | E_NE => 3,
        E_LT | E_GT | E_LE | E_GE => 4,
        E_ADD | E_SUB => 5,
        E_MUL => 6,
        _ => 0,
    }
}

/// An `#if` expression after `defined` and macro replacement: `(false, op)` operators and
/// `(true, value)` operands.
struct CondExpr {
    items: [(bool, i64); E_MAX],
    n: usize,
    i: usize,
}

impl CondExpr {
    fn peek(&self) -> Option<(bool, i64)> {
        self.items.get(self.i).filter(|_| self.i < self.n).copied()
    }
    fn op(&self) -> Option<u8> {
        match self.peek() {
            Some((false, op)) => Some(op as u8),
            _ => None,
        }
    }
    fn expr(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        while let Some(op) = self.op() {
            let prec = e_prec(op);
            if prec == 0 || prec < min {
                break;
            }
            self.i += 1;
            let rhs = self.expr(prec + 1)?;
            lhs = match op {
                E_OR => (lhs != 0 || rhs != 0) as i64,
                E_AND => (lhs != 0 && rhs != 0) as i64,
                E_EQ => (lhs == rhs) as i64,
                E_NE => (lhs != rhs) as i64,
                E_LT => (lhs < rhs) as i64,
                E_GT => (lhs > rhs) as i64,
                E_LE => (lhs <= rhs) as i64,
                E_GE => (lhs >= rhs) as i64,
                E_ADD => lhs.checked_add(rhs)?,
                E_SUB => lhs.checked_sub(rhs)?,
                _ => lhs.checked_mul(rhs)?,
            };
        }
        Some(lhs)
    }
    fn unary(&mut self) -> Option<i64> {
        let (value, x) = self.peek()?;
        self.i += 1;
        if value {
            return Some(x);
        }
        match x as u8 {
            E_NOT => Some((self.unary()? == 0) as i64),
            E_SUB => self.unary()?.checked_neg(),
            E_ADD => self.unary(),
            E_OPEN => {
                let v = self.expr(1)?;
                if self.op() != Some(E_CLOSE) {
                    return None;
                }
                self.i += 1;
                Some(v)
            }
            _ => None,
        }
    }
}

impl Directives {
    fn new() -> Directives {
        Directives {
            macros: [(0, 0, 0, 0, false); DIRECT_MACROS],
            n: 0,
            live: 0,
            conds: [(Group::Taking, false); DIRECT_CONDS],
            depth: 0,
        }
    }

    fn skipping(&self) -> bool {
        self.depth > 0 && self.conds.get(self.depth - 1).map(|c| c.0) != Some(Group::Taking)
    }

    /// The entry of macro `name` (live or not).
    fn find(&self, src: &[u8], name: &[u8]) -> Option<usize> {
        self.macros
            .get(..self.n)?
            .iter()
            .position(|m| src.get(m.0..m.1) == Some(name))
    }

    /// Whether `name` is a macro now (it would be expanded).
    #[inline]
    fn is_macro(&self, src: &[u8], name: &[u8]) -> bool {
        self.live != 0
            && self
                .find(src, name)
                .is_some_and(|i| self.macros.get(i).is_some_and(|m| m.4))
    }

    /// The directive whose `#` is at `*pos` (a line's first byte), then, while that leaves the
    /// text skipped, every skipped line after it. `*pos` ends at the newline ending the last
    /// line handled (or the end of the source). False: the preprocessor must handle the source.
    fn handle(
        &mut self,
        src: &[u8],
        pos: &mut usize,
        line: &mut u32,
        line_begin: &mut usize,
    ) -> bool {
        loop {
            let rest = src.get(*pos..).unwrap_or(&[]);
            let len = line_len(rest);
            let text = rest.get(..len).unwrap_or(&[]);
            if text.first() == Some(&b'#') {
                if !self.directive(src, *pos + 1, text.get(1..).unwrap_or(&[])) {
                    return false;
                }
            } else if text.iter().any(|&b| !TEXT_BYTE[b as usize])
                || text.windows(2).any(|w| w == b"/*")
                || trim_blanks(text).first() == Some(&b'#')
            {
                // A skipped line the preprocessor might read otherwise (a comment that could
                // hide a directive, an indented directive, a byte it reports).
                return false;
            }
            *pos += len;
            if !self.skipping() || *pos >= src.len() {
                return true;
            }
            *pos += 1;
            *line = line.saturating_add(1);
            *line_begin = *pos;
        }
    }

    /// One directive: `at` is the source offset of `body`, the line after its `#`.
    fn directive(&mut self, src: &[u8], at: usize, body: &[u8]) -> bool {
        if body.iter().any(|&b| !TEXT_BYTE[b as usize]) || body.windows(2).any(|w| w == b"/*") {
            return false;
        }
        // A line comment ends the directive.
        let body = match body.windows(2).position(|w| w == b"//") {
            Some(k) => body.get(..k).unwrap_or(&[]),
            None => body,
        };
        let lead = body.iter().take_while(|&&b| dir_blank(b)).count();
        let name_len = ident_run(body.get(lead..).unwrap_or(&[]));
        let name = body.get(lead..lead + name_len).unwrap_or(&[]);
        let after = lead + name_len;
        let operand = trim_blanks(body.get(after..).unwrap_or(&[]));
        // Where the operand starts in the source.
        let operand_at = at
            + after
            + body
                .get(after..)
                .unwrap_or(&[])
                .iter()
                .take_while(|&&b| dir_blank(b))
                .count();
        let skipping = self.skipping();
        match name {
            b"if" | b"ifdef" | b"ifndef" => {
                let state = if skipping {
                    Group::Dead
                } else {
                    let v = match name {
                        b"if" => self.eval(src, operand),
                        _ if ident_run(operand) != operand.len() || !plain_macro_name(operand) => {
                            None
                        }
                        b"ifdef" => Some(self.is_macro(src, operand) as i64),
                        _ => Some(!self.is_macro(src, operand) as i64),
                    };
                    match v {
                        Some(0) => Group::Seeking,
                        Some(_) => Group::Taking,
                        None => return false,
                    }
                };
                let Some(c) = self.conds.get_mut(self.depth) else {
                    return false;
                };
                *c = (state, false);
                self.depth += 1;
            }
            b"elif" | b"else" | b"endif" => {
                let Some(top) = self
                    .depth
                    .checked_sub(1)
                    .and_then(|d| self.conds.get_mut(d))
                else {
                    return false;
                };
                let (state, has_else) = *top;
                if name == b"endif" {
                    if !operand.is_empty() {
                        return false;
                    }
                    self.depth -= 1;
                    return true;
                }
                if has_else {
                    return false;
                }
                let state = match (name, state) {
                    (b"elif", Group::Seeking) => match self.eval(src, operand) {
                        Some(0) => Group::Seeking,
                        Some(_) => Group::Taking,
                        None => return false,
                    },
                    (b"else", _) if !operand.is_empty() => return false,
                    (b"else", Group::Seeking) => Group::Taking,
                    (_, Group::Taking) => Group::Done,
                    (_, s) => s,
                };
                if let Some(top) = self.conds.get_mut(self.depth - 1) {
                    *top = (state, name == b"else");
                }
            }
            // Skipped groups ignore every other directive; `#pragma`, `#version`, `#extension`,
            // `#line`, `#error`, the null directive and unknown names need the preprocessor.
            b"define" | b"undef" if skipping => {}
            b"define" => {
                let n = ident_run(operand);
                let mac = operand.get(..n).unwrap_or(&[]);
                let tail = operand.get(n..).unwrap_or(&[]);
                // Object-like only: the name is followed by a blank or the end of the line.
                if !plain_macro_name(mac)
                    || tail.first().is_some_and(|&b| !dir_blank(b))
                    || tail.contains(&b'#')
                    || self.find(src, mac).is_some()
                    || self.n >= DIRECT_MACROS
                {
                    return false;
                }
                let value = trim_blanks(tail);
                let vstart = operand_at + n + tail.iter().take_while(|&&b| dir_blank(b)).count();
                if let Some(m) = self.macros.get_mut(self.n) {
                    *m = (
                        operand_at,
                        operand_at + n,
                        vstart,
                        vstart + value.len(),
                        true,
                    );
                }
                self.n += 1;
                self.live += 1;
            }
            b"undef" => {
                if ident_run(operand) != operand.len() || !plain_macro_name(operand) {
                    return false;
                }
                if let Some(i) = self.find(src, operand) {
                    if let Some(m) = self.macros.get_mut(i) {
                        if m.4 {
                            m.4 = false;
                            self.live -= 1;
                        }
                    }
                }
            }
            _ => return false,
        }
        true
    }

    /// The value of an `#if`/`#elif` expression, or None when the preprocessor must decide.
    fn eval(&self, src: &[u8], b: &[u8]) -> Option<i64> {
        let mut e = CondExpr {
            items: [(false, 0); E_MAX],
            n: 0,
            i: 0,
        };
        let mut i = 0;
        let at = |i: usize| b.get(i).copied().unwrap_or(0);
        let skip = |mut i: usize| {
            while dir_blank(at(i)) {
                i += 1;
            }
            i
        };
        loop {
            i = skip(i);
            let Some(&c) = b.get(i) else { break };
            let item = if c.is_ascii_alphabetic() || c == b'_' {
                let n = ident_run(b.get(i..).unwrap_or(&[]));
                let word = b.get(i..i + n).unwrap_or(&[]);
                i += n;
                if word == b"defined" {
                    // `defined NAME` or `defined ( NAME )`.
                    i = skip(i);
                    let open = at(i) == b'(';
                    if open {
                        i = skip(i + 1);
                    }
                    let n = ident_run(b.get(i..).unwrap_or(&[]));
                    let name = b.get(i..i + n).unwrap_or(&[]);
                    if name.is_empty() || !plain_macro_name(name) {
                        return None;
                    }
                    i += n;
                    if open {
                        i = skip(i);
                        if at(i) != b')' {
                            return None;
                        }
                        i += 1;
                    }
                    (true, self.is_macro(src, name) as i64)
                } else if !plain_macro_name(word) {
                    return None;
                } else if self.is_macro(src, word) {
                    let m = self.macros.get(self.find(src, word)?)?;
                    (true, plain_decimal(src.get(m.2..m.3)?)?)
                } else {
                    // A name left after replacement is 0 (the preprocessor's rule).
                    (true, 0)
                }
            } else if c.is_ascii_digit() {
                let n = ident_run(b.get(i..).unwrap_or(&[]));
                if at(i + n) == b'.' {
                    return None;
                }
                let v = plain_decimal(b.get(i..i + n).unwrap_or(&[]))?;
                i += n;
                (true, v)
            } else {
                let two = [c, at(i + 1)];
                let (op, n) = match &two {
                    b"||" => (E_OR, 2),
                    b"&&" => (E_AND, 2),
                    b"==" => (E_EQ, 2),
                    b"!=" => (E_NE, 2),
                    b"<=" => (E_LE, 2),
                    b">=" => (E_GE, 2),
                    [b'<', b'<'] | [b'>', b'>'] | [b'+', b'+'] | [b'-', b'-'] => return None,
                    [b'<', _] => (E_LT, 1),
                    [b'>', _] => (E_GT, 1),
                    [b'+', _] => (E_ADD, 1),
                    [b'-', _] => (E_SUB, 1),
                    [b'*', _] => (E_MUL, 1),
                    [b'!', _] => (E_NOT, 1),
                    [b'(', _] => (E_OPEN, 1),
                    [b')', _] => (E_CLOSE, 1),
                    _ => return None,
                };
                i += n;
                (false, op as i64)
            };
            *e.items.get_mut(e.n)? = item;
            e.n += 1;
        }
        let v = e.expr(1)?;
        (e.i == e.n).then_some(v)
    }
}

/// Profile 2: the parser's token for a preprocessed token of kind `kind` spelled `bytes` at
/// `line`/`col` (its origin), and its value; `None` when the token is dropped after an error.
/// Errors about the token go through `report` (the preprocessor's [`Preprocessor::error`] in
/// [`lex_pp`]; number errors go to `diag` directly). `layout_id`: a `row_major`/`packed`
/// inside `layout(...)`, which stays a name.
#[inline(always)]
fn p2_classify(
    kind: PpKind,
    bytes: &[u8],
    layout_id: bool,
    line: u32,
    col: u32,
    diag: &mut Diagnostics,
    report: &mut impl FnMut(&mut Diagnostics, fmt::Arguments<'_>),
) -> Option<(Tok, u32)> {
    let mut value = 0u32;
    let kind = match kind {
        PpKind::Ident if layout_id => Tok::Ident,
        PpKind::Ident => match p2_reading(bytes, 0, bytes.len()) {
            Reading::Keyword(k) => k,
            Reading::Reserved => Tok::Reserved,
            Reading::ReservedName => {
                report(
                    diag,
                    format_args!(
                        "'{}' is a reserved word in GLSL 3.30: it cannot be used as a name",
                        core::str::from_utf8(bytes).unwrap_or("?")
                    ),
                );
                // Kept as a name: the rest of the declaration parses without follow-on
                // errors.
                Tok::Ident
            }
            Reading::Rejected(i) => {
                if let Some(&(w, advice)) = REJECTED_QUALIFIERS.get(i as usize) {
                    report(
                        diag,
                        format_args!("unsupported qualifier '{}': {}", w, advice),
                    );
                }
                return None;
            }
            Reading::Name => {
                if bytes.len() >= P2_NAME_MAX {
                    report(
                        diag,
                        format_args!(
                            "identifier is {} characters long; the limit is {}",
                            bytes.len(),
                            P2_NAME_MAX - 1
                        ),
                    );
                }
                Tok::Ident
            }
        },
        PpKind::Number => {
            let (end, r) = number(bytes, 0, diag, line, col, true);
            if end != bytes.len() {
                report(
                    diag,
                    format_args!(
                        "invalid number '{}'",
                        core::str::from_utf8(bytes).unwrap_or("?")
                    ),
                );
            }
            match r {
                Ok((k, v)) => {
                    value = v;
                    k
                }
                Err(k) => k,
            }
        }
        PpKind::Punct => {
            let c = bytes.first().copied().unwrap_or(0);
            match punct(c, bytes.get(1).copied().unwrap_or(0)) {
                Some((k, n)) if n == bytes.len() => k,
                _ if p2_bit_punct(bytes).is_some() => p2_bit_punct(bytes).unwrap_or(Tok::Amp),
                _ => {
                    let shown = core::str::from_utf8(bytes).unwrap_or("?");
                    if matches!(c, b'&' | b'|' | b'^' | b'~') && shown != "&&" {
                        report(
                            diag,
                            format_args!(
                                "invalid token '{}': bitwise operators are not supported",
                                shown
                            ),
                        );
                    } else {
                        report(diag, format_args!("invalid token '{}'", shown));
                    }
                    return None;
                }
            }
        }
        _ => {
            let c = bytes.first().copied().unwrap_or(0);
            if c.is_ascii_graphic() {
                report(diag, format_args!("invalid token '{}'", c as char));
            } else {
                report(
                    diag,
                    format_args!(
                        "invalid character (byte 0x{:02x}): only ASCII text is accepted",
                        c
                    ),
                );
            }
            return None;
        }
    };
    Some((kind, value))
}

fn eof_token(off: u32, line: u32, col: u32) -> Token {
    Token {
        kind: Tok::Eof,
        len: 0,
        col: col.min(u16::MAX as u32) as u16,
        exp: 0,
        off,
        line,
        value: 0,
    }
}

/// 1-based column of byte `pos` on the line starting at byte `line_begin` (a tab is one column).
#[inline]
fn column(pos: usize, line_begin: usize) -> u32 {
    // `line_begin <= pos` always (it only moves to just past a newline the cursor has passed),
    // and a column of a source under 4 GiB fits u32: plain arithmetic, wrapping only so that it
    // can never panic.
    (pos.wrapping_sub(line_begin) as u32).wrapping_add(1)
}

/// The commonest first line exactly, `#version DDD\n` or `#version DDD core\n` (three digits,
/// the first not 0, in range) at the start of the source: its end (at the newline) and the
/// version, as [`plain_version`] gives them, in a few compares and without a call (a fixed cost
/// of every compile). None for anything else, which takes the usual path.
#[inline(always)]
fn usual_version(src: &[u8]) -> Option<(usize, u32)> {
    let head = src.get(..13)?;
    if head.get(..9)? != b"#version " {
        return None;
    }
    let (d0, d1, d2) = (
        *head.get(9)? as u32,
        (*head.get(10)? as u32).wrapping_sub(b'0' as u32),
        (*head.get(11)? as u32).wrapping_sub(b'0' as u32),
    );
    if !(b'1' as u32..=b'9' as u32).contains(&d0) || d1 > 9 || d2 > 9 {
        return None;
    }
    let v = (d0 - b'0' as u32) * 100 + d1 * 10 + d2;
    if !(VERSION_MIN..=VERSION_MAX).contains(&v) {
        return None;
    }
    match head.get(12)? {
        b'\n' => Some((12, v)),
        b' ' if src.get(12..18)? == b" core\n" => Some((17, v)),
        _ => None,
    }
}

/// The usual first line, `#version N` or `#version N core` with N in range and nothing else
/// before the newline: its end (at the newline) and N, without the general directive scan.
/// Anything else (errors included) is left to [`directive`], which reports it.
#[inline(never)]
fn plain_version(src: &[u8], hash: usize) -> Option<(usize, u32)> {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    if src.get(hash..hash + 9)? != b"#version " {
        return None;
    }
    let mut p = hash + 9;
    while matches!(at(p), b' ' | b'\t') {
        p += 1;
    }
    let digits = p;
    let mut v = 0u32;
    while at(p).is_ascii_digit() && p - digits < 4 {
        v = v * 10 + (at(p) - b'0') as u32;
        p += 1;
    }
    if p == digits || at(p).is_ascii_digit() || !(VERSION_MIN..=VERSION_MAX).contains(&v) {
        return None;
    }
    while matches!(at(p), b' ' | b'\t') {
        p += 1;
    }
    if src.get(p..p + 4) == Some(b"core") && !is_ident(at(p + 4)) {
        p += 4;
    }
    while matches!(at(p), b' ' | b'\t' | b'\r') {
        p += 1;
    }
    (p >= src.len() || at(p) == b'\n').then_some((p, v))
}

fn directive(lx: &mut Lexer<'_>, diag: &mut Diagnostics, out: &mut Tokens, seen: &mut bool) {
    let (line, col) = (lx.line, lx.col);
    lx.bump();
    while matches!(lx.peek(0), b' ' | b'\t') {
        lx.bump();
    }
    let ws = lx.pos;
    while is_ident(lx.peek(0)) {
        lx.bump();
    }
    let word = core::str::from_utf8(lx.src.get(ws..lx.pos).unwrap_or(&[])).unwrap_or("");
    if word == "version" {
        while matches!(lx.peek(0), b' ' | b'\t') {
            lx.bump();
        }
        let (nl, nc, ns) = (lx.line, lx.col, lx.pos);
        while lx.peek(0).is_ascii_digit() {
            lx.bump();
        }
        let digits = core::str::from_utf8(lx.src.get(ns..lx.pos).unwrap_or(&[])).unwrap_or("");
        if digits.is_empty() {
            diag.push(
                nl,
                nc,
                format_args!("expected a version number after #version"),
            );
        } else {
            let v: u32 = digits.parse().unwrap_or(u32::MAX);
            if *seen {
                diag.push(line, col, format_args!("#version may appear only once"));
            } else if !(VERSION_MIN..=VERSION_MAX).contains(&v) {
                diag.push(
                    nl,
                    nc,
                    format_args!(
                        "unsupported #version {}: this language accepts {} to {}",
                        digits, VERSION_MIN, VERSION_MAX
                    ),
                );
            } else {
                out.version = v;
            }
            *seen = true;
            while matches!(lx.peek(0), b' ' | b'\t') {
                lx.bump();
            }
            let (pl, pc, ps) = (lx.line, lx.col, lx.pos);
            while is_ident(lx.peek(0)) {
                lx.bump();
            }
            let profile = core::str::from_utf8(lx.src.get(ps..lx.pos).unwrap_or(&[])).unwrap_or("");
            if !(profile.is_empty() || profile == "core") {
                diag.push(
                    pl,
                    pc,
                    format_args!(
                        "unsupported #version profile '{}': only 'core' is accepted",
                        profile
                    ),
                );
            }
        }
    } else if word == "pragma" && chrisos_pragma(lx) {
        let rest = rest_of_line(lx);
        match profile_pragma_words(rest) {
            None => diag.push(
                line,
                col,
                format_args!(
                    "malformed pragma: write '#pragma chrisos profile 1' or '#pragma chrisos profile 2'"
                ),
            ),
            Some(_) if !out.toks.is_empty() => diag.push(
                line,
                col,
                format_args!("'#pragma chrisos profile' must come before the first declaration"),
            ),
            // The profile was chosen before lexing (`front::profile::select`).
            Some(_) => {}
        }
    } else {
        diag.push(
            line,
            col,
            format_args!(
                "unsupported preprocessor directive '#{}': only #version is accepted{}",
                word,
                crate::front::profile::P2_HINT
            ),
        );
    }
    // The rest of the line belongs to the directive.
    let (rl, rc) = (lx.line, lx.col);
    let mut junk = false;
    while lx.pos < lx.src.len() && lx.peek(0) != b'\n' {
        if word == "version" && !matches!(lx.peek(0), b' ' | b'\t' | b'\r') && !junk {
            if lx.peek(0) == b'/' && matches!(lx.peek(1), b'/' | b'*') {
                break;
            }
            junk = true;
            diag.push(
                rl,
                rc,
                format_args!("unexpected text after the #version directive"),
            );
        }
        lx.bump();
    }
}

/// After `#pragma`: the next word is `chrisos` (the ChrisOS pragma, checked here; others are
/// not profile-1 directives).
fn chrisos_pragma(lx: &Lexer<'_>) -> bool {
    rest_of_line(lx)
        .split(|&b| b == b' ' || b == b'\t')
        .find(|w| !w.is_empty())
        == Some(b"chrisos")
}

/// The bytes from the cursor to the end of the line (not consumed).
fn rest_of_line<'s>(lx: &Lexer<'s>) -> &'s [u8] {
    let rest = lx.src.get(lx.pos..).unwrap_or(&[]);
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    rest.get(..end).unwrap_or(&[])
}

/// `chrisos profile N` (then only a `//` comment) -> N, for N in 1..=2.
fn profile_pragma_words(rest: &[u8]) -> Option<u8> {
    let mut words = rest
        .split(|&b| b == b' ' || b == b'\t' || b == b'\r')
        .filter(|w| !w.is_empty());
    if words.next()? != b"chrisos" || words.next()? != b"profile" {
        return None;
    }
    let n = match words.next()? {
        b"1" => 1,
        b"2" => 2,
        _ => return None,
    };
    match words.next() {
        Some(w) if !w.starts_with(b"//") => None,
        _ => Some(n),
    }
}

/// Powers of ten exact in f32 (10^10 = 2^10 * 5^10, and 5^10 < 2^24).
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The usual literal, `digits`, `digits.digits` or `.digits` with at most 7 digits in all and an
/// optional `f` after a float, not followed by a name byte: its length, kind and value bits, the
/// ones [`number`]'s general path gives (the mantissa is below 2^24, so one division by an exact
/// power of ten is its correctly rounded value); None for anything else (exponents, suffixes,
/// leading zeros, hexadecimal, errors), which takes the general path.
#[inline(always)]
fn plain_number(b: &[u8]) -> Option<(usize, (Tok, u32))> {
    let mut i = 0;
    let mut m = 0u32;
    let mut digits = 0;
    while let Some(&d) = b.get(i).filter(|d| d.is_ascii_digit()) {
        m = m * 10 + (d - b'0') as u32;
        i += 1;
        digits += 1;
        if digits > 7 {
            return None;
        }
    }
    let int_digits = i;
    let mut frac = None;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let from = i;
        while let Some(&d) = b.get(i).filter(|d| d.is_ascii_digit()) {
            m = m * 10 + (d - b'0') as u32;
            i += 1;
            digits += 1;
            if digits > 7 {
                return None;
            }
        }
        frac = Some(i - from);
    }
    if frac.is_some() && matches!(b.get(i), Some(b'f' | b'F')) {
        i += 1;
    }
    if b.get(i).is_some_and(|&c| is_ident(c)) {
        return None;
    }
    match frac {
        Some(f) => {
            let v = m as f32 / *POW10_F32.get(f)?;
            Some((i, (Tok::FloatLit, v.to_bits())))
        }
        // A leading zero is octal (profile 2) or an error (profile 1).
        None if int_digits > 1 && b.first() == Some(&b'0') => None,
        None => Some((i, (Tok::IntLit, m))),
    }
}

#[inline(never)]
/// Scans a number starting at `start` (numbers never span lines): returns where it ends and its
/// kind and value bits, or, after reporting an error, the kind of literal it looked like.
fn number(
    src: &[u8],
    start: usize,
    diag: &mut Diagnostics,
    line: u32,
    col: u32,
    p2: bool,
) -> (usize, Result<(Tok, u32), Tok>) {
    match plain_number(src.get(start..).unwrap_or(&[])) {
        Some((n, r)) => (start + n, Ok(r)),
        None => number_general(src, start, diag, line, col, p2),
    }
}

/// [`number`] for every literal, errors included.
#[inline(never)]
fn number_general(
    src: &[u8],
    start: usize,
    diag: &mut Diagnostics,
    line: u32,
    col: u32,
    p2: bool,
) -> (usize, Result<(Tok, u32), Tok>) {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let mut p = start;
    if at(p) == b'0' && matches!(at(p + 1), b'x' | b'X') {
        if p2 {
            return p2_hex(src, start, diag, line, col);
        }
        while is_ident(at(p)) {
            p += 1;
        }
        diag.push(
            line,
            col,
            format_args!("hexadecimal literals are not supported{}", P2_HINT),
        );
        return (p, Err(Tok::IntLit));
    }
    let mut is_float = false;
    // The digits' value (None once past u32) and the number of fraction digits, for the
    // exact fast paths below.
    let mut mant: Option<u32> = Some(0);
    let mut frac_digits = 0u32;
    while at(p).is_ascii_digit() {
        mant = mant
            .and_then(|m| m.checked_mul(10))
            .and_then(|m| m.checked_add((at(p) - b'0') as u32));
        p += 1;
    }
    if at(p) == b'.' {
        is_float = true;
        p += 1;
        while at(p).is_ascii_digit() {
            mant = mant
                .and_then(|m| m.checked_mul(10))
                .and_then(|m| m.checked_add((at(p) - b'0') as u32));
            frac_digits = frac_digits.saturating_add(1);
            p += 1;
        }
    }
    let mut has_exponent = false;
    if matches!(at(p), b'e' | b'E') {
        has_exponent = true;
        is_float = true;
        p += 1;
        if matches!(at(p), b'+' | b'-') {
            p += 1;
        }
        if !at(p).is_ascii_digit() {
            while is_ident(at(p)) {
                p += 1;
            }
            diag.push(
                line,
                col,
                format_args!("invalid numeric literal: the exponent has no digits"),
            );
            return (p, Err(Tok::FloatLit));
        }
        while at(p).is_ascii_digit() {
            p += 1;
        }
    }
    let end = p;
    if is_float && matches!(at(p), b'f' | b'F') {
        p += 1;
    }
    // Profile 2: an unsigned suffix on an integer (a `uint` literal: the parser reads the suffix).
    let unsigned = p2 && !is_float && matches!(at(p), b'u' | b'U') && !is_ident(at(p + 1));
    if unsigned {
        p += 1;
    }
    if is_ident(at(p)) {
        let u = !is_float && matches!(at(p), b'u' | b'U') && !is_ident(at(p + 1));
        while is_ident(at(p)) {
            p += 1;
        }
        diag.push(
            line,
            col,
            format_args!(
                "invalid numeric literal: letters directly after a number (suffixes other than 'f' are not supported){}",
                if u { P2_HINT } else { "" }
            ),
        );
        return (p, Err(if is_float { Tok::FloatLit } else { Tok::IntLit }));
    }
    let text = || core::str::from_utf8(src.get(start..end).unwrap_or(&[])).unwrap_or("");
    if is_float {
        // A mantissa below 2^24 and a power of ten up to 10^10 are both exact in f32, so one
        // division is correctly rounded: the same value the general parser returns.
        let fast = match (mant, POW10_F32.get(frac_digits as usize)) {
            (Some(m), Some(&p)) if !has_exponent && m < 1 << 24 => Some(m as f32 / p),
            _ => None,
        };
        let v: f32 = match fast {
            Some(v) => v,
            None => text().parse().unwrap_or(f32::INFINITY),
        };
        if !v.is_finite() {
            diag.push(
                line,
                col,
                format_args!("float literal is out of range (the largest is about 3.4e38)"),
            );
            return (p, Err(Tok::FloatLit));
        }
        (p, Ok((Tok::FloatLit, v.to_bits())))
    } else {
        let digits = src.get(start..end).unwrap_or(&[]);
        if p2 && digits.len() > 1 && digits.first() == Some(&b'0') {
            // GLSL octal: every digit 0..7.
            let mut v: Option<u32> = Some(0);
            for &d in digits.iter().skip(1) {
                if d > b'7' {
                    diag.push(
                        line,
                        col,
                        format_args!(
                            "invalid octal literal '{}': a leading 0 makes an octal number, whose digits are 0 to 7",
                            text()
                        ),
                    );
                    return (p, Err(Tok::IntLit));
                }
                v = v
                    .and_then(|v| v.checked_mul(8))
                    .and_then(|v| v.checked_add((d - b'0') as u32));
            }
            return int_value(v, unsigned, diag, line, col, p);
        }
        if p2 {
            return int_value(mant, unsigned, diag, line, col, p);
        }
        if digits.len() > 1 && digits.first() == Some(&b'0') {
            // GLSL reads a leading 0 as octal ('010' is 8): never give it another meaning.
            diag.push(
                line,
                col,
                format_args!(
                    "octal literals are not supported: '{}' has a leading zero (write it without the zero; GLSL would read it as octal){}",
                    text(),
                    P2_HINT
                ),
            );
            return (p, Err(Tok::IntLit));
        }
        match mant {
            Some(v) if v <= INT_LITERAL_MAX => (p, Ok((Tok::IntLit, v))),
            _ => {
                diag.push(
                    line,
                    col,
                    format_args!(
                        "integer literal is too large: the limit is {} (integers are exact below 2^24)",
                        INT_LITERAL_MAX
                    ),
                );
                (p, Err(Tok::IntLit))
            }
        }
    }
}

/// Profile 2: a hexadecimal integer `0x...` with an optional `u`/`U` suffix.
fn p2_hex(
    src: &[u8],
    start: usize,
    diag: &mut Diagnostics,
    line: u32,
    col: u32,
) -> (usize, Result<(Tok, u32), Tok>) {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let mut p = start + 2;
    let mut v: Option<u32> = Some(0);
    while at(p).is_ascii_hexdigit() {
        let d = (at(p) as char).to_digit(16).unwrap_or(0);
        v = v
            .and_then(|v| v.checked_mul(16))
            .and_then(|v| v.checked_add(d));
        p += 1;
    }
    let digits = p - start - 2;
    let unsigned = matches!(at(p), b'u' | b'U');
    if unsigned {
        p += 1;
    }
    if digits == 0 || is_ident(at(p)) {
        while is_ident(at(p)) {
            p += 1;
        }
        let text = core::str::from_utf8(src.get(start..p).unwrap_or(&[])).unwrap_or("?");
        diag.push(
            line,
            col,
            format_args!(
                "invalid hexadecimal literal '{}': 0x must be followed by hexadecimal digits (0-9, a-f) and at most a 'u' suffix",
                text
            ),
        );
        return (p, Err(Tok::IntLit));
    }
    int_value(v, unsigned, diag, line, col, p)
}

/// Profile 2: an integer literal's token, or the error for one that does not fit in 32 bits
/// (profile 2's integers are 32-bit: `0xFFFFFFFF` is -1 as an int, 4294967295 as a uint).
fn int_value(
    v: Option<u32>,
    unsigned: bool,
    diag: &mut Diagnostics,
    line: u32,
    col: u32,
    end: usize,
) -> (usize, Result<(Tok, u32), Tok>) {
    match v {
        Some(v) => (end, Ok((Tok::IntLit, v))),
        None => {
            diag.push(
                line,
                col,
                format_args!(
                    "{} literal is too large: it does not fit in 32 bits (the largest is 4294967295, 0xFFFFFFFF)",
                    if unsigned { "unsigned" } else { "integer" }
                ),
            );
            (end, Err(Tok::IntLit))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::word_oracle::*;
    use super::*;

    /// Profile 2's one-pass lexing: whenever it takes a source, its tokens (every field), version
    /// and profile are those of the preprocessor followed by `lex_pp`, which reports nothing;
    /// it declines every source the preprocessor would change or report.
    fn same_as_preprocessed(src: &[u8]) -> bool {
        let mut d = Diagnostics::with_error_limit("t", 16);
        let mut direct = std::boxed::Box::new(Tokens::new());
        let took = lex_p2_direct(src, &mut d, &mut direct);
        let mut d = Diagnostics::with_error_limit("t", 16);
        let mut pp = std::boxed::Box::new(Preprocessor::new());
        let clean = pp.run(src, &mut d);
        let mut text = std::boxed::Box::new(Vec::new());
        let mut t = std::boxed::Box::new(Tokens::new());
        lex_pp(&pp, src, &mut text, &mut d, &mut t);
        if took {
            let name = std::string::String::from_utf8_lossy(src);
            assert!(
                clean && d.total() == 0 && d.warning_total() == 0,
                "{}",
                name
            );
            assert_eq!(direct.toks.as_slice(), t.toks.as_slice(), "{}", name);
            assert_eq!(direct.version, t.version, "{}", name);
            assert_eq!(direct.profile, t.profile, "{}", name);
            assert_eq!(direct.overflow, t.overflow, "{}", name);
        }
        took
    }

    /// The one-pass lexer takes every source of `taken` (with the preprocessor's tokens) and
    /// declines every source of `declined`.
    fn takes_and_declines(taken: &[&[u8]], declined: &[&[u8]]) {
        for (list, take) in [(taken, true), (declined, false)] {
            for src in list {
                assert_eq!(
                    same_as_preprocessed(src),
                    take,
                    "{}",
                    std::string::String::from_utf8_lossy(src)
                );
            }
        }
    }

    #[test]
    fn one_pass_profile_2_lexing_makes_the_preprocessed_tokens() {
        let taken: &[&[u8]] = &[
            b"#version 330 core\n#pragma chrisos profile 2\nvoid main() { x += 1.5e+3f; }\n",
            b"#version 330\n#pragma chrisos profile 2  \r\n#pragma chrisos profile 2\nint a;",
            b"#version 150 core\nlayout(row_major) uniform B { mat4 m; };\nfloat p;",
            b"#version 330 core\n/* a\n b */ x /**/y // c\n\t\x0b\x0c z<<=w>>=2u 0x1Fu 017 .5 a.b",
            b"#version 110\nvoid main(){gl_FragColor=vec4(1.0);}",
            b"#version 330 core",
            b"#version 330 core\n",
        ];
        let declined: &[&[u8]] = &[
            b"void main(){}",
            b"// c\n#version 330 core\nint a;",
            b"#version 130 core\nint a;",
            b"#version 0330\nint a;",
            b"#version 450\nint a;",
            b"#version 330 compatibility\nint a;",
            b"#version 330 core\n#define X 1\nint a = X;",
            b"#version 330 core\nint a = __LINE__;",
            b"#version 330 core\nint a = GL_core_profile;",
            b"#version 330 core\nint a; /* open",
            b"#version 330 core\nint a = 1 \\\n + 2;",
            b"#version 330 core\nint goto;",
            b"#version 330 core\nint a = 1e;",
            b"#version 330 core\nint a = 1 @ 2;",
            b"#version 330 core\nint a = 1; #",
            b"#version 330 core\nfloat x = 1e99;",
            b"#version 330 core\n#pragma chrisos profile 2 x\nint a;",
            b"#version 330 core\n#pragma STDGL invariant(all)\nint a;",
        ];
        takes_and_declines(taken, declined);
    }

    /// The simple directives the one-pass lexer follows itself (`Directives`): object-like
    /// macros that only `#if` reads, and conditionals; the ones it must leave to the
    /// preprocessor.
    #[test]
    fn one_pass_profile_2_lexing_follows_simple_directives() {
        let taken: &[&[u8]] = &[
            b"#version 330 core\n#define A 1\n#if defined(A) && A\nint a;\n#else\nint b;\n#endif\nint c;\n",
            b"#version 330 core\n#define A 0\n#if defined(A) && A\nint a;\n#else\nint b;\n#endif\n",
            b"#version 330 core\n#define A\n#ifdef A\nint a;\n#endif\n#ifndef A\nint b;\n#endif\n",
            b"#version 330 core\n#define A 2 // two\n#if A == 2 || !defined B\nint a;\n#elif A\nint b;\n#endif",
            b"#version 330 core\n#if 0\nint a;\n#elif 1 + 2 * 3 == 7\nint b;\n#elif 1\nint c;\n#else\nint d;\n#endif",
            b"#version 330 core\n#if UNDEFINED\nint a;\n#else\nint b;\n#endif\nint e;",
            b"#version 330 core\n#if -(1) < 0 && (2 >= 2) && 3 > 2 && 1 <= 1 && 1 != 2 && +1\nint a;\n#endif",
            b"#version 330 core\n#if 0\n#if 1\nint a;\n#else\nint b;\n#endif\n#define X (\n#undef Y\n'x' @ $ // a comment\n#else\nint c;\n#endif",
            b"#version 330 core\n#define A 1\n#undef A\nint A;\n#ifdef A\nint b;\n#endif",
            b"#version 330 core\n#pragma chrisos profile 2\n#define FOG 1\nfloat f() {\n#if defined(FOG) && FOG\n  return 1.0;\n#else\n  return 0.0;\n#endif\n}\n",
            b"#version 330 core\n#if 1\n#if 0\nint a;\n#endif\nint b;\n#endif\n",
            b"#version 330 core\n#ifdef A\n#else\n#endif // done\r\nint z;",
            b"#version 330 core\n#\tdefine A 1\n#if A\nint z;\n#endif",
            // A `#` inside a block comment is not a directive.
            b"#version 330 core\nint a; /*\n#if 0 */\nint b;\n",
            // Blanks in directive lines: CR (a CRLF source), VT, FF, tabs.
            b"#version 330 core\r\n#define A 1\r\n#if A\r\nint a;\r\n#else\r\nint b;\r\n#endif\r\n",
            b"#version 330 core\n#if\x0b1\x0c\nint a;\n#endif\x0b\n#ifdef\tB\t\n#endif",
        ];
        let declined: &[&[u8]] = &[
            // A macro used outside a directive would be expanded.
            b"#version 330 core\n#define A 1\nint a = A;",
            b"#version 330 core\n#define F(x) x\nint a;",
            b"#version 330 core\n#define A 1\n#define A 1\nint a;",
            b"#version 330 core\n#define __A 1\nint a;",
            b"#version 330 core\n#define GL_A 1\nint a;",
            b"#version 330 core\n#define defined 1\nint a;",
            b"#version 330 core\n#define A B\n#if A\nint a;\n#endif",
            b"#version 330 core\n#define A 1 /* c */\nint a;",
            b"#version 330 core\n#define A 1 # 2\nint a;",
            b"#version 330 core\n#if 1\nint a;",
            b"#version 330 core\nint a;\n#endif",
            b"#version 330 core\n#if 1\n#else\n#else\n#endif",
            b"#version 330 core\n#if 1\n#else\n#elif 1\n#endif",
            b"#version 330 core\n#if\nint a;\n#endif",
            b"#version 330 core\n#if 1 / 1\nint a;\n#endif",
            b"#version 330 core\n#if 0x1\nint a;\n#endif",
            b"#version 330 core\n#if 01\nint a;\n#endif",
            b"#version 330 core\n#if 1u\nint a;\n#endif",
            b"#version 330 core\n#if __VERSION__ >= 330\nint a;\n#endif",
            b"#version 330 core\n#if defined(GL_core_profile)\nint a;\n#endif",
            b"#version 330 core\n#if (1\nint a;\n#endif",
            b"#version 330 core\n#if 1 1\nint a;\n#endif",
            b"#version 330 core\n#ifdef\nint a;\n#endif",
            b"#version 330 core\n#ifdef A B\nint a;\n#endif",
            b"#version 330 core\n#if 1\n#else x\n#endif",
            b"#version 330 core\n#if 1\n#endif x\n",
            b"#version 330 core\n  #if 1\nint a;\n#endif",
            b"#version 330 core\n#if 0\n  #endif\n#endif",
            b"#version 330 core\n#if 0\n/*\n#endif\n*/\n#endif",
            b"#version 330 core\n#pragma chrisos profile 2\n#define A 1\n#pragma chrisos profile 2\n",
            b"#version 330 core\n#if 0\n#pragma x\n#endif",
            b"#version 330 core\n#error stop\n",
            b"#version 330 core\n#line 5\nint a;",
            b"#version 330 core\n#\nint a;",
            b"#version 330 core\n#if 1\n#endif\n#endif_not\n",
            b"#version 330 core\n#if 999999999 * 999999999 * 999999999\n#endif",
            b"#version 330 core\n#undef __A\nint a;",
        ];
        takes_and_declines(taken, declined);
    }

    /// The same over every shader of the golden corpus and the compatibility suite (the ones it
    /// takes must be most of the profile-2 shaders without macros).
    #[test]
    fn one_pass_profile_2_lexing_makes_every_corpus_shaders_tokens() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let (mut seen, mut took) = (0, 0);
        for dir in ["tests/in", "../tools/shc/tests/compat"] {
            for e in std::fs::read_dir(root.join(dir)).unwrap() {
                let f = e.unwrap().path();
                if !f
                    .extension()
                    .is_some_and(|e| e == "vert" || e == "frag" || e == "glsl")
                {
                    continue;
                }
                seen += 1;
                took += same_as_preprocessed(&std::fs::read(&f).unwrap()) as u32;
            }
        }
        assert!(seen > 100 && took > 50, "{} of {}", took, seen);
    }

    #[test]
    fn ident_run_finds_the_end_of_every_run() {
        let text =
            b"a ab abc abcd abcde abcdef abcdefg abcdefgh abcdefghi a_b9_c0d1e2f3g4h5i6 x(y)z;";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let s = &text[start..end];
                let naive = s.iter().position(|&b| !is_ident(b)).unwrap_or(s.len());
                assert_eq!(ident_run(s), naive, "{:?}", s);
            }
        }
    }

    /// The plain-literal path of `number` gives what the general path gives, on edge cases and
    /// on every number of the corpus, in both profiles.
    #[test]
    fn plain_numbers_scan_as_the_general_path() {
        let mut lits: std::vec::Vec<std::vec::Vec<u8>> = [
            "0",
            "1",
            "7",
            "00",
            "01",
            "08",
            "1234567",
            "12345678",
            "9999999",
            "16777216",
            "0.0",
            "1.0",
            "1.",
            ".5",
            "0.5f",
            "1.5F",
            "3.1415926",
            "3.14159265",
            "1234.567",
            "1e5",
            "1.0e-3",
            "2u",
            "0x1F",
            "1.5x",
            "1.0ff",
            "1.2.3",
            "5;",
            "5)",
            ".5 ",
            "1.f",
            "100000.0",
            "0.0000001",
            "0.00000001",
            "6.5536e4",
            "1_",
            "1.0_",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        for (_, _, src) in crate::program::compile::corpus_sources() {
            let mut p = 0;
            while p < src.len() {
                let c = src[p];
                let prev_ident = p > 0 && is_ident(src[p - 1]);
                if c.is_ascii_digit() && !prev_ident {
                    let n = crate::front::pp::number_len(&src[p..]);
                    lits.push(src[p..p + n + 1.min(src.len() - p - n)].to_vec());
                    p += n;
                } else {
                    p += 1;
                }
            }
        }
        for lit in &lits {
            for p2 in [false, true] {
                let mut d1 = Diagnostics::with_error_limit("t", 4);
                let mut d2 = Diagnostics::with_error_limit("t", 4);
                let fast = number(lit, 0, &mut d1, 1, 1, p2);
                let general = number_general(lit, 0, &mut d2, 1, 1, p2);
                assert_eq!(
                    fast,
                    general,
                    "{}",
                    std::string::String::from_utf8_lossy(lit)
                );
                assert_eq!(d1.total(), d2.total());
            }
        }
    }

    #[test]
    fn every_table_word_passes_the_shape_filter() {
        let words = KEYWORDS
            .iter()
            .map(|k| k.0)
            .chain(REJECTED_QUALIFIERS.iter().map(|r| r.0))
            .chain(RESERVED.iter().copied());
        for w in words {
            assert!(may_be_word(w.as_bytes()), "{}", w);
        }
        assert!(!may_be_word(b"position"));
        assert!(!may_be_word(b""));
    }

    /// The profile-2 table is sorted (binary search), every GLSL 3.30 word reserved for future
    /// use is refused as a name in profile 2, and the words GLSL 3.30 does not reserve are names.
    #[test]
    fn profile_2_words() {
        assert!(P2_WORDS.windows(2).all(|w| w[0].0 < w[1].0));
        for &(w, kind) in P2_WORDS {
            assert_eq!(p2_word(w.as_bytes()), Some(kind), "{}", w);
            let src = std::format!("float {};", w);
            let mut d = Diagnostics::with_error_limit("t", 16);
            let mut pp = Preprocessor::new();
            pp.run(src.as_bytes(), &mut d);
            let mut text = Vec::new();
            let mut t = Tokens::new();
            lex_pp(&pp, src.as_bytes(), &mut text, &mut d, &mut t);
            let reserved = d.errors().any(|e| e.message.contains("reserved word"));
            assert_eq!(reserved, kind == P2Word::Reserved, "{}", w);
            let name = t.toks.get(1).map(|t| t.kind);
            match kind {
                P2Word::Reserved | P2Word::Ident => assert_eq!(name, Some(Tok::Ident), "{}", w),
                P2Word::Later => assert_eq!(name, Some(Tok::Reserved), "{}", w),
                P2Word::Keyword(k) => assert_eq!(name, Some(k), "{}", w),
            }
        }
        for w in [
            "position",
            "texture",
            "main",
            "sampler2D",
            "vec4",
            "Flat",
            "flatten",
            "",
        ] {
            assert_eq!(p2_word(w.as_bytes()), None, "{}", w);
        }
    }

    /// Profile 2's integer literals: hex, octal, u/U suffixes (kept as int values).
    #[test]
    fn profile_2_integer_literals() {
        for (t, v) in [
            ("0x1F", 31u32),
            ("0XaBu", 171),
            ("017", 15),
            ("00", 0),
            ("0u", 0),
            ("7U", 7),
            ("0x1000000", 1 << 24),
            ("16777216u", 1 << 24),
            // 32-bit integers (issue 14): every 32-bit value.
            ("0x1000001", (1 << 24) + 1),
            ("0xFFFFFFFFu", u32::MAX),
            ("4294967295", u32::MAX),
            ("037777777777", u32::MAX),
        ] {
            let mut d = Diagnostics::new("t");
            let (end, r) = number(t.as_bytes(), 0, &mut d, 1, 1, true);
            assert!(d.is_empty(), "{}", t);
            assert_eq!((end, r), (t.len(), Ok((Tok::IntLit, v))), "{}", t);
        }
        for t in [
            "0x",
            "0x1g",
            "08",
            "0x100000000",
            "4294967296u",
            "040000000000",
            "1uu",
            "1.0u",
            "0xu",
        ] {
            let mut d = Diagnostics::new("t");
            let (_, r) = number(t.as_bytes(), 0, &mut d, 1, 1, true);
            assert!(r.is_err() && d.len() == 1, "{}", t);
        }
        // Profile 1 is unchanged: the same spellings are errors, with the profile-2 hint.
        for t in ["0x1F", "017", "7u"] {
            let mut d = Diagnostics::new("t");
            let (_, r) = number(t.as_bytes(), 0, &mut d, 1, 1, false);
            assert!(r.is_err(), "{}", t);
            assert!(
                d.errors().next().unwrap().message.ends_with(P2_HINT),
                "{}",
                t
            );
        }
    }

    #[test]
    fn word_matches_agree_with_the_tables() {
        for (w, k) in KEYWORDS {
            assert_eq!(word(w.as_bytes()), Some(Word::Keyword(*k)), "{}", w);
        }
        for (i, (w, _)) in REJECTED_QUALIFIERS.iter().enumerate() {
            assert_eq!(word(w.as_bytes()), Some(Word::Rejected(i)), "{}", w);
        }
        for w in RESERVED {
            assert_eq!(word(w.as_bytes()), Some(Word::Reserved), "{}", w);
        }
        for w in [
            "position",
            "inouts",
            "flatten",
            "whilex",
            "color",
            "do_",
            "i",
            "x",
            "",
            "vec5",
            "Sampler2D",
            "sampler2d",
            "main",
            "fragColor",
        ] {
            assert_eq!(word(w.as_bytes()), None, "{}", w);
        }
    }

    /// Profile 2's reading of a name by the rule `READINGS` encodes: its own words first, then
    /// the shared tables (`inout` a keyword there).
    fn p2_rule(w: &[u8]) -> Reading {
        match p2_word(w) {
            Some(k) => p2_reading_of(k),
            None => match if may_be_word(w) { word(w) } else { None } {
                Some(Word::Keyword(k)) => Reading::Keyword(k),
                Some(Word::Reserved) => Reading::Reserved,
                Some(Word::Rejected(i)) if REJECTED_QUALIFIERS[i].0 == "inout" => {
                    Reading::Keyword(Tok::InOut)
                }
                Some(Word::Rejected(i)) => Reading::Rejected(i as u8),
                None => Reading::Name,
            },
        }
    }

    #[test]
    fn line_len_finds_the_first_newline() {
        let mut text = std::vec::Vec::new();
        for i in 0..40u8 {
            text.push(if i % 7 == 3 { b'\n' } else { b'a' + i % 26 });
            text.push(0x0b);
            text.push(0xff);
        }
        for from in 0..text.len() {
            for to in from..=text.len().min(from + 30) {
                let b = &text[from..to];
                let want = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
                assert_eq!(line_len(b), want, "{:?}", b);
            }
        }
    }

    #[test]
    fn readings_agree_with_the_word_tables() {
        let mut names: std::vec::Vec<std::string::String> = std::vec::Vec::new();
        let shared = KEYWORDS.iter().map(|w| w.0);
        let shared = shared.chain(REJECTED_QUALIFIERS.iter().map(|w| w.0));
        let shared: std::vec::Vec<&str> = shared.chain(RESERVED.iter().copied()).collect();
        for (i, a) in shared.iter().enumerate() {
            assert!(!shared[i + 1..].contains(a), "{} twice", a);
        }
        for w in shared.iter().copied().chain(P2_WORDS.iter().map(|w| w.0)) {
            names.push(w.into());
            // Near misses: one byte more, one less, one changed, and the same at the end of
            // the source (the copied key).
            names.push(std::format!("{}x", w));
            names.push(std::format!("{}_", w));
            names.push(w[..w.len() - 1].into());
            names.push(std::format!("x{}", &w[1..]));
        }
        for w in [
            "position",
            "color",
            "i",
            "x",
            "main",
            "fragColor",
            "a1234567890123456",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            "sampler2DArrayShadowx",
        ] {
            names.push(w.into());
        }
        for w in &names {
            let b = w.as_bytes();
            let p1 = match if may_be_word(b) { word(b) } else { None } {
                Some(Word::Keyword(k)) => Reading::Keyword(k),
                Some(Word::Reserved) => Reading::Reserved,
                Some(Word::Rejected(i)) => Reading::Rejected(i as u8),
                None => Reading::Name,
            };
            // Alone (the key is copied) and followed by other text (one load).
            let long = std::format!("{} + some more text after it;", w);
            for src in [b, long.as_bytes()] {
                assert_eq!(p1_reading(src, 0, b.len()), p1, "{}", w);
                assert_eq!(p2_reading(src, 0, b.len()), p2_rule(b), "{}", w);
            }
            // The lexers' scan: the same length, slot and kinds, alone, followed by text, and
            // with sixteen bytes or more after its start (the one-load path).
            let padded = std::format!("{};                ", w);
            let shifted = std::format!("  {}", w);
            for (src, at) in [
                (b, 0),
                (long.as_bytes(), 0),
                (padded.as_bytes(), 0),
                (shifted.as_bytes(), 2),
            ] {
                let (n, slot) = scan_name(src, at);
                assert_eq!(n, b.len(), "{}", w);
                assert_eq!(slot, reading_slot(src, at, n), "{}", w);
                let kind = |p: usize| slot.map_or(Tok::Ident, |s| SLOT_KINDS[p][s]);
                assert_eq!(kind(0), slot_kind(p1, false), "{}", w);
                if n <= KEY_LEN {
                    assert_eq!(kind(1), slot_kind(p2_rule(b), true), "{}", w);
                }
            }
            assert_eq!(p1_reading(shifted.as_bytes(), 2, b.len()), p1, "{}", w);
            assert_eq!(
                p2_reading(shifted.as_bytes(), 2, b.len()),
                p2_rule(b),
                "{}",
                w
            );
        }
    }

    #[test]
    fn short_words_have_their_own_slots() {
        // Every table word of at most 8 bytes is found at its slot in one step; every other
        // key of up to 8 name bytes misses (a sample: the words with a byte changed).
        let mut short = 0;
        for (i, &k) in READINGS.keys.iter().enumerate() {
            if k != 0 && k >> 64 == 0 {
                short += 1;
                assert_eq!(short_probe(k as u64), Some(i));
                assert_eq!(probe(k), Some(i));
                for b in 0..8 {
                    let near = (k as u64) ^ (0x20 << (8 * b));
                    if near
                        .to_le_bytes()
                        .iter()
                        .all(|&c| c == 0 || IDENT_BYTE[c as usize])
                    {
                        assert_eq!(short_probe(near), probe(near as u128));
                    }
                }
            }
        }
        assert!(short > 100);
    }

    fn run(src: &str) -> (Tokens, Diagnostics) {
        let mut d = Diagnostics::new("t");
        let mut t = Tokens::new();
        lex(src.as_bytes(), &mut d, &mut t);
        (t, d)
    }

    #[test]
    fn positions_and_kinds() {
        let (t, d) = run("#version 330 core\nfloat x = 1.5e1;\n");
        assert!(d.is_empty());
        assert_eq!(t.version, 330);
        let k: std::vec::Vec<Tok> = t.toks.iter().map(|t| t.kind).collect();
        assert_eq!(
            k,
            [
                Tok::Float,
                Tok::Ident,
                Tok::Assign,
                Tok::FloatLit,
                Tok::Semi,
                Tok::Eof
            ]
        );
        assert_eq!((t.toks[1].line, t.toks[1].col), (2, 7));
        assert_eq!(t.toks[3].float(), 15.0);
    }

    #[test]
    fn rejects_directives_and_qualifiers() {
        let (_, d) = run("#extension GL_x : enable\nattribute vec4 p;\n x # y");
        let m: std::vec::Vec<_> = d.errors().map(|e| (e.line, e.column)).collect();
        assert_eq!(m, [(1, 1), (2, 1), (3, 4)]);
    }

    #[test]
    fn version_range_and_comment() {
        let (_, d) = run("#version 450\n");
        assert!(d.errors().next().unwrap().message.contains("450"));
        let (_, d) = run("/* never closed");
        assert!(d.errors().next().unwrap().message.contains("unterminated"));
        let (_, d) = run("#version 110\n");
        assert!(d.is_empty());
    }

    /// `comment_line_len` is `line_len` when no backslash comes before the line's end, None
    /// otherwise (every position of a backslash and a newline in lines of 0 to 40 bytes); and
    /// the one-pass lexer declines a source with a backslash in a comment or a directive.
    #[test]
    fn comment_line_len_finds_backslashes() {
        for len in 0..40usize {
            for nl in [None, Some(0), Some(len / 3), Some(len.saturating_sub(1))] {
                for bs in [
                    None,
                    Some(0),
                    Some(len / 2),
                    Some(len.saturating_sub(1)),
                    Some(len / 5),
                ] {
                    let mut line: std::vec::Vec<u8> =
                        (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if let Some(p) = bs.filter(|&p| p < len) {
                        line[p] = b'\\';
                    }
                    if let Some(p) = nl.filter(|&p| p < len) {
                        line[p] = b'\n';
                    }
                    let end = line_len(&line);
                    let want = (!line[..end].contains(&b'\\')).then_some(end);
                    assert_eq!(comment_line_len(&line), want, "{:?}", line);
                }
            }
        }
        takes_and_declines(
            &[b"#version 330\n// a comment\nvoid main() {}\n"],
            &[
                b"#version 330\n// a comment \\\nvoid main() {}\n",
                b"#version 330\n// a \\ comment\nvoid main() {}\n",
                b"#version 330\n/* a \\ comment */\nvoid main() {}\n",
                b"#version 330\n#define A 1 \\\n+ 2\nvoid main() {}\n",
                b"#version 330\nvoid main() { float a = 1.0 \\\n; }\n",
            ],
        );
    }

    /// The inline `#version` fast path gives what `plain_version` gives wherever it answers, and
    /// answers the usual first lines.
    #[test]
    fn usual_version_matches_plain_version() {
        let mut answered = 0;
        for v in [
            "099", "100", "109", "110", "140", "150", "330", "331", "450", "033", "3a0",
        ] {
            for tail in [
                "\n",
                " core\n",
                " core",
                " core \n",
                " cores\n",
                " es\n",
                "\r\n",
                "",
                "0\n",
                " core\nin vec4 p;\n",
                "\nvoid main() {}\n",
            ] {
                for lead in ["#version ", "#version  ", "#versio ", "# version "] {
                    let src = std::format!("{}{}{}", lead, v, tail);
                    if let Some(r) = usual_version(src.as_bytes()) {
                        assert_eq!(Some(r), plain_version(src.as_bytes(), 0), "{:?}", src);
                        answered += 1;
                    }
                }
            }
        }
        assert!(usual_version(b"#version 330 core\n").is_some());
        assert!(usual_version(b"#version 330\n").is_some());
        assert!(answered >= 12, "{}", answered);
    }

    /// Float and int literals read the same values as the standard parsers (the fast paths
    /// included: short mantissas, up to 10 fraction digits, leading zeros, no integer part).
    #[test]
    fn literals_match_the_standard_parsers() {
        let mut texts: std::vec::Vec<std::string::String> = std::vec::Vec::new();
        let mut x = 0x1234_5678u32;
        for _ in 0..4000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let int = x % 100_000;
            let frac_len = (x >> 20) % 12;
            let frac = std::format!("{:012}", x.wrapping_mul(2_654_435_761));
            texts.push(std::format!("{}.{}", int, &frac[..frac_len as usize]));
            texts.push(std::format!(".{}", &frac[..1 + frac_len as usize]));
            texts.push(std::format!("0.{}f", &frac[..frac_len as usize]));
        }
        for t in [
            "16777215.0",
            "16777216.0",
            "16777217.0",
            "0.1",
            "3.4028235e38",
            "1e-3",
            "8.",
            "0000.5",
        ] {
            texts.push(t.into());
        }
        for t in &texts {
            let (toks, d) = run(t);
            assert!(d.is_empty(), "{}", t);
            let want: f32 = t.trim_end_matches('f').parse().unwrap();
            assert_eq!(toks.toks[0].kind, Tok::FloatLit, "{}", t);
            assert_eq!(toks.toks[0].float().to_bits(), want.to_bits(), "{}", t);
        }
        for t in ["0", "7", "16777216", "4294967295"] {
            let (toks, _) = run(t);
            let want: u32 = t.parse().unwrap();
            if want <= INT_LITERAL_MAX {
                assert_eq!(toks.toks[0].int(), want, "{}", t);
            } else {
                // Reported, and a zero literal stands in for it.
                assert_eq!(
                    (toks.toks[0].kind, toks.toks[0].int()),
                    (Tok::IntLit, 0),
                    "{}",
                    t
                );
            }
        }
        let (_, d) = run("4294967296");
        assert!(d.errors().next().unwrap().message.contains("too large"));
    }

    /// Octal-looking integers are rejected (GLSL reads '010' as 8); floats with leading zeros
    /// are decimal in GLSL too and stay accepted.
    #[test]
    fn leading_zero_integers_are_rejected() {
        for t in ["010", "00", "0007", "08", "0000000000000000000001"] {
            let (toks, d) = run(t);
            assert_eq!(d.len(), 1, "{}", t);
            assert!(
                d.errors().next().unwrap().message.contains("octal"),
                "{}",
                t
            );
            assert_eq!((toks.toks[0].kind, toks.toks[0].int()), (Tok::IntLit, 0));
        }
        for (t, v) in [
            ("010.5", 10.5f32),
            ("00.25", 0.25),
            ("010e1", 100.0),
            ("0.0", 0.0),
        ] {
            let (toks, d) = run(t);
            assert!(d.is_empty(), "{}", t);
            assert_eq!(toks.toks[0].float(), v, "{}", t);
        }
        let (toks, d) = run("0");
        assert!(d.is_empty());
        assert_eq!(toks.toks[0].int(), 0);
    }

    /// The source is ASCII text everywhere, comments included: one located error per comment.
    #[test]
    fn comments_hold_ascii_text_only() {
        let (_, d) = run("// caf\u{e9} \u{e9}\n/* a\n b\0 \x01 */ x");
        let m: std::vec::Vec<_> = d.errors().map(|e| (e.line, e.column)).collect();
        assert_eq!(m, [(1, 7), (3, 3)]);
        assert!(d.errors().all(|e| e.message.contains("in a comment")));
        let (_, d) = run("// tab\t, CR\r\n/* \x0b\x0c ~ */");
        assert!(d.is_empty());
    }

    #[test]
    fn token_limit_is_exact() {
        let ok = ";".repeat(TOK_MAX);
        let (t, d) = run(&ok);
        assert!(d.is_empty());
        assert_eq!(t.toks.len(), TOK_MAX + 1);
        assert_eq!(t.overflow, None);
        let (t, mut d) = run(&";".repeat(TOK_MAX + 1));
        assert!(d.is_empty());
        assert_eq!(t.overflow, Some((1, TOK_MAX as u32 + 1)));
        report_overflow(&t, &mut d);
        assert_eq!(d.len(), 1);
    }
}
