//! TGSI text emission for VirGL, and a checker that applies virglrenderer's text-parser rules.
//!
//! Owns: the mapping of every IR op onto TGSI instructions, the declaration layout, immediate
//! printing (every immediate reads back as the exact same f32), the 3600-byte output bound and the
//! conservative token count that VirGL's CREATE_OBJECT(SHADER) needs.
//! Must never: emit text that virglrenderer's parser rejects (source swizzles are 4 letters or
//! none, every register is declared, END is last), truncate output silently, or panic on any
//! module (a module the verifier rejected yields a typed error, not garbage).
//!
//! Conventions chosen here (documented in docs/CSIR.md "TGSI mapping" as well):
//! - Vertex stage: `IN[loc]` is attribute location `loc`; `OUT[0]` is POSITION; varying slot `s`
//!   is `OUT[s+1], GENERIC[s]`.
//! - Fragment stage: fragment varying slot `f` is `IN[f], GENERIC[remap[f]], PERSPECTIVE` (or
//!   CONSTANT for a `flat` varying, LINEAR for a `noperspective` one) (the
//!   link's remap from fragment slot to vertex slot; identity when standalone or when the entry is
//!   negative). gl_FragCoord, only when read, is `IN[p], POSITION` with `p` one past the highest
//!   varying register, so it can never collide with a varying.
//! - gl_FragCoord: `PROPERTY FS_COORD_ORIGIN LOWER_LEFT` and `PROPERTY FS_COORD_PIXEL_CENTER
//!   HALF_INTEGER`. The VirGL backend draws with a negative viewport y-scale so that row 0 of a
//!   target is the top of the picture (as in the software path's memory); in gallium terms
//!   LOWER_LEFT then means y counts up from the bottom row, i.e. GL's lower-left origin with
//!   centres at .5, which is the software path's gl_FragCoord. Measured on virglrenderer through
//!   vtest: with UPPER_LEFT the top rows read y < 16; with LOWER_LEFT the bottom rows do.
//! - Scratch temporaries (for aliasing-safe matrix products and division) are allocated after the
//!   module's own temps and declared with them.
//! - Ops that TGSI dropped over time are avoided: subtraction is `ADD a, -b`, absolute value is
//!   `MOV |a|`, division is `RCP` per lane then `MUL`.
use core::fmt::Write;

use heapless::{String, Vec};

mod text;
pub use text::TgsiText;
use text::{pad, put_uint, Line, Piece, Text};

use crate::ir::{refill, refill_from, CmpCode, Inst, Interp, Module, Op, Stage, Type};
#[allow(unused_imports)]
use crate::limits::{
    limits, ATTR_CAP, FOLLOW_EVENTS_CAP, IR_CAP, SAMPLER_CAP, TEMP_CAP, TGSI_CAP, TGSI_MAX,
    TGSI_TEMP_ARRAYS_MAX, VARYING_CAP,
};

/// Scratch temps the emitter may add after the module's own (MULMM needs up to 4).
pub const SCRATCH_TEMPS: u16 = 4;

/// Token budget per emitted item (see [`TgsiInfo::tokens`]). A declaration is at most
/// declaration + range + dimension + semantic + interpolation + sampler-view tokens; an
/// instruction at most instruction + texture + (register + dimension) per operand (4 operands);
/// an immediate is its header plus four data words; a property its header plus one value.
const TOKENS_HEADER: u32 = 2;
const TOKENS_DCL: u32 = 6;
const TOKENS_IMM: u32 = 5;
const TOKENS_PROPERTY: u32 = 2;
const TOKENS_INST: u32 = 12;

/// What the emitter produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TgsiInfo {
    /// Length of the text in bytes (without a terminating NUL).
    pub bytes: usize,
    /// A conservative upper bound of the binary TGSI tokens the text translates to: pass it as
    /// `num_tokens` of CREATE_OBJECT(SHADER).
    pub tokens: u32,
    /// Numbered instruction lines, END included.
    pub instructions: u32,
    /// Declared temporaries (module temps plus scratch).
    pub temps: u16,
}

/// Why emission failed. The output buffer is always left empty on failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TgsiError {
    /// The text would exceed the module's profile budget ([`TGSI_MAX`] bytes in profile 1).
    TooLong { limit: usize },
    /// An instruction the emitter cannot express (only reachable for unverified modules).
    BadInst { inst: usize, reason: &'static str },
}

impl core::fmt::Display for TgsiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TgsiError::TooLong { limit } => {
                write!(f, "TGSI exceeds the VirGL command budget ({} bytes)", limit)
            }
            TgsiError::BadInst { inst, reason } => {
                write!(f, "cannot emit TGSI for instruction {}: {}", inst, reason)
            }
        }
    }
}

type Out = TgsiText;

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

/// A register suffix chosen at run time (write mask or swizzle). As a piece it is written by a
/// match whose arms each copy a literal: a `&str` of run-time length cost a library copy call.
#[derive(Clone, Copy)]
enum Sfx {
    None,
    X,
    Xy,
    Xyz,
    Yzw,
    Zw,
    Y,
    Z,
    W,
    Xxxx,
    Yyyy,
    Zzzz,
    Wwww,
}

/// Write mask for the first `n` lanes ("" for all four).
fn mask(n: u8) -> Sfx {
    match n {
        1 => Sfx::X,
        2 => Sfx::Xy,
        3 => Sfx::Xyz,
        _ => Sfx::None,
    }
}

/// Write mask for lanes `n..4` (the lanes a partial write must zero).
fn rest_mask(n: u8) -> Sfx {
    match n {
        1 => Sfx::Yzw,
        2 => Sfx::Zw,
        3 => Sfx::W,
        _ => Sfx::None,
    }
}

fn lane_mask(k: usize) -> Sfx {
    match k {
        0 => Sfx::X,
        1 => Sfx::Y,
        2 => Sfx::Z,
        _ => Sfx::W,
    }
}

fn replicate(k: usize) -> Sfx {
    match k {
        0 => Sfx::Xxxx,
        1 => Sfx::Yyyy,
        2 => Sfx::Zzzz,
        _ => Sfx::Wwww,
    }
}

/// Formats `v` so that virglrenderer's float parser (`atof` then a cast to float, or `0x` plus
/// eight hex digits taken as raw bits) reads back exactly `v`: the shortest decimal when that
/// survives the double-rounding path, the raw bits otherwise (NaN, infinities, rare halfway cases).
pub fn format_imm(v: f32) -> String<24> {
    let mut s: String<24> = String::new();
    // Zero is most immediates' padding lanes; `{:?}` prints it as "0.0" or "-0.0".
    if v.to_bits() & 0x7fff_ffff == 0 {
        let _ = s.push_str(if v.is_sign_negative() { "-0.0" } else { "0.0" });
        return s;
    }
    // Whole numbers below 1e7 (the usual 1.0, 2.0, ...): what `short_decimal` answers at zero
    // decimals, without its interval arithmetic.
    let a = v.abs();
    if a < 1.0e7 && a == (a as u32) as f32 {
        write_fixed(&mut s, v.is_sign_negative(), a as u64, 0);
        return s;
    }
    if short_decimal(v, &mut s) {
        return s;
    }
    format_imm_general(v)
}

/// An immediate's lane (its bits) as a piece, written as [`format_imm`] prints it: zero and
/// the whole numbers below 100 (most lanes) directly, without building the string.
#[derive(Clone, Copy)]
struct Flt(u32);

impl Piece for Flt {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        // Zero, most immediates' padding lanes, by its bits.
        if self.0 == 0 {
            l.bytes(b"0.0");
            return;
        }
        let v = f32::from_bits(self.0);
        let a = v.abs();
        // `format_imm`'s zero and whole-number paths: "0.0", "-0.0", "7.0", "-42.0".
        if a < 100.0 && a == (a as u32) as f32 {
            if v.is_sign_negative() {
                l.bytes(b"-");
            }
            put_uint(a as u64, l);
            l.bytes(b".0");
        } else {
            imm_piece(v, l);
        }
    }
}

/// [`format_imm`] of `v` (not zero nor a whole number below 100) written into the line: the
/// fast paths' digits as one padded copy (no `String` built a character at a time), the
/// general path's string otherwise.
#[inline(never)]
fn imm_piece(v: f32, l: &mut Line<'_>) {
    let a = v.abs();
    let parts = if a < 1.0e7 && a == (a as u32) as f32 {
        Some((a as u64, 0))
    } else {
        short_decimal_parts(v)
    };
    match parts {
        Some((n, d)) => {
            let (b, len) = fixed_bytes(v.is_sign_negative(), n, d);
            l.padded(&b, len);
        }
        None => l.bytes(format_imm_general(v).as_bytes()),
    }
}

/// [`format_imm`] without the fast path: `{:?}` when it reads back exactly, else the raw bits.
fn format_imm_general(v: f32) -> String<24> {
    let mut s: String<24> = String::new();
    if v.is_finite() && write!(s, "{:?}", v).is_ok() {
        if let Some(back) = parse_tgsi_float(&s) {
            if back.to_bits() == v.to_bits() {
                return s;
            }
        }
    }
    s.clear();
    // 10 characters always fit in 24.
    let _ = write!(s, "0x{:08x}", v.to_bits());
    s
}

/// Fast path of [`format_imm`] for the common immediates (0.001 <= |v| < 1e7 with at most 6
/// decimals, and zero): writes exactly what the `{:?}` plus read-back path would write and
/// returns true, or returns false (with `s` possibly dirty) when that path must decide.
///
/// `{:?}` prints the shortest digit string whose exact value lies in `v`'s f32 rounding interval
/// (the closest such string when several have that length), positionally in this range. At
/// each decimal count `d` the candidate is `n = round(v * 10^d)` (exact in f64: at most 24 + 20
/// bits). A candidate strictly inside the interval that also survives the atof-then-cast path is
/// the answer; one on or inside the interval that does not survive it, or a tie, is left to the
/// slow path, which prints the raw bits or decides the tie exactly as before.
fn short_decimal(v: f32, s: &mut String<24>) -> bool {
    match short_decimal_parts(v) {
        Some((n, d)) => {
            write_fixed(s, v.is_sign_negative(), n, d);
            true
        }
        None => false,
    }
}

/// [`short_decimal`]'s answer as `n / 10^d`, or `None` when the general path must decide.
fn short_decimal_parts(v: f32) -> Option<(u64, usize)> {
    const POW10: [f64; 7] = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];
    let a = v.abs();
    if !(a == 0.0 || (0.001..1.0e7).contains(&a)) {
        return None;
    }
    let x = a as f64;
    // Half the gaps to the neighbouring f32 values (the gap below is half as wide at a power of
    // two); the bounds of the rounding interval.
    let bits = a.to_bits();
    let up = (f32::from_bits(bits + 1) as f64 - x) / 2.0;
    let down = if bits == 0 {
        up
    } else {
        (x - f32::from_bits(bits - 1) as f64) / 2.0
    };
    let (near, far) = if up < down { (up, down) } else { (down, up) };
    for (d, &p) in POW10.iter().enumerate() {
        let scaled = x * p;
        // Nearest integer (0 <= scaled < 2^53, so the truncation and the fraction are exact; an
        // exact half is a tie and goes to the general path below either way).
        let t = scaled as u64 as f64;
        let n = if scaled - t >= 0.5 { t + 1.0 } else { t };
        let diff = (n - scaled).abs();
        if diff > far * p {
            // No decimal with `d` digits after the point lies in the interval.
            continue;
        }
        // A tie (two candidates as close) or one the atof path would misread: the general path.
        if diff == 0.5 || diff >= near * p || (n / p) as f32 != a {
            return None;
        }
        return Some((n as u64, d));
    }
    None
}

/// `n / 10^d` with `d` decimals (at least one, as `{:?}` prints "1.0").
fn write_fixed(s: &mut String<24>, neg: bool, n: u64, d: usize) {
    let (b, len) = fixed_bytes(neg, n, d);
    for &c in b.iter().take(len) {
        let _ = s.push(c as char);
    }
}

/// [`write_fixed`]'s text as bytes and their count (at most 24: `n` has at most 20 digits, and
/// the fast paths' are below 10^13 with `d` at most 6).
#[inline(always)]
fn fixed_bytes(neg: bool, n: u64, d: usize) -> ([u8; 24], usize) {
    // The usual case (at most 6 decimals, the text within 24 bytes): the integer part's
    // digits counted first, then every byte written once into its place from the right
    // (building the digits reversed and copying them a byte at a time cost about half of an
    // immediate's formatting).
    const POW10: [u64; 7] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];
    if let Some(&p) = POW10.get(d) {
        let (mut int, mut frac) = (n / p, n % p);
        let mut int_digits = 1;
        let mut x = int;
        while x >= 10 {
            x /= 10;
            int_digits += 1;
        }
        let len = neg as usize + int_digits + 1 + d.max(1);
        if len <= 24 {
            let mut out = [0u8; 24];
            let mut k = len;
            if d == 0 {
                k -= 1;
                out[k] = b'0';
            }
            for _ in 0..d {
                k -= 1;
                out[k] = b'0' + (frac % 10) as u8;
                frac /= 10;
            }
            k -= 1;
            out[k] = b'.';
            while k > neg as usize {
                k -= 1;
                out[k] = b'0' + (int % 10) as u8;
                int /= 10;
            }
            if neg {
                out[0] = b'-';
            }
            return (out, len);
        }
    }
    let (mut digits, mut len) = text::digits_rev(n);
    // Leading zeros so that there is at least one integer digit.
    while len < d + 1 && len < digits.len() {
        digits[len] = b'0';
        len += 1;
    }
    let mut out = [0u8; 24];
    let mut k = 0;
    let mut put = |c: u8| {
        if let Some(slot) = out.get_mut(k) {
            *slot = c;
            k += 1;
        }
    };
    if neg {
        put(b'-');
    }
    for i in (0..len).rev() {
        if i + 1 == d {
            put(b'.');
        }
        put(digits.get(i).copied().unwrap_or(b'0'));
    }
    if d == 0 {
        put(b'.');
        put(b'0');
    }
    (out, k)
}

/// Reads one float the way virglrenderer's TGSI text parser does; `None` when the text is not
/// a float in its grammar (optional sign, digits, optional fraction, optional exponent) or
/// `0x` with exactly eight hex digits.
pub fn parse_tgsi_float(s: &str) -> Option<f32> {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b'0' && b[1] == b'x' {
        let hex = s.get(2..)?;
        if hex.len() != 8 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return u32::from_str_radix(hex, 16).ok().map(f32::from_bits);
    }
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let integral = i > int_start;
    let mut fractional = false;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        fractional = i > f0;
    }
    if !integral && !fractional {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        let e0 = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    // atof is correctly rounded to double; the C cast then rounds to float.
    s.parse::<f64>().ok().map(|d| d as f32)
}

/// Lanes of an op whose stored 0 means `zero_means`.
fn lanes_or(inst: &Inst, zero_means: u8) -> u8 {
    match inst.lanes {
        0 => zero_means,
        n => n,
    }
}

struct Plan {
    /// Deduplicated immediate vectors (bit patterns), in first-use order.
    imms: Vec<[u32; 4], { IR_CAP + 1 }>,
    /// For each instruction that is a CONST, its IMM index.
    const_imm: Vec<u16, IR_CAP>,
    /// IMM index of the all-zero vector when some op needs it.
    zero_imm: Option<u16>,
    /// Profile 2: IMM index of {1.0, 1.0, 1.0, 1.0}, whose bits turn an integer compare's ~0
    /// into the bool 1.0 (AND).
    one_imm: Option<u16>,
    /// Profile 2: bit k set when IMM[k] holds integer constants (declared UINT32: its bits
    /// are not a float's, e.g. 1 is a denormal).
    uint_imms: Vec<u32, UINT_IMM_WORDS>,
    /// Profile 2: IMM[k] for k >= this are texel offsets (declared INT32, as Mesa's st emits
    /// them; interned after every other immediate, so they form the tail). For a texture op
    /// with an offset, `const_imm` holds its offset's IMM index.
    int_imms_from: u16,
    /// Where each temp is read and written, for [`follow`].
    index: FollowIndex,
    /// The input register of gl_FragCoord (one past the highest varying input).
    fcoord_reg: u8,
    scratch: u16,
    /// Loop counters (one temp per loop nesting level, after the scratch temps).
    loop_temps: u16,
    /// IMM {P2_LOOP_BUDGET, 1, 0, 0} when a loop spends the invocation budget (its counter is
    /// one temp after the loop counters).
    budget_imm: Option<u16>,
    attrs: u32,
    fs_inputs: u32,
    vs_outputs: u32,
    samplers: u32,
    /// Units sampled as cubes (their SVIEW is CUBE).
    cube_samplers: u32,
    uniform_vec4s: usize,
    reads_fragcoord: bool,
    /// Fragment stage: gl_FrontFacing is read (LOAD_FACE; `IN[n], FACE` after gl_FragCoord).
    reads_face: bool,
    /// Vertex stage: bit 0 = gl_VertexID, bit 1 = gl_InstanceID is read (LOAD_SYSVAL).
    sysvals: u8,
    writes_position: bool,
    writes_color: bool,
    /// Fragment stage (profile 2): gl_FragDepth is written (`OUT[1], POSITION`, its .z).
    writes_depth: bool,
    /// Vertex stage (profile 2): bit k when gl_ClipDistance[k] is written (STORE_CLIP):
    /// `OUT[CLIP_OUT + k / 4], CLIPDIST[k / 4]` with those components.
    clip: u8,
    /// Profile 2's indirect ops: ADDR[0] is declared; the indirectly addressed temp ranges
    /// (first, last), sorted and disjoint; IMM {0, 1, 2, 3} for the lane ops.
    addr: bool,
    arrays: Vec<(u16, u16), TGSI_TEMP_ARRAYS_MAX>,
    lane_imm: u16,
    /// Set by `plan`'s pass over the instructions (one pass instead of a scan per question):
    /// copy forwarding ran (asked for, and no loop or indirect op), the module holds a
    /// CONTINUE.
    forwarded: bool,
    any_continue: bool,
}

/// Adds temp range first..=last to the sorted, disjoint `arrays`, merging what overlaps or
/// touches it (when the table is full everything becomes one array).
fn add_array(arrays: &mut Vec<(u16, u16), TGSI_TEMP_ARRAYS_MAX>, first: u16, last: u16) {
    let (mut lo, mut hi) = (first, last);
    let mut k = 0;
    while k < arrays.len() {
        let (a, b) = arrays[k];
        if a <= hi.saturating_add(1) && lo <= b.saturating_add(1) {
            lo = lo.min(a);
            hi = hi.max(b);
            arrays.remove(k);
        } else {
            k += 1;
        }
    }
    let at = arrays
        .iter()
        .position(|&(a, _)| a > lo)
        .unwrap_or(arrays.len());
    if arrays.insert(at, (lo, hi)).is_err() {
        let lo = arrays.first().map_or(lo, |r| r.0.min(lo));
        let hi = arrays.last().map_or(hi, |r| r.1.max(hi));
        arrays.clear();
        let _ = arrays.push((lo, hi));
    }
}

/// Words of [`Plan::uint_imms`].
const UINT_IMM_WORDS: usize = (IR_CAP + 1).div_ceil(32);

fn bad(inst: usize, reason: &'static str) -> TgsiError {
    TgsiError::BadInst { inst, reason }
}

/// The index of `v` in `p.imms`, interned at the end when it is new.
fn intern(p: &mut Plan, v: [u32; 4], i: usize) -> Result<u16, TgsiError> {
    if let Some(k) = p.imms.iter().position(|x| *x == v) {
        return Ok(k as u16);
    }
    p.imms.push(v).map_err(|_| bad(i, "too many immediates"))?;
    Ok((p.imms.len() - 1) as u16)
}

fn bit(set: &mut u32, v: i16, limit: usize, i: usize, what: &'static str) -> Result<(), TgsiError> {
    if v < 0 || v as usize >= limit {
        return Err(bad(i, what));
    }
    *set |= 1 << v;
    Ok(())
}

const _: () = assert!(IR_CAP <= u16::MAX as usize);

/// Words per temp of [`FollowIndex`]'s bit sets at most: modules of up to 256 instructions.
const BIT_WORDS_MAX: usize = 4;

