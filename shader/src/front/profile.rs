//! Language profiles in the frontend: which profile a source asks for, the hint a profile-1
//! diagnostic gives when profile 2 would accept the construct, and the macro-expansion notes of
//! profile-2 diagnostics.
//!
//! Owns: the `#pragma chrisos profile N` pre-scan (the directive itself is checked by the
//! profile-1 lexer or the preprocessor, which report misplaced or malformed ones).
//! Must never: allocate, or read past the directives and comments that open a source.

use crate::front::diag::Diagnostics;
use crate::front::lex::Tokens;
use crate::front::pp::{Bytes, Preprocessor};
use crate::limits::Profile;

/// Appended to a profile-1 diagnostic about something profile 2 accepts (defined next to the
/// diagnostics so that the lexer can use it without importing this module).
pub use crate::front::diag::P2_HINT;

/// The profile named by a `#pragma chrisos profile N` among the directives, blank lines and
/// comments before the source's first other token (None: there is none, or it is malformed or
/// names no profile: the phase that reads the directive reports that).
pub fn select(src: &[u8]) -> Option<Profile> {
    let at = |i: usize| src.get(i).copied().unwrap_or(0);
    let mut p = 0usize;
    let mut line_start = true;
    // The usual opening, a `#version` line (never the pragma: its first word is not `pragma`),
    // is skipped without testing it as one; when a name starts the next line, as in most
    // sources, that ends the scan. Otherwise the scan below goes on from the version line's end
    // exactly as it would have after reading that line.
    if src.starts_with(b"#version") {
        p = src
            .get(8..)
            .map(crate::front::lex::line_len)
            .map_or(src.len(), |n| 8 + n);
        if at(p) == b'\n' && (at(p + 1).is_ascii_alphabetic() || at(p + 1) == b'_') {
            return None;
        }
    }
    while p < src.len() {
        match at(p) {
            b'\n' => {
                line_start = true;
                p += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => p += 1,
            b'\\' if at(p + 1) == b'\n' => p += 2,
            b'/' if at(p + 1) == b'/' => {
                while p < src.len() && at(p) != b'\n' {
                    p += 1;
                }
            }
            b'/' if at(p + 1) == b'*' => {
                p += 2;
                while p < src.len() && !(at(p) == b'*' && at(p + 1) == b'/') {
                    p += 1;
                }
                p += 2;
            }
            b'#' if line_start => {
                let end = src
                    .get(p..)
                    .map(crate::front::lex::line_len)
                    .map_or(src.len(), |n| p + n);
                if let Some(found) = pragma(src.get(p + 1..end).unwrap_or(&[])) {
                    return Some(found);
                }
                p = end;
            }
            _ => return None,
        }
    }
    None
}

/// `pragma chrisos profile N` (spaces and tabs between the words) -> profile N.
fn pragma(line: &[u8]) -> Option<Profile> {
    // The usual spelling, answered without splitting the line into words.
    match line {
        b"pragma chrisos profile 2" => return Some(Profile::P2),
        b"pragma chrisos profile 1" => return Some(Profile::P1),
        _ => {}
    }
    // Most directive lines before the first declaration are `#version`: a line whose first word
    // does not start `pragma` is answered without splitting it into words.
    let first = line
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t' | b'\r'))?;
    if !line.get(first..).unwrap_or(&[]).starts_with(b"pragma") {
        return None;
    }
    let mut words = line
        .split(|&b| b == b' ' || b == b'\t' || b == b'\r')
        .filter(|w| !w.is_empty());
    if words.next()? != b"pragma" || words.next()? != b"chrisos" || words.next()? != b"profile" {
        return None;
    }
    let n = words.next()?;
    if words.next().is_some_and(|w| !w.starts_with(b"//")) {
        return None;
    }
    match n {
        b"1" => Some(Profile::P1),
        b"2" => Some(Profile::P2),
        _ => None,
    }
}

/// Profile 2: every error from index `from` on that points at a macro invocation gets
/// " (in expansion of macro 'NAME')" (the preprocessor's own errors say so already).
pub fn note_expansions(
    diag: &mut Diagnostics,
    from: usize,
    toks: &Tokens,
    pp: &Preprocessor,
    src: &[u8],
) {
    diag.annotate(from, |d, out| {
        let exp = toks
            .toks
            .iter()
            .find(|t| t.exp != 0 && t.line == d.line && t.col as u32 == d.column)
            .map(|t| t.exp);
        match exp {
            Some(e) if !d.message.contains("(in expansion of macro") => write!(
                out,
                " (in expansion of macro '{}')",
                Bytes(pp.macro_name(src, e))
            ),
            _ => Ok(()),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pragma_is_found_before_the_first_declaration_only() {
        assert_eq!(
            select(b"#pragma chrisos profile 2\nvoid main(){}"),
            Some(Profile::P2)
        );
        assert_eq!(
            select(b"// c\n#version 330 core\n/* x\n */  #pragma  chrisos\tprofile 1 // one\n"),
            Some(Profile::P1)
        );
        assert_eq!(
            select(b"#define X 1\n#pragma chrisos profile 2\n"),
            Some(Profile::P2)
        );
        assert_eq!(select(b"float x;\n#pragma chrisos profile 2\n"), None);
        assert_eq!(select(b"#pragma chrisos profile 3\n"), None);
        assert_eq!(select(b"#pragma chrisos profile 2 x\n"), None);
        assert_eq!(select(b"x #pragma chrisos profile 2\n"), None);
        assert_eq!(select(b""), None);
        // After a `#version` line (the opening that skips the general scan when a name follows).
        assert_eq!(
            select(b"#version 330 core\n#pragma chrisos profile 2\nvoid main(){}"),
            Some(Profile::P2)
        );
        assert_eq!(
            select(b"#version 330\n// c\n  #pragma chrisos profile 1\n"),
            Some(Profile::P1)
        );
        assert_eq!(select(b"#version 330 #pragma chrisos profile 2\n"), None);
        assert_eq!(
            select(b"#version 330\nfloat x;\n#pragma chrisos profile 2\n"),
            None
        );
        assert_eq!(
            select(b"#version 330\n_x;\n#pragma chrisos profile 2\n"),
            None
        );
        assert_eq!(select(b"#version 330"), None);
        assert_eq!(select(b"/* unterminated"), None);
    }
}
