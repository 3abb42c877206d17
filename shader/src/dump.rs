//! Textual dumps for people and golden tests: the IR of a compiled stage and the syntax tree.
//!
//! Owns: the dump formats (documented in docs/LANGUAGE.md). Must never: change what it prints,
//! allocate, or be parsed back by anything (they are diagnostics, not an interchange format).
use core::fmt::{self, Write};

use crate::ast::*;
use crate::compile::{parse_only, Diagnostics, Shader};
use crate::ir::{CmpCode, Inst, Module, Op, Stage, Type};
use crate::lex::{Tok, Tokens};
use crate::limits::AST_MAX;
use heapless::Vec;

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

/// The IR of a compiled shader: header, interface, then one line per instruction.
pub fn dump_ir(shader: &Shader, out: &mut dyn Write) -> fmt::Result {
    dump_module(&shader.name, &shader.module, out)
}

fn ty_name(t: u8) -> &'static str {
    Type::from_u8(t).map(Type::name).unwrap_or("?")
}

/// The IR of a module under `name`.
pub fn dump_module(name: &str, m: &Module, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "shader {}", name)?;
    writeln!(out, "stage {}", m.stage.name())?;
    let live = m.insts.iter().filter(|i| i.op != Op::Nop).count();
    writeln!(
        out,
        "counts: {} instructions ({} live), {} immediates, {} temps",
        m.insts.len(),
        live,
        m.imms.len(),
        m.temps
    )?;
    let f = &m.iface;
    for a in f.attributes.iter() {
        writeln!(
            out,
            "attribute {} {} location {}",
            a.ty.name(),
            a.name,
            a.location
        )?;
    }
    let vdir = if m.stage == Stage::Vertex {
        "output"
    } else {
        "input"
    };
    for v in f.varyings.iter() {
        writeln!(
            out,
            "varying {} {} {} slot {}",
            vdir,
            v.ty.name(),
            v.name,
            v.slot
        )?;
    }
    for u in f.uniforms.iter() {
        writeln!(
            out,
            "uniform {} {} slot {} ({} vec4)",
            u.ty.name(),
            u.name,
            u.slot,
            u.slots
        )?;
    }
    for s in f.samplers.iter() {
        writeln!(out, "sampler2D {} unit {}", s.name, s.unit)?;
    }
    if let Some(c) = &f.color_output {
        writeln!(out, "output vec4 {}", c)?;
    }
    if f.writes_position {
        writeln!(out, "writes gl_Position")?;
    }
    if f.reads_fragcoord {
        writeln!(out, "reads gl_FragCoord")?;
    }
    writeln!(out, "block 0:")?;
    let mut depth = 1usize;
    for (idx, i) in m.insts.iter().enumerate() {
        if i.op == Op::Nop {
            continue;
        }
        if matches!(i.op, Op::Else | Op::Endif) {
            depth = depth.saturating_sub(1).max(1);
        }
        write!(out, "{:4}:", idx)?;
        for _ in 0..depth.min(40) {
            out.write_str("  ")?;
        }
        inst(m, i, out)?;
        out.write_char('\n')?;
        if matches!(i.op, Op::If | Op::Else) {
            depth += 1;
        }
    }
    Ok(())
}

