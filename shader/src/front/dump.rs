//! Textual dump of the syntax tree for people and golden tests: one node per line.
//!
//! Owns: the AST dump format (documented in docs/LANGUAGE.md). Must never: change what it prints,
//! allocate, or be parsed back by anything (it is a diagnostic, not an interchange format).
use core::fmt::{self, Write};

use heapless::Vec;

use crate::front::ast::*;
use crate::front::diag::Diagnostics;
use crate::front::lex::{self, Tok, Tokens};
use crate::front::parse;
use crate::front::Workspace;
use crate::limits::{limits, Profile, AST_CAP, AST_MAX, SRC_MAX};
use crate::program::compile::CompileOptions;

/// Parses `source` and writes its syntax tree, one node per line: the node's index, then,
/// indented by depth, its kind, type, name/operator/value and `@LINE:COL`.
#[allow(clippy::result_large_err)]
pub fn dump_ast(source: &[u8], name: &str, out: &mut dyn Write) -> Result<(), Diagnostics> {
    dump_ast_in(&mut Workspace::new(), source, name, out)
}

/// [`dump_ast`] in a caller-owned workspace (no large stack frame).
#[allow(clippy::result_large_err)]
pub fn dump_ast_in(
    ws: &mut Workspace,
    source: &[u8],
    name: &str,
    out: &mut dyn Write,
) -> Result<(), Diagnostics> {
    // Profile 2 (the source's pragma): preprocessed, and the parser reads the source followed
    // by the preprocessor's own text.
    if crate::front::profile::select(source) == Some(crate::limits::Profile::P2) {
        let mut diag = Diagnostics::new(name);
        if source.len() > crate::limits::limits(crate::limits::Profile::P2).source_bytes_max {
            diag.push(1, 1, format_args!("shader source exceeds the size limit"));
            return Err(diag);
        }
        let Workspace {
            toks,
            ast,
            text,
            pp,
            ..
        } = ws;
        pp.run(source, &mut diag);
        lex::lex_pp(pp, source, text, &mut diag, toks);
        parse::parse(text, toks, ast, &mut diag);
        if diag.total() > 0 {
            return Err(diag);
        }
        let _ = write_ast(text, toks, ast, out);
        return Ok(());
    }
    parse_only(source, name, &mut ws.toks, &mut ws.ast)?;
    let _ = write_ast(source, &ws.toks, &ws.ast, out);
    Ok(())
}

/// [`dump_ast_in`] in the profile `opts` names, or the one the source's own
/// `#pragma chrisos profile N` selects (as `compile` chooses it), like `compile_into`: `diag`
/// receives the errors, or the warnings of a source that parses; true when the tree was
/// written. Profile 1 is exactly [`dump_ast_in`]; profile 2 preprocesses first, and every
/// `@LINE:COL` is the original source position of the node's token (the outermost macro
/// invocation for expanded text).
pub fn dump_ast_with(
    ws: &mut Workspace,
    source: &[u8],
    name: &str,
    opts: &CompileOptions,
    diag: &mut Diagnostics,
    out: &mut dyn Write,
) -> bool {
    let prof = crate::front::profile::select(source).unwrap_or(opts.profile);
    if prof == Profile::P1 {
        return match dump_ast_in(ws, source, name, out) {
            Ok(()) => {
                *diag = Diagnostics::new(name);
                true
            }
            Err(d) => {
                *diag = d;
                false
            }
        };
    }
    let lim = limits(prof);
    *diag = Diagnostics::with_error_limit(name, lim.errors_reported_max);
    if source.is_empty() || source.len() > lim.source_bytes_max {
        diag.push(
            1,
            1,
            format_args!(
                "shader source must be 1 to {} bytes; found {}",
                lim.source_bytes_max,
                source.len()
            ),
        );
        return false;
    }
    let Workspace {
        toks,
        ast,
        text,
        pp,
        ..
    } = ws;
    if !pp.run(source, diag) && diag.total() > 0 && pp.tokens().is_empty() {
        return false;
    }
    lex::lex_pp(pp, source, text, diag, toks);
    parse::parse(text, toks, ast, diag);
    if diag.total() > 0 {
        return false;
    }
    let _ = write_tree::<{ 2 * AST_CAP }, AST_CAP>(text, toks, ast, out);
    true
}

