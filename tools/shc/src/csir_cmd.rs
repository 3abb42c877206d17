//! `shc csir save FILE -o OUT [--v1|--v2]`, `shc csir load FILE`, `shc dump tgsi FILE`.
//!
//! Owns the command-line side of CSIR and TGSI: reading a GLSL source or a CSIR blob, writing
//! blobs, printing the IR of a loaded blob and the standalone TGSI of a shader.
//! Exit codes: 0 success, 1 compile/load errors (reason on stderr), 2 usage or I/O errors.
use shader::csir::{self, Version, CSIR_MAX};
use shader::ir::{Module, Stage};

const USAGE: &str = "usage: shc csir save FILE -o OUT [--v1|--v2]\n       shc csir load FILE\n       shc dump tgsi FILE [--stage vertex|fragment]";

/// What an input file turned into.
enum Input {
    Loaded(Box<Module>),
    /// Reason already formatted for stderr.
    Failed(String),
}

fn stage_of(path: &str, flag: Option<&str>) -> Result<Stage, String> {
    match flag {
        Some("vertex") => Ok(Stage::Vertex),
        Some("fragment") => Ok(Stage::Fragment),
        Some(other) => Err(format!("unknown stage '{}' (vertex or fragment)", other)),
        None if path.ends_with(".frag") => Ok(Stage::Fragment),
        None => Ok(Stage::Vertex),
    }
}

/// Reads FILE: a CSIR blob (by its magic) is loaded and verified; anything else is compiled as
/// GLSL for the stage given by `--stage` or the file suffix (`.frag` = fragment, else vertex).
fn read_input(path: &str, stage: Option<&str>) -> Result<Input, i32> {
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
    Ok(compile(path, stage, &bytes))
}

fn compile(path: &str, _stage: Stage, _source: &[u8]) -> Input {
    Input::Failed(format!(
        "{}: GLSL input needs the compiler, which this build does not include yet",
        path
    ))
}

fn flag_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// `shc csir save|load`.
pub fn csir(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("save") => save(&args[1..]),
        Some("load") => load(&args[1..]),
        _ => {
            eprintln!("{}", USAGE);
            2
        }
    }
}

fn save(args: &[String]) -> i32 {
    let (Some(file), Some(out)) = (args.first(), flag_value(args, "-o")) else {
        eprintln!("{}", USAGE);
        return 2;
    };
    let version = match (
        args.iter().any(|a| a == "--v1"),
        args.iter().any(|a| a == "--v2"),
    ) {
        (true, true) => {
            eprintln!("shc csir save: --v1 and --v2 exclude each other");
            return 2;
        }
        (true, false) => Version::V1,
        _ => Version::V2,
    };
    let m = match read_input(file, flag_value(args, "--stage")) {
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

fn load(args: &[String]) -> i32 {
    let Some(file) = args.first() else {
        eprintln!("{}", USAGE);
        return 2;
    };
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
pub fn dump_tgsi(args: &[String]) -> i32 {
    let Some(file) = args.first() else {
        eprintln!("{}", USAGE);
        return 2;
    };
    let m = match read_input(file, flag_value(args, "--stage")) {
        Ok(Input::Loaded(m)) => m,
        Ok(Input::Failed(reason)) => {
            eprintln!("{}", reason);
            return 1;
        }
        Err(code) => return code,
    };
    let mut text = shader::tgsi::TgsiText::new();
    match shader::tgsi::emit(&m, None, &mut text) {
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

/// The IR of a loaded blob: its interface, then one line per instruction (NOPs skipped).
fn ir_text(name: &str, m: &Module, version: u32) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "shader {}", name);
    let _ = writeln!(s, "stage {}", m.stage.name());
    let _ = writeln!(
        s,
        "csir version {}, {} instructions, {} immediates, {} temps",
        version,
        m.insts.len(),
        m.imms.len(),
        m.temps
    );
    for a in &m.iface.attributes {
        let _ = writeln!(
            s,
            "input {} {} location {}",
            a.ty.name(),
            a.name,
            a.location
        );
    }
    for v in &m.iface.varyings {
        let dir = if m.stage == Stage::Vertex {
            "output"
        } else {
            "input"
        };
        let _ = writeln!(s, "{} {} {} slot {}", dir, v.ty.name(), v.name, v.slot);
    }
    for u in &m.iface.uniforms {
        let _ = writeln!(s, "uniform {} {} slot {}", u.ty.name(), u.name, u.slot);
    }
    for x in &m.iface.samplers {
        let _ = writeln!(s, "uniform sampler2D {} unit {}", x.name, x.unit);
    }
    if let Some(c) = &m.iface.color_output {
        let _ = writeln!(s, "output vec4 {}", c);
    }
    let _ = writeln!(s, "block 0:");
    for i in m.insts.iter().filter(|i| i.op != shader::ir::Op::Nop) {
        let _ = write!(s, "  ");
        if i.dst >= 0 {
            let _ = write!(s, "%{} = ", i.dst);
        }
        let _ = write!(s, "{}", i.op.name());
        for t in [i.a, i.b] {
            if t >= 0 {
                let _ = write!(s, " %{}", t);
            }
        }
        if i.op == shader::ir::Op::Const {
            let base = i.aux.max(0) as usize;
            for v in m.imms.iter().skip(base).take(i.lanes as usize) {
                let _ = write!(s, " {:?}", v);
            }
        } else if i.aux != 0
            || i.aux2 != 0
            || matches!(
                i.op,
                shader::ir::Op::LoadAttr | shader::ir::Op::LoadUni | shader::ir::Op::Sample
            )
        {
            let _ = write!(s, " aux {}", i.aux);
        }
        if i.aux2 != 0 {
            let _ = write!(s, " aux2 {}", i.aux2);
        }
        let _ = writeln!(s);
    }
    s
}