/// What [`follow`] looks up instead of scanning every instruction after a definition.
struct FollowIndex {
    /// Per temp: one past the last instruction that reads it (0: none), so that [`follow`]
    /// stops there instead of scanning to the end (its scans were quadratic in long shaders).
    read_end: Vec<u32, TEMP_CAP>,
    /// Per temp `t`: `events[start[t]..start[t + 1]]` are the instructions that read or write
    /// it, ascending (an instruction may appear twice in a row).
    start: Vec<u32, { TEMP_CAP + 1 }>,
    events: Vec<u16, FOLLOW_EVENTS_CAP>,
    /// A module of at most `64 * BIT_WORDS_MAX` instructions (`small`): per temp `t`, the
    /// `words` words from `t * words`, bit `i % 64` of word `i / 64` set when instruction `i`
    /// reads or writes it, instead of `start`/`events` (one pass to build instead of three:
    /// the lists cost about 260 instructions per IR instruction in callgrind).
    bits: Vec<u64, { TEMP_CAP * BIT_WORDS_MAX }>,
    words: usize,
    small: bool,
    /// Per instruction `i`: the first ELSE or ENDIF at or after `i` that closes the block `i`
    /// is in (the instruction count when none does). A definition at `i` dominates the
    /// instructions up to it, and an instruction `j` up to it is in the definition's own block
    /// exactly when `exit[j] == exit[i]`.
    exit: Vec<u16, IR_CAP>,
    /// The module has no IF, ELSE or ENDIF in its first `flat_n` instructions: `exit` is not
    /// filled (every entry would be `flat_n`; filling it cost about 30 instructions per IR
    /// instruction).
    flat: bool,
    flat_n: usize,
    /// Endifs whose IF the backward pass has not reached yet (scratch of `build`).
    open: Vec<u16, IR_CAP>,
    /// False when the tables could not be built (too many events, unbalanced IF/ENDIF):
    /// [`follow`] scans.
    ok: bool,
    /// The tables are bit sets (`small`) of a module without blocks (`flat`), and `ok`:
    /// [`follow_quick`] walks them inline.
    quick: bool,
}

impl FollowIndex {
    const fn new() -> FollowIndex {
        FollowIndex {
            read_end: Vec::new(),
            start: Vec::new(),
            events: Vec::new(),
            bits: Vec::new(),
            words: 0,
            small: false,
            exit: Vec::new(),
            flat: false,
            flat_n: 0,
            open: Vec::new(),
            ok: false,
            quick: false,
        }
    }

    /// The temps (below `nt`) that access `a` covers.
    fn span(a: &crate::ir::opt::Access, nt: usize) -> core::ops::Range<usize> {
        if a.count == 0 {
            return 0..0;
        }
        // `clamp` to 0..=nt without its checks (about 10 instructions per access): with a
        // count above 0 the end is past the base, so the range does not go backwards.
        let lo = a.base.max(0) as usize;
        let hi = (a.base as i32 + a.count as i32).max(0) as usize;
        lo.min(nt)..hi.min(nt)
    }

    /// Records instruction `i` (effects `e`) as the last reader so far of the temps it reads.
    #[inline(always)]
    fn mark_reads(read_end: &mut [u32], i: usize, e: &crate::ir::opt::Effects) {
        for r in &e.reads {
            if r.count > 0 {
                let end = (r.base as usize + r.count as usize).min(read_end.len());
                if let Some(slots) = read_end.get_mut(r.base as usize..end) {
                    slots.fill(i as u32 + 1);
                }
            }
        }
    }

    /// Fills the tables for `m`: for a module of at most `64 * BIT_WORDS_MAX` instructions the
    /// bit sets when `small`, else the event lists.
    /// `blocks`: the module holds an IF, ELSE or ENDIF.
    /// `refine`: `fx` holds the IR's effects, refined here to the emitted reads first
    /// ([`refine_reads`], in the same pass).
    fn build(
        &mut self,
        m: &Module,
        fx: &mut [crate::ir::opt::Effects],
        small: bool,
        blocks: bool,
        refine: bool,
    ) {
        let nt = (m.temps as usize).min(TEMP_CAP);
        refill(&mut self.read_end, nt, 0);
        self.ok = false;
        self.quick = false;
        // `exit` is read only when `ok` (it is refilled by `build_exits`), `bits` only when
        // `small`, `start` and `events` only when not.
        self.open.clear();
        let words = fx.len().div_ceil(64).max(1);
        self.small = small && words <= BIT_WORDS_MAX && fx.len() <= IR_CAP;
        self.words = words;
        if self.small {
            // One pass: the read ends and the bit sets together.
            refill(&mut self.bits, nt * words, 0);
            // Plain index loops over the accessed temps (most accesses name one): the
            // `step_by`/`take` walk and `mark_reads`' fill cost about 120 instructions per IR
            // instruction in callgrind.
            let (bits, read_end) = (self.bits.as_mut_slice(), self.read_end.as_mut_slice());
            // Marks the temps of access `a` in the bit sets (word `w`, bit `bit`), and as read
            // up to `i` when `read`. Most accesses name one temp (a negative base is past `nt`
            // as u16, and marks nothing, as in `mark_reads`).
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            fn mark(
                bits: &mut [u64],
                read_end: &mut [u32],
                a: &crate::ir::opt::Access,
                nt: usize,
                words: usize,
                w: usize,
                bit: u64,
                read: Option<u32>,
            ) {
                if a.count == 1 {
                    // No range loop for the usual access.
                    let t = a.base as u16 as usize;
                    if t < nt {
                        if let Some(b) = bits.get_mut(t * words + w) {
                            *b |= bit;
                        }
                        if let (Some(end), Some(r)) = (read, read_end.get_mut(t)) {
                            *r = end;
                        }
                    }
                    return;
                }
                for t in FollowIndex::span(a, nt) {
                    if let Some(b) = bits.get_mut(t * words + w) {
                        *b |= bit;
                    }
                    if let (Some(end), true) = (read, a.base >= 0) {
                        if let Some(r) = read_end.get_mut(t) {
                            *r = end;
                        }
                    }
                }
            }
            for (i, e) in fx.iter_mut().enumerate() {
                if let (true, Some(inst)) = (refine, m.insts.get(i)) {
                    refine_reads(e, inst);
                }
                let e = &*e;
                let (w, bit) = (i / 64, 1u64 << (i % 64));
                let end = Some(i as u32 + 1);
                mark(bits, read_end, &e.write, nt, words, w, bit, None);
                mark(bits, read_end, &e.reads[0], nt, words, w, bit, end);
                mark(bits, read_end, &e.reads[1], nt, words, w, bit, end);
            }
            self.build_exits(m, fx.len(), blocks);
            self.quick = self.ok && self.flat;
            return;
        }
        if refine {
            for (e, inst) in fx.iter_mut().zip(&m.insts) {
                refine_reads(e, inst);
            }
        }
        for (i, e) in fx.iter().enumerate() {
            Self::mark_reads(&mut self.read_end, i, e);
        }
        if fx.len() > IR_CAP {
            return;
        }
        // Events: count per temp, prefix sums (start[t] = end of t's list), then fill backwards
        // so that each list ascends and start[t] ends at its beginning.
        refill(&mut self.start, nt + 1, 0);
        let mut total = 0usize;
        for e in fx.iter() {
            for a in [&e.write, &e.reads[0], &e.reads[1]] {
                for t in Self::span(a, nt) {
                    if let Some(c) = self.start.get_mut(t) {
                        *c += 1;
                    }
                    total += 1;
                }
            }
        }
        if total > FOLLOW_EVENTS_CAP {
            self.events.clear();
            return;
        }
        let mut sum = 0u32;
        for c in self.start.iter_mut() {
            sum += *c;
            *c = sum;
        }
        refill(&mut self.events, total, 0);
        for (i, e) in fx.iter().enumerate().rev() {
            for a in [&e.write, &e.reads[0], &e.reads[1]] {
                for t in Self::span(a, nt) {
                    if let Some(c) = self.start.get_mut(t) {
                        *c -= 1;
                        if let Some(slot) = self.events.get_mut(*c as usize) {
                            *slot = i as u16;
                        }
                    }
                }
            }
        }
        self.build_exits(m, fx.len(), blocks);
    }

    /// `exit` for the first `n` instructions, and `ok`.
    fn build_exits(&mut self, m: &Module, n: usize, blocks: bool) {
        self.flat = !blocks;
        self.flat_n = n;
        if self.flat {
            self.ok = true;
            return;
        }
        // Block exits, backwards: an ENDIF opens a block (seen from the end), its IF closes it.
        refill(&mut self.exit, n, 0);
        let mut cur = n as u16;
        for (k, inst) in m.insts.iter().enumerate().take(n).rev() {
            let x = match inst.op {
                Op::Endif => {
                    if self.open.push(cur).is_err() {
                        return;
                    }
                    cur = k as u16;
                    cur
                }
                Op::Else => {
                    cur = k as u16;
                    cur
                }
                Op::If => {
                    match self.open.pop() {
                        Some(outer) => cur = outer,
                        None => return,
                    }
                    cur
                }
                _ => cur,
            };
            if let Some(slot) = self.exit.get_mut(k) {
                *slot = x;
            }
        }
        self.ok = self.open.is_empty();
    }

    /// The instructions at or after `from` that read or write temp `t`, ascending (an
    /// instruction may come twice in a row), from the event lists (`!small`).
    #[inline(always)]
    fn list_from(&self, t: u16, from: usize) -> ListFrom<'_> {
        let ev = self.of(t);
        let k = ev.partition_point(|&j| (j as usize) < from);
        ListFrom(ev.get(k..).unwrap_or(&[]).iter())
    }

    /// [`Self::list_from`] from one-word bit sets (`small`, `words` 1).
    #[inline(always)]
    fn bits_from(&self, t: u16, from: usize) -> BitsFrom {
        let b = self.bits.get(t as usize).copied().unwrap_or(0);
        BitsFrom(b.checked_shr(from as u32).map_or(0, |x| x << from))
    }

    /// [`Self::list_from`] from bit sets of several words (`small`).
    #[inline(always)]
    fn words_from(&self, t: u16, from: usize) -> WordsFrom<'_> {
        let w = self.words;
        let row = self
            .bits
            .get(t as usize * w..t as usize * w + w)
            .unwrap_or(&[]);
        let k = from / 64;
        let cur = row.get(k).map_or(0, |&b| b & (u64::MAX << (from % 64)));
        WordsFrom(row, k, cur)
    }

    /// The instructions that read or write temp `t`, ascending.
    fn of(&self, t: u16) -> &[u16] {
        let t = t as usize;
        match (self.start.get(t), self.start.get(t + 1)) {
            (Some(&a), Some(&b)) => self.events.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// The set bits of `set` below `cap`, ascending.
fn set_bits(set: u32, cap: usize) -> BitsFrom {
    let below = if cap >= 32 {
        u32::MAX
    } else {
        (1u32 << cap) - 1
    };
    BitsFrom((set & below) as u64)
}

/// [`FollowIndex::list_from`]'s walk.
struct ListFrom<'a>(core::slice::Iter<'a, u16>);

impl Iterator for ListFrom<'_> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        self.0.next().map(|&j| j as usize)
    }
}

/// [`FollowIndex::bits_from`]'s walk: the bits not yet visited.
struct BitsFrom(u64);

impl Iterator for BitsFrom {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let j = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(j)
    }
}

/// [`FollowIndex::words_from`]'s walk: a temp's words, the current word's index and its bits
/// not yet visited.
struct WordsFrom<'a>(&'a [u64], usize, u64);

impl Iterator for WordsFrom<'_> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.2 == 0 {
            self.1 += 1;
            self.2 = *self.0.get(self.1)?;
        }
        let j = self.1 * 64 + self.2.trailing_zeros() as usize;
        self.2 &= self.2 - 1;
        Some(j)
    }
}

/// Fills `p` (built by the caller: the plan is ~7 KB and moving it out by value cost a copy).
fn plan(
    m: &Module,
    p: &mut Plan,
    flags: &mut [u8],
    fx: &mut Effects,
    optimize: bool,
    fx_ready: bool,
) -> Result<(), TgsiError> {
    for a in &m.iface.attributes {
        bit(
            &mut p.attrs,
            a.location as i16,
            ATTR_CAP,
            0,
            "attribute location out of range",
        )?;
    }
    for v in &m.iface.varyings {
        match m.stage {
            Stage::Vertex => bit(
                &mut p.vs_outputs,
                v.slot as i16,
                VARYING_CAP,
                0,
                "varying slot out of range",
            )?,
            Stage::Fragment => bit(
                &mut p.fs_inputs,
                v.slot as i16,
                VARYING_CAP,
                0,
                "varying slot out of range",
            )?,
        }
    }
    for s in &m.iface.samplers {
        bit(
            &mut p.samplers,
            s.unit as i16,
            SAMPLER_CAP,
            0,
            "sampler unit out of range",
        )?;
        // A cube sampler's view is CUBE whatever samples it (TXQ included).
        if matches!(s.ty, Type::SamplerCube | Type::SamplerCubeShadow) {
            bit(
                &mut p.cube_samplers,
                s.unit as i16,
                SAMPLER_CAP,
                0,
                "sampler unit out of range",
            )?;
        }
    }
    let mut need_zero = false;
    let mut loop_depth = 0u16;
    // What the module holds, for the questions asked after this pass.
    let (mut straight, mut blocks, mut mat3) = (true, false, false);
    // A texture op with a texel offset (only then does `texel_offset_imms` walk the module).
    let mut offsets = false;
    p.any_continue = false;
    for (i, inst) in m.insts.iter().enumerate() {
        match inst.op {
            Op::If | Op::Else | Op::Endif => blocks = true,
            Op::Continue => p.any_continue = true,
            Op::Const => {
                let n = inst.lanes as usize;
                if !(1..=4).contains(&n) || inst.aux < 0 {
                    return Err(bad(i, "CONST lanes must be 1..=4 and aux >= 0"));
                }
                let base = inst.aux as usize;
                let mut v = [0u32; 4];
                for (k, slot) in v.iter_mut().enumerate().take(n) {
                    *slot = m
                        .imms
                        .get(base + k)
                        .ok_or(bad(i, "CONST reads past the immediates"))?
                        .to_bits();
                }
                let k = intern(p, v, i)?;
                if let Some(slot) = p.const_imm.get_mut(i) {
                    *slot = k;
                }
                let int = crate::ir::Type::from_u8(inst.ty).is_some_and(|t| t.is_integer());
                if int && m.profile != crate::limits::Profile::P1 {
                    let w = k as usize / 32;
                    if p.uint_imms.len() <= w {
                        let _ = p.uint_imms.resize(w + 1, 0);
                    }
                    if let Some(word) = p.uint_imms.get_mut(w) {
                        *word |= 1 << (k % 32);
                    }
                }
            }
            Op::Swz => need_zero |= inst.lanes < 4,
            Op::ICmp | Op::UCmp => {
                if p.one_imm.is_none() {
                    p.one_imm = Some(intern(p, [1f32.to_bits(); 4], i)?);
                }
            }
            Op::ISub => p.scratch = p.scratch.max(1),
            Op::Loop => {
                // IMM {0, 1, bound, 0}: the counter's start, step and limit.
                let bound = crate::ir::loop_bound(inst) as f32;
                let k = intern(p, [0, 1f32.to_bits(), bound.to_bits(), 0], i)?;
                if let Some(slot) = p.const_imm.get_mut(i) {
                    *slot = k;
                }
                loop_depth += 1;
                straight = false;
                p.loop_temps = p.loop_temps.max(loop_depth);
                if crate::ir::loop_budgeted(inst) && p.budget_imm.is_none() {
                    let b = (crate::limits::P2_LOOP_BUDGET as f32).to_bits();
                    p.budget_imm = Some(intern(p, [b, 1f32.to_bits(), 0, 0], i)?);
                }
            }
            Op::EndLoop => loop_depth = loop_depth.saturating_sub(1),
            Op::Div => p.scratch = p.scratch.max(1),
            Op::MulMV => {
                p.scratch = p.scratch.max(1);
                mat3 |= inst.aux == 3;
                refine_kept(fx, fx_ready, i, inst);
            }
            Op::MulMM => {
                p.scratch = p.scratch.max(SCRATCH_TEMPS);
                mat3 |= inst.aux == 3;
                refine_kept(fx, fx_ready, i, inst);
            }
            Op::Dot => refine_kept(fx, fx_ready, i, inst),
            // The usual lane-wise ops: nothing to plan (an arm of their own, so that the
            // texture and indirect tests below are not asked of them).
            Op::Nop
            | Op::Mov
            | Op::SetLane
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Max
            | Op::Min
            | Op::Abs
            | Op::Rsq
            | Op::Rcp
            | Op::Sin
            | Op::Cos
            | Op::Pow
            | Op::Trunc
            | Op::Cmp
            | Op::Sqrt
            | Op::Floor
            | Op::Ceil
            | Op::Fract
            | Op::RoundEven
            | Op::Exp2
            | Op::Log2
            | Op::Sign
            | Op::CmpV => {}
            Op::Sample => bit(
                &mut p.samplers,
                inst.aux,
                SAMPLER_CAP,
                i,
                "sampler unit out of range",
            )?,
            op if op.is_texture() => {
                p.scratch = p.scratch.max(1);
                offsets |= inst.aux2 != 0 && crate::ir::TEX_OPS.contains(&op);
                if matches!(
                    op,
                    Op::CubeLod | Op::CubeBias | Op::CubeGrad | Op::ShadowCube
                ) {
                    bit(
                        &mut p.cube_samplers,
                        inst.aux,
                        SAMPLER_CAP,
                        i,
                        "sampler unit out of range",
                    )?;
                }
                bit(
                    &mut p.samplers,
                    inst.aux,
                    SAMPLER_CAP,
                    i,
                    "sampler unit out of range",
                )?
            }
            Op::LoadAttr => bit(
                &mut p.attrs,
                inst.aux,
                ATTR_CAP,
                i,
                "attribute location out of range",
            )?,
            Op::LoadVar => {
                if m.stage != Stage::Fragment {
                    return Err(bad(i, "load_var outside a fragment shader"));
                }
                bit(
                    &mut p.fs_inputs,
                    inst.aux,
                    VARYING_CAP,
                    i,
                    "varying slot out of range",
                )?
            }
            Op::StoreVar => {
                if m.stage != Stage::Vertex {
                    return Err(bad(i, "store_var outside a vertex shader"));
                }
                bit(
                    &mut p.vs_outputs,
                    inst.aux,
                    VARYING_CAP,
                    i,
                    "varying slot out of range",
                )?
            }
            Op::LoadUni => {
                if inst.aux < 0 || inst.aux2 < 1 {
                    return Err(bad(i, "load_uni needs aux >= 0 and aux2 >= 1"));
                }
                p.uniform_vec4s = p.uniform_vec4s.max(inst.aux as usize + inst.aux2 as usize);
            }
            Op::LoadFcoord => {
                if m.stage != Stage::Fragment {
                    return Err(bad(i, "gl_FragCoord outside a fragment shader"));
                }
                p.reads_fragcoord = true;
            }
            Op::LoadFace => {
                if m.stage != Stage::Fragment {
                    return Err(bad(i, "gl_FrontFacing outside a fragment shader"));
                }
                p.reads_face = true;
            }
            Op::LoadSysval => {
                if m.stage != Stage::Vertex {
                    return Err(bad(i, "load_sysval outside a vertex shader"));
                }
                if !(0..2).contains(&inst.aux) {
                    return Err(bad(i, "load_sysval value out of range"));
                }
                p.sysvals |= 1 << inst.aux;
            }
            Op::StorePos if m.stage != Stage::Vertex => {
                return Err(bad(i, "store_pos outside a vertex shader"));
            }
            Op::StoreColor => {
                if m.stage != Stage::Fragment {
                    return Err(bad(i, "store_color outside a fragment shader"));
                }
                p.writes_color = true;
            }
            Op::StoreDepth => {
                if m.stage != Stage::Fragment {
                    return Err(bad(i, "store_depth outside a fragment shader"));
                }
                p.writes_depth = true;
            }
            Op::StoreClip => {
                if m.stage != Stage::Vertex || !(0..8).contains(&inst.aux) {
                    return Err(bad(i, "store_clip outside a vertex shader or past index 7"));
                }
                p.clip |= 1 << inst.aux;
            }
            Op::Discard if m.stage != Stage::Fragment => {
                return Err(bad(i, "discard outside a fragment shader"));
            }
            op if op.is_indirect() => {
                straight = false;
                // IMM {0, highest index, stride, 0}: the clamp and the address scale.
                let (max, stride) = match op {
                    Op::LoadIdx | Op::StoreIdx => (inst.aux as i32 - 1, inst.aux2 as i32),
                    Op::LoadUniIdx => (inst.aux2 as i32 - 1, inst.c as i32),
                    _ => (inst.aux as i32 - 1, 1),
                };
                if max < 0 || stride < 1 || (op == Op::LoadUniIdx && inst.aux < 0) {
                    return Err(bad(i, "indirect op without a range"));
                }
                let v = [0, (max as f32).to_bits(), (stride as f32).to_bits(), 0];
                let k = intern(p, v, i)?;
                if let Some(slot) = p.const_imm.get_mut(i) {
                    *slot = k;
                }
                p.scratch = p.scratch.max(1);
                if matches!(op, Op::LoadLane | Op::StoreLane) {
                    let l = [0f32, 1.0, 2.0, 3.0].map(f32::to_bits);
                    p.lane_imm = intern(p, l, i)?;
                } else {
                    p.addr = true;
                }
                if matches!(op, Op::LoadIdx | Op::StoreIdx) {
                    let base = if op == Op::LoadIdx { inst.b } else { inst.dst };
                    let n = inst.aux as i32 * inst.aux2 as i32;
                    if base < 0 || base as i32 + n > m.temps as i32 {
                        return Err(bad(i, "indirect range out of the temporaries"));
                    }
                    add_array(&mut p.arrays, base as u16, (base as i32 + n - 1) as u16);
                }
                if op == Op::LoadUniIdx {
                    let last = inst.aux as usize + max as usize * stride as usize;
                    p.uniform_vec4s = p.uniform_vec4s.max(last + 1);
                }
            }
            _ => {}
        }
    }
    if m.temps as usize > limits(m.profile).temporaries_max {
        return Err(bad(0, "more temporaries than TEMP_MAX"));
    }
    p.fcoord_reg = match p.fs_inputs {
        0 => 0,
        set => 32 - set.leading_zeros() as u8,
    };
    // The copy forwarding assumes straight-line order and statically named temps; loops and
    // indirect ops are emitted as they are.
    let optimize = optimize && straight;
    p.forwarded = optimize;
    if optimize {
        // With `fx_ready`, `fx` holds `effects` of every instruction (`optimize_in`): the
        // index's pass refines them.
        if !fx_ready {
            refill_from(fx, m.insts.iter().map(lanes_read));
        }
        // Kept effects were refined in the pass above.
        p.index.build(m, fx, true, blocks, false);
    }
    // A mat3 product's zero lane w is written only when something reads it: decided here
    // (it needs no register table), so that the zero immediate is known before the
    // declarations and `forward`'s decisions can be made while emitting.
    if mat3 {
        for (i, inst) in m.insts.iter().enumerate() {
            if !matches!(inst.op, Op::MulMV | Op::MulMM) || inst.aux != 3 {
                continue;
            }
            let cols = if inst.op == Op::MulMV { 1 } else { 3 };
            let mut f = 0u8;
            if optimize && inst.dst >= 0 {
                for k in 0..cols {
                    let t = inst.dst as u16 + k;
                    if t < m.temps && follow(m, fx, &p.index, i + 1, t, 8, None) == Some(0) {
                        f |= 1 << k;
                    }
                }
            }
            if let Some(slot) = flags.get_mut(i) {
                *slot = f;
            }
            let needed = (1u8 << cols) - 1;
            need_zero |= f & needed != needed;
        }
    }
    if need_zero {
        p.zero_imm = Some(intern(p, [0; 4], 0)?);
    }
    if offsets {
        texel_offset_imms(m, p)?;
    }
    Ok(())
}