fn inst(m: &Module, i: &Inst, out: &mut dyn Write) -> fmt::Result {
    if i.dst >= 0 {
        write!(out, "%{} = ", i.dst)?;
    }
    let name = i.op.name();
    let ty = ty_name(i.ty);
    match i.op {
        Op::Const => {
            write!(out, "const {} (", ty)?;
            for k in 0..i.lanes.clamp(1, 4) as usize {
                let v = m
                    .imms
                    .get((i.aux as usize).wrapping_add(k))
                    .copied()
                    .unwrap_or(0.0);
                if k > 0 {
                    out.write_str(", ")?;
                }
                write!(out, "{}", v)?;
            }
            write!(out, ") imm {}", i.aux)
        }
        Op::Swz => {
            write!(out, "swz {} %{}.", ty, i.a)?;
            for k in 0..i.lanes.clamp(1, 4) as usize {
                out.write_char(LANES[((i.aux >> (2 * k)) & 3) as usize])?;
            }
            Ok(())
        }
        Op::SetLane => write!(
            out,
            "lane %{}.{} <- %{}.{}",
            i.dst,
            LANES[(i.aux & 3) as usize],
            i.a,
            LANES[(i.aux2 & 3) as usize]
        ),
        Op::Cmp => {
            let c = match CmpCode::from_i16(i.aux) {
                Some(CmpCode::Lt) => "lt",
                Some(CmpCode::Gt) => "gt",
                Some(CmpCode::Le) => "le",
                Some(CmpCode::Ge) => "ge",
                Some(CmpCode::Eq) => "eq",
                Some(CmpCode::Ne) => "ne",
                None => "?",
            };
            write!(out, "cmp {} %{}, %{}", c, i.a, i.b)
        }
        Op::Dot => write!(out, "dot{} %{}, %{}", i.aux, i.a, i.b),
        Op::MulMV => write!(out, "mul_mv {} %{}[{}] * %{}", ty, i.a, i.aux, i.b),
        Op::MulMM => write!(
            out,
            "mul_mm {} %{}[{}] * %{}[{}]",
            ty, i.a, i.aux, i.b, i.aux
        ),
        Op::Sample => write!(out, "sample2d %{} unit {}", i.a, i.aux),
        Op::LoadAttr => write!(out, "load_attr {} location {}", ty, i.aux),
        Op::LoadVar => write!(out, "load_var {} slot {}", ty, i.aux),
        Op::LoadUni => write!(out, "load_uni {} slot {} count {}", ty, i.aux, i.aux2),
        Op::LoadFcoord => write!(out, "load_fragcoord"),
        Op::StorePos | Op::StoreColor => write!(out, "{} %{}", name, i.a),
        Op::StoreVar => write!(out, "store_var slot {} %{}", i.aux, i.a),
        Op::If => write!(out, "if %{}", i.a),
        Op::Else | Op::Endif | Op::Discard | Op::Nop => out.write_str(name),
        _ => {
            write!(out, "{} {}", name, ty)?;
            if i.lanes > 0 {
                write!(out, ".{}", i.lanes)?;
            }
            if i.a >= 0 {
                write!(out, " %{}", i.a)?;
            }
            if i.b >= 0 {
                write!(out, ", %{}", i.b)?;
            }
            Ok(())
        }
    }
}

/// Parses `source` and writes its syntax tree, one node per line: the node's index, then,
/// indented by depth, its kind, type, name/operator/value and `@LINE:COL`.
#[allow(clippy::result_large_err)]
pub fn dump_ast(source: &[u8], name: &str, out: &mut dyn Write) -> Result<(), Diagnostics> {
    let mut toks = Tokens {
        toks: heapless::Vec::new(),
        version: 0,
        overflow: None,
    };
    let mut ast = Ast::new();
    parse_only(source, name, &mut toks, &mut ast)?;
    let _ = write_ast(source, &toks, &ast, out);
    Ok(())
}

fn write_ast(src: &[u8], toks: &Tokens, ast: &Ast, out: &mut dyn Write) -> fmt::Result {
    writeln!(
        out,
        "ast {} nodes, version {}",
        ast.nodes.len(),
        toks.version
    )?;
    // Depth first with an explicit stack (a chain like `a + a + ... + a` is as deep as the tree
    // is large): entries are (node, depth), node -1 printing `none` (an absent `for` part).
    let mut stack: Vec<(i16, u16), { 2 * AST_MAX }> = Vec::new();
    let globals: Vec<i16, AST_MAX> = ast.list(ast.first).map(|(i, _)| i).collect();
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
        let mut kids: Vec<i16, AST_MAX> = Vec::new();
        match n.kind {
            Kind::Func => {
                for (p, _) in ast.list(n.a) {
                    let _ = kids.push(p);
                }
                if n.b >= 0 {
                    let _ = kids.push(n.b);
                }
            }
            Kind::Block | Kind::Call | Kind::Ctor => {
                for (c, _) in ast.list(n.a) {
                    let _ = kids.push(c);
                }
            }
            // The initializer may be a declaration list; print only its first node here.
            Kind::For => {
                for c in [n.a, n.b, n.c, n.d] {
                    let _ = kids.push(c);
                }
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
    out.write_str(n.kind.name())?;
    match n.kind {
        Kind::Decl => {
            quals(n.quals, out)?;
            write!(out, " {} {}", n.ty.name(), text)?;
            if n.quals & Q_LAYOUT != 0 {
                write!(out, " location {}", n.ival)?;
            }
        }
        Kind::Func | Kind::Param => write!(out, " {} {}", n.ty.name(), text)?,
        Kind::Ctor => write!(out, " {}", n.ty.name())?,
        Kind::Binary => write!(
            out,
            " {}",
            BinOp::from_u8(n.op).map(BinOp::symbol).unwrap_or("?")
        )?,
        Kind::Unary => out.write_str(if n.op == UN_NOT { " !" } else { " -" })?,
        Kind::Incr => out.write_str(match n.op {
            INC_PRE => " ++x",
            DEC_PRE => " --x",
            INC_POST => " x++",
            _ => " x--",
        })?,
        Kind::Ident | Kind::Call | Kind::Swizzle => write!(out, " {}", text)?,
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
