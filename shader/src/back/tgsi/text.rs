//! The TGSI emitter's text writer: lines are assembled in a byte buffer and moved into the
//! caller's [`TgsiText`] a chunk at a time.
//!
//! Owns: [`TgsiText`], the emitted text as ASCII bytes; the per-line write path (one position
//! in a register for the whole line, each piece a bounds-checked copy and no `Result` per
//! piece), the buffer's flush into the output (one copy per chunk, no validation: the text is
//! bytes) and the overflow rule: a line whose end would take the text past [`TGSI_CAP`] bytes
//! fails with `TooLong` as soon as that line is written, as a push into the output did.
//! Must never: write a non-ASCII byte (`TgsiText::as_str` would read it as empty), lose or
//! reorder bytes, or panic (every index is checked; a line longer than [`SLACK`], which no
//! emitted line is, fails as too long).
use heapless::{String, Vec};

use super::TgsiError;
use crate::limits::TGSI_CAP;

/// Bytes a line may take past the flush threshold (the longest emitted line, an `IMM` line of
/// four 24-byte floats, is about 130).
pub(super) const SLACK: usize = 512;
/// The buffer is flushed into the output once it holds more than this.
const CHUNK: usize = 4096;
/// The writer's buffer: a chunk plus one line's slack (see [`super::TgsiScratch`]).
pub(super) const BUF: usize = CHUNK + SLACK;

/// Emitted TGSI text: ASCII bytes, at most [`TGSI_CAP`] of them (`TgsiText::new()`). The
/// emitter writes only ASCII, so the bytes are the text: the VirGL upload takes
/// [`TgsiText::as_bytes`]; [`TgsiText::as_str`] (tools, tests) checks them once more.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TgsiText {
    bytes: Vec<u8, TGSI_CAP>,
}

impl TgsiText {
    pub const fn new() -> TgsiText {
        TgsiText { bytes: Vec::new() }
    }

    /// The text's bytes (ASCII).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The text as a `str` (validated on each call: for tools and tests, not the compile path).
    /// Empty if the bytes were not UTF-8, which the emitter never writes.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes).unwrap_or("")
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// Appends `b`, or fails (leaving the text as it was) when it would pass [`TGSI_CAP`].
    fn push(&mut self, b: &[u8]) -> Result<(), ()> {
        self.bytes.extend_from_slice(b).map_err(|_| ())
    }
}

impl AsRef<[u8]> for TgsiText {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Display for TgsiText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::fmt::Debug for TgsiText {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The emission's output: the buffered tail of the text and the text it is flushed into.
pub(super) struct Text<'a> {
    buf: &'a mut [u8; BUF],
    /// Bytes of `buf` in use (at most `limit` between lines).
    pos: usize,
    /// A line that ends past this flushes (or fails when the text would pass [`TGSI_CAP`]).
    limit: usize,
    out: &'a mut TgsiText,
}

/// One line being written: the buffer and the position, kept in locals by the inlined pieces.
/// A piece that does not fit sets `pos` to [`BUF`], so that every later piece fails too and the
/// line is reported once at its end.
pub(super) struct Line<'b> {
    buf: &'b mut [u8; BUF],
    pos: usize,
}

/// One piece of an emitted line: literal text, a decimal integer, a register... Lines are
/// assembled from pieces instead of `core::fmt` (which cost about half of a small shader's
/// compile time). A tuple of pieces is a piece (written in order).
pub(super) trait Piece {
    fn put(self, l: &mut Line<'_>);
}

impl<'a> Text<'a> {
    /// A writer appending to `out` (which the caller has cleared).
    pub(super) fn new(buf: &'a mut [u8; BUF], out: &'a mut TgsiText) -> Text<'a> {
        let limit = CHUNK.min(TGSI_CAP.saturating_sub(out.len()));
        Text {
            buf,
            pos: 0,
            limit,
            out,
        }
    }

    /// Writes the pieces `p` (one or more whole lines, or a part of one).
    #[inline(always)]
    pub(super) fn write<P: Piece>(&mut self, p: P) -> Result<(), TgsiError> {
        // `pos` never passes `limit` between writes; saying so lets the pieces' bounds checks
        // against the buffer fold away where their lengths are known.
        let mut l = Line {
            buf: &mut *self.buf,
            pos: self.pos.min(CHUNK),
        };
        p.put(&mut l);
        self.pos = l.pos;
        if self.pos > self.limit {
            return self.spill();
        }
        Ok(())
    }

