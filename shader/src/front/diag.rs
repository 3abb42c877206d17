//! Compiler diagnostics: errors as data (line, column, message) and their rendering as
//! `NAME:LINE:COL: error: MESSAGE`, the source line, and a caret under the column.
//!
//! Owns: the fixed-capacity error list (at most `ERR_MAX` kept, the rest counted), a separate
//! warning list (at most `WARN_MAX`, rendered after the errors as `NAME:LINE:COL: warning: ...`;
//! warnings never make a compile fail and never count as errors) and the text shape.
//! Must never: allocate, panic on any line/column (even ones past the end of the source),
//! or decide what is an error (the lexer, parser and semantic pass do).

/// Appended to a profile-1 diagnostic about something profile 2 accepts (re-exported as
/// `front::profile::P2_HINT`).
pub const P2_HINT: &str =
    " (profile 2 accepts this: add '#pragma chrisos profile 2' or compile with --profile 2)";

use core::fmt::{self, Write};

use heapless::{String, Vec};

use crate::limits::{ERR_CAP, ERR_MAX, WARN_MAX};

/// Room for one message: what was found, what is allowed and the limit, with names of up to 63
/// bytes, the profile-2 hint or a macro-expansion note. Longer text is cut at a character
/// boundary (never a panic).
pub const MSG_MAX: usize = 256;
/// Shader names are kept up to this many bytes.
pub const SHADER_NAME_MAX: usize = 64;

/// One error, 1-based line and column (column counted in bytes; a tab is one column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: u32,
    pub column: u32,
    pub message: String<MSG_MAX>,
}

/// The errors of one compile, with the shader name used when rendering them.
// repr(C), scalars first: keeps construction from memsetting the message storage.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Diagnostics {
    /// Every error reported, including those past `ERR_MAX` that were not kept.
    total: usize,
    /// Every warning reported, kept or not.
    warn_total: usize,
    /// Errors kept (the profile's `errors_reported_max`; the rest are counted).
    max: usize,
    pub name: String<SHADER_NAME_MAX>,
    list: Vec<Diagnostic, ERR_CAP>,
    warnings: Vec<Diagnostic, WARN_MAX>,
}

/// A `fmt::Write` into a fixed string that silently stops at capacity, cutting on a char boundary.
pub struct Bounded<'a, const N: usize>(pub &'a mut String<N>);

impl<const N: usize> Write for Bounded<'_, N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for ch in s.chars() {
            if self.0.push(ch).is_err() {
                break;
            }
        }
        Ok(())
    }
}

/// Copies `s` into a fixed string, cut at capacity.
// Inlined so the string is built in its destination (symbol names, the shader name) rather
// than returned and copied.
#[inline]
pub fn bounded_string<const N: usize>(s: &str) -> String<N> {
    let mut out = String::new();
    if out.push_str(s).is_err() {
        let _ = Bounded(&mut out).write_str(s);
    }
    out
}

impl Diagnostics {
    pub fn new(name: &str) -> Diagnostics {
        Diagnostics::with_error_limit(name, ERR_MAX)
    }

    /// Diagnostics keeping up to `max` errors (at most `ERR_CAP`): a profile's
    /// `errors_reported_max`.
    pub fn with_error_limit(name: &str, max: usize) -> Diagnostics {
        let shown = if name.is_empty() { "shader" } else { name };
        Diagnostics {
            name: bounded_string(shown),
            list: Vec::new(),
            total: 0,
            warn_total: 0,
            max: max.min(ERR_CAP),
            warnings: Vec::new(),
        }
    }

    /// Makes `self` equal to `Diagnostics::with_error_limit(name, max)` in place: assigning a
    /// fresh value zero-fills the lists' whole storage (about 4 KiB) on every compile.
    pub fn reset(&mut self, name: &str, max: usize) {
        let shown = if name.is_empty() { "shader" } else { name };
        self.name.clear();
        if self.name.push_str(shown).is_err() {
            let _ = Bounded(&mut self.name).write_str(shown);
        }
        self.list.clear();
        self.warnings.clear();
        self.total = 0;
        self.warn_total = 0;
        self.max = max.min(ERR_CAP);
    }

    /// Appends `args` to the message of every error from index `from` on that `note` picks
    /// (cut at the message capacity).
    pub fn annotate(
        &mut self,
        from: usize,
        mut note: impl FnMut(&Diagnostic, &mut dyn Write) -> fmt::Result,
    ) {
        for d in self.list.iter_mut().skip(from) {
            let mut extra: String<MSG_MAX> = String::new();
            let _ = note(d, &mut Bounded(&mut extra));
            let _ = Bounded(&mut d.message).write_str(&extra);
        }
    }

    /// Records a warning (the shader still compiles); past `WARN_MAX` it is only counted.
    pub fn warn(&mut self, line: u32, column: u32, args: fmt::Arguments<'_>) {
        self.warn_total = self.warn_total.saturating_add(1);
        let mut message = String::new();
        let _ = Bounded(&mut message).write_fmt(args);
        let _ = self.warnings.push(Diagnostic {
            line: line.max(1),
            column: column.max(1),
            message,
        });
    }

