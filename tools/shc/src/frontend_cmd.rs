//! `shc check`, `shc dump ast|ir`, `shc limits`, `shc builtins`: the frontend for shader authors.
//!
//! Owns: the behaviour and exit codes of these commands (0 ok, warnings on stderr; 1 compile
//! errors with the diagnostics on stderr, including a profile-1 stage whose TGSI exceeds the
//! VirGL budget; 2 usage or I/O errors; `--format json` puts one object per diagnostic on
//! stdout instead). Argument parsing is `main.rs`'s. Must never: reimplement compiler rules (it
//! only calls `shader::program::compile` and the dumps).
use shader::front::dump::dump_ast_with;
use shader::ir::dump::dump_module;
use shader::limits::*;
use shader::program::compile::{CompileOptions, Diagnostics, Workspace};

use crate::render_cmd::{compile_full, json_diag, json_diags, render_diag};

/// The stage of `file`: `given`, else from the name (`.vert`, `.frag`).
pub fn stage_for(file: &str, given: Option<u32>) -> Result<u32, String> {
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

/// `shc check FILE... [--stage S] [--profile N] [--format json]`. A stage whose TGSI exceeds
/// the VirGL budget is an error in profile 1 (the specification's link rule, as before) and a
/// warning in profile 2; warnings (the preprocessor's, ...) never change the exit code.
pub fn check(files: &[String], stage: Option<u32>, opts: &CompileOptions, json: bool) -> i32 {
    let mut code = 0;
    for f in files {
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
        let c = compile_full(st, &src, f, opts);
        let mut objects = json_diags(f, &c.diag);
        let text = render_diag(&c.diag, &src);
        if !json && !text.is_empty() {
            eprintln!("{}", text);
        }
        match &c.shader {
            // A profile-1 shader whose TGSI cannot be emitted can never be linked (the
            // specification's link rule), so `check` reports it as the old compiler did.
            Some(sh) => {
                if let Err(e) = &sh.tgsi {
                    let (severity, note) = if sh.profile == Profile::P1 {
                        code = 1;
                        ("error", "")
                    } else {
                        (
                            "warning",
                            ": it compiles, but VirGL cannot take it and no program can link it",
                        )
                    };
                    let msg = format!("{}{}", e, note);
                    if json {
                        objects.push(json_diag(Some(f), None, None, severity, &msg));
                    } else {
                        eprintln!("{}: {}: {}", f, severity, msg);
                    }
                }
            }
            None => code = 1,
        }
        if json {
            for o in &objects {
                println!("{}", o);
            }
        }
    }
    code
}

/// `shc dump ast|ir FILE [--stage S] [--profile N]`.
pub fn dump(kind: &str, file: &str, stage: Option<u32>, opts: &CompileOptions) -> i32 {
    let src = match read(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("shc dump: {}", e);
            return 2;
        }
    };
    let mut out = String::new();
    let diag = if kind == "ast" {
        let mut ws = Box::new(Workspace::new());
        let mut diag = Box::new(Diagnostics::new(file));
        if dump_ast_with(&mut ws, &src, file, opts, &mut diag, &mut out) {
            let text = render_diag(&diag, &src);
            if !text.is_empty() {
                eprintln!("{}", text);
            }
            None
        } else {
            Some(diag)
        }
    } else {
        let st = match stage_for(file, stage) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("shc dump: {}", e);
                return 2;
            }
        };
        let c = compile_full(st, &src, file, opts);
        match &c.shader {
            Some(sh) => {
                let _ = dump_module(&sh.name, &sh.module, &mut out);
                // Warnings of a successful compile go to stderr; the dump is unchanged.
                let text = render_diag(&c.diag, &src);
                if !text.is_empty() {
                    eprintln!("{}", text);
                }
                None
            }
            None => Some(c.diag),
        }
    };
    match diag {
        None => {
            print!("{}", out);
            0
        }
        Some(d) => {
            let mut s = String::new();
            let _ = d.render(&src, &mut s);
            eprint!("{}", s);
            1
        }
    }
}

