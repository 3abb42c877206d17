//! Measuring driver (not a test): `band_cost SCENE K FRAMES` (SCENE: cube, quad, lights, floor, functions) draws a bench scene FRAMES times
//! with the bands of K workers all drawn one after the other on this thread (K = 1: one band),
//! for instruction counts under callgrind: the per-band repeated set-up is the difference.
//! `band_cost SCENE K FRAMES pool` draws on a `render_cmd::Pool` of K instead and prints the
//! process's CPU time per frame (all threads, from /proc/self/stat) beside the wall time: on a
//! loaded machine the CPU time shows what splitting costs, whatever the scheduler does.
//! `band_cost SCENE K FRAMES probe` alternates one-thread frames with frames on a pool of K
//! (both through the compiled form) and times each `Workers::run` of the latter: when each job
//! started and ended after the call, and when the call returned. Medians over the frames: the
//! call (after the frame's start: the serial work before the hand-off), each job's start, length
//! and end, the spread of the jobs' ends, and the join (the return after the last end).
//! `probe-b2b`: the pool's frames back to back (then the one-thread ones), as `shc render`
//! and a demo draw them. Both end with an arithmetic control (the bench's), alternated.
//! `band_cost SCENE K FRAMES ab` alternates a one-thread frame, a frame on session 15's pool
//! (every wait asleep), a one-thread frame and one on `render_cmd::Pool`, in one process so
//! that a change of the machine's load moves both pools alike: medians of each.
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::sync::Mutex;
use std::time::Instant;

use shader::back::raster::{Scratch, Serial, Workers};

/// Per run: the call, start/end of each job and the return, in seconds after the frame's start.
struct Timed<'a> {
    pool: &'a render_cmd::Pool,
    frame: Mutex<Instant>,
    log: Mutex<Vec<Vec<f64>>>,
}

impl Workers for Timed<'_> {
    fn count(&self) -> usize {
        self.pool.count()
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let t0 = *self.frame.lock().unwrap();
        let call = t0.elapsed().as_secs_f64();
        let marks: Vec<Mutex<(f64, f64)>> = jobs.iter().map(|_| Mutex::new((0.0, 0.0))).collect();
        let mut wrapped: Vec<Box<dyn FnMut() + Send + '_>> = jobs
            .iter_mut()
            .zip(marks.iter())
            .map(|(j, m)| {
                Box::new(move || {
                    let s = t0.elapsed().as_secs_f64();
                    j();
                    let e = t0.elapsed().as_secs_f64();
                    if let Ok(mut m) = m.lock() {
                        *m = (s, e);
                    }
                }) as Box<dyn FnMut() + Send + '_>
            })
            .collect();
        let mut refs: Vec<&mut (dyn FnMut() + Send)> =
            wrapped.iter_mut().map(|j| &mut **j as _).collect();
        self.pool.run(&mut refs);
        let back = t0.elapsed().as_secs_f64();
        drop(refs);
        drop(wrapped);
        let mut row: Vec<f64> = marks
            .iter()
            .flat_map(|m| {
                let (s, e) = *m.lock().unwrap();
                [s, e]
            })
            .collect();
        row.push(back);
        row.push(call);
        self.log.lock().unwrap().push(row);
    }
}

fn main() {
    common::on_big_stack(run);
}

