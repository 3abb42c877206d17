//! `shc`: the ChrisOS shader compiler for shader authors on the host.
//!
//! Exit codes: 0 success (warnings may be printed), 1 compile/link/load errors (reasons on
//! stderr, or as JSON objects on stdout with `--format json`), 2 usage or I/O errors.
//! Argument parsing (and `--help` of every command) is clap's; the commands live in the modules.
use clap::{Args, Parser, Subcommand, ValueEnum};
use shader::limits::Profile;
use shader::program::compile::CompileOptions;
use shader::program::csir::Version;

mod csir_cmd; // csir save|load, dump tgsi
mod frontend_cmd; // check, dump ast|ir, limits, builtins
mod pp_cmd; // preprocess (profile 2)
mod render_cmd; // render, link

#[derive(Parser)]
#[command(
    name = "shc",
    version,
    about = "The ChrisOS shader compiler: check, dump, link and render GLSL shaders, save and load CSIR",
    after_help = "Exit codes: 0 success (warnings may be printed), 1 compile, link or load errors, 2 usage or I/O errors.",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A shader stage. The file name tells it when not given (`.vert`, `.frag`).
#[derive(Clone, Copy, ValueEnum)]
enum StageArg {
    #[value(alias = "vert")]
    Vertex,
    #[value(alias = "frag")]
    Fragment,
    /// Rejected by the compiler (only vertex and fragment shaders compile).
    Geometry,
    /// Rejected by the compiler (only vertex and fragment shaders compile).
    Compute,
}

impl StageArg {
    fn number(self) -> u32 {
        match self {
            StageArg::Vertex => 0,
            StageArg::Fragment => 1,
            StageArg::Geometry => 2,
            StageArg::Compute => 3,
        }
    }
}

fn stage(s: Option<StageArg>) -> Option<u32> {
    s.map(StageArg::number)
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    s.parse::<u32>()
        .ok()
        .and_then(Profile::from_u32)
        .ok_or_else(|| format!("'{}' is not a profile: use 1 or 2", s))
}

#[derive(Args, Clone, Copy)]
struct ProfileArg {
    /// Language profile when the source has no `#pragma chrisos profile N` (1: the original
    /// bounded language, the default; 2: GLSL 3.30 core with the preprocessor).
    #[arg(long, value_name = "1|2", value_parser = parse_profile)]
    profile: Option<Profile>,
}