/// Lexes and parses only (for the AST dump): the tokens and tree, or the diagnostics.
#[allow(clippy::result_large_err)]
fn parse_only(
    source: &[u8],
    name: &str,
    toks: &mut Tokens,
    ast: &mut Ast,
) -> Result<(), Diagnostics> {
    let mut diag = Diagnostics::new(name);
    if source.is_empty() || source.len() >= SRC_MAX {
        diag.push(
            1,
            1,
            format_args!(
                "shader source must be 1 to {} bytes; found {}",
                SRC_MAX - 1,
                source.len()
            ),
        );
        return Err(diag);
    }
    lex::lex(source, &mut diag, toks);
    parse::parse(source, toks, ast, &mut diag);
    if diag.total() > 0 {
        return Err(diag);
    }
    Ok(())
}

/// Profile 1's tree: small tables (the stack budget of a profile-1 dump stays what it was).
fn write_ast(src: &[u8], toks: &Tokens, ast: &Ast, out: &mut dyn Write) -> fmt::Result {
    write_tree::<{ 2 * AST_MAX }, AST_MAX>(src, toks, ast, out)
}

/// The dump with room for `KIDS` children of one node and a `STACK`-entry walk.
fn write_tree<const STACK: usize, const KIDS: usize>(
    src: &[u8],
    toks: &Tokens,
    ast: &Ast,
    out: &mut dyn Write,
) -> fmt::Result {
    writeln!(
        out,
        "ast {} nodes, version {}",
        ast.nodes.len(),
        toks.version
    )?;
    // Depth first with an explicit stack (a chain like `a + a + ... + a` is as deep as the tree
    // is large): entries are (node, depth), node -1 printing `none` (an absent `for` part).
    let mut stack: Vec<(i16, u16), STACK> = Vec::new();
    let globals: Vec<i16, KIDS> = ast.list(ast.first).map(|(i, _)| i).collect();
    for &g in globals.iter().rev() {
        if stack.push((g, 0)).is_err() {
            return Ok(());
        }
    }
    while let Some((i, depth)) = stack.pop() {
        // The node index (its place in the tree's table) leads every line.
        let n = ast.get(i).copied();
        match n {
            Some(_) => write!(out, "{:3}: ", i)?,
            None => out.write_str("  -: ")?,
        }
        for _ in 0..depth {
            out.write_str("  ")?;
        }
        let Some(n) = n else {
            out.write_str("none\n")?;
            continue;
        };
        line(src, toks, n, out)?;
        let d = depth.saturating_add(1);
        // Children in order: pushed last first.
        let mut kids: Vec<i16, KIDS> = Vec::new();
        match n.kind {
            Kind::Func => {
                for (p, _) in ast.list(n.a) {
                    let _ = kids.push(p);
                }
                if n.b >= 0 {
                    let _ = kids.push(n.b);
                }
            }
            // Profile 2: `c` of a declaration is a token (a struct type's name), not a child.
            Kind::Decl | Kind::Param => {
                for c in [n.a, n.b] {
                    if c >= 0 {
                        let _ = kids.push(c);
                    }
                }
            }
            Kind::Block | Kind::Call | Kind::Ctor | Kind::Struct => {
                if n.kind == Kind::Ctor && n.b >= 0 {
                    let _ = kids.push(n.b); // profile 2: an array constructor's size
                }
                for (c, _) in ast.list(n.a) {
                    let _ = kids.push(c);
                }
            }
            // The initializer may be a declaration list; print only its first node here.
            // The step may be a list (profile 2's comma operator): all of it is printed.
            Kind::For => {
                for c in [n.a, n.b] {
                    let _ = kids.push(c);
                }
                if n.c < 0 {
                    let _ = kids.push(n.c);
                }
                for (c, _) in ast.list(n.c) {
                    let _ = kids.push(c);
                }
                let _ = kids.push(n.d);
            }
            _ => {
                for c in [n.a, n.b, n.c] {
                    if c >= 0 {
                        let _ = kids.push(c);
                    }
                }
            }
        }
        for &c in kids.iter().rev() {
            if stack.push((c, d)).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
}

fn quals(q: u8, out: &mut dyn Write) -> fmt::Result {
    for (bit, w) in [
        (Q_SMOOTH, "smooth"),
        (Q_IN, "in"),
        (Q_OUT, "out"),
        (Q_UNIFORM, "uniform"),
        (Q_CONST, "const"),
    ] {
        if q & bit != 0 {
            write!(out, " {}", w)?;
        }
    }
    Ok(())
}

/// One node's line after its indentation: kind, details, position.
fn line(src: &[u8], toks: &Tokens, n: Node, out: &mut dyn Write) -> fmt::Result {
    let text = toks.get(n.tok).map(|t| t.text(src)).unwrap_or("");
    // A struct type's name (profile 2) in place of the type.
    let user = matches!(n.kind, Kind::Decl | Kind::Param | Kind::Func) && n.c >= 0;
    let ty = match toks.get(n.c) {
        Some(t) if user => t.text(src),
        _ => n.ty.name(),
    };
    out.write_str(n.kind.name())?;
    match n.kind {
        Kind::Decl => {
            // Profile 2's declaration flags (never set in profile 1).
            for (bit, w) in [
                (D_INVARIANT, "invariant"),
                (D_FLAT, "flat"),
                (D_NOPERSPECTIVE, "noperspective"),
                (D_CENTROID, "centroid"),
            ] {
                if n.op & bit != 0 {
                    write!(out, " {}", w)?;
                }
            }
            quals(n.quals, out)?;
            write!(out, " {} {}", ty, text)?;
            if n.quals & Q_LAYOUT != 0 {
                write!(out, " location {}", n.ival)?;
            }
        }
        Kind::Func => write!(out, " {} {}", ty, text)?,
        Kind::Param => {
            quals(n.quals, out)?;
            let name = if n.ival == 1 { "" } else { text };
            write!(out, " {} {}", ty, name)?
        }
        Kind::Assign if n.op != 0 => write!(
            out,
            " {}=",
            BinOp::from_u8(n.op).map(BinOp::symbol).unwrap_or("?")
        )?,
        Kind::Ctor if n.op == 1 => match toks.get(n.c) {
            Some(t) => write!(out, " {}[]", t.text(src))?,
            None => write!(out, " {}[]", n.ty.name())?,
        },
        Kind::Ctor => write!(out, " {}", n.ty.name())?,
        Kind::Binary => write!(
            out,
            " {}",
            BinOp::from_u8(n.op).map(BinOp::symbol).unwrap_or("?")
        )?,
        Kind::Unary => out.write_str(match n.op {
            UN_NOT => " !",
            UN_BITNOT => " ~",
            _ => " -",
        })?,
        Kind::Incr => out.write_str(match n.op {
            INC_PRE => " ++x",
            DEC_PRE => " --x",
            INC_POST => " x++",
            _ => " x--",
        })?,
        Kind::Ident | Kind::Call | Kind::Swizzle | Kind::Struct => write!(out, " {}", text)?,
        Kind::IntLit => write!(out, " {}", n.ival)?,
        Kind::FloatLit => write!(out, " {}", f32::from_bits(n.ival as u32))?,
        Kind::BoolLit => out.write_str(if n.ival != 0 { " true" } else { " false" })?,
        _ => {}
    }
    if let Some(t) = toks.get(n.tok) {
        if t.kind != Tok::Eof {
            write!(out, " @{}:{}", t.line, t.col)?;
        }
    }
    out.write_char('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node line starts with the node's index (spec 003, "AST inspection"); an absent
    /// `for` part prints `none` without one.
    #[test]
    fn ast_lines_carry_the_node_index() {
        let src = b"void main() { for (int i = 0; i < 2;) { } }";
        let mut s = std::string::String::new();
        dump_ast(src, "t", &mut s).unwrap();
        let want = "ast 9 nodes, version 0
  8: func void main @1:6
  7:   block @1:13
  6:     for @1:15
  1:       decl int i @1:24
  0:         int 0 @1:28
  4:       binary < @1:33
  2:         ident i @1:31
  3:         int 2 @1:35
  -:       none
  5:       block @1:39
";
        assert_eq!(s, want);
    }
}
