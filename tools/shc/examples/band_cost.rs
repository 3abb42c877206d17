//! Measuring driver (not a test): `band_cost SCENE K FRAMES` draws a bench scene FRAMES times
//! with the bands of K workers all drawn one after the other on this thread (K = 1: one band),
//! for instruction counts under callgrind: the per-band repeated set-up is the difference.
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
    let start = std::time::Instant::now();
    for _ in 0..frames {
        soft.draw_parallel(&InOrder(k), &mut scratches, &mut color, &mut depth)
            .unwrap();
    }
    println!("{:.3} ms per frame", start.elapsed().as_secs_f64() * 1e3 / frames as f64);
}