    /// The buffer passed `limit`: flushed into the output, or `TooLong` when the text is
    /// longer than the output holds (or a line overflowed the slack).
    #[inline(never)]
    fn spill(&mut self) -> Result<(), TgsiError> {
        if self.pos >= BUF || self.out.len() + self.pos > TGSI_CAP {
            return Err(TgsiError::TooLong { limit: TGSI_CAP });
        }
        self.flush()
    }

    /// Moves the buffered bytes into the output.
    pub(super) fn flush(&mut self) -> Result<(), TgsiError> {
        let bytes = self.buf.get(..self.pos).unwrap_or(&[]);
        self.out
            .push(bytes)
            .map_err(|_| TgsiError::TooLong { limit: TGSI_CAP })?;
        self.pos = 0;
        self.limit = CHUNK.min(TGSI_CAP.saturating_sub(self.out.len()));
        Ok(())
    }

    /// Bytes written so far (flushed or not).
    pub(super) fn len(&self) -> usize {
        self.out.len() + self.pos
    }
}

impl Line<'_> {
    /// Appends `s` (a constant length when `s` is a literal: the copy is a few stores).
    #[inline(always)]
    pub(super) fn bytes(&mut self, s: &[u8]) {
        let end = self.pos + s.len();
        match self.buf.get_mut(self.pos..end) {
            Some(d) => {
                d.copy_from_slice(s);
                self.pos = end;
            }
            None => self.pos = BUF,
        }
    }

    /// Appends the first `n` bytes of `s`, copying all `N`: a run-time length without a
    /// variable-length copy (the bytes past `n` are overwritten by the next piece or never
    /// flushed). Every caller's `n` is at most `N` (its tables are built so, see [`pad`]).
    #[inline(always)]
    pub(super) fn padded<const N: usize>(&mut self, s: &[u8; N], n: usize) {
        let end = self.pos + N;
        match self.buf.get_mut(self.pos..end) {
            Some(d) => {
                d.copy_from_slice(s);
                self.pos += n;
            }
            None => self.pos = BUF,
        }
    }
}

impl Piece for &str {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        l.bytes(self.as_bytes());
    }
}

impl Piece for String<24> {
    #[inline(always)]
    fn put(self, l: &mut Line<'_>) {
        l.bytes(self.as_bytes());
    }
}

/// `s` padded to `N` bytes, and its length (for [`Line::padded`]); fails to compile when `s`
/// is longer.
pub(super) const fn pad<const N: usize>(s: &str) -> ([u8; N], u8) {
    let b = s.as_bytes();
    assert!(b.len() <= N);
    let mut t = [0u8; N];
    let mut k = 0;
    while k < b.len() {
        t[k] = b[k];
        k += 1;
    }
    (t, b.len() as u8)
}

/// Two decimal digits of every value below 100 (one digit and a filler below 10).
pub(super) const DIGITS2: [[u8; 2]; 100] = {
    let mut t = [[0u8; 2]; 100];
    let mut v = 0;
    while v < 100 {
        t[v] = if v < 10 {
            [b'0' + v as u8, b' ']
        } else {
            [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8]
        };
        v += 1;
    }
    t
};

/// `v` in decimal, as `{}` prints it. Inlined: register indices are nearly always below 100,
/// and a call per number cost more than the digits.
#[inline(always)]
pub(super) fn put_uint(v: u64, l: &mut Line<'_>) {
    if v < 100 {
        let d = &DIGITS2[v as usize];
        l.padded(d, 1 + (v >= 10) as usize);
        return;
    }
    let (d, n) = digits_long(v);
    l.padded(&d, n);
}

/// The decimal digits of `v` and their count.
#[inline(always)]
pub(super) fn digits(v: u64) -> ([u8; 20], usize) {
    if v < 100 {
        let [a, b] = DIGITS2[v as usize];
        let mut d = [0u8; 20];
        d[0] = a;
        d[1] = b;
        return (d, 1 + (v >= 10) as usize);
    }
    digits_long(v)
}

/// The decimal digits of `v` (returned, not written: a call that took the line would keep its
/// position in memory for the whole line).
#[inline(never)]
fn digits_long(v: u64) -> ([u8; 20], usize) {
    let (mut buf, n) = digits_rev(v);
    if let Some(d) = buf.get_mut(..n) {
        d.reverse();
    }
    (buf, n)
}

