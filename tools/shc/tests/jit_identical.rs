//! The compiled form (issue 17, `jitmem`) draws every picture the interpreter draws, byte for
//! byte: each pair of the differential corpus (`tests/diff/corpus.txt`) and each bench scene is
//! rendered with the interpreter only and with the compiled runner (1 and 2 threads), and the
//! pictures must be identical, once for each form of the compiled code (8 lanes per YMM, and
//! 16 per ZMM where the machine has AVX-512: skipped with a note where it has not). The test
//! also reports which modules compiled in which form (and why the others fell back) and fails
//! if none did (in the 16-lane form too, where it runs), so it proves the compiled code ran.
#![cfg(all(target_arch = "x86_64", unix))]

mod common;

#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::path::{Path, PathBuf};

use common::corpus;
use shader::back::exec::jit::Form;
use shader::program::compile::CompileOptions;
use shader::Stage;

/// The bench scenes (`benches/render.rs`): scene, vertex and fragment files.
const BENCH: [(&str, &str, &str); 6] = [
    (
        "benches/scenes/cube.json",
        "tests/diff/lit_cube.vert",
        "tests/diff/lit_cube.frag",
    ),
    (
        "benches/scenes/fullscreen.json",
        "tests/diff/fullscreen.vert",
        "tests/diff/functions.frag",
    ),
    (
        "benches/scenes/textured_quad.json",
        "tests/diff/textured.vert",
        "benches/scenes/tex_quad.frag",
    ),
    (
        "benches/scenes/p2_lights.json",
        "benches/scenes/p2_lights.vert",
        "benches/scenes/p2_lights.frag",
    ),
    (
        "benches/scenes/p2_fractal.json",
        "benches/scenes/p2_fractal.vert",
        "benches/scenes/p2_fractal.frag",
    ),
    (
        "benches/scenes/mip_floor.json",
        "tests/compat/mesh.vert",
        "tests/compat/floor_ll.frag",
    ),
];

#[test]
fn compiled_runner_draws_every_picture_the_interpreter_draws() {
    compiled_runner_draws_alike(Form::Ymm);
}

#[test]
fn zmm_runner_draws_every_picture_the_interpreter_draws() {
    if !jitmem::available(Form::Zmm) {
        eprintln!("no AVX-512F/DQ (or no OS support) here: the 16-lane form is not tested");
        return;
    }
    compiled_runner_draws_alike(Form::Zmm);
}

fn compiled_runner_draws_alike(form: Form) {
    if !std::is_x86_feature_detected!("avx2") {
        eprintln!("no AVX2 here: the compiled form never runs; nothing to compare");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<(String, PathBuf, PathBuf, PathBuf)> = corpus(&root.join("tests/diff"))
        .into_iter()
        .map(|p| (p.name(), p.scene, p.vert, p.frag))
        .collect();
    for (s, v, f) in BENCH {
        cases.push((
            format!("bench {}", s),
            root.join(s),
            root.join(v),
            root.join(f),
        ));
    }
    let host = jitmem::host_in(form);
    let jit: &'static dyn shader::back::raster::Jit = host;
    let opts = CompileOptions::default();
    let (mut compiled, mut modules, mut in_form) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (name, scene, vert, frag) in &cases {
        let (soft, _) = match render_cmd::load(vert, frag, scene, &opts) {
            Ok(s) => s,
            Err(f) => {
                failures.push(format!("{}: {}", name, f.message));
                continue;
            }
        };
        let mut report = Vec::new();
        for prog in soft.programs() {
            for stage in [Stage::Vertex, Stage::Fragment] {
                let Some(exe) = prog.executable(stage) else {
                    continue;
                };
                modules += 1;
                match host.lookup(exe) {
                    Ok(c) => {
                        compiled += 1;
                        in_form += (c.form() == form) as usize;
                        report.push(format!("{:?} compiled ({:?})", stage, c.form()));
                    }
                    Err(e) => report.push(format!(
                        "{:?} {:?} (refused: {:?})",
                        stage,
                        e,
                        shader::back::exec::jit::refused_ops::<32>(exe)
                    )),
                }
            }
        }
        eprintln!("{}: {}", name, report.join(", "));
        let reference = soft.render_jit(1, None).map(|i| i.rgba);
        for threads in [1, 2] {
            let got = soft.render_jit(threads, Some(jit)).map(|i| i.rgba);
            match (&reference, &got) {
                (Ok(a), Ok(b)) if a == b => {}
                (Ok(a), Ok(b)) => {
                    let differ = a.chunks(4).zip(b.chunks(4)).filter(|(x, y)| x != y).count();
                    failures.push(format!(
                        "{} ({} threads): {} pixels differ",
                        name, threads, differ
                    ))
                }
                (a, b) => failures.push(format!(
                    "{} ({} threads): {:?} / {:?}",
                    name,
                    threads,
                    a.as_ref().err().map(|f| &f.message),
                    b.as_ref().err().map(|f| &f.message)
                )),
            }
        }
    }
    eprintln!(
        "{} of {} modules compiled, {} in the {:?} form",
        compiled, modules, in_form, form
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compiled > 0 && in_form > 0,
        "no module compiled in the {:?} form: the test compared the interpreter with itself",
        form
    );
}

/// The bench scenes draw the same pixels on every instruction set this machine can run
/// (`Scratch::set_isa`): the interpreter's base (SSE2) forms against the AVX2 trampoline's wide
/// ones (the trilinear floor's 8-lane blends among them; `shader`'s `simd_paths` test loads no
/// mip levels), and the compiled runner on the AVX2 path against both.
#[test]
fn bench_scenes_draw_alike_on_every_instruction_set() {
    use shader::back::exec::simd::{Isa, Simd};
    use shader::back::raster::Scratch;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let opts = CompileOptions::default();
    for (s, v, f) in BENCH {
        let (soft, _) = render_cmd::load(&root.join(v), &root.join(f), &root.join(s), &opts)
            .unwrap_or_else(|e| panic!("{}: {}", s, e.message));
        let n = soft.width as usize * soft.height as usize;
        let frame = |isa: Isa, jit: bool| {
            let mut scratch = Box::new(if jit {
                render_cmd::jit_scratch()
            } else {
                Scratch::new()
            });
            assert!(scratch.set_isa(isa), "{:?} cannot be set", isa);
            let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
            soft.draw(&mut scratch, &mut color, &mut depth)
                .unwrap_or_else(|e| panic!("{}: {}", s, e.message));
            (
                color,
                depth.iter().map(|d| d.to_bits()).collect::<Vec<u32>>(),
            )
        };
        let base = frame(Isa::Base, false);
        let mut runs = Vec::new();
        if Simd::with(Isa::Avx2).is_some() {
            runs.push((Isa::Avx2, false));
            runs.push((Isa::Avx2, true));
        }
        for (isa, jit) in runs {
            let got = frame(isa, jit);
            let differ = got.0.iter().zip(&base.0).filter(|(a, b)| a != b).count();
            assert_eq!(
                differ, 0,
                "{} on {:?} (compiled: {}): pixels differ",
                s, isa, jit
            );
            assert!(
                got.1 == base.1,
                "{} on {:?} (compiled: {}): depth differs",
                s,
                isa,
                jit
            );
        }
    }
}
