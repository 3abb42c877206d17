//! `shc`: the ChrisOS shader compiler for shader authors on the host.
//!
//! Exit codes: 0 success, 1 compile/link/load errors (reasons on stderr), 2 usage or I/O errors.
mod csir_cmd;
mod frontend_cmd; // check, dump ast|ir, limits, builtins
mod pp_cmd; // preprocess (profile 2)
mod render_cmd; // render, link // csir save|load, dump tgsi

const USAGE: &str = "usage: shc <command> ...
  check FILE... [--stage vertex|fragment|geometry|compute]
  dump ast|ir|tgsi FILE [--stage S]
  limits | builtins
  preprocess FILE          (the profile-2 preprocessor's expanded text)
  link VERT FRAG
  render VERT FRAG --scene SCENE.json --out OUT.png
  csir save FILE -o OUT [--v1|--v2]
  csir load FILE";

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("check") => frontend_cmd::check(&args[1..]),
        Some("dump") if args.get(1).map(String::as_str) == Some("tgsi") => {
            csir_cmd::dump_tgsi(&args[2..])
        }
        Some("dump") => frontend_cmd::dump(&args[1..]),
        Some("limits") => frontend_cmd::limits(),
        Some("preprocess") => pp_cmd::preprocess(&args[1..]),
        Some("builtins") => frontend_cmd::builtins(),
        Some("link") => render_cmd::link(&args[1..]),
        Some("render") => render_cmd::render(&args[1..]),
        Some("csir") => csir_cmd::csir(&args[1..]),
        _ => {
            eprintln!("{}", USAGE);
            2
        }
    };
    code
}
