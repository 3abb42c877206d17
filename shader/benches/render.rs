//! Software rendering speed: the 640x480 bench scenes of `tools/shc/benches/scenes` (a lit
//! rotating cube, a function-heavy full-screen shader, a textured quad in perspective, and
//! profile 2's 64-step fractal and uniform-count lights loops), each
//! rendered single-threaded through compile -> link -> raster::draw. Reports ms/frame, frame
//! Mpixels/s and shaded fragments per second, from this thread's CPU time. A short custom harness (a few seconds in all).
//! The Mesa softpipe/llvmpipe comparison is wired by the `mesa-ref` tool.
#[path = "../tests/ircore_util/scene.rs"]
mod scene_render;

use std::time::{Duration, Instant};

use shader::back::raster::Scratch;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// CPU time of this thread in seconds (Linux schedstat, ns resolution): the machine is shared,
/// so wall time over-states frame times when other jobs run. Falls back to wall time.
fn cpu_seconds(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
        })
        .map(|ns| ns as f64 * 1e-9)
        .unwrap_or_else(|| wall.elapsed().as_secs_f64())
}

/// The compiler's profile-2 tables and the executor's frames are large in an unoptimised call
/// chain: run the bench on a thread with a stack of its own size, not the main thread's 8 MiB.
fn main() {
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .expect("bench thread");
    worker.join().expect("bench thread panicked");
}

fn run() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let scenes = [
        (
            "lit_cube",
            "tools/shc/tests/diff/lit_cube.vert",
            "tools/shc/tests/diff/lit_cube.frag",
            "tools/shc/benches/scenes/cube.json",
        ),
        (
            "functions",
            "tools/shc/tests/diff/fullscreen.vert",
            "tools/shc/tests/diff/functions.frag",
            "tools/shc/benches/scenes/fullscreen.json",
        ),
        (
            "textured_quad",
            "tools/shc/tests/diff/textured.vert",
            "tools/shc/benches/scenes/tex_quad.frag",
            "tools/shc/benches/scenes/textured_quad.json",
        ),
        (
            "p2_fractal",
            "tools/shc/benches/scenes/p2_fractal.vert",
            "tools/shc/benches/scenes/p2_fractal.frag",
            "tools/shc/benches/scenes/p2_fractal.json",
        ),
        (
            "p2_lights",
            "tools/shc/benches/scenes/p2_lights.vert",
            "tools/shc/benches/scenes/p2_lights.frag",
            "tools/shc/benches/scenes/p2_lights.json",
        ),
    ];
    let mut scratch = Box::new(Scratch::new());
    // The compiled form where the host has it (SHADER_JIT=0: the interpreter only).
    #[cfg(all(target_arch = "x86_64", unix))]
    scratch.set_jit(jitmem::jit());
    for (name, vs, fs, sc) in scenes {
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let p = scene_render::prepare(
            &format!("{}/{}", ROOT, vs),
            &format!("{}/{}", ROOT, fs),
            &format!("{}/{}", ROOT, sc),
        );
        let n = (p.scene.width * p.scene.height) as usize;
        let mut color = vec![0u32; n];
        let mut depth = vec![1.0f32; n];
        // Warm up, then time whole frames for about 1.5 s.
        let stats = scene_render::render(&p, &mut scratch, &mut color, &mut depth);
        let start = Instant::now();
        let cpu0 = cpu_seconds(start);
        let mut frames = 0u32;
        // RENDER_BENCH_FRAMES=N runs exactly N timed frames (for instruction counting).
        let fixed: Option<u32> = std::env::var("RENDER_BENCH_FRAMES")
            .ok()
            .and_then(|v| v.parse().ok());
        while match fixed {
            Some(n) => frames < n,
            None => cpu_seconds(start) - cpu0 < 1.0 || frames < 3,
        } {
            scene_render::render(&p, &mut scratch, &mut color, &mut depth);
            frames += 1;
            if start.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        let per_frame = (cpu_seconds(start) - cpu0) / frames as f64;
        // FNV-1a of the picture: optimisations must leave it unchanged.
        let hash = color.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
            (h ^ *p as u64).wrapping_mul(0x0100_0000_01b3)
        });
        println!(
            "render/{:<14} {:>8.3} ms/frame  {:>7.1} Mpixels/s  {:>7.1} Mfragments/s  ({} fragments, {} pixels written, {} frames, picture {:016x})",
            name,
            per_frame * 1e3,
            n as f64 / per_frame / 1e6,
            stats.fragments_shaded as f64 / per_frame / 1e6,
            stats.fragments_shaded,
            stats.pixels_written,
            frames,
            hash
        );
    }
}