/// The decimal digits of `v`, least significant first, and their count (inlined: immediates'
/// fast path, `write_fixed`, ran about 25 instructions slower through a call).
#[inline(always)]
pub(super) fn digits_rev(v: u64) -> ([u8; 20], usize) {
    let mut buf = [0u8; 20];
    let mut n = 0;
    let mut k = v;
    // A u64 has at most 20 digits: the index stays in bounds.
    loop {
        buf[n] = b'0' + (k % 10) as u8;
        n += 1;
        k /= 10;
        if k == 0 {
            break;
        }
    }
    (buf, n)
}

macro_rules! unsigned_piece {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            #[inline(always)]
            fn put(self, l: &mut Line<'_>) {
                put_uint(self as u64, l)
            }
        }
    )*};
}
unsigned_piece!(u8, u16, u32, usize);

macro_rules! signed_piece {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn put(self, l: &mut Line<'_>) {
                if self < 0 {
                    l.bytes(b"-");
                }
                put_uint(self.unsigned_abs() as u64, l)
            }
        }
    )*};
}
signed_piece!(i16, i32);

macro_rules! tuple_piece {
    ($($n:ident)+) => {
        #[allow(non_snake_case)]
        impl<$($n: Piece),+> Piece for ($($n,)+) {
            #[inline(always)]
            fn put(self, l: &mut Line<'_>) {
                let ($($n,)+) = self;
                $($n.put(l);)+
            }
        }
    };
}
tuple_piece!(A);
tuple_piece!(A B);
tuple_piece!(A B C);
tuple_piece!(A B C D);
tuple_piece!(A B C D E);
tuple_piece!(A B C D E F);
tuple_piece!(A B C D E F G);
tuple_piece!(A B C D E F G H);
tuple_piece!(A B C D E F G H I);
tuple_piece!(A B C D E F G H I J);
tuple_piece!(A B C D E F G H I J K);
tuple_piece!(A B C D E F G H I J K L);
tuple_piece!(A B C D E F G H I J K L M);
tuple_piece!(A B C D E F G H I J K L M N);
tuple_piece!(A B C D E F G H I J K L M N O);
tuple_piece!(A B C D E F G H I J K L M N O P);

#[cfg(test)]
mod tests {
    use super::*;

    fn line(p: impl Piece) -> std::string::String {
        let mut buf = [0u8; BUF];
        let mut out = TgsiText::new();
        let mut t = Text::new(&mut buf, &mut out);
        t.write(p).expect("fits");
        t.flush().expect("flushes");
        std::string::String::from(out.as_str())
    }

    #[test]
    fn numbers_print_as_display_does() {
        for v in [0u64, 1, 9, 10, 42, 99, 100, 101, 999, 1000, 65535, u64::MAX] {
            assert_eq!(line((v as usize,)), std::format!("{}", v));
        }
        for v in [0i32, -1, -9, -10, -99, -100, 12345, i32::MIN, i32::MAX] {
            assert_eq!(line((v,)), std::format!("{}", v));
        }
        assert_eq!(line(("a", 7u16, "b", 42u8, "c")), "a7b42c");
    }

    #[test]
    fn chunks_flush_and_the_cap_holds() {
        let mut buf = [0u8; BUF];
        let mut out = TgsiText::new();
        let mut t = Text::new(&mut buf, &mut out);
        let mut expect = std::string::String::new();
        let mut k = 0usize;
        let err = loop {
            match t.write(("MOV TEMP[", k, "], IMM[", k % 100, "]\n")) {
                Ok(()) => {}
                Err(e) => break e,
            }
            expect.push_str(&std::format!("MOV TEMP[{}], IMM[{}]\n", k, k % 100));
            k += 1;
        };
        assert_eq!(err, TgsiError::TooLong { limit: TGSI_CAP });
        // The line that failed is the first that would take the text past the cap.
        let failed = std::format!("MOV TEMP[{}], IMM[{}]\n", k, k % 100);
        assert!(expect.len() <= TGSI_CAP && expect.len() + failed.len() > TGSI_CAP);
        assert_eq!(t.len(), expect.len() + failed.len());
        let written = t.len() - failed.len();
        drop(t);
        assert_eq!(&out.as_str()[..], &expect[..out.len()]);
        assert!(out.len() <= written);
    }

    #[test]
    fn a_line_past_the_slack_fails() {
        let mut buf = [0u8; BUF];
        let mut out = TgsiText::new();
        let mut t = Text::new(&mut buf, &mut out);
        let long = [b'a'; SLACK + CHUNK + 1];
        let long = core::str::from_utf8(&long).expect("ascii");
        assert!(t.write((long,)).is_err());
    }
}