    /// Warnings kept (at most `WARN_MAX`).
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.warnings.iter()
    }

    /// Every warning reported, kept or not.
    pub fn warning_total(&self) -> usize {
        self.warn_total
    }

    /// Records an error; past `ERR_MAX` it is only counted.
    pub fn push(&mut self, line: u32, column: u32, args: fmt::Arguments<'_>) {
        self.total = self.total.saturating_add(1);
        let mut message = String::new();
        let _ = Bounded(&mut message).write_fmt(args);
        if self.list.len() < self.max {
            let _ = self.list.push(Diagnostic {
                line: line.max(1),
                column: column.max(1),
                message,
            });
        }
    }

    /// Errors kept (at most `ERR_MAX`).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Every error reported, kept or not.
    pub fn total(&self) -> usize {
        self.total
    }

    /// The error budget is spent: later phases stop.
    pub fn full(&self) -> bool {
        self.total >= self.max
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter()
    }

    /// Renders every kept error, each as three lines: the location and message, the source line,
    /// and a caret under the column (tabs before the column are repeated so the caret lines up).
    /// Warnings follow in the same shape with `warning:` (none in profile 1, whose output is
    /// therefore unchanged).
    pub fn render(&self, source: &[u8], out: &mut dyn Write) -> fmt::Result {
        for d in self.list.iter() {
            self.render_one(source, d, "error", out)?;
        }
        if self.total > self.list.len() {
            writeln!(
                out,
                "{}: {} more errors not shown (at most {} are kept)",
                self.name,
                self.total - self.list.len(),
                self.max
            )?;
        }
        for d in self.warnings.iter() {
            self.render_one(source, d, "warning", out)?;
        }
        if self.warn_total > self.warnings.len() {
            writeln!(
                out,
                "{}: {} more warnings not shown (at most {} are kept)",
                self.name,
                self.warn_total - self.warnings.len(),
                WARN_MAX
            )?;
        }
        Ok(())
    }

    fn render_one(
        &self,
        source: &[u8],
        d: &Diagnostic,
        severity: &str,
        out: &mut dyn Write,
    ) -> fmt::Result {
        writeln!(
            out,
            "{}:{}:{}: {}: {}",
            self.name, d.line, d.column, severity, d.message
        )?;
        let text = source_line(source, d.line);
        write_bytes(text, out)?;
        out.write_char('\n')?;
        let before = (d.column as usize).saturating_sub(1);
        for i in 0..before {
            let c = if text.get(i) == Some(&b'\t') {
                '\t'
            } else {
                ' '
            };
            out.write_char(c)?;
        }
        out.write_str("^\n")
    }
}

/// The bytes of 1-based `line` without its line ending; empty past the end of the source.
pub fn source_line(source: &[u8], line: u32) -> &[u8] {
    let mut current = 1u32;
    let mut start = 0usize;
    for (i, &b) in source.iter().enumerate() {
        if current == line {
            break;
        }
        if b == b'\n' {
            current = current.saturating_add(1);
            start = i + 1;
        }
    }
    if current != line {
        return &[];
    }
    let rest = source.get(start..).unwrap_or(&[]);
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let line = rest.get(..end).unwrap_or(&[]);
    match line.split_last() {
        Some((b'\r', head)) => head,
        _ => line,
    }
}

/// Writes bytes as text; anything that is not printable ASCII or a tab shows as `?`.
pub fn write_bytes(bytes: &[u8], out: &mut dyn Write) -> fmt::Result {
    for &b in bytes {
        let c = if b == b'\t' || (0x20..0x7f).contains(&b) {
            b as char
        } else {
            '?'
        };
        out.write_char(c)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String as S;

    #[test]
    fn renders_name_line_column_source_and_caret() {
        let mut d = Diagnostics::new("a.vert");
        d.push(2, 5, format_args!("bad {}", 1));
        let mut s = S::new();
        d.render(b"x\n\tab cd\n", &mut s).unwrap();
        assert_eq!(s, "a.vert:2:5: error: bad 1\n\tab cd\n\t   ^\n");
    }

    /// `reset` leaves exactly what a fresh `with_error_limit` builds, whatever was there.
    #[test]
    fn reset_equals_a_fresh_value() {
        let mut d = Diagnostics::with_error_limit("old name", 3);
        for i in 0..5 {
            d.push(i, 1, format_args!("e{}", i));
            d.warn(i, 2, format_args!("w{}", i));
        }
        d.reset("b.frag", 16);
        assert_eq!(d, Diagnostics::with_error_limit("b.frag", 16));
        let long = "n".repeat(300);
        d.push(1, 1, format_args!("x"));
        d.reset(&long, ERR_CAP + 5);
        assert_eq!(d, Diagnostics::with_error_limit(&long, ERR_CAP + 5));
        d.reset("", 1);
        assert_eq!(d, Diagnostics::with_error_limit("", 1));
    }

    #[test]
    fn line_past_the_end_is_empty_not_line_one() {
        assert_eq!(source_line(b"abc\n", 2), b"");
        assert_eq!(source_line(b"abc\n", 9), b"");
        assert_eq!(source_line(b"abc\r\ndef", 2), b"def");
    }

    #[test]
    fn warnings_render_after_errors_and_are_not_errors() {
        let mut d = Diagnostics::new("a.frag");
        d.warn(1, 2, format_args!("careful"));
        assert!(d.is_empty());
        assert_eq!(d.total(), 0);
        assert!(!d.full());
        d.push(2, 1, format_args!("bad"));
        let mut s = S::new();
        d.render(b"ab\ncd\n", &mut s).unwrap();
        assert_eq!(
            s,
            "a.frag:2:1: error: bad\ncd\n^\na.frag:1:2: warning: careful\nab\n ^\n"
        );
        assert_eq!(d.warnings().count(), 1);
        assert_eq!(d.warning_total(), 1);
    }

    #[test]
    fn keeps_at_most_err_max_and_counts_the_rest() {
        let mut d = Diagnostics::new("");
        for i in 0..10 {
            d.push(1, i, format_args!("e"));
        }
        assert_eq!(d.len(), ERR_MAX);
        assert_eq!(d.total(), 10);
        assert_eq!(d.name.as_str(), "shader");
    }
}
