//! Profiling driver (not a test): renders one bench scene N times, for
//! `valgrind --tool=callgrind target/release/examples/prof_render [scene] [frames] [threads]`
//! (scene: cube, fullscreen, quad, fractal (the p2 64-step fractal), floor (the mipmapped
//! trilinear floor) or lights (profile 2's 4 point lights mesh)). Instruction counts per frame
//! are exact and repeatable.
//! Stages run through the compiled form where they compile (`SHADER_JIT=0`: the interpreter).
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

fn main() {
    common::on_big_stack(run);
}

fn run() {
    let mut args = std::env::args().skip(1);
    let scene = args.next().unwrap_or_else(|| "cube".into());
    let frames: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let (scene, vert, frag) = common::scene(&scene);
    let (soft, mut color, mut depth) = common::load(scene, vert, frag);
    let mut scratches: Vec<_> = (0..threads).map(|_| render_cmd::jit_scratch()).collect();
    let pool = render_cmd::Pool::new(threads);
    let mut hash = 0u64;
    // The fastest frame: a rough figure on a loaded machine (the bench gives the real ones).
    let mut best = f64::INFINITY;
    let start = std::time::Instant::now();
    for _ in 0..frames {
        let t0 = std::time::Instant::now();
        soft.draw_parallel(&pool, &mut scratches, &mut color, &mut depth)
            .unwrap_or_else(|f| panic!("{}", f.message));
        best = best.min(t0.elapsed().as_secs_f64());
    }
    for p in &color {
        hash = hash.wrapping_mul(0x100_0000_01b3).wrapping_add(*p as u64);
    }
    println!(
        "{} frames, colour hash {:016x}, fastest frame {:.2} ms, mean {:.2} ms",
        frames,
        hash,
        best * 1e3,
        start.elapsed().as_secs_f64() * 1e3 / frames.max(1) as f64
    );
}
