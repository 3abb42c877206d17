//! `cargo bench -p shc --bench render`: Mpixels/s of the software path (single thread) against
//! Mesa softpipe and llvmpipe (`LP_NUM_THREADS=0`) on four 640x480 scenes, measured in the same
//! run: a lit rotating cube, a full-screen shader heavy in functions and built-ins, a textured
//! quad, and (issue 13) a profile-2 scene: a textured mesh lit by an array of 4 point-light
//! structs with attenuation, and (issue 14) a loop-heavy full-screen 64-step fractal. Targets:
//! at least 8x softpipe, within 3x of llvmpipe (issue 4), within 2x on the profile-2 scenes
//! (issues 13 and 14).
//!
//! A second table (issue 17) times the same scenes on N threads (`draw_parallel` over
//! `render_cmd::Pool` of N) against llvmpipe with `LP_NUM_THREADS=N`, for N = 1 and the
//! machine's cores.
//!
//! Mesa picks its driver once per process, so each driver runs in a child process: this same
//! binary, re-executed with `SHC_BENCH_MESA_DRIVER` set. A frame is clear + draw, waited for
//! (glFinish for Mesa); compile, link and upload are outside the timing. Each measurement runs
//! about `BUDGET` of frames after one untimed frame.

#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use mesa_ref::{Driver, DriverConfig, MesaRenderer};

const CHILD_ENV: &str = "SHC_BENCH_MESA_DRIVER";
/// llvmpipe's thread count in a child (0 when unset: rasterize on the calling thread).
const THREADS_ENV: &str = "SHC_BENCH_LP_THREADS";
/// Scenes to run: those whose name contains this text (set for the children from the bench's
/// first non-option argument, `cargo bench -p shc --bench render -- fractal`; unset: all).
const FILTER_ENV: &str = "SHC_BENCH_SCENE";
const BUDGET: Duration = Duration::from_millis(1500);
const MAX_FRAMES: u32 = 500;

struct Case {
    name: &'static str,
    scene: &'static str,
    vert: &'static str,
    frag: &'static str,
}

const CASES: [Case; 6] = [
    Case {
        name: "lit cube",
        scene: "benches/scenes/cube.json",
        vert: "tests/diff/lit_cube.vert",
        frag: "tests/diff/lit_cube.frag",
    },
    Case {
        name: "function-heavy full screen",
        scene: "benches/scenes/fullscreen.json",
        vert: "tests/diff/fullscreen.vert",
        frag: "tests/diff/functions.frag",
    },
    Case {
        name: "textured quad",
        scene: "benches/scenes/textured_quad.json",
        vert: "tests/diff/textured.vert",
        frag: "benches/scenes/tex_quad.frag",
    },
    // Issue 13's profile-2 scene: structs, an array of 4 point lights with attenuation and
    // GLSL 3.30 built-ins over a textured mesh (the sources carry `#pragma chrisos profile 2`).
    Case {
        name: "p2 4 point lights mesh",
        scene: "benches/scenes/p2_lights.json",
        vert: "benches/scenes/p2_lights.vert",
        frag: "benches/scenes/p2_lights.frag",
    },
    // Issue 14's loop-heavy scene: a 64-step Mandelbrot over the whole frame (a dynamic loop
    // with a break, a dynamically indexed palette, an early return).
    Case {
        name: "p2 64-step fractal",
        scene: "benches/scenes/p2_fractal.json",
        vert: "benches/scenes/p2_fractal.vert",
        frag: "benches/scenes/p2_fractal.frag",
    },
    // Issue 15: the compat suite's receding checkerboard floor, mipmapped (box chain) and
    // trilinear (LINEAR_MIPMAP_LINEAR), implicit level of detail from the quads.
    Case {
        name: "mipmapped trilinear floor",
        scene: "benches/scenes/mip_floor.json",
        vert: "tests/compat/mesh.vert",
        frag: "tests/compat/floor_ll.frag",
    },
];

/// The scene filter: the first argument that is not an option, else `SHC_BENCH_SCENE`.
fn filter() -> String {
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .or_else(|| std::env::var(FILTER_ENV).ok())
        .unwrap_or_default()
}

fn selected(c: &Case) -> bool {
    c.name.contains(filter().as_str())
}

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn frames_for(one: Duration) -> u32 {
    ((BUDGET.as_secs_f64() / one.as_secs_f64().max(1e-6)) as u32).clamp(3, MAX_FRAMES)
}