/// Interns the constant texel offsets of the texture ops as `IMM[k] INT32 {x, y, 0, 0}` after
/// every other immediate (an offset may share an integer constant's entry: virglrenderer reads
/// an offset's bits as integers whatever the immediate's type).
fn texel_offset_imms(m: &Module, p: &mut Plan) -> Result<(), TgsiError> {
    let from = p.imms.len() as u16;
    for (i, inst) in m.insts.iter().enumerate() {
        // The offset first: most instructions have none, and the op list is a linear search.
        if inst.aux2 == 0 || !crate::ir::TEX_OPS.contains(&inst.op) {
            continue;
        }
        let (x, y) = crate::back::exec::mip::offset_of(inst.aux2 as u8);
        let v = [x as u32, y as u32, 0, 0];
        let k = intern(p, v, i)?;
        if let Some(slot) = p.const_imm.get_mut(i) {
            *slot = k;
        }
    }
    if p.imms.len() as u16 > from {
        p.int_imms_from = from;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Forwarding: fewer MOVs in the text than instructions in the IR
// ---------------------------------------------------------------------------------------------
//
// The IR copies values into temps (loads, constants, whole-vector copies) and leaves products
// and sums as separate instructions; TGSI can read IMM, IN and CONST registers directly and has
// MAD. Before emitting, `forward` walks the module once and decides per instruction:
// - a full 4-lane definition of a temp by a register that holds its value for the whole time it
//   is read (IMM, IN, CONST, or another temp not written meanwhile) is not emitted: the reads
//   name that register instead (F_ELIDED; LOAD_UNI per column in bits 0..=3);
// - a MUL whose result only the next instruction (an ADD or SUB) reads becomes one MAD (F_FUSED
//   on the MUL, F_SKIP on the ADD);
// - the zero lane w of a mat3 product is not written when nothing reads it (bits 0..=2).
// A value's reads are followed forward in index order (the IR has no loops, so that is every
// path). A read may be redirected only where the definition dominates it (same block or a block
// nested in it) and before the temp (or the register it was copied from) is written again; any
// other read keeps the MOV. A write kills lanes of the value only in the definition's own block
// (later writes in nested blocks may not run). The emitter and `forward` apply the same register
// table updates (`redirect`), so both see the same operands.

// Bits 0..=3: LOAD_UNI: column k not emitted; MULMV/MULMM of mat3: lane w of result column k
// unread (not written).
/// The definition is not emitted; its temp reads another register.
const F_ELIDED: u8 = 0x20;
/// A MUL emitted as MAD together with the next instruction.
const F_FUSED: u8 = 0x40;
/// Emits nothing (the ADD or SUB of a fused MAD).
const F_SKIP: u8 = 0x80;

/// Where a source operand is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    Temp(u16),
    Imm(u16),
    In(u16),
    Const(u16),
}

impl Piece for Reg {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        Open(self).put(l);
        l.bytes(b"]");
    }
}

/// A register without its closing bracket, for a caller whose next literal starts with `]`
/// (one copy fewer per operand).
struct Open(Reg);

/// The register files' names, padded (one 16-byte copy and a length).
const FILES: [([u8; 16], u8); 4] = [pad("TEMP["), pad("IMM["), pad("IN["), pad("CONST[0][")];

impl Reg {
    /// The register's file (its index in [`FILES`]) and index.
    #[inline(always)]
    fn parts(self) -> (usize, u16) {
        match self {
            Reg::Temp(n) => (0, n),
            Reg::Imm(n) => (1, n),
            Reg::In(n) => (2, n),
            Reg::Const(n) => (3, n),
        }
    }
}

impl Piece for Open {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        let (k, n) = self.0.parts();
        let (file, len) = &FILES[k];
        l.padded(file, *len as usize);
        put_uint(n as u64, l)
    }
}

/// A register's name without its closing bracket (`CONST[0][4`), formatted once for the lines
/// that repeat it (a matrix product's columns and vector): one 16-byte copy per use. Held
/// and built as one 16-byte word: built as a byte array and read back as a word, each name
/// stalled on its narrower stores (perf: a twentieth of mvp.vert's compile).
#[derive(Clone, Copy)]
struct Name(u128, u8);

impl Name {
    fn of(r: Reg) -> Name {
        let (k, n) = r.parts();
        let (file, len) = FILES[k];
        let (digits, dn) = if n < 100 {
            let d = text::DIGITS2[n as usize];
            (u16::from_le_bytes(d) as u128, 1 + (n >= 10) as u32)
        } else {
            // At most 5 digits after at most 9 bytes.
            let (d, dn) = text::digits(n as u64);
            let w = d
                .iter()
                .take(dn.min(5))
                .rev()
                .fold(0u128, |w, &b| (w << 8) | b as u128);
            (w, dn.min(5) as u32)
        };
        let word = u128::from_le_bytes(file) | (digits << (8 * len as u32));
        Name(word, (len as u32 + dn) as u8)
    }
}

/// The names of four columns (an array literal: `array::map` was not inlined).
fn names_of(c: &[Reg; 4]) -> [Name; 4] {
    [
        Name::of(c[0]),
        Name::of(c[1]),
        Name::of(c[2]),
        Name::of(c[3]),
    ]
}

impl Piece for Name {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        l.padded(&self.0.to_le_bytes(), self.1 as usize);
    }
}

/// Decimal digits of `v`.
fn digits(v: u16) -> u32 {
    match v {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        _ => 5,
    }
}

/// The registers each module temp is read from at the current instruction.
struct Regs(Vec<Reg, TEMP_CAP>);

impl Regs {
    /// An empty table (filled by `reset`).
    const fn empty() -> Regs {
        Regs(Vec::new())
    }
    /// Every temp below `n` read from itself (temps past it are too: see `get`), in place: the
    /// table is 4 KiB, and building it by value copied it several times per emission.
    fn reset(&mut self, n: u16) {
        refill_from(&mut self.0, (0..n.min(TEMP_CAP as u16)).map(Reg::Temp));
    }
    fn get(&self, t: u16) -> Reg {
        self.0.get(t as usize).copied().unwrap_or(Reg::Temp(t))
    }
    fn set(&mut self, t: i32, r: Reg) {
        // One unsigned compare (a negative `t` is past any table).
        if let Some(slot) = self.0.get_mut(t as u32 as usize) {
            *slot = r;
        }
    }
}

/// The lanes each operand of `inst` reads as emitted here (the IR model, refined where the
/// emitter reads less: mat3 products read lanes xyz, DOT n reads n lanes).
fn lanes_read(inst: &Inst) -> crate::ir::opt::Effects {
    let mut e = crate::ir::opt::effects(inst);
    refine_reads(&mut e, inst);
    e
}

/// With `ready` (`fx` holds the optimiser's kept effects), refines instruction `i`'s
/// ([`refine_reads`]; called by `plan`'s pass for the ops it changes, instead of a second
/// match of every op while the follow index is built).
#[inline(always)]
fn refine_kept(fx: &mut Effects, ready: bool, i: usize, inst: &Inst) {
    if let (true, Some(e)) = (ready, fx.get_mut(i)) {
        refine_reads(e, inst);
    }
}

/// [`lanes_read`]'s refinement of `inst`'s IR effects `e`.
#[inline(always)]
fn refine_reads(e: &mut crate::ir::opt::Effects, inst: &Inst) {
    match inst.op {
        Op::MulMV | Op::MulMM if inst.aux == 3 => {
            e.reads[0].lanes = 7;
            e.reads[1].lanes = 7;
        }
        Op::Dot => {
            let l = match inst.aux {
                2 => 3,
                0 | 3 => 7,
                _ => 15,
            };
            e.reads[0].lanes = l;
            e.reads[1].lanes = l;
        }
        _ => {}
    }
}

/// Whether access `a` covers temp `t`: `base <= t < base + count` as one unsigned compare
/// (a count of 0 covers nothing; `t - base` wraps past `count` when `t` is below `base`).
#[inline(always)]
fn covers(a: &crate::ir::opt::Access, t: u16) -> bool {
    ((t as i32).wrapping_sub(a.base as i32) as u32) < a.count as u32
}

/// How many emitted operands read operand `k` of `inst` (for the cost of a CONST operand).
fn multiplicity(inst: &Inst, k: usize) -> u32 {
    match inst.op {
        Op::MulMM if k == 0 => {
            if inst.aux == 3 {
                3
            } else {
                4
            }
        }
        Op::Div if k == 1 => lanes_or(inst, 4) as u32,
        Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Sqrt | Op::Pow | Op::Exp2 | Op::Log2 => {
            lanes_or(inst, 1) as u32
        }
        _ => 1,
    }
}

/// Follows the value that the instruction before `from` left in lanes `lanes` of temp `t`:
/// `Some(reads)` (operands that read it) when every read is dominated by the definition and
/// comes before `t` or `source` (the temp it was copied from) is written again; `None` when
/// some read must find the value in `t` itself. `Some(0)`: nothing reads the value.
fn follow(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    ix: &FollowIndex,
    from: usize,
    t: u16,
    lanes: u8,
    source: Option<u16>,
) -> Option<u32> {
    // Past the last read of `t` nothing can change the answer (only reads decide it).
    let end = match ix.read_end.get(t as usize) {
        Some(&e) => e as usize,
        None => m.insts.len(),
    };
    if end <= from {
        return Some(0);
    }
    if ix.ok && (t as usize) < ix.read_end.len() {
        return follow_indexed(m, fx, ix, from, end, t, lanes, source);
    }
    follow_scan(m, fx, from, end, t, lanes, source)
}

/// [`follow`] without a copy source, inline for the usual index (`ix.quick`: bit sets of a
/// module without blocks, where every instruction up to a read end is dominated by the
/// definition and in its block): the same walk as [`follow_events`]'s, without the call and
/// its choice of form (about half of a short walk's cost). Any other index calls [`follow`].
#[inline(always)]
fn follow_quick(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    ix: &FollowIndex,
    from: usize,
    t: u16,
    lanes: u8,
) -> Option<u32> {
    let end = match (ix.quick, ix.read_end.get(t as usize)) {
        (true, Some(&e)) => e as usize,
        _ => return follow(m, fx, ix, from, t, lanes, None),
    };
    if end <= from {
        return Some(0);
    }
    // Read ends are at most the instruction count the index was built for (`flat_n`): every
    // instruction walked is dominated, and a write takes its lanes.
    let mut may = lanes;
    let mut written = false;
    let mut reads = 0u32;
    for j in ix.words_from(t, from) {
        if j >= end || may == 0 {
            break;
        }
        let (Some(e), Some(inst)) = (fx.get(j), m.insts.get(j)) else {
            break;
        };
        for (k, r) in e.reads.iter().enumerate() {
            if covers(r, t) && r.lanes & may != 0 {
                if written {
                    return None;
                }
                reads = reads.saturating_add(multiplicity(inst, k));
            }
        }
        if covers(&e.write, t) {
            written = true;
            may &= !e.write.lanes;
        }
    }
    Some(reads)
}

/// [`follow_events`] with the walk of `ix`'s form: one copy of the loop per form (a walk that
/// chose its form at every step cost about an eighth of `follow`). A function of its own:
/// with the three copies inlined into `follow`, profile 1's compiles measured 2-3% slower in
/// wall-clock time for the same instruction count.
#[allow(clippy::too_many_arguments)]
fn follow_indexed(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    ix: &FollowIndex,
    from: usize,
    end: usize,
    t: u16,
    lanes: u8,
    source: Option<u16>,
) -> Option<u32> {
    if !ix.small {
        let walk = |t, from| ix.list_from(t, from);
        follow_events::<_, true>(m, fx, ix, from, end, t, lanes, source, walk)
    } else if ix.words == 1 {
        let walk = |t, from| ix.bits_from(t, from);
        follow_events::<_, false>(m, fx, ix, from, end, t, lanes, source, walk)
    } else {
        let walk = |t, from| ix.words_from(t, from);
        follow_events::<_, false>(m, fx, ix, from, end, t, lanes, source, walk)
    }
}

/// [`follow`] over the instructions that touch `t` (and `source`) only: the same decisions as
/// [`follow_scan`], with domination and block depth read from `ix.exit`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
/// `DUPS`: the walk may give an instruction twice in a row (the event lists; bit sets never).
fn follow_events<I: Iterator<Item = usize>, const DUPS: bool>(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    ix: &FollowIndex,
    from: usize,
    end: usize,
    t: u16,
    lanes: u8,
    source: Option<u16>,
    walk: impl Fn(u16, usize) -> I,
) -> Option<u32> {
    let exit = match ix.exit.get(from) {
        _ if ix.flat && from < ix.flat_n => ix.flat_n,
        Some(&x) if !ix.flat => x as usize,
        _ => return follow_scan(m, fx, from, end, t, lanes, source),
    };
    // The first write of `source` at or after `from`: reads after it fail.
    let source_write = match source {
        Some(s) if (s as usize) < ix.read_end.len() => walk(s, from)
            .take_while(|&j| j < end)
            .find(|&j| fx.get(j).is_some_and(|e| covers(&e.write, s)))
            .unwrap_or(usize::MAX),
        Some(_) => return follow_scan(m, fx, from, end, t, lanes, source),
        None => usize::MAX,
    };
    let mut may = lanes;
    let mut written = false;
    let mut reads = 0u32;
    let mut last = usize::MAX;
    for j in walk(t, from) {
        if j >= end || may == 0 {
            break;
        }
        if DUPS {
            if j == last {
                continue;
            }
            last = j;
        }
        // The instruction itself only for a read's multiplicity (it is past the effects when
        // the module is shorter than them: the walk stops there, as before).
        let (Some(e), true) = (fx.get(j), j < m.insts.len()) else {
            break;
        };
        let dominated = j <= exit;
        for (k, r) in e.reads.iter().enumerate() {
            if covers(r, t) && r.lanes & may != 0 {
                if !dominated || written || j > source_write {
                    return None;
                }
                let Some(inst) = m.insts.get(j) else {
                    break;
                };
                reads = reads.saturating_add(multiplicity(inst, k));
            }
        }
        if covers(&e.write, t) {
            written = true;
            if dominated && (ix.flat || ix.exit.get(j) == Some(&(exit as u16))) {
                may &= !e.write.lanes;
            }
        }
    }
    Some(reads)
}

/// [`follow`] by scanning every instruction from `from` to `end`.
fn follow_scan(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    from: usize,
    end: usize,
    t: u16,
    lanes: u8,
    source: Option<u16>,
) -> Option<u32> {
    let mut may = lanes;
    let mut depth = 0u32;
    let mut dominated = true;
    let mut written = false;
    let mut source_written = false;
    let mut reads = 0u32;
    for (inst, e) in m.insts.iter().zip(fx).take(end).skip(from) {
        if may == 0 {
            break;
        }
        for (k, r) in e.reads.iter().enumerate() {
            if covers(r, t) && r.lanes & may != 0 {
                if !dominated || written || source_written {
                    return None;
                }
                reads = reads.saturating_add(multiplicity(inst, k));
            }
        }
        if covers(&e.write, t) {
            written = true;
            if dominated && depth == 0 {
                may &= !e.write.lanes;
            }
        }
        if source.is_some_and(|s| covers(&e.write, s)) {
            source_written = true;
        }
        match inst.op {
            Op::If => depth += 1,
            Op::Else if depth == 0 => dominated = false,
            Op::Endif if depth == 0 => dominated = false,
            Op::Endif => depth -= 1,
            _ => {}
        }
    }
    Some(reads)
}

/// The register a full definition of `inst.dst` stands for, if it is one.
#[inline(always)]
fn defined_reg(regs: &Regs, inst: &Inst, i: usize, p: &Plan, m: &Module) -> Option<Reg> {
    if inst.dst < 0 || inst.dst as u16 >= m.temps {
        return None;
    }
    match inst.op {
        Op::Const => p.const_imm.get(i).map(|&k| Reg::Imm(k)),
        Op::LoadAttr | Op::LoadVar if (0..8).contains(&inst.aux) => Some(Reg::In(inst.aux as u16)),
        Op::LoadFcoord => Some(Reg::In(p.fcoord_reg as u16)),
        Op::Mov if lanes_or(inst, 4) == 4 && inst.a >= 0 && (inst.a as u16) < m.temps => {
            Some(regs.get(inst.a as u16))
        }
        _ => None,
    }
}

/// Updates `regs` past instruction `i` (shared by `forward` and the emitter): every temp it
/// writes reads itself again, except the ones it defined without emitting.
/// `elided`: the register an elided definition stands for (what [`forward`] found).
/// `fx`: the lane effects computed for forwarding, or empty (each write is then derived here).
/// Inline: it runs once per instruction, and the call cost about a third of its work.
#[inline(always)]
fn redirect(
    regs: &mut Regs,
    inst: &Inst,
    i: usize,
    flags: u8,
    elided: Option<Reg>,
    fx: &[crate::ir::opt::Effects],
) {
    let w = match fx.get(i) {
        Some(e) => e.write,
        None => crate::ir::opt::effects(inst).write,
    };
    if w.count == 1 {
        // Most writes name one temp.
        regs.set(w.base as i32, Reg::Temp(w.base as u16));
    } else {
        for k in 0..w.count as i32 {
            let t = w.base as i32 + k;
            regs.set(t, Reg::Temp(t as u16));
        }
    }
    if let Some(r) = elided {
        regs.set(inst.dst as i32, r);
    }
    if inst.op == Op::LoadUni {
        for k in 0..4 {
            if flags & (1 << k) != 0 {
                regs.set(
                    inst.dst as i32 + k,
                    Reg::Const((inst.aux as i32 + k) as u16),
                );
            }
        }
    }
}

/// Whether reading `r` instead of `TEMP[t]` at `reads` operands is shorter than the MOV.
#[inline(always)]
fn worth(r: Reg, t: u16, reads: u32) -> bool {
    match r {
        Reg::Const(k) => {
            let extra = 4 + digits(k) - digits(t);
            let line = 23 + digits(t) + digits(k);
            reads.saturating_mul(extra) < line
        }
        _ => true,
    }
}

/// The next instruction after `i` that is not a NOP.
fn next_inst(m: &Module, i: usize) -> Option<(usize, &Inst)> {
    m.insts
        .iter()
        .enumerate()
        .skip(i + 1)
        .find(|(_, x)| x.op != Op::Nop)
}

