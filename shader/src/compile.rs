//! The compile API: source text to a verified [`Module`] (inside a [`Shader`]) or [`Diagnostics`].
//!
//! Owns: the phase order (lex, parse, semantic analysis and lowering, optimisation, verification),
//! the stage and source-size checks, and per-phase timing. Must never: allocate, keep state between
//! calls, or return a module the verifier rejected.
use heapless::{String, Vec};

pub use crate::diag::{Diagnostic, Diagnostics};
use crate::ast::Ast;
use crate::diag::{bounded_string, SHADER_NAME_MAX};
use crate::ir::{Module, Stage};
use crate::lex::Tokens;
use crate::limits::SRC_MAX;
use crate::{lex, opt, parse, sema, verify};

/// Cycles spent in each phase (`tgsi` is filled by the TGSI emitter's caller).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    pub lex: u64,
    pub parse: u64,
    pub sema: u64,
    /// Optimisation and verification.
    pub ir: u64,
    pub tgsi: u64,
}

/// A successfully compiled stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    pub name: String<SHADER_NAME_MAX>,
    pub stage: Stage,
    /// `#version` number, 0 when the source had none.
    pub version: u32,
    pub module: Module,
    pub timing: PhaseTimes,
}

fn no_clock() -> u64 {
    0
}

/// Compiles one stage (0 = vertex, 1 = fragment; 2 and 3 are rejected).
pub fn compile(stage: u32, source: &[u8], name: &str) -> Result<Shader, Diagnostics> {
    compile_timed(stage, source, name, no_clock)
}

/// [`compile`], reading `clock` around each phase (the kernel passes rdtsc).
pub fn compile_timed(
    stage: u32,
    source: &[u8],
    name: &str,
    clock: fn() -> u64,
) -> Result<Shader, Diagnostics> {
    let mut diag = Diagnostics::new(name);
    let stage = match Stage::from_u32(stage) {
        Some(s) => s,
        None => {
            let what = match stage {
                Stage::GEOMETRY_VALUE => "geometry shaders are",
                Stage::COMPUTE_VALUE => "compute shaders are",
                _ => "this shader stage is",
            };
            diag.push(
                1,
                1,
                format_args!(
                    "{} not supported (stage {}): only vertex (0) and fragment (1) shaders compile",
                    what, stage
                ),
            );
            return Err(diag);
        }
    };
    if source.is_empty() {
        diag.push(1, 1, format_args!("empty shader: the source has no text"));
        return Err(diag);
    }
    if source.len() >= SRC_MAX {
        diag.push(
            1,
            1,
            format_args!(
                "shader source exceeds the size limit: {} bytes; the limit is {} bytes",
                source.len(),
                SRC_MAX - 1
            ),
        );
        return Err(diag);
    }
    let mut timing = PhaseTimes::default();
    let t0 = clock();
    let mut toks = Tokens { toks: Vec::new(), version: 0 };
    lex::lex(source, &mut diag, &mut toks);
    let t1 = clock();
    timing.lex = t1.wrapping_sub(t0);
    let mut ast = Ast::new();
    if !diag.full() {
        parse::parse(source, &toks, &mut ast, &mut diag);
    }
    let t2 = clock();
    timing.parse = t2.wrapping_sub(t1);
    if diag.total() > 0 {
        return Err(diag);
    }
    let mut module = Module::new(stage);
    sema::analyze(source, &toks, &ast, stage, &mut diag, &mut module);
    let t3 = clock();
    timing.sema = t3.wrapping_sub(t2);
    if diag.total() > 0 {
        return Err(diag);
    }
    opt::optimize(&mut module);
    if let Err(e) = verify::verify(&module) {
        // The frontend only emits verifiable IR; reaching this is a compiler bug.
        diag.push(1, 1, format_args!("internal compiler error: {}", e));
        return Err(diag);
    }
    timing.ir = clock().wrapping_sub(t3);
    Ok(Shader {
        name: bounded_string(if name.is_empty() { "shader" } else { name }),
        stage,
        version: toks.version,
        module,
        timing,
    })
}

/// Lexes and parses only (for the AST dump): the tokens and tree, or the diagnostics.
pub fn parse_only(source: &[u8], name: &str, toks: &mut Tokens, ast: &mut Ast) -> Result<(), Diagnostics> {
    let mut diag = Diagnostics::new(name);
    if source.is_empty() || source.len() >= SRC_MAX {
        diag.push(
            1,
            1,
            format_args!("shader source must be 1 to {} bytes; found {}", SRC_MAX - 1, source.len()),
        );
        return Err(diag);
    }
    lex::lex(source, &mut diag, toks);
    if !diag.full() {
        parse::parse(source, toks, ast, &mut diag);
    }
    if diag.total() > 0 {
        return Err(diag);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Op;

    fn ok(stage: u32, src: &str) -> Shader {
        match compile(stage, src.as_bytes(), "t") {
            Ok(s) => s,
            Err(d) => {
                let mut s = std::string::String::new();
                d.render(src.as_bytes(), &mut s).unwrap();
                panic!("{}", s)
            }
        }
    }

    fn err(stage: u32, src: &str) -> std::string::String {
        match compile(stage, src.as_bytes(), "t") {
            Ok(_) => panic!("compiled: {}", src),
            Err(d) => {
                let mut s = std::string::String::new();
                d.render(src.as_bytes(), &mut s).unwrap();
                s
            }
        }
    }

    #[test]
    fn minimal_vertex_and_fragment() {
        let v = ok(0, "void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }");
        assert!(v.module.insts.iter().any(|i| i.op == Op::StorePos));
        assert!(v.module.iface.writes_position);
        let f = ok(1, "out vec4 c; void main() { c = vec4(1.0, 0.0, 0.0, 1.0); }");
        assert!(f.module.insts.iter().any(|i| i.op == Op::StoreColor));
    }

    #[test]
    fn stage_and_size_errors() {
        assert!(err(2, "void main(){}").contains("geometry"));
        assert!(err(0, "").contains("empty"));
        let big = " ".repeat(SRC_MAX);
        assert!(err(0, &big).contains("size limit"));
    }

    #[test]
    fn semantic_errors_point_at_the_construct() {
        let e = err(0, "in vec2 p;\nvoid main() {\n  gl_Position = vec4(p.z, 0.0, 0.0, 1.0);\n}\n");
        assert!(e.starts_with("t:3:"), "{}", e);
        assert!(e.contains("invalid swizzle"), "{}", e);
    }
}
