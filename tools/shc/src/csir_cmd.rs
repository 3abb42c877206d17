//! `shc csir save FILE -o OUT [--v1|--v2]`, `shc csir load FILE`, `shc dump tgsi FILE`.
//!
//! Owns the command-line side of CSIR and TGSI: reading a GLSL source or a CSIR blob, writing
//! blobs, printing the IR of a loaded blob and the standalone TGSI of a shader.
//! Exit codes: 0 success, 1 compile/load errors (reason on stderr), 2 usage or I/O errors.
use shader::ir::{Module, Stage};
use shader::program::compile::CompileOptions;
use shader::program::csir::{self, Version, CSIR_MAX};

use crate::render_cmd::{compile_full, render_diag};

/// What an input file turned into.
enum Input {
    Loaded(Box<Module>),
    /// Reason already formatted for stderr.
    Failed(String),
}

fn stage_of(path: &str, flag: Option<u32>) -> Result<Stage, String> {
    match flag {
        Some(0) => Ok(Stage::Vertex),
        Some(1) => Ok(Stage::Fragment),
        Some(other) => Err(format!(
            "stage {} has no CSIR or TGSI form (vertex or fragment)",
            other
        )),
        None if path.ends_with(".frag") => Ok(Stage::Fragment),
        None => Ok(Stage::Vertex),
    }
}

/// Reads FILE: a CSIR blob (by its magic) is loaded and verified; anything else is compiled as
/// GLSL for the stage given by `--stage` or the file suffix (`.frag` = fragment, else vertex).
fn read_input(path: &str, stage: Option<u32>, opts: &CompileOptions) -> Result<Input, i32> {
    let bytes = std::fs::read(path).map_err(|e| {
        eprintln!("shc: cannot read {}: {}", path, e);
        2
    })?;
    if bytes.starts_with(b"CSIR") {
        return Ok(match csir::load(&bytes) {
            Ok(m) => Input::Loaded(Box::new(m)),
            Err(e) => Input::Failed(format!("{}: {}", path, e)),
        });
    }
    let stage = stage_of(path, stage).map_err(|e| {
        eprintln!("shc: {}", e);
        2
    })?;
    Ok(compile(path, stage, &bytes, opts))
}

fn compile(path: &str, stage: Stage, source: &[u8], opts: &CompileOptions) -> Input {
    let name = std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path);
    let c = compile_full(stage as u32, source, name, opts);
    let text = render_diag(&c.diag, source);
    match c.shader {
        Some(s) => {
            if !text.is_empty() {
                eprintln!("{}", text);
            }
            Input::Loaded(Box::new(s.module.clone()))
        }
        None => Input::Failed(text),
    }
}

/// `shc csir save FILE -o OUT [--v1|--v2]`.
pub fn save(
    file: &str,
    out: &str,
    version: Version,
    stage: Option<u32>,
    opts: &CompileOptions,
) -> i32 {
    let m = match read_input(file, stage, opts) {
        Ok(Input::Loaded(m)) => m,
        Ok(Input::Failed(reason)) => {
            eprintln!("{}", reason);
            return 1;
        }
        Err(code) => return code,
    };
    let mut buf = vec![0u8; CSIR_MAX];
    let n = match csir::save(&m, version, &mut buf) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("shc csir save: {}", e);
            return 1;
        }
    };
    if let Err(e) = std::fs::write(out, &buf[..n]) {
        eprintln!("shc: cannot write {}: {}", out, e);
        return 2;
    }
    0
}

/// `shc csir load FILE`.
pub fn load(file: &str) -> i32 {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("shc: cannot read {}: {}", file, e);
            return 2;
        }
    };
    match csir::load(&bytes) {
        Ok(m) => {
            let version = csir::blob_version(&bytes).unwrap_or(0);
            print!("{}", ir_text(file, &m, version));
            0
        }
        Err(e) => {
            eprintln!("{}: {}", file, e);
            1
        }
    }
}

/// `shc dump tgsi FILE`: standalone TGSI (identity varying remap).
pub fn dump_tgsi(file: &str, stage: Option<u32>, opts: &CompileOptions) -> i32 {
    let m = match read_input(file, stage, opts) {
        Ok(Input::Loaded(m)) => m,
        Ok(Input::Failed(reason)) => {
            eprintln!("{}", reason);
            return 1;
        }
        Err(code) => return code,
    };
    let mut text = Box::new(shader::back::tgsi::TgsiText::new());
    match shader::back::tgsi::emit(&m, None, &mut text) {
        Ok(_) => {
            print!("{}", text);
            0
        }
        Err(e) => {
            eprintln!("{}: {}", file, e);
            1
        }
    }
}

/// The IR of a loaded blob in the shared dump format, after a line naming the CSIR version.
fn ir_text(name: &str, m: &Module, version: u32) -> String {
    let mut s = format!("csir version {}\n", version);
    // Profile-1 output is unchanged; other profiles say which they are.
    if m.profile != shader::limits::Profile::P1 {
        s += &format!("profile {}\n", m.profile.number());
    }
    let _ = shader::ir::dump::dump_module(name, m, &mut s);
    s
}