/// Whether the MUL at `i` and the ADD/SUB after it can be one MAD.
fn fusable(
    m: &Module,
    fx: &[crate::ir::opt::Effects],
    ix: &FollowIndex,
    i: usize,
    mul: &Inst,
) -> Option<usize> {
    let (j, add) = next_inst(m, i)?;
    if !matches!(add.op, Op::Add | Op::Sub) || lanes_or(add, 4) != lanes_or(mul, 4) {
        return None;
    }
    let t = mul.dst;
    if t < 0 || t as u16 >= m.temps || (add.a == t) == (add.b == t) {
        return None;
    }
    let lanes = match lanes_or(mul, 4) {
        1 => 1,
        2 => 3,
        3 => 7,
        _ => 15,
    };
    if add.dst == t {
        return Some(j);
    }
    (follow_quick(m, fx, ix, j + 1, t as u16, lanes) == Some(0)).then_some(j)
}

/// Decides the flags of instruction `i` (see the section comment) with `regs` the register
/// table before it, and marks the ADD/SUB that a fused MUL absorbs in `flags`; with them, the
/// register an elided definition stands for (for [`redirect`]). Called by the
/// emission loop just before it emits `i`: the decisions and the emission share one walk of
/// the register table. (A mat3 product's bits are decided by `plan`, which needs the zero
/// immediate before the declarations.)
/// `fx`: every instruction's lane effects as emitted (computed once: every scan reads them).
#[inline(always)]
fn forward(
    m: &Module,
    p: &Plan,
    flags: &mut [u8],
    fx: &[crate::ir::opt::Effects],
    regs: &Regs,
    i: usize,
    inst: &Inst,
) -> (u8, Option<Reg>) {
    let mut f = flags.get(i).copied().unwrap_or(0);
    if f & F_SKIP != 0 {
        return (f, None);
    }
    match inst.op {
        Op::Const | Op::LoadAttr | Op::LoadVar | Op::LoadFcoord | Op::Mov => {
            if let Some(r) = defined_reg(regs, inst, i, p, m) {
                let t = inst.dst as u16;
                let source = match r {
                    Reg::Temp(s) => Some(s),
                    _ => None,
                };
                let reads = match source {
                    None => follow_quick(m, fx, &p.index, i + 1, t, 15),
                    _ => follow(m, fx, &p.index, i + 1, t, 15, source),
                };
                if reads.is_some_and(|n| worth(r, t, n)) {
                    return (f | F_ELIDED, Some(r));
                }
            }
        }
        Op::LoadUni if inst.dst >= 0 && inst.aux >= 0 => {
            let n = inst.aux2.clamp(0, 4) as u16;
            if inst.dst as u32 + n as u32 <= m.temps as u32 {
                for k in 0..n {
                    let t = inst.dst as u16 + k;
                    let r = Reg::Const(inst.aux as u16 + k);
                    if follow_quick(m, fx, &p.index, i + 1, t, 15).is_some_and(|n| worth(r, t, n)) {
                        f |= 1 << k;
                    }
                }
            }
        }
        Op::Mul => {
            if let Some(j) = fusable(m, fx, &p.index, i, inst) {
                f |= F_FUSED;
                if let Some(x) = flags.get_mut(j) {
                    *x |= F_SKIP;
                }
            }
        }
        _ => {}
    }
    (f, None)
}

struct Emitter<'a> {
    out: Text<'a>,
    /// Instruction lines emitted so far.
    line: u32,
    /// The token bound of every line but the instruction lines (added at the end).
    tokens: u32,
    temps: u16,
    scratch0: u16,
    regs: &'a mut Regs,
    /// The first loop-counter temp, and the loops open at the current instruction.
    loop0: u16,
    loop_level: u16,
    /// The invocation's loop-budget counter (iterations of budgeted loops started so far).
    budget: u16,
    /// The module holds a CONTINUE (loops are checked for one only then).
    any_continue: bool,
    /// Bit l: the loop open at level l holds a CONTINUE of its own, so it is emitted without
    /// `CONT` (see [`loop_continues`]); `cont_imm[l]` is its IMM {0, 1, bound, 0}.
    cont_loops: u32,
    cont_imm: [u16; crate::limits::LOOP_DEPTH_MAX],
    /// How the device draws (gl_FragCoord's origin, DDY's sign).
    framebuffer: Framebuffer,
}

impl Emitter<'_> {
    /// The innermost open loop, when it is emitted with its one-trip inner loop (it holds a
    /// CONTINUE): its counter temp and its IMM {0, 1, bound, 0}.
    fn continuing_loop(&self) -> Option<(u16, u16)> {
        let level = self.loop_level.checked_sub(1)?;
        if level >= 32 || self.cont_loops & (1 << level) == 0 {
            return None;
        }
        let k = *self.cont_imm.get(level as usize)?;
        Some((self.loop0 + level, k))
    }

    /// Where temp `t` is read from at the current instruction.
    fn src(&self, t: u16) -> Reg {
        self.regs.get(t)
    }

    /// Where each column of the matrix at `base` is read from (the first `cols`; the rest
    /// repeat the last). An array, not a collected list: collecting copied the list through a
    /// library call.
    fn columns(&self, base: u16, cols: u16) -> [Reg; 4] {
        let last = cols.clamp(1, 4) - 1;
        core::array::from_fn(|k| self.src(base + (k as u16).min(last)))
    }
}

impl Piece for Sfx {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        // A table of padded suffixes: one 8-byte copy and a length instead of a jump per arm.
        const T: [([u8; 8], u8); 13] = suffixes("", "");
        let (s, n) = &T[self as usize];
        l.padded(s, *n as usize);
    }
}

/// Every [`Sfx`] (in its order) between `pre` and `post`, padded to 8 bytes with its length
/// (a longer entry fails to compile).
const fn suffixes(pre: &str, post: &str) -> [([u8; 8], u8); 13] {
    const SFX: [&str; 13] = [
        "", ".x", ".xy", ".xyz", ".yzw", ".zw", ".y", ".z", ".w", ".xxxx", ".yyyy", ".zzzz",
        ".wwww",
    ];
    let mut t = [([0u8; 8], 0u8); 13];
    let mut i = 0;
    while i < 13 {
        let parts = [pre.as_bytes(), SFX[i].as_bytes(), post.as_bytes()];
        let (mut n, mut p) = (0, 0);
        while p < 3 {
            let mut k = 0;
            while k < parts[p].len() {
                t[i].0[n] = parts[p][k];
                n += 1;
                k += 1;
            }
            p += 1;
        }
        t[i].1 = n as u8;
        i += 1;
    }
    t
}

/// `pre`, the suffix `s` and `post` as one piece (a register's closing bracket, its mask and
/// the next operand's opening).
macro_rules! around {
    // The usual one (a destination's mask and the separator) is one padded piece.
    ("]", $s:expr, ", ") => {
        Joined($s)
    };
    ($pre:literal, $s:expr, $post:literal) => {
        ($pre, $s, $post)
    };
}

/// `]`, the suffix and `, ` as one piece: one 8-byte copy and a length instead of three.
#[derive(Clone, Copy)]
struct Joined(Sfx);

impl Piece for Joined {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        const T: [([u8; 8], u8); 13] = suffixes("]", ", ");
        let (s, n) = &T[self.0 as usize];
        l.padded(s, *n as usize);
    }
}

/// Appends the pieces (evaluated in order first, then written as one line).
macro_rules! raw {
    ($e:expr, $($p:expr),+ $(,)?) => {
        $e.out.write(($($p,)+))
    };
}

/// One instruction line. Labels (`  12: `) and indentation are optional in the parser and
/// cost ~15% of the 3600-byte budget, so instructions are neither numbered nor indented.
macro_rules! inst {
    ($e:expr, $($p:expr),+ $(,)?) => {{
        let r = raw!($e, $($p),+, "\n");
        if r.is_ok() {
            $e.line += 1;
        }
        r
    }};
}

/// [`inst!`] whose last piece already ends the line (`"]\n"`): one push fewer per line.
macro_rules! inst_line {
    ($e:expr, $($p:expr),+ $(,)?) => {{
        let r = raw!($e, $($p),+);
        if r.is_ok() {
            $e.line += 1;
        }
        r
    }};
}

macro_rules! dcl {
    ($e:expr, $($p:expr),+ $(,)?) => {{
        let r = raw!($e, "DCL ", $($p),+, "\n");
        if r.is_ok() {
            $e.tokens = $e.tokens.saturating_add(TOKENS_DCL);
        }
        r
    }};
}

/// Checks that `t` names one of the module's temps and returns it.
fn temp(t: i16, m: &Module, i: usize) -> Result<u16, TgsiError> {
    if t < 0 || t as u16 >= m.temps {
        return Err(bad(i, "temporary index out of range"));
    }
    Ok(t as u16)
}

/// Checks that `t..t+n` are temps of the module.
fn temps(t: i16, n: u16, m: &Module, i: usize) -> Result<u16, TgsiError> {
    let b = temp(t, m, i)?;
    if b as u32 + n as u32 > m.temps as u32 {
        return Err(bad(i, "matrix columns out of range"));
    }
    Ok(b)
}

/// Emits `m` as TGSI text into `out` (cleared first). `remap` maps a fragment varying slot to
/// the vertex output slot it reads (from the link); `None` or a negative entry means identity.
pub fn emit(m: &Module, remap: Option<&[i8]>, out: &mut TgsiText) -> Result<TgsiInfo, TgsiError> {
    out.clear();
    let r = emit_inner(m, remap, out, true);
    let r = within_budget(m, out, r);
    if r.is_err() {
        out.clear();
    }
    r
}

/// [`emit`] without forwarding (every IR instruction becomes its own lines, as before the
/// forwarding step existed): the reference that tests compare the forwarded text against.
#[doc(hidden)]
pub fn emit_unforwarded(
    m: &Module,
    remap: Option<&[i8]>,
    out: &mut TgsiText,
) -> Result<TgsiInfo, TgsiError> {
    out.clear();
    let r = emit_inner(m, remap, out, false);
    let r = within_budget(m, out, r);
    if r.is_err() {
        out.clear();
    }
    r
}

/// `r`, or `TooLong` when the text passed the budget of `m`'s profile.
fn within_budget(
    m: &Module,
    out: &Out,
    r: Result<TgsiInfo, TgsiError>,
) -> Result<TgsiInfo, TgsiError> {
    let budget = limits(m.profile).tgsi_bytes_max;
    match r {
        Ok(_) if out.len() > budget => Err(TgsiError::TooLong { limit: budget }),
        Err(TgsiError::TooLong { .. }) => Err(TgsiError::TooLong { limit: budget }),
        r => r,
    }
}

/// The TGSI emitter's working tables (about 400 KiB at profile-2 capacity): keep one where a
/// large frame is not welcome ([`emit_in`]); [`emit`] builds one in its own frame.
pub struct TgsiScratch {
    plan: Plan,
    /// Per instruction: what [`forward`] decided (see the `F_*` flags).
    flags: Vec<u8, IR_CAP>,
    /// The text writer's buffer (about 4.5 KiB).
    text: [u8; text::BUF],
    fx: Effects,
    regs: Regs,
    /// `fx` holds `ir::opt::effects` of the module [`optimize_in`] optimised, of this many
    /// instructions (the next [`emit_in`] refines them instead of computing them again).
    fx_from_opt: Option<usize>,
}

/// Per instruction: the lanes it reads and writes as emitted (see [`forward`]).
type Effects = Vec<crate::ir::opt::Effects, IR_CAP>;

impl Default for TgsiScratch {
    fn default() -> Self {
        TgsiScratch::new()
    }
}

impl TgsiScratch {
    pub const fn new() -> TgsiScratch {
        TgsiScratch {
            plan: Plan {
                imms: Vec::new(),
                const_imm: Vec::new(),
                zero_imm: None,
                one_imm: None,
                uint_imms: Vec::new(),
                int_imms_from: u16::MAX,
                index: FollowIndex::new(),
                fcoord_reg: 0,
                scratch: 0,
                loop_temps: 0,
                budget_imm: None,
                attrs: 0,
                fs_inputs: 0,
                vs_outputs: 0,
                samplers: 0,
                cube_samplers: 0,
                uniform_vec4s: 0,
                reads_fragcoord: false,
                reads_face: false,
                sysvals: 0,
                writes_position: false,
                writes_color: false,
                writes_depth: false,
                clip: 0,
                addr: false,
                arrays: Vec::new(),
                lane_imm: 0,
                forwarded: false,
                any_continue: false,
            },
            flags: Vec::new(),
            text: [0; text::BUF],
            fx: Vec::new(),
            regs: Regs::empty(),
            fx_from_opt: None,
        }
    }
}

/// [`crate::ir::opt::optimize`] of `m`, keeping the lane effects its last pass computed in
/// `scratch` for the next [`emit_in`] with it, which takes them when its module has as many
/// instructions: that must be `m`, unchanged (only `compile::finish` calls this).
pub fn optimize_in(scratch: &mut TgsiScratch, m: &mut Module) {
    let kept = crate::ir::opt::optimize_recording(m, Some(&mut scratch.fx));
    scratch.fx_from_opt = kept.then_some(m.insts.len());
}

/// [`emit`] with caller-owned working tables.
pub fn emit_in(
    scratch: &mut TgsiScratch,
    m: &Module,
    remap: Option<&[i8]>,
    out: &mut TgsiText,
) -> Result<TgsiInfo, TgsiError> {
    out.clear();
    let fx_ready = scratch.fx_from_opt.take() == Some(m.insts.len());
    let r = emit_plan(
        &mut scratch.plan,
        &mut scratch.flags,
        &mut scratch.fx,
        &mut scratch.regs,
        &mut scratch.text,
        m,
        remap,
        out,
        true,
        EmitOptions::default(),
        fx_ready,
    );
    let r = within_budget(m, out, r);
    if r.is_err() {
        out.clear();
    }
    r
}

fn emit_inner(
    m: &Module,
    remap: Option<&[i8]>,
    out: &mut Out,
    optimize: bool,
) -> Result<TgsiInfo, TgsiError> {
    emit_inner_with(m, remap, out, optimize, EmitOptions::default())
}

fn emit_inner_with(
    m: &Module,
    remap: Option<&[i8]>,
    out: &mut Out,
    optimize: bool,
    opts: EmitOptions,
) -> Result<TgsiInfo, TgsiError> {
    let mut scratch = TgsiScratch::new();
    emit_plan(
        &mut scratch.plan,
        &mut scratch.flags,
        &mut scratch.fx,
        &mut scratch.regs,
        &mut scratch.text,
        m,
        remap,
        out,
        optimize,
        opts,
        false,
    )
}

/// How the VirGL device draws the target, which decides gl_FragCoord's origin
/// (`FS_COORD_ORIGIN`) and DDY's sign in the text (virglrenderer turns a non-`Y_0_TOP`
/// framebuffer's origin around itself, but not DDY).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framebuffer {
    /// Upright (the default): row 0 = the top of the picture, a negative viewport y-scale;
    /// the host's window y runs downwards. `FS_COORD_ORIGIN LOWER_LEFT`, DDY negated.
    #[default]
    Upright,
    /// GL-native: row 0 = window y 0, a positive viewport y-scale, as Gfx3D's VirGL backend
    /// draws render targets (so a sampled target reads as in GL). `FS_COORD_ORIGIN
    /// UPPER_LEFT`, DDY as it is.
    GlNative,
}

/// Choices of the emitted text that depend on how the device draws, not on the shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmitOptions {
    pub framebuffer: Framebuffer,
}

/// [`emit`] with [`EmitOptions`] (the default options emit exactly [`emit`]'s text).
pub fn emit_with(
    m: &Module,
    remap: Option<&[i8]>,
    opts: EmitOptions,
    out: &mut TgsiText,
) -> Result<TgsiInfo, TgsiError> {
    out.clear();
    let r = emit_inner_with(m, remap, out, true, opts);
    let r = within_budget(m, out, r);
    if r.is_err() {
        out.clear();
    }
    r
}

