//! The main job's demo: Gfx3D's demo scene (`gfx3d::demo`: shadow map, sky cube, lit objects, a
//! normal-mapped floor, instancing, blending, HDR tone mapping) at
//! 640x480 through the backend the command line asks for (`backend=auto|software|virgl|mock`,
//! AUTO by default), presented on the scanout every frame when VirGL renders, for `frames=N`
//! frames (default: about [`DEFAULT_SECONDS`] of animation). Prints the backend, frames per
//! second and per-frame statistics, then the benchmark (the scene at 640x480 and 1280x720 on
//! the software and the VirGL backend), and finally writes the last demo frame as a PPM to the
//! debug console (run-qemu.sh turns it into a PNG).
//!
//! Must never: hold the GPU lock while Gfx3D runs, or write anything but the one PPM to the
//! debug console.
use alloc::boxed::Box;
use alloc::vec;

use gfx3d::demo::{Demo, DEMO_HEIGHT, DEMO_WIDTH};
use gfx3d::linked::Linked;
use gfx3d::virgl::VirglBackend;
use gfx3d::{BackendMode, Gfx3d, Stats};

use crate::cmdline::BootArgs;
use crate::gpu::{self, SharedGpu};
use crate::{clock, debugcon};

/// Owner of the demo's objects.
const OWNER: u32 = 1;
/// Without `frames=N` the demo animates this long.
pub const DEFAULT_SECONDS: u64 = 4;
/// Upper bound of frames without `frames=N` (a very fast backend still ends).
const DEFAULT_FRAMES_MAX: u32 = 1000;
/// Each benchmark case renders until this much time or `BENCH_FRAMES_MAX` frames have passed
/// (at least `BENCH_FRAMES_MIN` frames).
const BENCH_US: u64 = 1_500_000;
const BENCH_FRAMES_MAX: u32 = 60;
const BENCH_FRAMES_MIN: u32 = 2;

fn parse_mode(name: &str) -> Option<BackendMode> {
    match name {
        "" | "auto" => Some(BackendMode::Auto),
        "software" => Some(BackendMode::Software),
        "virgl" => Some(BackendMode::Virgl),
        "mock" => Some(BackendMode::Mock),
        _ => None,
    }
}

/// A Gfx3D booted in `mode`, with the VirGL device when the GPU is up.
fn gfx(mode: BackendMode) -> Result<Gfx3d<Linked>, gfx3d::Error> {
    let mut g = Gfx3d::<Linked>::new();
    g.set_workers(&crate::smp::Cpus);
    let device = SharedGpu::new().map(|t| {
        Box::new(VirglBackend::new(t).with_scanout(gpu::scanout_hooks()))
            as Box<dyn gfx3d::device::Device + Send>
    });
    g.boot(mode, device)?;
    Ok(g)
}

/// Per-frame averages of the counters between two snapshots.
struct PerFrame {
    draws: u64,
    triangles: u64,
    submits: u64,
    dwords: u64,
}

fn per_frame(a: &Stats, b: &Stats, frames: u32) -> PerFrame {
    let n = u64::from(frames.max(1));
    PerFrame {
        draws: b.draws.saturating_sub(a.draws) / n,
        triangles: b.triangles.saturating_sub(a.triangles) / n,
        submits: b.submits.saturating_sub(a.submits) / n,
        dwords: b.dwords.saturating_sub(a.dwords) / n,
    }
}

/// One line: where a VirGL frame's time went, as means per frame over `frames` frames taking
/// `total_us`: the guest CPU (everything outside device calls: Gfx3D building the command
/// stream), then per kind of device call how many per frame and their microseconds per frame.
fn breakdown(label: &str, t: &gpu::GpuTimes, frames: u32, total_us: u64) {
    let n = u64::from(frames.max(1));
    let per = |calls: u64| {
        let c = calls * 100 / n;
        alloc::format!("{}.{:02}", c / 100, c % 100)
    };
    println!(
        "{}: virgl breakdown per frame ({} frames): {} us = guest cpu {} us + submit_3d {} x {} us + transfers {} x {} us + scanout (set_scanout+resource_flush) {} x {} us + other {} x {} us; fence waits {} x {} us (inside the calls)",
        label,
        frames,
        total_us / n,
        total_us.saturating_sub(t.device_us()) / n,
        per(t.submits),
        t.submit_us / n,
        per(t.transfers),
        t.transfer_us / n,
        per(t.presents),
        t.present_us / n,
        per(t.others),
        t.other_us / n,
        per(t.fenced),
        t.fence_wait_us / n,
    );
}