/// Software path: seconds per frame, through `jit`'s compiled code where it has some (None:
/// the interpreter only).
fn time_software(
    c: &Case,
    jit: Option<&'static dyn shader::back::raster::Jit>,
) -> Result<(f64, u64), String> {
    let opts = shader::program::compile::CompileOptions::default();
    let (soft, _) = render_cmd::load(&path(c.vert), &path(c.frag), &path(c.scene), &opts)
        .map_err(|f| f.message)?;
    let n = soft.width as usize * soft.height as usize;
    let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
    let mut scratch = Box::new(shader::back::raster::Scratch::new());
    scratch.set_jit(jit);
    let t0 = Instant::now();
    let stats = soft
        .draw(&mut scratch, &mut color, &mut depth)
        .map_err(|f| f.message)?;
    let frames = frames_for(t0.elapsed());
    let start = Instant::now();
    for _ in 0..frames {
        soft.draw(&mut scratch, &mut color, &mut depth)
            .map_err(|f| f.message)?;
    }
    Ok((
        start.elapsed().as_secs_f64() / frames as f64,
        stats.fragments_shaded,
    ))
}

/// Software path on each of `counts` threads (bands over a persistent pool per count, started
/// once per case): seconds per frame for each count. The counts' frames alternate (one frame on
/// 1 thread, one on N, ...), so a change of the machine's load during the measurement reaches
/// every count alike and the scaling (their ratio) does not depend on when each was timed.
fn time_software_threads(c: &Case, counts: &[usize]) -> Result<Vec<f64>, String> {
    use shader::back::raster::Scratch;
    let opts = shader::program::compile::CompileOptions::default();
    let (soft, _) = render_cmd::load(&path(c.vert), &path(c.frag), &path(c.scene), &opts)
        .map_err(|f| f.message)?;
    let n = soft.width as usize * soft.height as usize;
    let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
    let most = counts.iter().copied().max().unwrap_or(1);
    let mut scratches: Vec<Scratch> = (0..most).map(|_| render_cmd::jit_scratch()).collect();
    let pools: Vec<render_cmd::Pool> = counts.iter().map(|&k| render_cmd::Pool::new(k)).collect();
    let mut frame = |k: usize, color: &mut [u32], depth: &mut [f32]| -> Result<f64, String> {
        let start = Instant::now();
        soft.draw_parallel(&pools[k], &mut scratches[..counts[k]], color, depth)
            .map_err(|f| f.message)?;
        Ok(start.elapsed().as_secs_f64())
    };
    // One untimed frame per count (first-use costs), the first one also sizing the run.
    let mut one = Duration::ZERO;
    for k in 0..counts.len() {
        let t = frame(k, &mut color, &mut depth)?;
        if k == 0 {
            one = Duration::from_secs_f64(t);
        }
    }
    let frames = frames_for(one);
    let mut total = vec![0.0f64; counts.len()];
    for _ in 0..frames {
        for (k, sum) in total.iter_mut().enumerate() {
            *sum += frame(k, &mut color, &mut depth)?;
        }
    }
    Ok(total.into_iter().map(|t| t / frames as f64).collect())
}

/// Control for the many-thread table: pure arithmetic (no memory traffic, no shared data) as long
/// as `secs`, run whole on this thread and split into `threads` equal parts on a pool of
/// `threads`, alternated frame by frame: the scaling this machine allows under its present load.
fn control_scaling(secs: f64, threads: usize) -> f64 {
    let control = render_cmd::Control::new(secs, threads);
    let pool = render_cmd::Pool::new(threads);
    let frames = frames_for(Duration::from_secs_f64(secs));
    let (mut one, mut many) = (0.0, 0.0);
    for _ in 0..frames {
        let (a, b) = control.frame(&pool);
        one += a;
        many += b;
    }
    one / many
}

/// Child process: time every case with one Mesa driver and print "case seconds" lines.
fn child(driver: &str) {
    let driver = Driver::parse(driver).unwrap_or_else(|| panic!("unknown driver {}", driver));
    let threads = std::env::var(THREADS_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut mesa = MesaRenderer::new(DriverConfig {
        driver,
        llvmpipe_threads: Some(threads),
    })
    .unwrap_or_else(|e| panic!("{}", e));
    eprintln!("  ({} is {})", driver.name(), mesa.renderer());
    for (i, c) in CASES.iter().enumerate().filter(|(_, c)| selected(c)) {
        let scene = scene::Scene::load(&path(c.scene)).unwrap_or_else(|e| panic!("{}", e));
        let vs = std::fs::read_to_string(path(c.vert)).unwrap();
        let fs = std::fs::read_to_string(path(c.frag)).unwrap();
        let one = mesa
            .time_frames(&vs, &fs, &scene, 1)
            .unwrap_or_else(|e| panic!("{}: {}", c.name, e));
        let per = mesa
            .time_frames(&vs, &fs, &scene, frames_for(one))
            .unwrap_or_else(|e| panic!("{}: {}", c.name, e));
        println!("{} {}", i, per.as_secs_f64());
    }
}

fn time_mesa(driver: Driver) -> Vec<f64> {
    time_mesa_threads(driver, 0)
}

/// `driver` in a child process with `LP_NUM_THREADS=threads`: seconds per frame per case.
fn time_mesa_threads(driver: Driver, threads: u32) -> Vec<f64> {
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD_ENV, driver.name())
        .env(THREADS_ENV, threads.to_string())
        .env(FILTER_ENV, filter())
        .output()
        .unwrap_or_else(|e| panic!("cannot re-run the bench for {}: {}", driver.name(), e));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "the {} child failed ({})",
        driver.name(),
        out.status
    );
    let mut times = vec![f64::NAN; CASES.len()];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut f = line.split_whitespace();
        if let (Some(i), Some(t)) = (
            f.next().and_then(|s| s.parse::<usize>().ok()),
            f.next().and_then(|s| s.parse().ok()),
        ) {
            if let Some(slot) = times.get_mut(i) {
                *slot = t;
            }
        }
    }
    times
}