#[allow(clippy::too_many_arguments)]
fn emit_plan(
    p: &mut Plan,
    flags: &mut Vec<u8, IR_CAP>,
    fx: &mut Effects,
    regs: &mut Regs,
    buf: &mut [u8; text::BUF],
    m: &Module,
    remap: Option<&[i8]>,
    out: &mut Out,
    optimize: bool,
    opts: EmitOptions,
    fx_ready: bool,
) -> Result<TgsiInfo, TgsiError> {
    let n = m.insts.len().min(IR_CAP);
    p.imms.clear();
    // Sized to the module (no storage is touched past it: building a scratch costs nothing).
    refill(&mut p.const_imm, n, 0);
    refill(flags, n, 0);
    p.zero_imm = None;
    p.one_imm = None;
    p.uint_imms.clear();
    p.int_imms_from = u16::MAX;
    p.fcoord_reg = 0;
    p.scratch = 0;
    p.loop_temps = 0;
    p.budget_imm = None;
    p.attrs = 0;
    p.fs_inputs = 0;
    p.vs_outputs = 0;
    p.samplers = 0;
    // Reset per emission like every other field (a reused scratch declared a later shader's
    // sampler views CUBE on the units an earlier shader had cube samplers on).
    p.cube_samplers = 0;
    p.uniform_vec4s = m.iface.uniform_vec4s();
    p.reads_fragcoord = false;
    p.reads_face = false;
    p.sysvals = 0;
    p.writes_position = m.stage == Stage::Vertex;
    p.writes_color = m.iface.color_output.is_some();
    p.writes_depth = false;
    p.clip = 0;
    p.addr = false;
    p.arrays.clear();
    p.lane_imm = 0;
    plan(m, p, flags, fx, optimize, fx_ready)?;
    let p = &*p;
    // `fx` was filled for this module only when forwarding ran.
    let written: &[crate::ir::opt::Effects] = if p.forwarded { fx } else { &[] };
    let declared_temps = m.temps + p.scratch + p.loop_temps + p.budget_imm.is_some() as u16;
    let mut e = Emitter {
        out: Text::new(buf, out),
        line: 0,
        tokens: TOKENS_HEADER,
        temps: declared_temps,
        scratch0: m.temps,
        regs: {
            regs.reset(m.temps);
            regs
        },
        loop0: m.temps + p.scratch,
        loop_level: 0,
        budget: m.temps + p.scratch + p.loop_temps,
        any_continue: p.any_continue,
        cont_loops: 0,
        cont_imm: [0; crate::limits::LOOP_DEPTH_MAX],
        framebuffer: opts.framebuffer,
    };
    let frag = m.stage == Stage::Fragment;
    raw!(e, if frag { "FRAG" } else { "VERT" }, "\n")?;
    if !frag && p.clip != 0 {
        let n = 8 - p.clip.leading_zeros() as u16;
        raw!(e, "PROPERTY NUM_CLIPDIST_ENABLED ", n, "\n")?;
        e.tokens = e.tokens.saturating_add(TOKENS_PROPERTY);
    }
    let mut fcoord_reg = 0u8;
    if frag {
        if p.reads_fragcoord {
            raw!(
                e,
                match opts.framebuffer {
                    Framebuffer::Upright => "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n",
                    Framebuffer::GlNative => "PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n",
                }
            )?;
            raw!(e, "PROPERTY FS_COORD_PIXEL_CENTER HALF_INTEGER\n")?;
            e.tokens = e.tokens.saturating_add(2 * TOKENS_PROPERTY);
        }
        for f in set_bits(p.fs_inputs, VARYING_CAP) {
            let g = match remap.and_then(|r| r.get(f).copied()) {
                Some(v) if v >= 0 => v as usize,
                _ => f,
            };
            // GLSL's interpolation qualifier (centroid is the centre: no multisampling).
            let mode = match m.iface.varyings.iter().find(|v| v.slot as usize == f) {
                Some(v) if v.interp == Interp::Flat => "CONSTANT",
                Some(v) if v.interp == Interp::NoPerspective => "LINEAR",
                _ => "PERSPECTIVE",
            };
            dcl!(e, "IN[", f, "], GENERIC[", g, "], ", mode)?;
            fcoord_reg = f as u8 + 1;
        }
        if p.reads_fragcoord {
            dcl!(e, "IN[", fcoord_reg, "], POSITION, LINEAR")?;
        }
        if p.reads_face {
            // gl_FrontFacing: FACE is positive for a front face, negative for a back face.
            dcl!(
                e,
                "IN[",
                fcoord_reg + p.reads_fragcoord as u8,
                "], FACE, CONSTANT"
            )?;
        }
        if p.writes_color {
            dcl!(e, "OUT[0], COLOR")?;
        }
        if p.writes_depth {
            // gl_FragDepth, as Mesa's state tracker declares it: the z of a POSITION output.
            dcl!(e, "OUT[1], POSITION")?;
        }
    } else {
        for a in set_bits(p.attrs, ATTR_CAP) {
            dcl!(e, "IN[", a, "]")?;
        }
        if p.writes_position {
            dcl!(e, "OUT[0], POSITION")?;
        }
        for s in set_bits(p.vs_outputs, VARYING_CAP) {
            dcl!(e, "OUT[", s + 1, "], GENERIC[", s, "]")?;
        }
        // gl_ClipDistance as Mesa's state tracker declares it: two CLIPDIST vec4 outputs,
        // each with the components written (virglrenderer sizes gl_ClipDistance from
        // NUM_CLIPDIST_ENABLED, emitted above).
        for h in 0..2usize {
            let bits = (p.clip >> (4 * h)) & 15;
            if bits != 0 {
                dcl!(
                    e,
                    "OUT[",
                    CLIP_OUT + h,
                    "].",
                    WRITE_MASKS[bits as usize],
                    ", CLIPDIST[",
                    h,
                    "]"
                )?;
            }
        }
        // System values, packed from SV[0] in the order gl_VertexID, gl_InstanceID.
        if p.sysvals & 1 != 0 {
            dcl!(e, "SV[0], VERTEXID")?;
        }
        if p.sysvals & 2 != 0 {
            dcl!(e, "SV[", (p.sysvals & 1) as u16, "], INSTANCEID")?;
        }
    }
    if p.uniform_vec4s > 0 {
        dcl!(e, "CONST[0][0..", p.uniform_vec4s - 1, "]")?;
    }
    for s in set_bits(p.samplers, SAMPLER_CAP) {
        dcl!(e, "SAMP[", s, "]")?;
        let array = m
            .iface
            .samplers
            .iter()
            .any(|x| x.unit as usize == s && x.ty.is_array_sampler());
        let target = if p.cube_samplers & (1 << s) != 0 {
            "CUBE"
        } else if array {
            "2D_ARRAY"
        } else {
            "2D"
        };
        // An integer sampler's view returns SINT or UINT words (virglrenderer declares an
        // isampler/usampler for it).
        let ret = match m
            .iface
            .samplers
            .iter()
            .find(|x| x.unit as usize == s)
            .map(|x| x.ty)
        {
            Some(Type::ISampler2D | Type::ISampler2DArray) => "SINT",
            Some(Type::USampler2D | Type::USampler2DArray) => "UINT",
            _ => "FLOAT",
        };
        dcl!(e, "SVIEW[", s, "], ", target, ", ", ret)?;
    }
    if p.arrays.is_empty() {
        match declared_temps {
            0 => {}
            1 => dcl!(e, "TEMP[0]")?,
            n => dcl!(e, "TEMP[0..", n - 1, "]")?,
        }
    } else {
        // Indirectly addressed ranges are arrays of their own (virglrenderer turns each
        // declaration into a GLSL array and an indirect operand into an index into it).
        let mut next = 0u16;
        for (id, &(a, b)) in p.arrays.iter().enumerate() {
            if a > next {
                dcl_temps(&mut e, next, a - 1)?;
            }
            dcl!(e, "TEMP[", a, "..", b, "], ARRAY(", id + 1, ")")?;
            next = b + 1;
        }
        if next < declared_temps {
            dcl_temps(&mut e, next, declared_temps - 1)?;
        }
    }
    if p.addr {
        dcl!(e, "ADDR[0]")?;
    }
    for (k, v) in p.imms.iter().enumerate() {
        if k >= p.int_imms_from as usize {
            let n = |i: usize| v[i] as i32;
            raw!(
                e,
                "IMM[",
                k,
                "] INT32 {",
                n(0),
                ", ",
                n(1),
                ", ",
                n(2),
                ", ",
                n(3),
                "}\n"
            )?;
            e.tokens = e.tokens.saturating_add(TOKENS_IMM);
            continue;
        }
        if p.uint_imms
            .get(k / 32)
            .is_some_and(|w| w & (1 << (k % 32)) != 0)
        {
            raw!(
                e,
                "IMM[",
                k,
                "] UINT32 {",
                v[0],
                ", ",
                v[1],
                ", ",
                v[2],
                ", ",
                v[3],
                "}\n"
            )?;
            e.tokens = e.tokens.saturating_add(TOKENS_IMM);
            continue;
        }
        let f = |i: usize| Flt(v[i]);
        raw!(
            e,
            "IMM[",
            k,
            "] FLT32 {",
            f(0),
            ", ",
            f(1),
            ", ",
            f(2),
            ", ",
            f(3),
            "}\n"
        )?;
        e.tokens = e.tokens.saturating_add(TOKENS_IMM);
    }
    if let Some(kb) = p.budget_imm {
        let b = e.budget;
        inst!(e, "MOV TEMP[", b, "].x, IMM[", kb, "].zzzz")?;
    }
    if p.forwarded {
        // Each instruction's forwarding is decided with the table the emission reads, just
        // before it is emitted (one walk of the register table for both).
        for (i, inst) in m.insts.iter().enumerate() {
            let (f, elided) = forward(m, p, flags, written, e.regs, i, inst);
            emit_inst(&mut e, m, p, i, inst, fcoord_reg, f)?;
            redirect(e.regs, inst, i, f, elided, written);
        }
    } else {
        // Without forwarding no flag is set but a mat3 product's (all clear): every temp
        // reads itself throughout, and the register table needs no update (each derived
        // every instruction's effects).
        for (i, inst) in m.insts.iter().enumerate() {
            let f = flags.get(i).copied().unwrap_or(0);
            emit_inst(&mut e, m, p, i, inst, fcoord_reg, f)?;
        }
    }
    inst!(e, "END")?;
    e.out.flush()?;
    Ok(TgsiInfo {
        bytes: e.out.len(),
        // Each instruction line's tokens are added once here instead of per line (the same
        // sum: every term is positive and the addition saturates).
        tokens: e.tokens.saturating_add(TOKENS_INST.saturating_mul(e.line)),
        instructions: e.line,
        temps: e.temps,
    })
}

/// Profile 2's integer ops: one TGSI integer instruction each (ISUB is INEG then UADD; a
/// compare's ~0 is ANDed with 1.0's bits to give profile 2's bool 1.0).
fn emit_int(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
) -> Result<(), TgsiError> {
    let d = temp(inst.dst, m, i)?;
    let a = e.src(temp(inst.a, m, i)?);
    let n = lanes_or(inst, 1);
    if inst.op.is_int_unary() {
        let name = match inst.op {
            Op::Not => "NOT TEMP[",
            Op::INeg => "INEG TEMP[",
            Op::IAbs => "IABS TEMP[",
            Op::ISign => "ISSG TEMP[",
            _ => match inst.aux {
                crate::ir::CVT_I2F => "I2F TEMP[",
                crate::ir::CVT_U2F => "U2F TEMP[",
                crate::ir::CVT_F2I => "F2I TEMP[",
                _ => "F2U TEMP[",
            },
        };
        return inst!(e, name, d, around!("]", mask(n), ", "), a);
    }
    let b = e.src(temp(inst.b, m, i)?);
    if inst.op == Op::ISub {
        let s = e.scratch0;
        inst!(e, "INEG TEMP[", s, around!("]", mask(n), ", "), b)?;
        return inst_line!(
            e,
            "UADD TEMP[",
            d,
            around!("]", mask(n), ", "),
            a,
            ", TEMP[",
            s,
            "]\n"
        );
    }
    if matches!(inst.op, Op::ICmp | Op::UCmp) {
        let signed = inst.op == Op::ICmp;
        let (name, x, y) = match CmpCode::from_i16(inst.aux) {
            Some(CmpCode::Lt) => (if signed { "ISLT TEMP[" } else { "USLT TEMP[" }, a, b),
            Some(CmpCode::Gt) => (if signed { "ISLT TEMP[" } else { "USLT TEMP[" }, b, a),
            Some(CmpCode::Le) => (if signed { "ISGE TEMP[" } else { "USGE TEMP[" }, b, a),
            Some(CmpCode::Ge) => (if signed { "ISGE TEMP[" } else { "USGE TEMP[" }, a, b),
            Some(CmpCode::Eq) => ("USEQ TEMP[", a, b),
            Some(CmpCode::Ne) => ("USNE TEMP[", a, b),
            None => return Err(bad(i, "unknown comparison code")),
        };
        inst!(e, name, d, around!("]", mask(n), ", "), x, ", ", y)?;
        let one = p.one_imm.ok_or(bad(i, "one immediate missing"))?;
        return inst_line!(
            e,
            "AND TEMP[",
            d,
            around!("]", mask(n), ", TEMP["),
            d,
            "], IMM[",
            one,
            "]\n"
        );
    }
    let name = match inst.op {
        Op::IAdd => "UADD TEMP[",
        Op::IMul => "UMUL TEMP[",
        Op::IDiv => "IDIV TEMP[",
        Op::UDiv => "UDIV TEMP[",
        Op::IMod => "MOD TEMP[",
        Op::UMod => "UMOD TEMP[",
        Op::And => "AND TEMP[",
        Op::Or => "OR TEMP[",
        Op::Xor => "XOR TEMP[",
        Op::Shl => "SHL TEMP[",
        Op::IShr => "ISHR TEMP[",
        Op::UShr => "USHR TEMP[",
        Op::IMin => "IMIN TEMP[",
        Op::IMax => "IMAX TEMP[",
        Op::UMin => "UMIN TEMP[",
        _ => "UMAX TEMP[",
    };
    inst!(e, name, d, around!("]", mask(n), ", "), a, ", ", b)
}

// One call site (once per instruction): inlined, the call's register saving went away.
#[inline(always)]
fn emit_inst(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
    fcoord_reg: u8,
    flags: u8,
) -> Result<(), TgsiError> {
    if flags & F_SKIP != 0 {
        return Ok(());
    }
    if flags & F_ELIDED != 0 {
        // The definition's value is read from its register directly; validate what the
        // emitted MOV would have checked.
        temp(inst.dst, m, i)?;
        if inst.op == Op::Mov {
            temp(inst.a, m, i)?;
        }
        return Ok(());
    }
    match inst.op {
        Op::Nop => {}
        Op::Const => {
            let d = temp(inst.dst, m, i)?;
            let k = p.const_imm.get(i).copied().unwrap_or(0);
            inst_line!(e, "MOV TEMP[", d, "], IMM[", k, "]\n")?;
        }
        Op::Mov => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let a = e.src(a);
            inst!(
                e,
                "MOV TEMP[",
                d,
                around!("]", mask(lanes_or(inst, 4)), ", "),
                a
            )?;
        }
        Op::Swz => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let n = inst.lanes;
            if !(1..=4).contains(&n) {
                return Err(bad(i, "swz lanes must be 1..=4"));
            }
            let mut sw: String<5> = String::new();
            let _ = sw.push('.');
            for k in 0..4 {
                // Unused selector lanes repeat lane 0's choice; they are masked off anyway.
                let sel = if k < n as usize { k } else { 0 };
                let _ = sw.push(LANES[((inst.aux as u16 >> (2 * sel)) & 3) as usize]);
            }
            let sw = if sw.as_str() == ".xyzw" {
                ""
            } else {
                sw.as_str()
            };
            let a = e.src(a);
            // Both sources are read before the write, so d == a is safe; the zero fill comes second.
            inst!(e, "MOV TEMP[", d, around!("]", mask(n), ", "), a, sw)?;
            if n < 4 {
                let z = p.zero_imm.ok_or(bad(i, "zero immediate missing"))?;
                inst!(
                    e,
                    "MOV TEMP[",
                    d,
                    around!("]", rest_mask(n), ", IMM["),
                    z,
                    "].xxxx"
                )?;
            }
        }
        Op::SetLane => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            if !(0..4).contains(&inst.aux) || !(0..4).contains(&inst.aux2) {
                return Err(bad(i, "lane index must be 0..=3"));
            }
            let a = e.src(a);
            inst!(
                e,
                "MOV TEMP[",
                d,
                "]",
                lane_mask(inst.aux as usize),
                ", ",
                a,
                replicate(inst.aux2 as usize)
            )?;
        }
        Op::Mul if flags & F_FUSED != 0 => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let Some((j, add)) = next_inst(m, i) else {
                return Err(bad(i, "fused MUL without its ADD"));
            };
            let (ad, c) = if add.a == d as i16 {
                (temp(add.dst, m, j)?, temp(add.b, m, j)?)
            } else {
                (temp(add.dst, m, j)?, temp(add.a, m, j)?)
            };
            // d = a*b + c; SUB: t - c = a*b + (-c), c - t = (-a)*b + c.
            let (neg_a, neg_c) = match (add.op, add.a == d as i16) {
                (Op::Sub, true) => ("", "-"),
                (Op::Sub, false) => ("-", ""),
                _ => ("", ""),
            };
            let (a, b, c) = (e.src(a), e.src(b), e.src(c));
            inst!(
                e,
                "MAD TEMP[",
                ad,
                around!("]", mask(lanes_or(add, 4)), ", "),
                neg_a,
                a,
                ", ",
                b,
                ", ",
                neg_c,
                c
            )?;
        }
        Op::Add | Op::Sub | Op::Mul | Op::Max | Op::Min => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let (name, neg) = match inst.op {
                Op::Add => ("ADD", ""),
                Op::Sub => ("ADD", "-"),
                Op::Mul => ("MUL", ""),
                Op::Max => ("MAX", ""),
                _ => ("MIN", ""),
            };
            let (a, b) = (e.src(a), e.src(b));
            inst!(
                e,
                name,
                " TEMP[",
                d,
                around!("]", mask(lanes_or(inst, 4)), ", "),
                a,
                ", ",
                neg,
                b
            )?;
        }
        Op::Div => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let n = lanes_or(inst, 4);
            let s = e.scratch0;
            let (a, b) = (e.src(a), e.src(b));
            for k in 0..n as usize {
                inst!(e, "RCP TEMP[", s, "]", lane_mask(k), ", ", b, replicate(k))?;
            }
            inst_line!(
                e,
                "MUL TEMP[",
                d,
                around!("]", mask(n), ", "),
                a,
                ", TEMP[",
                s,
                "]\n"
            )?;
        }
        Op::Abs => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let a = e.src(a);
            inst!(
                e,
                "MOV TEMP[",
                d,
                around!("]", mask(lanes_or(inst, 4)), ", |"),
                a,
                "|"
            )?;
        }
        Op::Dot => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let name = match inst.aux {
                2 => "DP2",
                0 | 3 => "DP3",
                4 => "DP4",
                _ => return Err(bad(i, "dot size must be 2..=4")),
            };
            let (a, b) = (e.src(a), e.src(b));
            inst!(e, name, " TEMP[", d, "].x, ", a, ", ", b)?;
        }
        Op::Rsq | Op::Rcp | Op::Sin | Op::Cos | Op::Sqrt | Op::Exp2 | Op::Log2 => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let name = match inst.op {
                Op::Rsq => "RSQ",
                Op::Rcp => "RCP",
                Op::Sin => "SIN",
                Op::Cos => "COS",
                Op::Exp2 => "EX2",
                Op::Log2 => "LG2",
                _ => "SQRT",
            };
            let a = e.src(a);
            // Scalar opcodes: one line per lane. Writing lane k never disturbs lane k+1 of a.
            for k in 0..lanes_or(inst, 1).min(4) as usize {
                inst!(
                    e,
                    name,
                    " TEMP[",
                    d,
                    "]",
                    lane_mask(k),
                    ", ",
                    a,
                    replicate(k)
                )?;
            }
        }
        Op::Trunc
        | Op::Floor
        | Op::Ceil
        | Op::Fract
        | Op::RoundEven
        | Op::Sign
        | Op::Ddx
        | Op::Ddy => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let a = e.src(a);
            let name = match inst.op {
                Op::Ddx => "DDX TEMP[",
                Op::Ddy => "DDY TEMP[",
                Op::Floor => "FLR TEMP[",
                Op::Ceil => "CEIL TEMP[",
                Op::Fract => "FRC TEMP[",
                Op::RoundEven => "ROUND TEMP[",
                Op::Sign => "SSG TEMP[",
                _ => "TRUNC TEMP[",
            };
            inst!(e, name, d, around!("]", mask(lanes_or(inst, 1)), ", "), a)?;
            if inst.op == Op::Ddy && e.framebuffer == Framebuffer::Upright {
                // Drawn upright (a negative viewport y-scale), window y is reversed on the
                // host: virglrenderer corrects gl_FragCoord for it (FS_COORD_ORIGIN), not
                // DDY, so DDY is negated to stay GL's (window y up). GL-native needs neither.
                inst!(
                    e,
                    "MOV TEMP[",
                    d,
                    around!("]", mask(lanes_or(inst, 1)), ", -TEMP["),
                    d,
                    "]"
                )?;
            }
        }
        Op::Pow => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let (a, b) = (e.src(a), e.src(b));
            for k in 0..lanes_or(inst, 1).min(4) as usize {
                let r = replicate(k);
                inst!(e, "POW TEMP[", d, "]", lane_mask(k), ", ", a, r, ", ", b, r)?;
            }
        }
        Op::CmpV => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let (name, x, y) = match CmpCode::from_i16(inst.aux) {
                Some(CmpCode::Lt) => ("SLT TEMP[", a, b),
                Some(CmpCode::Gt) => ("SLT TEMP[", b, a),
                Some(CmpCode::Le) => ("SGE TEMP[", b, a),
                Some(CmpCode::Ge) => ("SGE TEMP[", a, b),
                Some(CmpCode::Eq) => ("SEQ TEMP[", a, b),
                Some(CmpCode::Ne) => ("SNE TEMP[", a, b),
                None => return Err(bad(i, "unknown comparison code")),
            };
            let (x, y) = (e.src(x), e.src(y));
            inst!(
                e,
                name,
                d,
                around!("]", mask(lanes_or(inst, 1)), ", "),
                x,
                ", ",
                y
            )?;
        }
        crate::ir::int_ops!() => emit_int(e, m, p, i, inst)?,
        Op::Cmp => {
            let (d, a, b) = (
                temp(inst.dst, m, i)?,
                temp(inst.a, m, i)?,
                temp(inst.b, m, i)?,
            );
            let (name, x, y) = match CmpCode::from_i16(inst.aux) {
                Some(CmpCode::Lt) => ("SLT", a, b),
                Some(CmpCode::Gt) => ("SLT", b, a),
                Some(CmpCode::Le) => ("SGE", b, a),
                Some(CmpCode::Ge) => ("SGE", a, b),
                Some(CmpCode::Eq) => ("SEQ", a, b),
                Some(CmpCode::Ne) => ("SNE", a, b),
                None => return Err(bad(i, "unknown comparison code")),
            };
            let (x, y) = (e.src(x), e.src(y));
            inst!(e, name, " TEMP[", d, "].x, ", x, ".xxxx, ", y, ".xxxx")?;
        }
        Op::MulMV => {
            let cols = match inst.aux {
                0 | 4 => 4u16,
                3 => 3,
                _ => return Err(bad(i, "matrix columns must be 3 or 4")),
            };
            let (d, mat, v) = (
                temp(inst.dst, m, i)?,
                temps(inst.a, cols, m, i)?,
                temp(inst.b, m, i)?,
            );
            let columns = e.columns(mat, cols);
            let names = names_of(&columns);
            let columns = columns.get(..cols as usize).unwrap_or(&[]);
            let v = e.src(v);
            let dr = Reg::Temp(d);
            // The chain accumulates in its destination; when that is one of its inputs, it
            // accumulates in scratch and only its last MAD (which reads before it writes)
            // writes `d`.
            let acc = if v == dr || columns.contains(&dr) {
                e.scratch0
            } else {
                d
            };
            mat_vec(e, acc, d, &names, v, cols)?;
            if cols == 3 && flags & 1 == 0 {
                let z = p.zero_imm.ok_or(bad(i, "zero immediate missing"))?;
                inst!(e, "MOV TEMP[", d, "].w, IMM[", z, "].xxxx")?;
            }
        }
        Op::MulMM => {
            let cols = match inst.aux {
                0 | 4 => 4u16,
                3 => 3,
                _ => return Err(bad(i, "matrix columns must be 3 or 4")),
            };
            let d = temps(inst.dst, cols, m, i)?;
            let a = temps(inst.a, cols, m, i)?;
            let b = temps(inst.b, cols, m, i)?;
            // The left columns' names are formatted once for every column's chain.
            let left = e.columns(a, cols);
            let left_names = names_of(&left);
            let left = left.get(..cols as usize).unwrap_or(&[]);
            let right = e.columns(b, cols);
            let right = right.get(..cols as usize).unwrap_or(&[]);
            // Column j of the result may overwrite column j of B (read last by its own chain)
            // but nothing a later column reads; otherwise every column goes to scratch first.
            let clobbers = (0..cols).any(|j| {
                let dj = Reg::Temp(d + j);
                left.contains(&dj) || right.iter().skip(j as usize + 1).any(|r| *r == dj)
            });
            let zero = |j: u16| -> Result<Option<u16>, TgsiError> {
                if cols == 3 && flags & (1 << j) == 0 {
                    return p.zero_imm.map(Some).ok_or(bad(i, "zero immediate missing"));
                }
                Ok(None)
            };
            for j in 0..cols {
                let bj = right.get(j as usize).copied().unwrap_or(Reg::Temp(b + j));
                let (acc, dst) = if clobbers {
                    (e.scratch0 + j, e.scratch0 + j)
                } else if bj == Reg::Temp(d + j) {
                    (e.scratch0, d + j)
                } else {
                    (d + j, d + j)
                };
                mat_vec(e, acc, dst, &left_names, bj, cols)?;
                if let Some(z) = zero(j)? {
                    inst!(e, "MOV TEMP[", dst, "].w, IMM[", z, "].xxxx")?;
                }
            }
            if clobbers {
                for j in 0..cols {
                    inst_line!(e, "MOV TEMP[", d + j, "], TEMP[", e.scratch0 + j, "]\n")?;
                }
            }
        }
        Op::Sample => {
            let (d, a) = (temp(inst.dst, m, i)?, temp(inst.a, m, i)?);
            let a = e.src(a);
            inst!(e, "TEX TEMP[", d, "], ", a, ", SAMP[", inst.aux, "], 2D")?;
        }
        Op::SampleLod | Op::SampleBias | Op::SampleGrad | Op::TexFetch | Op::TexSize => {
            texture_inst(e, m, p, i, inst)?
        }
        Op::CubeLod
        | Op::CubeBias
        | Op::CubeGrad
        | Op::ShadowLod
        | Op::ShadowBias
        | Op::ShadowCube
        | Op::ShadowGrad => cube_inst(e, m, p, i, inst)?,
        Op::ArrLod | Op::ArrBias | Op::ArrGrad | Op::ArrFetch | Op::ArrSize => {
            array_inst(e, m, p, i, inst)?
        }
        Op::LoadAttr | Op::LoadVar => {
            let d = temp(inst.dst, m, i)?;
            inst_line!(e, "MOV TEMP[", d, "], IN[", inst.aux, "]\n")?;
        }
        Op::LoadUni => {
            let d = temps(inst.dst, inst.aux2.max(0) as u16, m, i)?;
            for k in 0..inst.aux2 as u16 {
                if k < 4 && flags & (1 << k) != 0 {
                    continue;
                }
                inst_line!(
                    e,
                    "MOV TEMP[",
                    d + k,
                    "], CONST[0][",
                    inst.aux as u16 + k,
                    "]\n"
                )?;
            }
        }
        Op::LoadFcoord => {
            let d = temp(inst.dst, m, i)?;
            inst_line!(e, "MOV TEMP[", d, "], IN[", fcoord_reg, "]\n")?;
        }
        Op::LoadFace => {
            // 1.0 when FACE >= -FACE (front), else 0.0.
            let d = temp(inst.dst, m, i)?;
            let f = fcoord_reg + p.reads_fragcoord as u8;
            inst_line!(
                e,
                "SGE TEMP[",
                d,
                "], IN[",
                f,
                "].xxxx, -IN[",
                f,
                "].xxxx
"
            )?;
        }
        Op::LoadSysval => {
            // The system values are integers: converted to the float every lane holds.
            let d = temp(inst.dst, m, i)?;
            let sv = if inst.aux == 1 { p.sysvals & 1 } else { 0 } as u16;
            inst_line!(e, "I2F TEMP[", d, "], SV[", sv, "].xxxx\n")?;
        }
        Op::StorePos | Op::StoreColor => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "MOV OUT[0], ", a)?;
        }
        Op::StoreVar => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "MOV OUT[", inst.aux + 1, "], ", a)?;
        }
        Op::StoreDepth => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "MOV OUT[1].z, ", a, ".xxxx")?;
        }
        Op::StoreClip => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            let k = (inst.aux as usize) & 7;
            let c = ["x", "y", "z", "w"][k & 3];
            inst!(e, "MOV OUT[", CLIP_OUT + k / 4, "].", c, ", ", a, ".xxxx")?;
        }
        Op::If => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "IF ", a, ".xxxx")?;
        }
        Op::Else => inst!(e, "ELSE")?,
        Op::Endif => inst!(e, "ENDIF")?,
        Op::Discard => inst!(e, "KILL")?,
        // Every loop is guarded by a counter: at its bound it ends as if by BRK (the IR's
        // LOOP semantics, so no shader can run unbounded on the host GPU).
        Op::Loop => {
            let level = e.loop_level;
            let c = e.loop0 + level;
            let k = p.const_imm.get(i).copied().unwrap_or(0);
            let cont = e.any_continue && loop_continues(m, i);
            if cont {
                let slot = e
                    .cont_imm
                    .get_mut(level as usize)
                    .ok_or_else(|| bad(i, "loops with CONTINUE nested too deeply"))?;
                *slot = k;
                e.cont_loops |= 1 << level;
            } else if level < 32 {
                e.cont_loops &= !(1u32 << level);
            }
            e.loop_level += 1;
            inst!(e, "MOV TEMP[", c, "].x, IMM[", k, "].xxxx")?;
            inst!(e, "BGNLOOP")?;
            inst!(
                e,
                "SGE TEMP[",
                c,
                "].y, TEMP[",
                c,
                "].xxxx, IMM[",
                k,
                "].zzzz"
            )?;
            inst!(e, "IF TEMP[", c, "].yyyy")?;
            inst!(e, "BRK")?;
            inst!(e, "ENDIF")?;
            inst!(
                e,
                "ADD TEMP[",
                c,
                "].x, TEMP[",
                c,
                "].xxxx, IMM[",
                k,
                "].yyyy"
            )?;
            if let Some(kb) = p.budget_imm.filter(|_| crate::ir::loop_budgeted(inst)) {
                // Each iteration started spends one of the invocation's budget; once spent,
                // the loop ends as if by BRK (the executor's rule, per lane).
                let b = e.budget;
                inst!(
                    e,
                    "SGE TEMP[",
                    c,
                    "].y, TEMP[",
                    b,
                    "].xxxx, IMM[",
                    kb,
                    "].xxxx"
                )?;
                inst!(e, "IF TEMP[", c, "].yyyy")?;
                inst!(e, "BRK")?;
                inst!(e, "ENDIF")?;
                inst!(
                    e,
                    "ADD TEMP[",
                    b,
                    "].x, TEMP[",
                    b,
                    "].xxxx, IMM[",
                    kb,
                    "].yyyy"
                )?;
            }
            if cont {
                // No `CONT` (virglrenderer 0.10 cannot translate it): the body runs in a
                // one-trip inner loop. CONTINUE leaves it by BRK (the outer loop goes on to
                // its next iteration, counter guard and budget included); BREAK sets the
                // flag TEMP[c].z first, and the outer loop ends when it is set.
                inst!(e, "MOV TEMP[", c, "].z, IMM[", k, "].xxxx")?;
                inst!(e, "BGNLOOP")?;
            }
        }
        Op::Break => {
            if let Some((c, k)) = e.continuing_loop() {
                inst!(e, "MOV TEMP[", c, "].z, IMM[", k, "].yyyy")?;
            }
            inst!(e, "BRK")?
        }
        // Inside a loop emitted with its one-trip inner loop, BRK is the continue.
        Op::Continue if e.continuing_loop().is_some() => inst!(e, "BRK")?,
        Op::Continue => return Err(bad(i, "CONTINUE outside a loop")),
        Op::EndLoop => {
            if let Some((c, _)) = e.continuing_loop() {
                inst!(e, "BRK")?;
                inst!(e, "ENDLOOP")?;
                inst!(e, "IF TEMP[", c, "].zzzz")?;
                inst!(e, "BRK")?;
                inst!(e, "ENDIF")?;
            }
            e.loop_level = e.loop_level.saturating_sub(1);
            inst!(e, "ENDLOOP")?;
        }
        Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx | Op::LoadLane | Op::StoreLane => {
            emit_indirect(e, m, p, i, inst)?
        }
    }
    Ok(())
}