fn run() {
    let args: Vec<String> = std::env::args().collect();
    let (scene, vert, frag) = common::scene(args.get(1).map_or("cube", String::as_str));
    let k: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let frames: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10);
    let (soft, mut color, mut depth) = common::load(scene, vert, frag);
    if args.get(4).map(String::as_str) == Some("ab") {
        ab(&soft, k, frames, &mut color, &mut depth);
        return;
    }
    if let Some(mode @ ("probe" | "probe-b2b")) = args.get(4).map(String::as_str) {
        probe(
            &soft,
            k,
            frames,
            &mut color,
            &mut depth,
            mode == "probe-b2b",
        );
        return;
    }
    let mut scratches: Vec<Scratch> = (0..k).map(|_| Scratch::new()).collect();
    let pool = render_cmd::Pool::new(k);
    let workers: &dyn Workers = if args.get(4).map(String::as_str) == Some("pool") {
        &pool
    } else {
        &common::InOrder(k)
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

/// `frames` one-thread frames alternated with frames on a pool of `k` (`back_to_back`: the
/// pool's frames one after the other, then the one-thread ones), the latter's runs timed.
fn probe(
    soft: &render_cmd::SoftScene,
    k: usize,
    frames: usize,
    color: &mut [u32],
    depth: &mut [f32],
    back_to_back: bool,
) {
    let mut scratches: Vec<Scratch> = (0..k).map(|_| render_cmd::jit_scratch()).collect();
    let pool = render_cmd::Pool::new(k);
    let timed = Timed {
        pool: &pool,
        frame: Mutex::new(Instant::now()),
        log: Mutex::new(Vec::new()),
    };
    let (mut one, mut two) = (Vec::new(), Vec::new());
    let one_frame = |scratches: &mut [Scratch], color: &mut [u32], depth: &mut [f32]| {
        let s = Instant::now();
        soft.draw_parallel(&Serial, &mut scratches[..1], color, depth)
            .unwrap();
        s.elapsed().as_secs_f64()
    };
    for _ in 0..frames {
        if !back_to_back {
            one.push(one_frame(&mut scratches, color, depth));
        }
        let s = Instant::now();
        *timed.frame.lock().unwrap() = s;
        soft.draw_parallel(&timed, &mut scratches, color, depth)
            .unwrap();
        two.push(s.elapsed().as_secs_f64());
    }
    if back_to_back {
        for _ in 0..frames {
            one.push(one_frame(&mut scratches, color, depth));
        }
    }
    let log = timed.log.into_inner().unwrap();
    let runs = log.len() / frames.max(1);
    let us = |x: f64| x * 1e6;
    let control = control(median(one.clone()), k, frames / 2 + 1);
    println!(
        "frame median: 1 thread {:.1} us, {} threads {:.1} us ({:.2}x; control {:.2}x); runs per frame {}",
        us(median(one.clone())),
        k,
        us(median(two.clone())),
        median(one) / median(two),
        control,
        runs
    );
    for r in 0..runs {
        let rows: Vec<&Vec<f64>> = log.iter().skip(r).step_by(runs).collect();
        let col = |i: usize| median(rows.iter().map(|x| x[i]).collect());
        let jobs = (rows[0].len() - 2) / 2;
        let mut line = format!("run {}: call {:.1};", r, us(col(2 * jobs + 1)));
        for j in 0..jobs {
            line += &format!(
                " job{} start {:.1} len {:.1} end {:.1};",
                j,
                us(col(2 * j)),
                us(median(
                    rows.iter().map(|x| x[2 * j + 1] - x[2 * j]).collect()
                )),
                us(col(2 * j + 1)),
            );
        }
        // Per frame: how much later the last job ended than the first (the imbalance plus the
        // late start), and the wait from the last end to the return.
        let spread = median(
            rows.iter()
                .map(|x| {
                    let ends = (0..jobs).map(|j| x[2 * j + 1]);
                    ends.clone().fold(0.0, f64::max) - ends.fold(f64::MAX, f64::min)
                })
                .collect(),
        );
        let join = median(
            rows.iter()
                .map(|x| {
                    let last = (0..jobs).map(|j| x[2 * j + 1]).fold(0.0, f64::max);
                    x[2 * jobs] - last
                })
                .collect(),
        );
        line += &format!(
            " return {:.1}, end spread {:.1}, join wait {:.1}",
            us(col(2 * jobs)),
            us(spread),
            us(join)
        );
        println!("{}", line);
    }
}

/// `ab`: frames on one thread, on session 15's pool of `k` (`Pool::with_waits(k, false)`) and on
/// `render_cmd::Pool::new(k)`,
/// in turn, `frames` times: medians of each, and of the one-thread frames after each pool's.
fn ab(soft: &render_cmd::SoftScene, k: usize, frames: usize, color: &mut [u32], depth: &mut [f32]) {
    let mut scratches: Vec<Scratch> = (0..k).map(|_| render_cmd::jit_scratch()).collect();
    let plain = render_cmd::Pool::with_waits(k, false);
    let pool = render_cmd::Pool::new(k);
    let mut t = [(); 4].map(|_| Vec::new());
    for _ in 0..frames {
        for (i, w) in [&Serial as &dyn Workers, &plain, &Serial, &pool]
            .into_iter()
            .enumerate()
        {
            let n = if i % 2 == 0 { 1 } else { k };
            let s = Instant::now();
            soft.draw_parallel(w, &mut scratches[..n], color, depth)
                .unwrap();
            t[i].push(s.elapsed().as_secs_f64());
        }
    }
    let mean: Vec<f64> = t
        .iter()
        .map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64 * 1e6)
        .collect();
    let m = t.map(|v| median(v) * 1e6);
    println!(
        "1 thread {:.1} / {:.1} us (after the old / new pool's frame); old pool {:.1} us ({:.2}x), new pool {:.1} us ({:.2}x); new/old {:.3}",
        m[2],
        m[0],
        m[1],
        m[2] / m[1],
        m[3],
        m[0] / m[3],
        m[3] / m[1]
    );
    // The arithmetic control on each pool, alternated.
    let control = render_cmd::Control::new(m[2] * 1e-6, k);
    let (mut c_old, mut c_new) = (Vec::new(), Vec::new());
    for _ in 0..frames {
        let (one, many) = control.frame(&plain);
        c_old.push(one / many);
        let (one, many) = control.frame(&pool);
        c_new.push(one / many);
    }
    println!(
        "control median: old pool {:.2}x, new pool {:.2}x",
        median(c_old),
        median(c_new)
    );
    println!(
        "means: 1 thread {:.1} / {:.1} us; old pool {:.1} us ({:.2}x), new pool {:.1} us ({:.2}x); new/old {:.3}",
        mean[2],
        mean[0],
        mean[1],
        mean[2] / mean[1],
        mean[3],
        mean[0] / mean[3],
        mean[3] / mean[1]
    );
}

/// Pure arithmetic as long as `secs`, whole on this thread and split in `k` parts on a pool of
/// `k`, alternated `frames` times: the median scaling this machine allows just now (the bench's
/// control).
fn control(secs: f64, k: usize, frames: usize) -> f64 {
    let control = render_cmd::Control::new(secs, k);
    let pool = render_cmd::Pool::new(k);
    median(
        (0..frames)
            .map(|_| {
                let (one, many) = control.frame(&pool);
                one / many
            })
            .collect(),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