/// `shc limits`: every fixed capacity of the compiler as JSON. Without `--profile` the
/// profile-1 object of before profiles existed (its keys are kept exactly); with `--profile N`
/// every entry of `limits(N)` plus the bounds both profiles share.
pub fn limits_cmd(profile: Option<Profile>) -> i32 {
    let v = match profile {
        None => serde_json::json!({
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
        }),
        Some(p) => {
            let mut m = serde_json::Map::new();
            for (name, value) in limits(p).entries() {
                m.insert(name.into(), value.into());
            }
            m.insert("version_min".into(), VERSION_MIN.into());
            m.insert("version_max".into(), VERSION_MAX.into());
            // Profile 2's integers are 32-bit (issue 14): every 32-bit literal is exact.
            let int_max = if p == shader::limits::Profile::P1 {
                shader::front::lex::INT_LITERAL_MAX
            } else {
                shader::front::lex::P2_INT_LITERAL_MAX
            };
            m.insert("int_literal_max".into(), int_max.into());
            m.insert("compiler_version".into(), COMPILER_VERSION.into());
            serde_json::Value::Object(m)
        }
    };
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    0
}

/// `shc builtins [--profile N]`: the built-in functions and variables with their signatures,
/// as JSON. Without `--profile` (or with 1) profile 1's list exactly as before; with 2 the
/// profile-2 additions follow, each overload a signature.
pub fn builtins(profile: Option<Profile>) -> i32 {
    let p2: &[(&str, u8, u8, &str)] = if profile == Some(Profile::P2) {
        shader::front::sema::builtins2::P2_BUILTINS
    } else {
        &[]
    };
    // Profile 2's texture functions (issue 15): `texture` takes profile 2's overloads in
    // profile 1's place (so profile 1's names stay first, in order); the others follow the
    // library.
    let tex: &[(&str, u8, u8, &str)] = if profile == Some(Profile::P2) {
        shader::front::sema::textures::P2_TEX_BUILTINS
    } else {
        &[]
    };
    let entry = |(name, lo, hi, sig): &(&str, u8, u8, &str)| {
        serde_json::json!({
            "name": name,
            "min_args": lo,
            "max_args": hi,
            "signatures": sig.split("; ").collect::<Vec<_>>(),
        })
    };
    let mut funcs: Vec<serde_json::Value> = shader::front::sema::builtins::BUILTINS
        .iter()
        .chain(p2.iter())
        .map(|b| {
            tex.iter()
                .find(|t| t.0 == b.0)
                .map_or_else(|| entry(b), entry)
        })
        .collect();
    for t in tex {
        if !funcs.iter().any(|f| f["name"] == t.0) {
            funcs.push(entry(t));
        }
    }
    let v = serde_json::json!({
        "functions": funcs,
        "variables": [
            {"name": "gl_Position", "type": "vec4", "stage": "vertex", "access": "write (must be written)"},
            {"name": "gl_FragCoord", "type": "vec4", "stage": "fragment", "access": "read-only"},
            {"name": "gl_VertexID", "type": "int", "stage": "vertex", "access": "read-only", "profile": 2},
            {"name": "gl_InstanceID", "type": "int", "stage": "vertex", "access": "read-only", "profile": 2},
            {"name": "gl_FrontFacing", "type": "bool", "stage": "fragment", "access": "read-only", "profile": 2},
        ],
        "genType": ["float", "vec2", "vec3", "vec4"],
        "genIType": ["int", "ivec2", "ivec3", "ivec4"],
    });
    let mut v = v;
    if profile == Some(Profile::P2) {
        v["genUType"] = serde_json::json!(["uint", "uvec2", "uvec3", "uvec4"]);
        v["genBType"] = serde_json::json!(["bool", "bvec2", "bvec3", "bvec4"]);
        v["mat"] = serde_json::json!([
            "mat2", "mat3", "mat4", "mat2x3", "mat2x4", "mat3x2", "mat3x4", "mat4x2", "mat4x3"
        ]);
    }
    println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    0
}