/// Whether the LOOP at `i` holds a CONTINUE of its own (not one of a loop nested in it).
fn loop_continues(m: &Module, i: usize) -> bool {
    let mut depth = 0u32;
    for inst in m.insts.iter().skip(i + 1) {
        match inst.op {
            Op::Loop => depth += 1,
            Op::EndLoop if depth == 0 => return false,
            Op::EndLoop => depth -= 1,
            Op::Continue if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// `DCL TEMP[a..b]` (or `TEMP[a]`).
fn dcl_temps(e: &mut Emitter<'_>, a: u16, b: u16) -> Result<(), TgsiError> {
    if a == b {
        dcl!(e, "TEMP[", a, "]")
    } else {
        dcl!(e, "TEMP[", a, "..", b, "]")
    }
}

const REPLICATE: [&str; 4] = [".xxxx", ".yyyy", ".zzzz", ".wwww"];

/// Profile 2's indirect ops. The index is clamped in the first scratch temp (MAX, MIN with
/// the instruction's IMM {0, highest index, stride, 0}); the temp and uniform ops scale it by
/// the stride and address through ADDR[0] (ARL floors it), the lane ops floor it and select
/// lanes with SGE/SEQ + CMP (exact: no arithmetic touches the values).
fn emit_indirect(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
) -> Result<(), TgsiError> {
    let k = p.const_imm.get(i).copied().unwrap_or(0);
    let s = e.scratch0;
    let idx = e.src(temp(inst.a, m, i)?);
    inst!(e, "MAX TEMP[", s, "].x, ", idx, ".xxxx, IMM[", k, "].xxxx")?;
    inst!(
        e,
        "MIN TEMP[",
        s,
        "].x, TEMP[",
        s,
        "].xxxx, IMM[",
        k,
        "].yyyy"
    )?;
    let stride = match inst.op {
        Op::LoadIdx | Op::StoreIdx => inst.aux2,
        Op::LoadUniIdx => inst.c,
        _ => 1,
    };
    match inst.op {
        Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx => {
            if stride != 1 {
                inst!(
                    e,
                    "MUL TEMP[",
                    s,
                    "].x, TEMP[",
                    s,
                    "].xxxx, IMM[",
                    k,
                    "].zzzz"
                )?;
            }
            inst!(e, "ARL ADDR[0].x, TEMP[", s, "].xxxx")?;
            match inst.op {
                Op::LoadIdx => {
                    let d = temp(inst.dst, m, i)?;
                    let at = temp(inst.b, m, i)? + inst.c.max(0) as u16;
                    inst!(e, "MOV TEMP[", d, "], TEMP[ADDR[0].x+", at, "]")?;
                }
                Op::StoreIdx => {
                    let at = temp(inst.dst, m, i)? + inst.c.max(0) as u16;
                    let v = e.src(temp(inst.b, m, i)?);
                    inst!(
                        e,
                        "MOV TEMP[ADDR[0].x+",
                        at,
                        around!("]", mask(lanes_or(inst, 4)), ", "),
                        v
                    )?;
                }
                _ => {
                    let d = temp(inst.dst, m, i)?;
                    inst!(e, "MOV TEMP[", d, "], CONST[0][ADDR[0].x+", inst.aux, "]")?;
                }
            }
        }
        Op::LoadLane => {
            let d = temp(inst.dst, m, i)?;
            let v = e.src(temp(inst.b, m, i)?);
            let l = p.lane_imm;
            inst!(e, "FLR TEMP[", s, "].x, TEMP[", s, "].xxxx")?;
            inst!(e, "MOV TEMP[", s, "].y, ", v, ".xxxx")?;
            for j in 1..inst.aux.clamp(1, 4) as usize {
                let r = REPLICATE[j];
                inst!(
                    e,
                    "SGE TEMP[",
                    s,
                    "].z, TEMP[",
                    s,
                    "].xxxx, IMM[",
                    l,
                    "]",
                    r
                )?;
                inst!(
                    e,
                    "CMP TEMP[",
                    s,
                    "].y, -TEMP[",
                    s,
                    "].zzzz, ",
                    v,
                    r,
                    ", TEMP[",
                    s,
                    "].yyyy"
                )?;
            }
            inst!(e, "MOV TEMP[", d, "].x, TEMP[", s, "].yyyy")?;
        }
        _ => {
            let d = temp(inst.dst, m, i)?;
            let v = e.src(temp(inst.b, m, i)?);
            let l = p.lane_imm;
            inst!(e, "FLR TEMP[", s, "].x, TEMP[", s, "].xxxx")?;
            inst!(e, "SEQ TEMP[", s, "], TEMP[", s, "].xxxx, IMM[", l, "]")?;
            let n = inst.aux.clamp(2, 4) as u8;
            inst!(
                e,
                "CMP TEMP[",
                d,
                around!("]", mask(n), ", -TEMP["),
                s,
                "], ",
                v,
                ".xxxx, TEMP[",
                d,
                "]"
            )?;
        }
    }
    Ok(())
}

/// `dst = sum_k column_k * v[k]` for k < cols, as a MUL + MAD chain accumulating in `acc`
/// (which must not be an input) whose last MAD writes `dst` (which may be an input: the MAD
/// reads its sources before it writes).
fn mat_vec(
    e: &mut Emitter<'_>,
    acc: u16,
    dst: u16,
    columns: &[Name],
    v: Reg,
    cols: u16,
) -> Result<(), TgsiError> {
    // The text between a line's registers as single padded pieces (one copy each instead of
    // a bracket, a suffix and a separator): after the destination `], ` or `].xyz, `, after
    // the vector `].xxxx, ` .. `].wwww, `.
    const DST: [([u8; 8], u8); 2] = [pad("], "), pad("].xyz, ")];
    const VEC: [([u8; 8], u8); 4] = [
        pad("].xxxx, "),
        pad("].yyyy, "),
        pad("].zzzz, "),
        pad("].wwww, "),
    ];
    let wm = Gap(DST[(cols == 3) as usize]);
    let col = |k: u16| {
        columns
            .get(k as usize)
            .copied()
            .unwrap_or_else(|| Name::of(Reg::Temp(0)))
    };
    let v = Name::of(v);
    let accn = Name::of(Reg::Temp(acc));
    inst_line!(e, "MUL ", accn, wm, v, Gap(VEC[0]), col(0), "]\n")?;
    for k in 1..cols {
        let to = if k + 1 == cols {
            Name::of(Reg::Temp(dst))
        } else {
            accn
        };
        let rep = Gap(VEC[(k as usize).min(3)]);
        inst_line!(e, "MAD ", to, wm, v, rep, col(k), "], ", accn, "]\n")?;
    }
    Ok(())
}

/// Padded text of a run-time choice (see [`pad`]): one 8-byte copy and a length.
#[derive(Clone, Copy)]
struct Gap(([u8; 8], u8));

impl Piece for Gap {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        let (s, n) = self.0;
        l.padded(&s, n as usize);
    }
}

/// The same conservative token bound [`emit`] reports, recomputed from emitted text (for
/// callers that kept only the text, as bytes or a `str`): header 2, each `DCL` line 6, each
/// `IMM` line 5, each `PROPERTY` line 2, every other non-blank line (an instruction) 12. Lines
/// end at `\n` (a `\r` before it is dropped); blanks are ASCII white space (emitted text is
/// ASCII).
pub fn token_bound<T: AsRef<[u8]> + ?Sized>(text: &T) -> u32 {
    fn blank(b: &u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
    }
    text.as_ref()
        .split(|&b| b == b'\n')
        .skip(1)
        .fold(TOKENS_HEADER, |n, l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            let Some(first) = l.iter().position(|b| !blank(b)) else {
                return n;
            };
            let l = l.get(first..).unwrap_or(&[]);
            let t = if l.starts_with(b"DCL ") {
                TOKENS_DCL
            } else if l.starts_with(b"IMM[") {
                TOKENS_IMM
            } else if l.starts_with(b"PROPERTY ") {
                TOKENS_PROPERTY
            } else {
                TOKENS_INST
            };
            n.saturating_add(t)
        })
}

// ---------------------------------------------------------------------------------------------
// Checker
// ---------------------------------------------------------------------------------------------

/// A rule violation found by [`check_tgsi`]: the 1-based line and what was wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TgsiCheckError {
    pub line: usize,
    pub message: &'static str,
}

impl core::fmt::Display for TgsiCheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "TGSI line {}: {}", self.line, self.message)
    }
}

/// Summary of a text that passed [`check_tgsi`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TgsiStats {
    pub instructions: u32,
    pub immediates: u32,
    pub declarations: u32,
}

/// (name, destinations, sources, takes a texture target)
const OPCODES: &[(&str, u8, u8, bool)] = &[
    ("MOV", 1, 1, false),
    ("ADD", 1, 2, false),
    ("MUL", 1, 2, false),
    ("MAD", 1, 3, false),
    ("MAX", 1, 2, false),
    ("MIN", 1, 2, false),
    ("DP2", 1, 2, false),
    ("DP3", 1, 2, false),
    ("DP4", 1, 2, false),
    ("RCP", 1, 1, false),
    ("RSQ", 1, 1, false),
    ("SQRT", 1, 1, false),
    ("SIN", 1, 1, false),
    ("COS", 1, 1, false),
    ("POW", 1, 2, false),
    ("TRUNC", 1, 1, false),
    ("I2F", 1, 1, false),
    ("U2F", 1, 1, false),
    ("F2I", 1, 1, false),
    ("F2U", 1, 1, false),
    ("UADD", 1, 2, false),
    ("UMUL", 1, 2, false),
    ("IDIV", 1, 2, false),
    ("UDIV", 1, 2, false),
    ("MOD", 1, 2, false),
    ("UMOD", 1, 2, false),
    ("AND", 1, 2, false),
    ("OR", 1, 2, false),
    ("XOR", 1, 2, false),
    ("NOT", 1, 1, false),
    ("SHL", 1, 2, false),
    ("ISHR", 1, 2, false),
    ("USHR", 1, 2, false),
    ("IMIN", 1, 2, false),
    ("IMAX", 1, 2, false),
    ("UMIN", 1, 2, false),
    ("UMAX", 1, 2, false),
    ("INEG", 1, 1, false),
    ("IABS", 1, 1, false),
    ("ISSG", 1, 1, false),
    ("ISLT", 1, 2, false),
    ("ISGE", 1, 2, false),
    ("USLT", 1, 2, false),
    ("USGE", 1, 2, false),
    ("USEQ", 1, 2, false),
    ("USNE", 1, 2, false),
    ("FLR", 1, 1, false),
    ("CEIL", 1, 1, false),
    ("FRC", 1, 1, false),
    ("ROUND", 1, 1, false),
    ("SSG", 1, 1, false),
    ("EX2", 1, 1, false),
    ("LG2", 1, 1, false),
    ("DDX", 1, 1, false),
    ("DDY", 1, 1, false),
    ("SLT", 1, 2, false),
    ("SGE", 1, 2, false),
    ("SEQ", 1, 2, false),
    ("SNE", 1, 2, false),
    ("ARL", 1, 1, false),
    ("CMP", 1, 3, false),
    ("TEX", 1, 2, true),
    ("TXB", 1, 2, true),
    ("TXL", 1, 2, true),
    ("TXD", 1, 4, true),
    ("TXF", 1, 2, true),
    ("TXQ", 1, 2, true),
    ("KILL", 0, 0, false),
    ("IF", 0, 1, false),
    ("ELSE", 0, 0, false),
    ("ENDIF", 0, 0, false),
    ("BGNLOOP", 0, 0, false),
    ("ENDLOOP", 0, 0, false),
    ("BRK", 0, 0, false),
    ("CONT", 0, 0, false),
    ("END", 0, 0, false),
];

const SEMANTICS: &[&str] = &["POSITION", "COLOR", "GENERIC", "FACE", "CLIPDIST"];

/// The first output register of gl_ClipDistance (after every GENERIC slot).
const CLIP_OUT: usize = VARYING_CAP + 1;

/// TGSI write masks by bit set (bit 0 = x).
const WRITE_MASKS: [&str; 16] = [
    "", "x", "y", "xy", "z", "xz", "yz", "xyz", "w", "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw",
];

#[derive(Default)]
struct Decls {
    input: u64,
    output: u64,
    temp: Option<(u32, u32)>,
    konst: Option<(u32, u32)>,
    samp: u64,
    sview: u64,
    /// System values (vertex stage).
    sv: u64,
    imms: u32,
    /// Bit k set when IMM[k] (k < 256) is declared INT32 or UINT32 (texel offsets read those).
    int_imms: [u64; 4],
    /// ADDR[0] is declared; TEMP arrays declared so far.
    addr: bool,
    arrays: u32,
}

struct Cur<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
}

