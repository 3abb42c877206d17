//! Measuring driver (not a test): `band_cost SCENE K FRAMES` (SCENE: cube, quad, lights, floor, functions) draws a bench scene FRAMES times
//! with the bands of K workers all drawn one after the other on this thread (K = 1: one band),
//! for instruction counts under callgrind: the per-band repeated set-up is the difference.
//! `band_cost SCENE K FRAMES pool` draws on a `render_cmd::Pool` of K instead and prints the
//! process's CPU time per frame (all threads, from /proc/self/stat) beside the wall time: on a
//! loaded machine the CPU time shows what splitting costs, whatever the scheduler does.
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::path::Path;

use shader::back::raster::{Scratch, Workers};

struct InOrder(usize);

impl Workers for InOrder {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut() {
            job();
        }
    }
}

fn main() {
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(run);
    if let Ok(t) = t {
        let _ = t.join();
    }
}

fn run() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (scene, vert, frag) = match args.get(1).map(String::as_str) {
        Some("quad") => (
            "benches/scenes/textured_quad.json",
            "tests/diff/textured.vert",
            "benches/scenes/tex_quad.frag",
        ),
        Some("lights") => (
            "benches/scenes/p2_lights.json",
            "benches/scenes/p2_lights.vert",
            "benches/scenes/p2_lights.frag",
        ),
        Some("floor") => (
            "benches/scenes/mip_floor.json",
            "tests/compat/mesh.vert",
            "tests/compat/floor_ll.frag",
        ),
        Some("functions") => (
            "benches/scenes/fullscreen.json",
            "tests/diff/fullscreen.vert",
            "tests/diff/functions.frag",
        ),
        _ => (
            "benches/scenes/cube.json",
            "tests/diff/lit_cube.vert",
            "tests/diff/lit_cube.frag",
        ),
    };
    let k: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let frames: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    let opts = shader::program::compile::CompileOptions::default();
    let (soft, _) = render_cmd::load(&dir.join(vert), &dir.join(frag), &dir.join(scene), &opts)
        .unwrap_or_else(|f| panic!("{}", f.message));
    let n = soft.width as usize * soft.height as usize;
    let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
    let mut scratches: Vec<Scratch> = (0..k).map(|_| Scratch::new()).collect();
    let pool = render_cmd::Pool::new(k);
    let workers: &dyn Workers = if args.get(4).map(String::as_str) == Some("pool") {
        &pool
    } else {
        &InOrder(k)
    };
    let (start, cpu0) = (std::time::Instant::now(), cpu_seconds());
    let mut stats = None;
    for _ in 0..frames {
        stats = Some(
            soft.draw_parallel(workers, &mut scratches, &mut color, &mut depth)
                .unwrap(),
        );
    }
    let per = |s: f64| s * 1e3 / frames as f64;
    println!(
        "{:.3} ms per frame, {:.3} ms CPU per frame",
        per(start.elapsed().as_secs_f64()),
        per(cpu_seconds() - cpu0)
    );
    println!("last frame: {:?}", stats);
}

/// User + system time of this process so far (every thread), in clock ticks of 1/100 s.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which ends with the last ')'): utime and stime are the
    // 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let field = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (field(11) + field(12)) / 100.0
}