impl ProfileArg {
    fn options(self) -> CompileOptions {
        CompileOptions::profile(self.profile.unwrap_or_default())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Diagnostics as NAME:LINE:COL: severity: message, the source line and a caret (stderr).
    Text,
    /// One JSON object per diagnostic and line on stdout: file, line, column, severity, message,
    /// limit (the `shc limits` name of the bound a limit error reports, else null).
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Compile each file and report its diagnostics (exit 1 when one does not compile).
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        #[arg(long, value_enum)]
        stage: Option<StageArg>,
        #[command(flatten)]
        profile: ProfileArg,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print a shader's syntax tree, verified IR or standalone TGSI.
    Dump {
        #[command(subcommand)]
        what: Dump,
    },
    /// Print every bound of the compiler as JSON (without --profile: profile 1's classic list).
    Limits {
        #[arg(long, value_name = "1|2", value_parser = parse_profile)]
        profile: Option<Profile>,
    },
    /// Print the built-in functions and variables as JSON (with --profile 2: profile 2's
    /// whole library, every overload).
    Builtins {
        #[arg(long, value_name = "1|2", value_parser = parse_profile)]
        profile: Option<Profile>,
    },
    /// Print the profile-2 preprocessor's expanded text (warnings and errors on stderr).
    Preprocess {
        #[arg(value_name = "FILE")]
        file: String,
    },
    /// Compile a vertex and a fragment shader and link them; print the program's interface.
    Link {
        vert: String,
        frag: String,
        #[command(flatten)]
        profile: ProfileArg,
        /// With json, stdout holds only the diagnostics (none when the pair links cleanly).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Draw a scene file with a linked pair on the software path into an RGBA PNG.
    Render {
        vert: String,
        frag: String,
        #[arg(long, value_name = "SCENE.json")]
        scene: String,
        #[arg(long, value_name = "OUT.png")]
        out: String,
        /// Threads the rasterizer splits the picture over (horizontal bands; the picture is
        /// the same for any count). 0: one per core.
        #[arg(long, value_name = "N", default_value_t = 1)]
        threads: usize,
        #[command(flatten)]
        profile: ProfileArg,
    },
    /// Save or load CSIR, the serialized IR.
    Csir {
        #[command(subcommand)]
        what: Csir,
    },
}

#[derive(Subcommand)]
enum Dump {
    /// The syntax tree, one node per line.
    Ast {
        file: String,
        /// Accepted for symmetry; the tree does not depend on the stage.
        #[arg(long, value_enum)]
        stage: Option<StageArg>,
        #[command(flatten)]
        profile: ProfileArg,
    },
    /// The verified IR.
    Ir {
        file: String,
        #[arg(long, value_enum)]
        stage: Option<StageArg>,
        #[command(flatten)]
        profile: ProfileArg,
    },
    /// Standalone TGSI (identity varying remap) of a GLSL source or a CSIR blob.
    Tgsi {
        file: String,
        /// For a GLSL source; default: fragment for `.frag`, else vertex.
        #[arg(long, value_enum)]
        stage: Option<StageArg>,
        #[command(flatten)]
        profile: ProfileArg,
    },
}

#[derive(Subcommand)]
enum Csir {
    /// Compile FILE (or load a CSIR blob) and write it as CSIR (v2 by default).
    Save {
        file: String,
        #[arg(short = 'o', value_name = "OUT")]
        out: String,
        /// The older implementation's format (profile 1 only; no DIV or SQRT).
        #[arg(long, conflicts_with = "v2")]
        v1: bool,
        /// The current format (the default).
        #[arg(long)]
        v2: bool,
        /// For a GLSL source; default: fragment for `.frag`, else vertex.
        #[arg(long, value_enum)]
        stage: Option<StageArg>,
        #[command(flatten)]
        profile: ProfileArg,
    },
    /// Load and verify a CSIR blob; print its version and IR.
    Load { file: String },
}

fn main() {
    // The compiler's fixed tables are sized for profile 2 (a linked program holds two modules
    // and their TGSI texts): run on a thread with room for them rather than the 8 MiB main
    // stack.
    let code = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .map(|h| h.join().unwrap_or(101))
        .unwrap_or_else(|e| {
            eprintln!("shc: cannot start: {}", e);
            2
        });
    std::process::exit(code);
}

fn run() -> i32 {
    // Usage errors exit 2 (clap's code); --help and --version exit 0.
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    match cli.command {
        Command::Check {
            files,
            stage: s,
            profile,
            format,
        } => frontend_cmd::check(&files, stage(s), &profile.options(), format == Format::Json),
        Command::Dump { what } => match what {
            Dump::Ast {
                file,
                stage: s,
                profile,
            } => frontend_cmd::dump("ast", &file, stage(s), &profile.options()),
            Dump::Ir {
                file,
                stage: s,
                profile,
            } => frontend_cmd::dump("ir", &file, stage(s), &profile.options()),
            Dump::Tgsi {
                file,
                stage: s,
                profile,
            } => csir_cmd::dump_tgsi(&file, stage(s), &profile.options()),
        },
        Command::Limits { profile } => frontend_cmd::limits_cmd(profile),
        Command::Builtins { profile } => frontend_cmd::builtins(profile),
        Command::Preprocess { file } => pp_cmd::preprocess(&file),
        Command::Link {
            vert,
            frag,
            profile,
            format,
        } => render_cmd::link(
            vert.as_ref(),
            frag.as_ref(),
            &profile.options(),
            format == Format::Json,
        ),
        Command::Render {
            vert,
            frag,
            scene,
            out,
            threads,
            profile,
        } => render_cmd::render(
            vert.as_ref(),
            frag.as_ref(),
            scene.as_ref(),
            out.as_ref(),
            threads,
            &profile.options(),
        ),
        Command::Csir { what } => match what {
            Csir::Save {
                file,
                out,
                v1,
                v2: _,
                stage: s,
                profile,
            } => {
                let version = if v1 { Version::V1 } else { Version::V2 };
                csir_cmd::save(&file, &out, version, stage(s), &profile.options())
            }
            Csir::Load { file } => csir_cmd::load(&file),
        },
    }
}