impl<'a> Cur<'a> {
    fn err<T>(&self, message: &'static str) -> Result<T, TgsiCheckError> {
        Err(TgsiCheckError {
            line: self.line,
            message,
        })
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn ws(&mut self) {
        while self.peek() == Some(b' ') {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8, message: &'static str) -> Result<(), TgsiCheckError> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(message)
        }
    }
    fn word(&mut self) -> &'a str {
        let start = self.i;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.i += 1;
        }
        core::str::from_utf8(self.s.get(start..self.i).unwrap_or(&[])).unwrap_or("")
    }
    fn uint(&mut self) -> Result<u32, TgsiCheckError> {
        let start = self.i;
        let mut v: u32 = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_digit) {
            v = match v
                .checked_mul(10)
                .and_then(|v| v.checked_add((c - b'0') as u32))
            {
                Some(v) => v,
                None => return self.err("number too large"),
            };
            self.i += 1;
        }
        if self.i == start {
            return self.err("expected an unsigned integer");
        }
        Ok(v)
    }
    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }
}

fn set_bit(set: &mut u64, i: u32, c: &Cur<'_>) -> Result<(), TgsiCheckError> {
    if i >= 64 {
        return c.err("register index too large");
    }
    if *set & (1 << i) != 0 {
        return c.err("register declared more than once");
    }
    *set |= 1 << i;
    Ok(())
}

/// Applies virglrenderer's TGSI text rules (and the sanity checks it runs after parsing) to
/// `text`: the VERT/FRAG header, known declarations, sorted immediates in its float grammar,
/// known opcodes with the right operand counts, write masks in xyzw order, source swizzles of
/// exactly 4 letters or none, only declared registers (no register declared twice), balanced
/// IF/ELSE/ENDIF, and END as the last instruction.
pub fn check_tgsi<T: AsRef<[u8]> + ?Sized>(text: &T) -> Result<TgsiStats, TgsiCheckError> {
    let mut d = Decls::default();
    let mut stats = TgsiStats::default();
    let mut ended = false;
    let mut depth: u32 = 0;
    // Open IFs and loops, innermost in bit 0 (1 = loop), and how many loops are open.
    let mut kinds: u64 = 0;
    let mut loops: u32 = 0;
    let mut frag = false;
    let mut in_body = false;
    for (n, line) in text.as_ref().split(|&b| b == b'\n').enumerate() {
        let mut c = Cur {
            s: line,
            i: 0,
            line: n + 1,
        };
        if n == 0 {
            match line {
                b"FRAG" => frag = true,
                b"VERT" => {}
                _ => return c.err("unknown header (expected VERT or FRAG)"),
            }
            continue;
        }
        c.ws();
        if c.at_end() {
            continue;
        }
        if ended {
            return c.err("text after END");
        }
        let start = c.i;
        let first = c.word();
        c.i = start;
        let labeled = c.peek().is_some_and(|b| b.is_ascii_digit());
        if labeled || !matches!(first, "PROPERTY" | "DCL" | "IMM") {
            // Labels are optional for the parser; when present they must count up from 0.
            if labeled {
                let label = c.uint()?;
                if label != stats.instructions {
                    return c.err("instruction labels must count up from 0");
                }
                c.expect(b':', "expected `:` after the label")?;
                c.ws();
            }
            in_body = true;
            let name = c.word();
            let Some(&(_, ndst, nsrc, tex)) = OPCODES.iter().find(|o| o.0 == name) else {
                return c.err("unknown opcode");
            };
            let total = ndst + nsrc + tex as u8;
            for k in 0..total {
                if k == 0 {
                    if !c.eat(b' ') {
                        return c.err("expected a space after the opcode");
                    }
                } else {
                    c.ws();
                    c.expect(b',', "expected `,`")?;
                    c.ws();
                }
                if k < ndst {
                    dst_operand(&mut c, &d)?;
                } else if k < ndst + nsrc {
                    src_operand(&mut c, &d, frag)?;
                } else if !matches!(
                    c.word(),
                    "2D" | "CUBE" | "SHADOW2D" | "SHADOWCUBE" | "2D_ARRAY"
                ) {
                    return c
                        .err("expected texture target 2D, CUBE, SHADOW2D, SHADOWCUBE or 2D_ARRAY");
                }
            }
            // A texel offset after the target: `, IMM[k].xyz` of an integer immediate.
            c.ws();
            if tex && c.peek() == Some(b',') {
                if !matches!(name, "TEX" | "TXB" | "TXL" | "TXD" | "TXF") {
                    return c.err("texel offset on an instruction that takes none");
                }
                c.expect(b',', "expected `,`")?;
                c.ws();
                tex_offset(&mut c, &d)?;
            }
            c.ws();
            if !c.at_end() {
                return c.err("unexpected text after the operands");
            }
            match name {
                "IF" | "BGNLOOP" if depth >= 64 => return c.err("control flow nested too deeply"),
                "IF" => {
                    depth += 1;
                    kinds <<= 1;
                }
                "BGNLOOP" => {
                    depth += 1;
                    loops += 1;
                    kinds = (kinds << 1) | 1;
                }
                "ELSE" if depth == 0 || kinds & 1 != 0 => return c.err("ELSE without IF"),
                "ENDIF" if depth > 0 && kinds & 1 != 0 => return c.err("ENDIF closes a loop"),
                "ENDIF" => {
                    depth = depth.checked_sub(1).ok_or(TgsiCheckError {
                        line: n + 1,
                        message: "ENDIF without IF",
                    })?;
                    kinds >>= 1;
                }
                "ENDLOOP" if depth == 0 || kinds & 1 == 0 => {
                    return c.err("ENDLOOP without BGNLOOP")
                }
                "ENDLOOP" => {
                    depth -= 1;
                    loops -= 1;
                    kinds >>= 1;
                }
                "BRK" | "CONT" if loops == 0 => return c.err("BRK or CONT outside a loop"),
                "END" => ended = true,
                _ => {}
            }
            stats.instructions += 1;
            continue;
        }
        if in_body {
            return c.err("declarations and immediates must precede instructions");
        }
        match c.word() {
            "PROPERTY" => {
                c.expect(b' ', "expected a space")?;
                let name = c.word();
                c.expect(b' ', "expected a space")?;
                let value = c.word();
                let ok = match name {
                    "FS_COORD_ORIGIN" => matches!(value, "UPPER_LEFT" | "LOWER_LEFT"),
                    "FS_COORD_PIXEL_CENTER" => matches!(value, "HALF_INTEGER" | "INTEGER"),
                    "NUM_CLIPDIST_ENABLED" if !frag => {
                        matches!(value.parse::<u8>(), Ok(1..=8))
                    }
                    _ => return c.err("unknown property"),
                };
                if !ok || (!frag && name != "NUM_CLIPDIST_ENABLED") {
                    return c.err("bad property value or stage");
                }
            }
            "DCL" => {
                c.expect(b' ', "expected a space after DCL")?;
                declaration(&mut c, &mut d, frag)?;
                stats.declarations += 1;
            }
            "IMM" => {
                c.expect(b'[', "expected `[` after IMM")?;
                if c.uint()? != d.imms {
                    return c.err("immediates must be sorted");
                }
                c.expect(b']', "expected `]`")?;
                c.expect(b' ', "expected a space")?;
                let (uint, sint) = match c.word() {
                    "FLT32" => (false, false),
                    "UINT32" => (true, false),
                    "INT32" => (false, true),
                    _ => return c.err("expected FLT32, UINT32 or INT32"),
                };
                if uint || sint {
                    if let Some(w) = d.int_imms.get_mut(d.imms as usize / 64) {
                        *w |= 1 << (d.imms % 64);
                    }
                }
                c.ws();
                c.expect(b'{', "expected `{`")?;
                for k in 0..4 {
                    c.ws();
                    if k > 0 {
                        c.expect(b',', "expected `,`")?;
                        c.ws();
                    }
                    let start = c.i;
                    while matches!(c.peek(), Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
                    {
                        c.i += 1;
                    }
                    let tok =
                        core::str::from_utf8(c.s.get(start..c.i).unwrap_or(&[])).unwrap_or("");
                    if uint && tok.parse::<u32>().is_err() {
                        return c.err("immediate is not an unsigned 32-bit integer");
                    }
                    if sint && tok.parse::<i32>().is_err() {
                        return c.err("immediate is not a signed 32-bit integer");
                    }
                    if !uint && !sint && parse_tgsi_float(tok).is_none() {
                        return c.err("immediate is not a float in TGSI syntax");
                    }
                }
                c.ws();
                c.expect(b'}', "expected `}`")?;
                d.imms += 1;
                stats.immediates += 1;
            }
            _ => return c.err("expected DCL, IMM, PROPERTY or a label"),
        }
        c.ws();
        if !c.at_end() {
            return c.err("unexpected text at the end of the line");
        }
    }
    let last = text.as_ref().split(|&b| b == b'\n').count();
    if !ended {
        return Err(TgsiCheckError {
            line: last,
            message: "missing END",
        });
    }
    if depth != 0 {
        return Err(TgsiCheckError {
            line: last,
            message: "unbalanced IF/ENDIF",
        });
    }
    Ok(stats)
}

fn range(c: &mut Cur<'_>) -> Result<(u32, u32), TgsiCheckError> {
    let first = c.uint()?;
    let last = if c.eat(b'.') {
        c.expect(b'.', "expected `..`")?;
        c.uint()?
    } else {
        first
    };
    if last < first {
        return c.err("empty register range");
    }
    c.expect(b']', "expected `]`")?;
    Ok((first, last))
}

fn declaration(c: &mut Cur<'_>, d: &mut Decls, frag: bool) -> Result<(), TgsiCheckError> {
    let file = c.word();
    c.expect(b'[', "expected `[`")?;
    match file {
        "IN" | "OUT" => {
            let (first, last) = range(c)?;
            for r in first..=last {
                set_bit(
                    if file == "IN" {
                        &mut d.input
                    } else {
                        &mut d.output
                    },
                    r,
                    c,
                )?;
            }
            let vs_input = file == "IN" && !frag;
            // A usage mask (Mesa's masked outputs: CLIPDIST).
            let masked = if c.eat(b'.') {
                if !WRITE_MASKS[1..].contains(&c.word()) {
                    return c.err("bad usage mask");
                }
                true
            } else {
                false
            };
            if c.eat(b',') {
                if vs_input {
                    return c.err("vertex inputs take no semantic");
                }
                c.ws();
                let sem = c.word();
                if !SEMANTICS.contains(&sem) {
                    return c.err("unknown semantic");
                }
                if (sem == "CLIPDIST") != masked || sem == "CLIPDIST" && (frag || file != "OUT") {
                    return c.err("CLIPDIST is a masked vertex output (and only it is masked)");
                }
                if c.eat(b'[') {
                    c.uint()?;
                    c.expect(b']', "expected `]`")?;
                }
                if c.eat(b',') {
                    c.ws();
                    if !matches!(c.word(), "PERSPECTIVE" | "LINEAR" | "CONSTANT") {
                        return c.err("unknown interpolation");
                    }
                }
            }
        }
        "SV" => {
            let (first, last) = range(c)?;
            if frag {
                return c.err("system values are declared in vertex shaders only");
            }
            for r in first..=last {
                set_bit(&mut d.sv, r, c)?;
            }
            c.expect(b',', "SV needs a semantic")?;
            c.ws();
            if !matches!(c.word(), "VERTEXID" | "INSTANCEID") {
                return c.err("unknown system value");
            }
        }
        "TEMP" => {
            // Several declarations (arrays among them) must follow each other without gaps.
            let (a, b) = range(c)?;
            d.temp = match d.temp {
                None if a == 0 => Some((a, b)),
                Some((f, l)) if a == l + 1 => Some((f, b)),
                _ => return c.err("TEMP declarations must be contiguous from 0"),
            };
            if c.eat(b',') {
                c.ws();
                if c.word() != "ARRAY" {
                    return c.err("expected ARRAY(n)");
                }
                c.expect(b'(', "expected `(`")?;
                if c.uint()? != d.arrays + 1 {
                    return c.err("array ids must count up from 1");
                }
                c.expect(b')', "expected `)`")?;
                d.arrays += 1;
            }
        }
        "ADDR" => {
            if c.uint()? != 0 || d.addr {
                return c.err("only ADDR[0] is declared, once");
            }
            c.expect(b']', "expected `]`")?;
            d.addr = true;
        }
        "CONST" => {
            if c.uint()? != 0 {
                return c.err("only constant buffer 0 is used");
            }
            c.expect(b']', "expected `]`")?;
            c.expect(b'[', "CONST needs a 2D declaration")?;
            if d.konst.is_some() {
                return c.err("register declared more than once");
            }
            d.konst = Some(range(c)?);
        }
        "SAMP" => {
            let (a, b) = range(c)?;
            for r in a..=b {
                set_bit(&mut d.samp, r, c)?;
            }
        }
        "SVIEW" => {
            let (a, b) = range(c)?;
            for r in a..=b {
                set_bit(&mut d.sview, r, c)?;
            }
            c.expect(b',', "SVIEW needs a target")?;
            c.ws();
            if !matches!(c.word(), "2D" | "CUBE" | "2D_ARRAY") {
                return c.err("expected 2D, CUBE or 2D_ARRAY");
            }
            c.expect(b',', "SVIEW needs a return type")?;
            c.ws();
            if !matches!(c.word(), "FLOAT" | "SINT" | "UINT") {
                return c.err("expected FLOAT, SINT or UINT");
            }
        }
        _ => return c.err("unknown register file"),
    }
    Ok(())
}

fn in_range(r: Option<(u32, u32)>, i: u32) -> bool {
    r.is_some_and(|(a, b)| a <= i && i <= b)
}

fn has(set: u64, i: u32) -> bool {
    i < 64 && set & (1 << i) != 0
}

/// Parses `FILE[i]` (or `CONST[0][i]`) and checks it is declared. Returns the file name.
fn register<'a>(c: &mut Cur<'a>, d: &Decls, write: bool) -> Result<&'a str, TgsiCheckError> {
    let file = c.word();
    c.expect(b'[', "expected `[`")?;
    if file == "ADDR" {
        if c.uint()? != 0 || !d.addr || !write {
            return c.err("ADDR[0] is not declared (or read directly)");
        }
        c.expect(b']', "expected `]`")?;
        return Ok(file);
    }
    // `ADDR[0].x+k`: an indirect TEMP (read or write) or CONST (read) operand.
    let indirect = |c: &mut Cur<'a>| -> Result<bool, TgsiCheckError> {
        if c.peek() != Some(b'A') {
            return Ok(false);
        }
        if c.word() != "ADDR" || !d.addr {
            return c.err("indirect operand without ADDR[0]");
        }
        c.expect(b'[', "expected `[`")?;
        if c.uint()? != 0 {
            return c.err("only ADDR[0] is declared");
        }
        c.expect(b']', "expected `]`")?;
        c.expect(b'.', "expected `.x`")?;
        c.expect(b'x', "expected `.x`")?;
        c.expect(b'+', "expected `+`")?;
        Ok(true)
    };
    let ind = file == "TEMP" && indirect(c)?;
    if ind && d.arrays == 0 {
        return c.err("indirect TEMP operand without a TEMP array");
    }
    let mut i = c.uint()?;
    c.expect(b']', "expected `]`")?;
    let ok = match file {
        "TEMP" => in_range(d.temp, i),
        "IN" => !write && has(d.input, i),
        "SV" => !write && has(d.sv, i),
        "OUT" => write && has(d.output, i),
        "IMM" => !write && i < d.imms,
        "CONST" => {
            if i != 0 {
                return c.err("only constant buffer 0 is declared");
            }
            c.expect(b'[', "CONST needs 2D addressing")?;
            indirect(c)?;
            i = c.uint()?;
            c.expect(b']', "expected `]`")?;
            !write && in_range(d.konst, i)
        }
        "SAMP" => !write && has(d.samp, i) && has(d.sview, i),
        _ => return c.err("unknown register file"),
    };
    if !ok {
        return c.err("register not declared (or wrong direction)");
    }
    Ok(file)
}

/// A texture instruction's offset operand: `IMM[k].abc` (three swizzle letters) of an INT32 or
/// UINT32 immediate, as tgsi_text parses it.
fn tex_offset(c: &mut Cur<'_>, d: &Decls) -> Result<(), TgsiCheckError> {
    if c.word() != "IMM" {
        return c.err("a texel offset must be an immediate");
    }
    c.expect(b'[', "expected `[`")?;
    let k = c.uint()?;
    c.expect(b']', "expected `]`")?;
    let int = k < d.imms
        && d.int_imms
            .get(k as usize / 64)
            .is_some_and(|w| w & (1 << (k % 64)) != 0);
    if !int {
        return c.err("a texel offset must be a declared integer immediate");
    }
    c.expect(b'.', "a texel offset needs a swizzle of 3 letters")?;
    swizzle(c, 3, "a texel offset needs a swizzle of 3 letters")
}

/// Exactly `n` swizzle letters (each of xyzw, any order) and nothing alphanumeric after them.
fn swizzle(c: &mut Cur<'_>, n: usize, message: &'static str) -> Result<(), TgsiCheckError> {
    for _ in 0..n {
        if !c
            .peek()
            .is_some_and(|b| matches!(b, b'x' | b'y' | b'z' | b'w'))
        {
            return c.err(message);
        }
        c.i += 1;
    }
    if c.peek().is_some_and(|b| b.is_ascii_alphanumeric()) {
        return c.err(message);
    }
    Ok(())
}

fn dst_operand(c: &mut Cur<'_>, d: &Decls) -> Result<(), TgsiCheckError> {
    register(c, d, true)?;
    if c.eat(b'.') {
        let start = c.i;
        for l in [b'x', b'y', b'z', b'w'] {
            c.eat(l);
        }
        if c.i == start || c.peek().is_some_and(|b| b.is_ascii_alphanumeric()) {
            return c.err("bad write mask (subset of xyzw, in order)");
        }
    }
    Ok(())
}

fn src_operand(c: &mut Cur<'_>, d: &Decls, _frag: bool) -> Result<(), TgsiCheckError> {
    c.eat(b'-');
    let abs = c.eat(b'|');
    let file = register(c, d, false)?;
    if c.eat(b'.') {
        swizzle(c, 4, "source swizzle must have exactly 4 letters or none")?;
    }
    if file == "SAMP" && abs {
        return c.err("sampler with a modifier");
    }
    if abs {
        c.expect(b'|', "expected `|`")?;
    }
    Ok(())
}

/// A small fragment module used by the in-kernel self-tests of this module and of `csir`:
/// `c = v; if (v.x < 0.5) discard; c.w = 0.25`.
pub(crate) fn selftest_module() -> Module {
    let mut m = Module::new(Stage::Fragment);
    let mut name = crate::ir::Name::new();
    let _ = name.push_str("v");
    let _ = m.iface.varyings.push(crate::ir::Varying {
        name: name.clone(),
        ty: crate::ir::Type::Vec4,
        slot: 0,
        interp: crate::ir::Interp::Smooth,
    });
    m.iface.color_output = Some(name);
    let _ = m.imms.push(0.5);
    let _ = m.imms.push(0.25);
    let mk = |op, dst: i16, a: i16, b: i16, aux: i16, aux2: i16, lanes: u8| Inst {
        op,
        ty: 7,
        lanes,
        dst,
        a,
        b,
        c: -1,
        aux,
        aux2,
    };
    for i in [
        mk(Op::LoadVar, 0, -1, -1, 0, 0, 4),
        mk(Op::Const, 1, -1, -1, 0, 0, 1),
        mk(Op::Cmp, 2, 0, 1, CmpCode::Lt as i16, 0, 1),
        mk(Op::If, -1, 2, -1, 0, 0, 0),
        mk(Op::Discard, -1, -1, -1, 0, 0, 0),
        mk(Op::Endif, -1, -1, -1, 0, 0, 0),
        mk(Op::Const, 3, -1, -1, 1, 0, 1),
        mk(Op::SetLane, 0, 3, -1, 3, 0, 4),
        mk(Op::StoreColor, -1, 0, -1, 0, 0, 4),
    ] {
        let _ = m.insts.push(i);
    }
    m.temps = 4;
    m
}

/// Self-test: emission of a module with IF/KILL passes the checker, uses 4-letter swizzles and
/// exact immediates.
pub fn selftest_emit(w: &mut dyn Write) -> bool {
    let m = selftest_module();
    let mut out = TgsiText::new();
    let info = match emit(&m, None, &mut out) {
        Ok(i) => i,
        Err(e) => {
            let _ = write!(w, "{}", e);
            return false;
        }
    };
    let out = out.as_str();
    if let Err(e) = check_tgsi(out) {
        let _ = write!(w, "{}", e);
        return false;
    }
    let ok = out.contains("IF TEMP[2].xxxx\n")
        && out.contains("KILL")
        && out.contains("IMM[1] FLT32 {0.25, 0.0, 0.0, 0.0}");
    if !ok || info.bytes != out.len() || info.tokens < info.instructions {
        let _ = write!(w, "unexpected TGSI:\n{}", out);
        return false;
    }
    true
}

