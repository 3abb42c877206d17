//! Measuring driver (not a test): where a bench frame's time goes when it is split into bands.
//! `cargo run --release -p shc --example band_times [scene-name-part]` prints, per bench scene,
//! the serial clear, the one-thread frame, one- and two-thread frames alternated on scoped
//! threads started per draw and on the persistent pool (best times and the spread of the
//! per-pair ratio), the cost of an empty 2-job run on each, an arithmetic control on the pool,
//! and the time of all the bands K workers would make drawn one after the other on this thread
//! (the per-band repeated set-up).
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::sync::Mutex;
use std::time::Instant;

use shader::back::raster::{parallel::Threads, Scratch, Workers};

fn min(v: &[f64]) -> f64 {
    v.iter().cloned().fold(f64::MAX, f64::min)
}

/// `count` workers whose jobs run one after the other here, each timed.
struct Timed {
    count: usize,
    times: Mutex<Vec<f64>>,
}

impl Workers for Timed {
    fn count(&self) -> usize {
        self.count
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let Ok(mut t) = self.times.lock() else { return };
        t.clear();
        for job in jobs.iter_mut() {
            let s = Instant::now();
            job();
            t.push(s.elapsed().as_secs_f64());
        }
    }
}

fn main() {
    common::on_big_stack(run);
}

fn run() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let reps = 40;
    for (name, scene, vert, frag) in common::SCENES {
        if !name.contains(filter.as_str()) {
            continue;
        }
        let (soft, mut color, mut depth) = common::load(scene, vert, frag);
        let mut scratches: Vec<Scratch> = (0..64).map(|_| Scratch::new()).collect();
        // The clear alone.
        let mut clear = f64::MAX;
        for _ in 0..reps {
            let s = Instant::now();
            color.iter_mut().for_each(|p| *p = 7);
            depth.iter_mut().for_each(|d| *d = 1.0);
            clear = clear.min(s.elapsed().as_secs_f64());
            std::hint::black_box(&color);
        }
        let mut one = f64::MAX;
        for _ in 0..reps {
            let s = Instant::now();
            soft.draw(&mut scratches[0], &mut color, &mut depth)
                .unwrap();
            one = one.min(s.elapsed().as_secs_f64());
        }
        println!(
            "{}: frame {:.3} ms (clear {:.3} ms, {:.0}%)",
            name,
            one * 1e3,
            clear * 1e3,
            clear / one * 100.0
        );
        // Threaded frames, alternated with one-thread ones so both see the same load: scoped
        // threads started per draw (`Threads`) and the persistent pool (`render_cmd::Pool`).
        let pools = [render_cmd::Pool::new(1), render_cmd::Pool::new(2)];
        let mut t1 = Vec::new();
        let mut t2 = Vec::new();
        let mut p1 = Vec::new();
        let mut p2 = Vec::new();
        let mut spawn = f64::MAX;
        let mut handoff = f64::MAX;
        for _ in 0..reps {
            for (k, t, p) in [(1usize, &mut t1, &mut p1), (2, &mut t2, &mut p2)] {
                let s = Instant::now();
                soft.draw_parallel(&Threads(k), &mut scratches[..k], &mut color, &mut depth)
                    .unwrap();
                t.push(s.elapsed().as_secs_f64());
                let s = Instant::now();
                soft.draw_parallel(&pools[k - 1], &mut scratches[..k], &mut color, &mut depth)
                    .unwrap();
                p.push(s.elapsed().as_secs_f64());
            }
            let s = Instant::now();
            Threads(2).run(&mut [&mut || {}, &mut || {}]);
            spawn = spawn.min(s.elapsed().as_secs_f64());
            let s = Instant::now();
            pools[1].run(&mut [&mut || {}, &mut || {}]);
            handoff = handoff.min(s.elapsed().as_secs_f64());
        }
        // Control: the same split of pure arithmetic (no memory traffic, no shared data), so
        // the scaling the machine itself allows under its present load shows beside ours.
        let spin = |n: u64| {
            let mut x = 1u64;
            for i in 0..n {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
            }
            std::hint::black_box(x);
        };
        let mut unit = f64::MAX;
        for _ in 0..10 {
            let s = Instant::now();
            spin(1 << 20);
            unit = unit.min(s.elapsed().as_secs_f64());
        }
        let iters = (min(&t1) / unit * (1 << 20) as f64) as u64;
        let (mut c1, mut c2) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            let s = Instant::now();
            spin(iters);
            c1.push(s.elapsed().as_secs_f64());
            let s = Instant::now();
            pools[1].run(&mut [&mut || spin(iters / 2), &mut || spin(iters / 2)]);
            c2.push(s.elapsed().as_secs_f64());
        }
        println!(
            "  control (arithmetic, same length, on the pool): 1 thread {:.3} ms, 2 threads {:.3} ms: {:.2}x",
            min(&c1) * 1e3,
            min(&c2) * 1e3,
            min(&c1) / min(&c2)
        );
        let line = |what: &str, t1: &[f64], t2: &[f64], empty: f64| {
            let (b1, b2) = (min(t1), min(t2));
            let ratios: Vec<f64> = t1.iter().zip(t2).map(|(a, b)| a / b).collect();
            let mut sorted = ratios.clone();
            sorted.sort_by(|a, b| a.total_cmp(b));
            println!(
                "  {}: 1 {:.3} ms, 2 {:.3} ms (best/best {:.2}x; per-pair ratio median {:.2}x, range {:.2}..{:.2}); empty 2-job run {:.3} ms",
                what, b1 * 1e3, b2 * 1e3, b1 / b2, sorted[sorted.len() / 2], sorted[0], sorted[sorted.len() - 1], empty * 1e3
            );
        };
        line("Threads", &t1, &t2, spawn);
        line("Pool   ", &p1, &p2, handoff);
        // The per-band repeated set-up (every band shades every vertex and sets up every
        // triangle): the bands of K workers (4 K of them) all drawn here, one after the other,
        // against the one-band frame.
        for k in [2usize, 4, 8, 16] {
            let w = Timed {
                count: k,
                times: Mutex::new(Vec::new()),
            };
            let mut best = f64::MAX;
            for _ in 0..reps / 2 {
                soft.draw_parallel(&w, &mut scratches[..k], &mut color, &mut depth)
                    .unwrap();
                best = best.min(w.times.lock().unwrap().iter().sum::<f64>());
            }
            println!(
                "  bands of {:2} workers drawn one after the other: {:.3} ms ({:+.1}% on one band)",
                k,
                best * 1e3,
                (best / one - 1.0) * 100.0
            );
        }
    }
}
