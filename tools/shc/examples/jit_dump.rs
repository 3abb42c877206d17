//! Profiling aid (not a test): writes the compiled form of a shader pair's two stages to
//! `PREFIX.vert.bin` and `PREFIX.frag.bin` (raw x86-64 code, the segments' entries printed),
//! for `objdump -D -b binary -mi386:x86-64 PREFIX.frag.bin`:
//! `cargo run -p shc --example jit_dump VERT FRAG PREFIX`. Under callgrind the generated code
//! is one anonymous blob; this shows what it runs.
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;
use shader::ir::Stage;

fn main() {
    common::on_big_stack(run);
}

fn run() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let [vert, frag, prefix] = &a[..] else {
        eprintln!("usage: jit_dump VERT FRAG PREFIX");
        return;
    };
    let opts = shader::program::compile::CompileOptions::default();
    let read = |p: &str| std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let built = render_cmd::build_program(&read(vert), vert, &read(frag), frag, &opts)
        .unwrap_or_else(|f| panic!("{}", f.message));
    for (stage, name) in [(Stage::Vertex, "vert"), (Stage::Fragment, "frag")] {
        let Some(exe) = built.program.executable(stage) else {
            continue;
        };
        let mut buf = vec![0u8; 256 * 1024];
        match shader::back::exec::jit::compile(exe, &mut buf) {
            Ok(c) => {
                let path = format!("{prefix}.{name}.bin");
                std::fs::write(&path, &buf[..c.len]).unwrap_or_else(|e| panic!("{path}: {e}"));
                println!(
                    "{name}: {} bytes, entries {:?}, {} spills",
                    c.len,
                    &c.entries[..c.segments],
                    c.spills
                );
            }
            Err(e) => println!("{name}: not compiled ({e:?})"),
        }
    }
}