/// "12.34" from frames over microseconds.
fn fps(frames: u32, us: u64) -> (u64, u64) {
    let centi = u64::from(frames) * 100_000_000 / us.max(1);
    (centi / 100, centi % 100)
}

/// Runs the demo and the benchmark; true when everything worked.
pub fn run(args: &BootArgs) -> bool {
    let Some(mode) = parse_mode(args.backend.as_str()) else {
        println!(
            "demo: unknown backend \"{}\" (want auto, software, virgl or mock)",
            args.backend
        );
        return false;
    };
    let mut ok = match animate(mode, args.frames) {
        Ok(()) => true,
        Err(e) => {
            println!("demo: FAILED: {}", e);
            false
        }
    };
    ok &= bench();
    ok
}

fn animate(mode: BackendMode, frames: Option<u32>) -> Result<(), alloc::string::String> {
    use alloc::string::ToString;
    let mut g = gfx(mode).map_err(|e| alloc::format!("boot {:?}: {}", mode, e))?;
    println!(
        "demo: backend {} (requested {:?}), {}x{}, {}",
        g.backend_name(),
        mode,
        DEMO_WIDTH,
        DEMO_HEIGHT,
        match frames {
            Some(n) => alloc::format!("{} frames", n),
            None => alloc::format!("about {} s of animation", DEFAULT_SECONDS),
        }
    );
    let demo = Demo::new(&mut g, OWNER, DEMO_WIDTH, DEMO_HEIGHT)
        .map_err(|e| alloc::format!("setup: {}", e))?;
    println!(
        "demo: passes: shadow map {}x{} (depth, compare-sampled), scene into {} (sky cube, normal-mapped mipmapped floor, instanced ring, blended glass), tone-mapping post pass",
        gfx3d::demo::DEMO_SHADOW_SIZE,
        gfx3d::demo::DEMO_SHADOW_SIZE,
        demo.scene_format.name()
    );
    let presenting = g.backend_name() == "virgl";
    let start = clock::now_us();
    let first = g.stats();
    let times0 = gpu::times();
    let (mut min_us, mut max_us) = (u64::MAX, 0u64);
    let mut done = 0u32;
    loop {
        match frames {
            Some(n) if done >= n => break,
            None if done >= DEFAULT_FRAMES_MAX
                || (done > 0
                    && clock::now_us().saturating_sub(start) >= DEFAULT_SECONDS * 1_000_000) =>
            {
                break
            }
            _ => {}
        }
        let t0 = clock::now_us();
        let before = g.stats();
        demo.frame(&mut g, done)
            .map_err(|e| alloc::format!("frame {}: {}", done, e))?;
        if presenting && g.backend_name() == "virgl" {
            demo.present(&mut g)
                .map_err(|e| alloc::format!("present frame {}: {}", done, e))?;
        }
        let us = clock::now_us().saturating_sub(t0);
        min_us = min_us.min(us);
        max_us = max_us.max(us);
        if done < 3 || done % 30 == 0 {
            let s = per_frame(&before, &g.stats(), 1);
            println!(
                "demo: frame {} on {}: {} us, draws {} triangles {} submits {} dwords {}",
                done,
                g.backend_name(),
                us,
                s.draws,
                s.triangles,
                s.submits,
                s.dwords
            );
        }
        done += 1;
    }
    let total = clock::now_us().saturating_sub(start);
    let times = gpu::times().since(&times0);
    let last = g.stats();
    let s = per_frame(&first, &last, done);
    let (fi, ff) = fps(done, total);
    println!(
        "demo: {} frames in {} ms on {}: {}.{:02} fps (frame {}..{} us); per frame: draws {} triangles {} submits {} dwords {}{}",
        done,
        total / 1000,
        g.backend_name(),
        fi,
        ff,
        if done == 0 { 0 } else { min_us },
        max_us,
        s.draws,
        s.triangles,
        s.submits,
        s.dwords,
        if last.degraded { " (degraded: the device was lost)" } else { "" }
    );
    if g.backend_name() == "virgl" {
        breakdown("demo", &times, done, total);
    }
    let mut px = vec![0u32; (DEMO_WIDTH * DEMO_HEIGHT) as usize];
    demo.read(&mut g, &mut px).map_err(|e| e.to_string())?;
    let t0 = clock::now_us();
    if !debugcon::write_ppm(DEMO_WIDTH, DEMO_HEIGHT, &px) {
        return Err("the screenshot has the wrong size".into());
    }
    println!(
        "demo: screenshot of frame {} written to the debug console ({}x{} PPM, {} ms)",
        done.saturating_sub(1),
        DEMO_WIDTH,
        DEMO_HEIGHT,
        clock::now_us().saturating_sub(t0) / 1000
    );
    demo.destroy(&mut g);
    Ok(())
}