/// Self-test: the checker rejects a short swizzle, an undeclared register and a missing END.
pub fn selftest_checker(w: &mut dyn Write) -> bool {
    let base = "FRAG\nDCL TEMP[0]\n  0: IF TEMP[0].xxxx\n  1: ENDIF\n  2: END\n";
    let bad = [
        "FRAG\nDCL TEMP[0]\n  0: IF TEMP[0].x\n  1: ENDIF\n  2: END\n",
        "FRAG\nDCL TEMP[0]\n  0: IF TEMP[1].xxxx\n  1: ENDIF\n  2: END\n",
        "FRAG\nDCL TEMP[0]\n  0: IF TEMP[0].xxxx\n  1: ENDIF\n",
    ];
    if check_tgsi(base).is_err() {
        let _ = write!(w, "valid text rejected");
        return false;
    }
    for b in bad {
        if check_tgsi(b).is_ok() {
            let _ = write!(w, "accepted: {}", b);
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zero shortcut prints what the general path prints, sign included.
    #[test]
    fn zero_immediates_match_the_general_path() {
        for v in [0.0f32, -0.0] {
            assert_eq!(format_imm(v), format_imm_general(v));
        }
        assert_eq!(format_imm(-0.0), "-0.0");
    }

    /// An immediate lane written as a piece reads as `format_imm` prints it.
    #[test]
    fn immediate_pieces_match_format_imm() {
        let mut buf = [0u8; text::BUF];
        let mut out = TgsiText::new();
        let mut want = std::string::String::new();
        let mut t = Text::new(&mut buf, &mut out);
        let mut values = std::vec![0.0f32, -0.0, 0.5, -0.5, 99.5, 100.0, -100.0, 1e7, 0.299];
        values.extend([
            0.587f32,
            0.114,
            0.3,
            -0.9,
            123.25,
            1e6 + 0.5,
            -0.001,
            0.001,
            0.0001,
        ]);
        values.extend([
            9999999.0f32,
            -12345.678,
            1e-3,
            4096.0,
            1e13,
            -3e9,
            0.1,
            1.0 / 3.0,
        ]);
        values.extend([
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            1e-40,
        ]);
        values.extend((0..=101).flat_map(|n| [n as f32, -(n as f32)]));
        for v in values {
            t.write((Flt(v.to_bits()), ",")).expect("fits");
            want.push_str(&format_imm(v));
            want.push(',');
        }
        t.flush().expect("flushes");
        drop(t);
        assert_eq!(out.as_str(), want.as_str());
    }

    /// The whole-number shortcut prints what the general path prints.
    #[test]
    fn whole_immediates_match_the_general_path() {
        let mut n = 1u32;
        while n < 10_000_000 {
            for v in [n as f32, -(n as f32), (n + 1) as f32] {
                assert_eq!(format_imm(v), format_imm_general(v), "{}", v);
            }
            n = n * 3 / 2 + 1;
        }
        for v in [1.0f32, 2.0, 10.0, 100.0, 9_999_999.0, -3.0] {
            assert_eq!(format_imm(v), format_imm_general(v), "{}", v);
        }
        assert_eq!(format_imm(1.0), "1.0");
    }

    /// The fast path must print exactly what the general path prints, wherever it answers.
    #[test]
    fn short_decimal_matches_the_general_path() {
        let mut answered = 0u32;
        let mut check = |v: f32| {
            let mut s: String<24> = String::new();
            if short_decimal(v, &mut s) {
                assert_eq!(s, format_imm_general(v), "bits {:#010x}", v.to_bits());
                answered += 1;
            }
        };
        // Every f32 with a stride that visits all exponents and many mantissas.
        let mut bits = 0u32;
        while let Some(next) = bits.checked_add(40_009) {
            check(f32::from_bits(bits));
            bits = next;
        }
        // Short decimals, their neighbours and negatives.
        for d in 0..=7u32 {
            let p = 10f64.powi(d as i32);
            for n in (0..20_000u32).chain((1..2000).map(|k| k * 997)) {
                let v = (n as f64 / p) as f32;
                for w in [
                    v,
                    -v,
                    f32::from_bits(v.to_bits() + 1),
                    f32::from_bits(v.to_bits().saturating_sub(1)),
                ] {
                    check(w);
                }
            }
        }
        assert!(
            answered > 100_000,
            "the fast path answered only {} times",
            answered
        );
        for (v, want) in [
            (1.0f32, "1.0"),
            (-0.0, "-0.0"),
            (0.5, "0.5"),
            (0.1, "0.1"),
            (255.0, "255.0"),
        ] {
            let mut s: String<24> = String::new();
            assert!(short_decimal(v, &mut s), "{}", want);
            assert_eq!(s.as_str(), want);
        }
    }
}

/// A texture instruction's optional texel-offset operand (`, IMM[k].xyz`).
#[derive(Clone, Copy)]
struct TexOffset(Option<u16>);

impl Piece for TexOffset {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        if let Some(k) = self.0 {
            (", IMM[", k, "].xyz").put(l);
        }
    }
}

/// The texture opcodes (SAMPLE_LOD .. TEXSIZE): TXL, TEX/TXB, TXD, TXF, TXQ on the unit's 2D
/// sampler view; the scratch temp builds the coordinate with its level or bias in .w (TXF and
/// TXQ take integers: F2I first, and TXQ's size comes back through I2F, the IR holding
/// integers as floats).
fn texture_inst(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
) -> Result<(), TgsiError> {
    // A constant texel offset is the instruction's texture-offset operand after the target,
    // `IMM[k].xyz` of its INT32 immediate (as Mesa's st emits it; virglrenderer turns it into
    // the GLSL offset argument).
    let off = TexOffset(if inst.aux2 != 0 && inst.op != Op::TexSize {
        Some(
            p.const_imm
                .get(i)
                .copied()
                .filter(|&k| (k as usize) < p.imms.len())
                .ok_or(bad(i, "texel offset immediate missing"))?,
        )
    } else {
        None
    });
    let d = temp(inst.dst, m, i)?;
    let s = e.scratch0;
    let u = inst.aux;
    match inst.op {
        Op::TexSize => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "F2I TEMP[", s, "].x, ", a, ".xxxx")?;
            // The sampler's own target: virglrenderer types the GLSL sampler from the target
            // of each instruction naming it, so TXQ must agree with the samples.
            let target = sampler_target(m, u);
            inst!(
                e,
                "TXQ TEMP[",
                s,
                "], TEMP[",
                s,
                "].xxxx, SAMP[",
                u,
                "], ",
                target
            )?;
            inst!(e, "I2F TEMP[", d, "], TEMP[", s, "]")?;
        }
        Op::SampleBias if inst.b < 0 => {
            let a = temp(inst.a, m, i)?;
            let a = e.src(a);
            inst!(e, "TEX TEMP[", d, "], ", a, ", SAMP[", u, "], 2D", off)?;
        }
        Op::SampleGrad => {
            let (a, b) = (temp(inst.a, m, i)?, temp(inst.b, m, i)?);
            let c = temp(inst.b.saturating_add(1), m, i)?;
            let (a, b, c) = (e.src(a), e.src(b), e.src(c));
            inst!(
                e,
                "TXD TEMP[",
                d,
                "], ",
                a,
                ", ",
                b,
                ", ",
                c,
                ", SAMP[",
                u,
                "], 2D",
                off
            )?;
        }
        Op::TexFetch => {
            let (a, b) = (temp(inst.a, m, i)?, temp(inst.b, m, i)?);
            let (a, b) = (e.src(a), e.src(b));
            inst!(e, "F2I TEMP[", s, "].xy, ", a)?;
            inst!(e, "F2I TEMP[", s, "].w, ", b, ".xxxx")?;
            inst!(
                e,
                "TXF TEMP[",
                d,
                "], TEMP[",
                s,
                "], SAMP[",
                u,
                "], 2D",
                off
            )?;
        }
        _ => {
            // TXL (SAMPLE_LOD) or TXB (SAMPLE_BIAS with a bias): the level or bias in .w.
            let (a, b) = (temp(inst.a, m, i)?, temp(inst.b, m, i)?);
            let (a, b) = (e.src(a), e.src(b));
            let op = if inst.op == Op::SampleLod {
                "TXL"
            } else {
                "TXB"
            };
            inst!(e, "MOV TEMP[", s, "].xy, ", a)?;
            inst!(e, "MOV TEMP[", s, "].w, ", b, ".xxxx")?;
            inst!(e, op, " TEMP[", s, "], TEMP[", s, "], SAMP[", u, "], 2D", off)?;
            inst!(e, "MOV TEMP[", d, "], TEMP[", s, "]")?;
        }
    }
    Ok(())
}

/// The TGSI texture target of the sampler declared on unit `u` (2D when none is).
fn sampler_target(m: &Module, u: i16) -> &'static str {
    match m
        .iface
        .samplers
        .iter()
        .find(|s| s.unit as i16 == u)
        .map(|s| s.ty)
    {
        Some(Type::SamplerCube) => "CUBE",
        Some(Type::Sampler2DShadow) => "SHADOW2D",
        Some(Type::SamplerCubeShadow) => "SHADOWCUBE",
        Some(Type::Sampler2DArray | Type::ISampler2DArray | Type::USampler2DArray) => "2D_ARRAY",
        _ => "2D",
    }
}

/// The cube and shadow opcodes (CUBE_LOD .. SHADOW_CUBE): TEX/TXB/TXL/TXD on the CUBE
/// target, and on SHADOW2D (the reference in .z, already there in the IR's coordinate) or
/// SHADOWCUBE (the reference in .w); a level or bias goes in .w of the scratch coordinate.
fn cube_inst(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
) -> Result<(), TgsiError> {
    // A shadow sample's constant texel offset: the texture-offset operand, as for 2D samples
    // (the cube ops take none; the verifier holds their aux2 at 0).
    let off = TexOffset(if inst.aux2 != 0 {
        Some(
            p.const_imm
                .get(i)
                .copied()
                .filter(|&k| (k as usize) < p.imms.len())
                .ok_or(bad(i, "texel offset immediate missing"))?,
        )
    } else {
        None
    });
    let d = temp(inst.dst, m, i)?;
    let s = e.scratch0;
    let u = inst.aux;
    let target = match inst.op {
        Op::CubeLod | Op::CubeBias | Op::CubeGrad => "CUBE",
        Op::ShadowCube => "SHADOWCUBE",
        _ => "SHADOW2D",
    };
    let a = temp(inst.a, m, i)?;
    let a = e.src(a);
    match inst.op {
        Op::CubeBias | Op::ShadowBias | Op::ShadowCube if inst.b < 0 => {
            inst!(
                e,
                "TEX TEMP[",
                d,
                "], ",
                a,
                ", SAMP[",
                u,
                "], ",
                target,
                off
            )?;
        }
        Op::ShadowCube => {
            return Err(bad(
                i,
                "a bias on a samplerCubeShadow sample is not supported in TGSI yet",
            ));
        }
        Op::CubeGrad | Op::ShadowGrad => {
            let b = temp(inst.b, m, i)?;
            let c = temp(inst.b.saturating_add(1), m, i)?;
            let (b, c) = (e.src(b), e.src(c));
            inst!(
                e,
                "TXD TEMP[",
                d,
                "], ",
                a,
                ", ",
                b,
                ", ",
                c,
                ", SAMP[",
                u,
                "], ",
                target,
                off
            )?;
        }
        _ => {
            let b = temp(inst.b, m, i)?;
            let b = e.src(b);
            let op = if matches!(inst.op, Op::CubeLod | Op::ShadowLod) {
                "TXL"
            } else {
                "TXB"
            };
            inst!(e, "MOV TEMP[", s, "].xyz, ", a)?;
            inst!(e, "MOV TEMP[", s, "].w, ", b, ".xxxx")?;
            inst!(e, op, " TEMP[", s, "], TEMP[", s, "], SAMP[", u, "], ", target, off)?;
            inst!(e, "MOV TEMP[", d, "], TEMP[", s, "]")?;
        }
    }
    Ok(())
}

/// The sampler2DArray opcodes (ARR_LOD .. ARR_SIZE) on the 2D_ARRAY target: the layer is the
/// coordinate's .z (the sampler rounds and clamps it), a level or bias in .w of the scratch
/// coordinate, TXF's integer coordinate and level from F2I, TXQ's (width, height, layers).
fn array_inst(
    e: &mut Emitter<'_>,
    m: &Module,
    p: &Plan,
    i: usize,
    inst: &Inst,
) -> Result<(), TgsiError> {
    let off = TexOffset(if inst.aux2 != 0 && inst.op != Op::ArrSize {
        Some(
            p.const_imm
                .get(i)
                .copied()
                .filter(|&k| (k as usize) < p.imms.len())
                .ok_or(bad(i, "texel offset immediate missing"))?,
        )
    } else {
        None
    });
    let d = temp(inst.dst, m, i)?;
    let s = e.scratch0;
    let u = inst.aux;
    let a = temp(inst.a, m, i)?;
    let a = e.src(a);
    const T: &str = "2D_ARRAY";
    match inst.op {
        Op::ArrSize => {
            inst!(e, "F2I TEMP[", s, "].x, ", a, ".xxxx")?;
            inst!(
                e,
                "TXQ TEMP[",
                s,
                "], TEMP[",
                s,
                "].xxxx, SAMP[",
                u,
                "], ",
                T
            )?;
            inst!(e, "I2F TEMP[", d, "], TEMP[", s, "]")?;
        }
        Op::ArrBias if inst.b < 0 => {
            inst!(e, "TEX TEMP[", d, "], ", a, ", SAMP[", u, "], ", T, off)?;
        }
        Op::ArrGrad => {
            let b = temp(inst.b, m, i)?;
            let c = temp(inst.b.saturating_add(1), m, i)?;
            let (b, c) = (e.src(b), e.src(c));
            inst!(
                e,
                "TXD TEMP[",
                d,
                "], ",
                a,
                ", ",
                b,
                ", ",
                c,
                ", SAMP[",
                u,
                "], ",
                T,
                off
            )?;
        }
        Op::ArrFetch => {
            let b = temp(inst.b, m, i)?;
            let b = e.src(b);
            inst!(e, "F2I TEMP[", s, "].xyz, ", a)?;
            inst!(e, "F2I TEMP[", s, "].w, ", b, ".xxxx")?;
            inst!(
                e,
                "TXF TEMP[",
                d,
                "], TEMP[",
                s,
                "], SAMP[",
                u,
                "], ",
                T,
                off
            )?;
        }
        _ => {
            let b = temp(inst.b, m, i)?;
            let b = e.src(b);
            let op = if inst.op == Op::ArrLod { "TXL" } else { "TXB" };
            inst!(e, "MOV TEMP[", s, "].xyz, ", a)?;
            inst!(e, "MOV TEMP[", s, "].w, ", b, ".xxxx")?;
            inst!(e, op, " TEMP[", s, "], TEMP[", s, "], SAMP[", u, "], ", T, off)?;
            inst!(e, "MOV TEMP[", d, "], TEMP[", s, "]")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod kept_effects_tests {
    use super::*;

    /// The lane effects `optimize_in` keeps are `ir::opt::effects` of every instruction of the
    /// optimised module (none with a loop), and `emit_in` with them writes what `emit` writes,
    /// on every corpus and compatibility shader.
    #[test]
    fn effects_kept_from_the_optimiser_give_the_same_text() {
        let mut scratch = std::boxed::Box::new(TgsiScratch::new());
        let mut text = std::boxed::Box::new(TgsiText::new());
        let mut reference = std::boxed::Box::new(TgsiText::new());
        let mut kept = 0;
        for (name, stage, src) in crate::program::compile::corpus_sources() {
            let Ok(mut sh) = crate::program::compile::compile(stage, &src, &name) else {
                continue;
            };
            let m = &mut sh.module;
            optimize_in(&mut scratch, m);
            if m.insts.iter().any(|i| i.op == Op::Loop) {
                assert_eq!(scratch.fx_from_opt, None, "{}", name);
            } else {
                let want: std::vec::Vec<_> = m.insts.iter().map(crate::ir::opt::effects).collect();
                assert_eq!(&scratch.fx[..], &want[..], "{}", name);
                assert_eq!(scratch.fx_from_opt, Some(m.insts.len()), "{}", name);
                kept += 1;
            }
            let r = emit_in(&mut scratch, m, None, &mut text);
            let r0 = emit(m, None, &mut reference);
            assert_eq!(r.is_ok(), r0.is_ok(), "{}", name);
            assert_eq!(text.as_str(), reference.as_str(), "{}", name);
        }
        assert!(kept > 300, "{} shaders", kept);
    }
}

#[cfg(test)]
mod follow_tests {
    use super::*;
    use crate::ir::opt::Effects;

    /// Every answer of `follow_events` against `follow_scan` on module `m`, with the event
    /// lists or (`small`, modules of at most `64 * BIT_WORDS_MAX` instructions) the bit sets.
    fn same_answers(m: &Module, what: &str, small: bool) -> usize {
        let mut fx: std::vec::Vec<Effects> = m.insts.iter().map(lanes_read).collect();
        let mut ix = std::boxed::Box::new(FollowIndex::new());
        let blocks = m
            .insts
            .iter()
            .any(|x| matches!(x.op, Op::If | Op::Else | Op::Endif));
        ix.build(m, &mut fx, small, blocks, false);
        assert!(ix.ok, "{}: no index", what);
        assert_eq!(
            ix.small,
            small && m.insts.len() <= 64 * BIT_WORDS_MAX,
            "{}",
            what
        );
        let mut checked = 0;
        for from in 0..=m.insts.len() {
            for t in 0..m.temps {
                let end = ix.read_end[t as usize] as usize;
                if end <= from {
                    continue;
                }
                for lanes in [15u8, 8, 1, 6] {
                    for source in [None, Some(t.wrapping_sub(1)), Some(t + 1), Some(0)] {
                        let source = source.filter(|&s| s < m.temps);
                        if source.is_none() {
                            assert_eq!(
                                follow_quick(m, &fx, &ix, from, t, lanes),
                                follow_scan(m, &fx, from, end, t, lanes, None),
                                "{}: quick, from {} temp {} lanes {}",
                                what,
                                from,
                                t,
                                lanes
                            );
                        }
                        assert_eq!(
                            follow(m, &fx, &ix, from, t, lanes, source),
                            follow_scan(m, &fx, from, end, t, lanes, source),
                            "{}: from {} temp {} lanes {} source {:?}",
                            what,
                            from,
                            t,
                            lanes,
                            source
                        );
                        checked += 1;
                    }
                }
            }
        }
        checked
    }

    /// The indexed scan answers what the full scan answers, on every corpus and compatibility
    /// shader without loops, for every start, temp, lane set and copy source.
    #[test]
    fn indexed_follow_matches_the_scan() {
        let mut shaders = 0;
        let mut small = 0;
        let mut checked = 0;
        for (name, stage, src) in crate::program::compile::corpus_sources() {
            let name = name.as_str();
            let Ok(sh) = crate::program::compile::compile(stage, &src, name) else {
                continue;
            };
            if sh.module.insts.iter().any(|i| i.op == Op::Loop) {
                continue;
            }
            checked += same_answers(&sh.module, name, false);
            if sh.module.insts.len() <= 64 * BIT_WORDS_MAX {
                checked += same_answers(&sh.module, name, true);
                small += 1;
            }
            shaders += 1;
        }
        assert!(
            shaders > 100 && small > 50 && checked > 10_000,
            "{} {} {}",
            shaders,
            small,
            checked
        );
    }

    /// Nested IF/ELSE/ENDIF: domination ends at the block's ELSE or ENDIF, and only writes in
    /// the definition's own block kill its lanes.
    #[test]
    fn indexed_follow_matches_the_scan_in_nested_blocks() {
        let mut m = std::boxed::Box::new(Module::new(Stage::Fragment));
        m.temps = 4;
        let mov = |dst: i16, a: i16, lanes: u8| Inst {
            dst,
            a,
            lanes,
            ..Inst::new(Op::Mov)
        };
        let cond = |a: i16| Inst {
            a,
            ..Inst::new(Op::If)
        };
        let body = [
            mov(0, 1, 4),
            cond(0),
            mov(2, 0, 1),
            cond(2),
            mov(0, 3, 4),
            mov(1, 0, 4),
            Inst::new(Op::Else),
            mov(3, 0, 2),
            Inst::new(Op::Endif),
            mov(0, 2, 1),
            mov(3, 0, 4),
            Inst::new(Op::Else),
            mov(1, 0, 4),
            mov(0, 1, 4),
            Inst::new(Op::Endif),
            mov(2, 0, 4),
            mov(1, 3, 4),
            Inst {
                a: 1,
                ..Inst::new(Op::StoreColor)
            },
            Inst {
                a: 2,
                ..Inst::new(Op::StoreColor)
            },
        ];
        for inst in body {
            m.insts.push(inst).unwrap();
        }
        assert!(same_answers(&m, "nested", false) > 50);
        assert!(same_answers(&m, "nested", true) > 50);
    }
}
