//! `shc check`, `shc dump ast|ir`, `shc limits`, `shc builtins`: the frontend for shader authors.
//!
//! Owns: argument handling and exit codes of these commands (0 ok, 1 compile errors with the
//! diagnostics on stderr, including a stage whose TGSI exceeds the VirGL budget, 2 usage or I/O
//! errors). Must never: reimplement compiler rules (it only
//! calls `shader::program::compile` and the dumps).
use shader::front::dump::dump_ast;
use shader::ir::dump::dump_module;
use shader::limits::*;
use shader::program::compile::compile;

/// Files and the optional `--stage` value; Err is a usage message.
fn files_and_stage(args: &[String]) -> Result<(Vec<String>, Option<u32>), String> {
    let mut files = Vec::new();
    let mut stage = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--stage" {
            let v = it
                .next()
                .ok_or("--stage needs a value: vertex, fragment, geometry or compute")?;
            stage = Some(match v.as_str() {
                "vertex" | "vert" => 0,
                "fragment" | "frag" => 1,
                "geometry" => 2,
                "compute" => 3,
                other => {
                    return Err(format!(
                        "unknown stage '{}': use vertex, fragment, geometry or compute",
                        other
                    ))
                }
            });
        } else if let Some(v) = a.strip_prefix("--stage=") {
            return files_and_stage(&[String::from("--stage"), v.to_string()])
                .map(|(_, s)| (files.clone(), s));
        } else if a.starts_with("--") {
            return Err(format!("unknown option '{}'", a));
        } else {
            files.push(a.clone());
        }
    }
    Ok((files, stage))
}

fn stage_for(file: &str, given: Option<u32>) -> Result<u32, String> {
    if let Some(s) = given {
        return Ok(s);
    }
    if file.ends_with(".vert") {
        Ok(0)
    } else if file.ends_with(".frag") {
        Ok(1)
    } else {
        Err(format!(
            "{}: cannot tell the stage from the file name: name it .vert or .frag, or give --stage",
            file
        ))
    }
}

fn read(file: &str) -> Result<Vec<u8>, String> {
    std::fs::read(file).map_err(|e| format!("{}: cannot read: {}", file, e))
}

/// `shc check FILE... [--stage S]`.
pub fn check(args: &[String]) -> i32 {
    let (files, stage) = match files_and_stage(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("shc check: {}", e);
            return 2;
        }
    };
    if files.is_empty() {
        eprintln!("usage: shc check FILE... [--stage vertex|fragment|geometry|compute]");
        return 2;
    }
    let mut code = 0;
    for f in &files {
        let st = match stage_for(f, stage) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("shc check: {}", e);
                return 2;
            }
        };
        let src = match read(f) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("shc check: {}", e);
                return 2;
            }
        };
        match compile(st, &src, f) {
            // A shader whose TGSI cannot be emitted can never be linked (the specification's
            // link rule), so `check` reports it as the old compiler did.
            Ok(sh) => {
                if let Err(e) = sh.tgsi {
                    eprintln!("{}: error: {}", f, e);
                    code = 1;
                }
            }
            Err(d) => {
                let mut s = String::new();
                let _ = d.render(&src, &mut s);
                eprint!("{}", s);
                code = 1;
            }
        }
    }
    code
}

/// `shc dump ast|ir FILE [--stage S]`.
pub fn dump(args: &[String]) -> i32 {
    let what = args.first().map(String::as_str);
    let rest = args.get(1..).unwrap_or(&[]);
    let (files, stage) = match files_and_stage(rest) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("shc dump: {}", e);
            return 2;
        }
    };
    let (Some(kind @ ("ast" | "ir")), [file]) = (what, files.as_slice()) else {
        eprintln!("usage: shc dump ast|ir|tgsi FILE [--stage vertex|fragment]");
        return 2;
    };
    let src = match read(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("shc dump: {}", e);
            return 2;
        }
    };
    let mut out = String::new();
    let result = if kind == "ast" {
        dump_ast(&src, file, &mut out)
    } else {
        let st = match stage_for(file, stage) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("shc dump: {}", e);
                return 2;
            }
        };
        compile(st, &src, file).map(|sh| {
            let _ = dump_module(&sh.name, &sh.module, &mut out);
        })
    };
    match result {
        Ok(()) => {
            print!("{}", out);
            0
        }
        Err(d) => {
            let mut s = String::new();
            let _ = d.render(&src, &mut s);
            eprint!("{}", s);
            1
        }
    }
}

/// `shc limits`: every fixed capacity of the compiler as JSON.
pub fn limits() -> i32 {
    let v = serde_json::json!({
        "source_bytes_max": SRC_MAX - 1,
        "identifier_chars_max": NAME_MAX - 1,
        "tokens_max": TOK_MAX,
        "ast_nodes_max": AST_MAX,
        "nesting_max": NEST_MAX,
        "scopes_max": SCOPE_MAX,
        "symbols_max": SYM_MAX,
        "errors_reported_max": ERR_MAX,
        "ir_instructions_max": IR_MAX,
        "immediates_max": IMM_MAX,
        "temporaries_max": TEMP_MAX,
        "attributes_max": ATTR_MAX,
        "varyings_max": VARYING_MAX,
        "uniform_vec4_slots_max": UNIFORM_VEC4_MAX,
        "samplers_max": SAMPLER_MAX,
        "fragment_outputs": 1,
        "parameters_max": PARAM_MAX,
        "call_depth_max": CALL_DEPTH_MAX,
        "unroll_iterations_max": UNROLL_MAX,
        "compile_work_steps_max": WORK_MAX,
        "if_depth_max": IF_DEPTH_MAX,
        "version_min": VERSION_MIN,
        "version_max": VERSION_MAX,
        "int_literal_max": shader::front::lex::INT_LITERAL_MAX,
        "tgsi_bytes_max": TGSI_MAX,
        "compiler_version": COMPILER_VERSION,
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    0
}

/// `shc builtins`: the built-in functions and variables with their signatures, as JSON.
pub fn builtins() -> i32 {
    let funcs: Vec<_> = shader::front::sema::builtins::BUILTINS
        .iter()
        .map(|(name, lo, hi, sig)| {
            serde_json::json!({
                "name": name,
                "min_args": lo,
                "max_args": hi,
                "signatures": sig.split("; ").collect::<Vec<_>>(),
            })
        })
        .collect();
    let v = serde_json::json!({
        "functions": funcs,
        "variables": [
            {"name": "gl_Position", "type": "vec4", "stage": "vertex", "access": "write (must be written)"},
            {"name": "gl_FragCoord", "type": "vec4", "stage": "fragment", "access": "read-only"},
        ],
        "genType": ["float", "vec2", "vec3", "vec4"],
        "genIType": ["int", "ivec2", "ivec3", "ivec4"],
    });
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    0
}