/// Compiling and linking at profile-2 capacity needs more than a main thread's default stack.
const STACK: usize = 256 << 20;

fn main() {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(run)
        .expect("bench thread")
        .join()
        .expect("bench thread panicked");
}

fn run() {
    if let Ok(driver) = std::env::var(CHILD_ENV) {
        child(&driver);
        return;
    }
    // `cargo bench` passes `--bench`; a further argument selects the scenes whose name has it.
    let pixels = 640.0 * 480.0;
    let mpix = |secs: f64| pixels / secs / 1e6;
    let softpipe = time_mesa(Driver::Softpipe);
    let llvmpipe = time_mesa(Driver::Llvmpipe);
    println!(
        "{:<28} {:>22} {:>22} {:>22} {:>22} {:>12} {:>12} {:>10}",
        "scene (640x480)",
        "software",
        "interpreter",
        "softpipe",
        "llvmpipe",
        "vs softpipe",
        "vs llvmpipe",
        "compiled"
    );
    // `software` runs through the compiled form where a module compiles (`jitmem::jit`;
    // SHADER_JIT=0: the interpreter, as `interpreter` always is).
    let jit = render_cmd::jit();
    for (i, c) in CASES.iter().enumerate().filter(|(_, c)| selected(c)) {
        let (Ok((interp, _)), Ok((soft, fragments))) =
            (time_software(c, None), time_software(c, jit))
        else {
            println!("{:<28} software path failed", c.name);
            continue;
        };
        let cell = |s: f64| format!("{:7.2} ms {:6.1} Mpx/s", s * 1e3, mpix(s));
        println!(
            "{:<28} {:>22} {:>22} {:>22} {:>22} {:>11.1}x {:>11.2}x {:>9.2}x",
            c.name,
            cell(soft),
            cell(interp),
            cell(softpipe[i]),
            cell(llvmpipe[i]),
            softpipe[i] / soft,
            llvmpipe[i] / soft,
            interp / soft
        );
        println!(
            "{:<28} ({} fragments shaded per software frame)",
            "", fragments
        );
    }
    println!(
        "ratios: software speed relative to each driver (>1: software faster); compiled: \
         interpreter time over software time"
    );
    println!(
        "targets: >= 8x softpipe on each scene; >= 0.33x llvmpipe (within 3x), >= 0.5x on the p2 scene"
    );

    // Many threads: ours on N bands against llvmpipe with LP_NUM_THREADS=N.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1usize];
    if cores > 1 {
        counts.push(cores);
    }
    println!();
    println!(
        "{:<28} {:>8} {:>22} {:>22} {:>12} {:>12}",
        "scene (640x480)", "threads", "software", "llvmpipe", "vs llvmpipe", "scaling"
    );
    let lp: Vec<Vec<f64>> = counts
        .iter()
        .map(|&n| time_mesa_threads(Driver::Llvmpipe, n as u32))
        .collect();
    for (i, c) in CASES.iter().enumerate().filter(|(_, c)| selected(c)) {
        let times = match time_software_threads(c, &counts) {
            Ok(t) => t,
            Err(e) => {
                println!("{:<28} software path failed: {}", c.name, e);
                continue;
            }
        };
        let first = times[0];
        for (k, (&n, &soft)) in counts.iter().zip(&times).enumerate() {
            let cell = |s: f64| format!("{:7.2} ms {:6.1} Mpx/s", s * 1e3, mpix(s));
            println!(
                "{:<28} {:>8} {:>22} {:>22} {:>11.2}x {:>11.2}x",
                c.name,
                n,
                cell(soft),
                cell(lp[k][i]),
                lp[k][i] / soft,
                first / soft
            );
        }
        if counts.len() > 1 && first.is_finite() {
            let n = counts[counts.len() - 1];
            println!(
                "{:<28} {:>8} {:>22} {:>22} {:>12} {:>11.2}x",
                "  control (arithmetic)",
                n,
                "",
                "",
                "",
                control_scaling(first, n)
            );
        }
    }
    println!(
        "threads: ours on N bands, llvmpipe with LP_NUM_THREADS=N ({} cores here); scaling: \
         our 1-thread time over our N-thread time, their frames alternated; control: pure \
         arithmetic as long as the \
         scene's 1-thread frame, whole against split on a pool of N (the second core's share)",
        cores
    );
}