/// The scene's frames per second at 640x480 and 1280x720 on the software and the VirGL backend.
fn bench() -> bool {
    let mut ok = true;
    for mode in [BackendMode::Software, BackendMode::Virgl] {
        for (w, h) in [(640u32, 480u32), (1280, 720)] {
            if let Err(e) = bench_case(mode, w, h) {
                println!("bench: {:?} {}x{}: FAILED: {}", mode, w, h, e);
                ok = false;
            }
        }
    }
    // The same VirGL case with every SUBMIT_3D fenced (how the loop ran before), for a
    // comparison in the same conditions (the host is shared and its load varies).
    println!("bench: next: virgl 640x480 with fenced SUBMIT_3D (each waits for the host's fence)");
    gpu::with(|d| d.set_fence_submits(true));
    let r = bench_case(BackendMode::Virgl, 640, 480);
    gpu::with(|d| d.set_fence_submits(gpu::FENCE_SUBMITS));
    if let Err(e) = r {
        println!("bench: Virgl 640x480 fenced: FAILED: {}", e);
        ok = false;
    }
    ok
}

fn bench_case(mode: BackendMode, w: u32, h: u32) -> Result<(), alloc::string::String> {
    let mut g = gfx(mode).map_err(|e| alloc::format!("boot: {}", e))?;
    let demo = Demo::new(&mut g, OWNER, w, h).map_err(|e| alloc::format!("setup: {}", e))?;
    // One warm-up frame (first-use uploads, shader creation) outside the measurement.
    demo.frame(&mut g, 0)
        .map_err(|e| alloc::format!("warm-up frame: {}", e))?;
    let first = g.stats();
    let times0 = gpu::times();
    let start = clock::now_us();
    let mut n = 0u32;
    while n < BENCH_FRAMES_MIN
        || (n < BENCH_FRAMES_MAX && clock::now_us().saturating_sub(start) < BENCH_US)
    {
        demo.frame(&mut g, n + 1)
            .map_err(|e| alloc::format!("frame {}: {}", n + 1, e))?;
        n += 1;
    }
    let us = clock::now_us().saturating_sub(start);
    let times = gpu::times().since(&times0);
    let s = per_frame(&first, &g.stats(), n);
    let (fi, ff) = fps(n, us);
    println!(
        "bench: {:<8} {:>4}x{:<4} {:>3}.{:02} fps ({} frames in {} ms); per frame: draws {} triangles {} submits {} dwords {}",
        g.backend_name(),
        w,
        h,
        fi,
        ff,
        n,
        us / 1000,
        s.draws,
        s.triangles,
        s.submits,
        s.dwords
    );
    if g.backend_name() == "virgl" {
        breakdown("bench", &times, n, us);
    }
    demo.destroy(&mut g);
    Ok(())
}
