//! Measuring driver (not a test): where a many-thread frame's time goes, per thread.
//! `band_trace SCENE K FRAMES [b2b]` (SCENE: cube, quad, lights, floor, functions, fractal)
//! alternates one-thread frames with frames on a `render_cmd::Pool` of K (as the bench's thread
//! table does; `b2b`: the pool's frames back to back, then the one-thread ones) and stamps, through
//! each scratch's trace hook (`Scratch::set_trace`), when each job takes bands, has cleared
//! their rows and has drawn them. Medians over the frames (us after the frame's start): the
//! hand-off (`Workers::run` called), each job's first take and last end, its takes, rows, and
//! time clearing, drawing and between takes; the time per drawn row against the one-thread
//! frame's; the sum of the jobs' busy time against the one-thread frame's (extra work or slower
//! work); the spread of the jobs' ends (imbalance) and the return after the last end (join).
//! `ab`: one-thread frames alternated with frames on `Pool::outside(K)` and on `Pool::new(K)`
//! (medians of each).
//! `outside` (after FRAMES or the mode): on `Pool::outside` (the caller not one of the pool's
//! threads, sessions 10-17) instead of `Pool::new`.
//! `inorder`: the K workers' jobs all run on this thread one after the other (what splitting
//! into bands costs one thread, whatever the machine's load does to a second one).
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::sync::Mutex;
use std::time::Instant;

use shader::back::raster::{Scratch, TraceMark, Workers};

/// Stamps of one scratch (one job) in the current frame.
type Log = Mutex<Vec<(Instant, TraceMark)>>;

/// Per run: when `run` was called and when it returned.
struct Timed<'a> {
    pool: &'a dyn Workers,
    calls: Mutex<Vec<(Instant, Instant)>>,
}

impl Workers for Timed<'_> {
    fn count(&self) -> usize {
        self.pool.count()
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let s = Instant::now();
        self.pool.run(jobs);
        self.calls.lock().unwrap().push((s, Instant::now()));
    }
}

fn main() {
    common::on_big_stack(run);
}

/// One job's frame, from its stamps (us after `t0`).
#[derive(Default, Clone, Copy)]
struct JobSum {
    start: f64,
    end: f64,
    takes: f64,
    rows: f64,
    clear: f64,
    draw: f64,
    /// Between takes (queue, statistics, the jit frames' borrowing).
    between: f64,
}

fn summarize(t0: Instant, log: &[(Instant, TraceMark)]) -> Option<JobSum> {
    let us = |t: Instant| t.saturating_duration_since(t0).as_secs_f64() * 1e6;
    let mut s = JobSum {
        start: us(log.first()?.0),
        end: us(log.last()?.0),
        ..JobSum::default()
    };
    let (mut take_at, mut cleared_at, mut last_end) = (None, None, None::<f64>);
    for &(t, m) in log {
        let t = us(t);
        match m {
            TraceMark::Take { rows, .. } => {
                s.takes += 1.0;
                s.rows += rows as f64;
                if let Some(e) = last_end {
                    s.between += t - e;
                }
                take_at = Some(t);
                cleared_at = None;
            }
            TraceMark::Cleared => {
                if let Some(a) = take_at {
                    s.clear += t - a;
                }
                cleared_at = Some(t);
            }
            TraceMark::Drawn => {
                if let Some(a) = cleared_at.or(take_at) {
                    s.draw += t - a;
                }
                last_end = Some(t);
            }
        }
    }
    Some(s)
}

fn run() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("quad", String::as_str);
    let (_, scene, vert, frag) = common::SCENES
        .iter()
        .find(|s| s.0 == name)
        .copied()
        .unwrap_or(common::SCENES[0]);
    let k: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let frames: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let b2b = args.get(4).map(String::as_str) == Some("b2b");
    let inorder = args.get(4).map(String::as_str) == Some("inorder");
    let (soft, mut color, mut depth) = common::load(scene, vert, frag);
    let logs: &'static [Log] = Vec::leak((0..k).map(|_| Mutex::new(Vec::new())).collect());
    let mut scratches: Vec<Scratch> = (0..k)
        .map(|j| {
            let mut s = render_cmd::jit_scratch();
            let log = &logs[j];
            let hook: &'static (dyn Fn(TraceMark) + Sync) = Box::leak(Box::new(move |m| {
                if let Ok(mut l) = log.lock() {
                    l.push((Instant::now(), m));
                }
            }));
            s.set_trace(Some(hook));
            s
        })
        .collect();
    for l in logs {
        l.lock().unwrap().reserve(1 << 16);
    }
    let outside = args.iter().any(|a| a == "outside");
    let pool = if outside {
        render_cmd::Pool::outside(k)
    } else {
        render_cmd::Pool::new(k)
    };
    let in_order = common::InOrder(k);
    let timed = Timed {
        pool: if inorder { &in_order } else { &pool },
        calls: Mutex::new(Vec::new()),
    };
    if args.get(4).map(String::as_str) == Some("ab") {
        ab(&soft, k, frames, &mut scratches, &mut color, &mut depth);
        return;
    }
    // Per one-thread frame: (frame, clear, draw); per pool frame: (frame, call, return, jobs).
    let mut one: Vec<[f64; 3]> = Vec::new();
    let mut many: Vec<(f64, f64, f64, Vec<JobSum>)> = Vec::new();
    let one_frame = |scratches: &mut [Scratch], color: &mut [u32], depth: &mut [f32]| {
        logs[0].lock().unwrap().clear();
        let t0 = Instant::now();
        soft.draw_parallel(
            &shader::back::raster::Serial,
            &mut scratches[..1],
            color,
            depth,
        )
        .unwrap();
        let f = t0.elapsed().as_secs_f64() * 1e6;
        let s = summarize(t0, &logs[0].lock().unwrap()).unwrap_or_default();
        [f, s.clear, s.draw]
    };
    for i in 0..frames + 3 {
        if !b2b {
            let r = one_frame(&mut scratches, &mut color, &mut depth);
            if i >= 3 {
                one.push(r);
            }
        }
        for l in logs {
            l.lock().unwrap().clear();
        }
        timed.calls.lock().unwrap().clear();
        let t0 = Instant::now();
        soft.draw_parallel(&timed, &mut scratches, &mut color, &mut depth)
            .unwrap();
        let f = t0.elapsed().as_secs_f64() * 1e6;
        let us = |t: Instant| t.saturating_duration_since(t0).as_secs_f64() * 1e6;
        let (call, ret) = timed
            .calls
            .lock()
            .unwrap()
            .first()
            .map_or((0.0, 0.0), |&(c, r)| (us(c), us(r)));
        let jobs: Vec<JobSum> = logs
            .iter()
            .map(|l| summarize(t0, &l.lock().unwrap()).unwrap_or_default())
            .collect();
        if i >= 3 {
            many.push((f, call, ret, jobs));
        }
    }
    if b2b {
        for _ in 0..frames {
            one.push(one_frame(&mut scratches, &mut color, &mut depth));
        }
    }
    let col1 = |i: usize| median(one.iter().map(|r| r[i]).collect());
    let (f1, c1, d1) = (col1(0), col1(1), col1(2));
    let fk = median(many.iter().map(|r| r.0).collect());
    println!(
        "{} {} {}: 1 band: frame {:.1} us (clear {:.1}, draw {:.1}, {:.3} us/row); {} threads: frame {:.1} us ({:.2}x)",
        name,
        if b2b {
            "back to back"
        } else if inorder {
            "alternated with the bands of K workers all on this thread"
        } else {
            "alternated"
        },
        frames,
        f1,
        c1,
        d1,
        d1 / soft.height as f64,
        k,
        fk,
        f1 / fk
    );
    println!(
        "  hand-off at {:.1}, return {:.1}",
        median(many.iter().map(|r| r.1).collect()),
        median(many.iter().map(|r| r.2).collect())
    );
    for j in 0..k {
        let c = |f: fn(&JobSum) -> f64| median(many.iter().map(|r| f(&r.3[j])).collect());
        let per_row = median(
            many.iter()
                .filter(|r| r.3[j].rows > 0.0)
                .map(|r| r.3[j].draw / r.3[j].rows)
                .collect(),
        );
        println!(
            "  job{}: start {:.1} end {:.1}; takes {:.0} rows {:.0}; clear {:.1} draw {:.1} ({:.3} us/row, {:.2}x the 1-thread's) between {:.1}",
            j,
            c(|s| s.start),
            c(|s| s.end),
            c(|s| s.takes),
            c(|s| s.rows),
            c(|s| s.clear),
            c(|s| s.draw),
            per_row,
            per_row / (d1 / soft.height as f64),
            c(|s| s.between),
        );
    }
    let busy = median(
        many.iter()
            .map(|r| r.3.iter().map(|s| s.clear + s.draw).sum())
            .collect(),
    );
    let spread = median(
        many.iter()
            .map(|r| {
                let ends = r.3.iter().filter(|s| s.takes > 0.0).map(|s| s.end);
                ends.clone().fold(0.0, f64::max) - ends.fold(f64::MAX, f64::min)
            })
            .collect(),
    );
    let join = median(
        many.iter()
            .map(|r| r.2 - r.3.iter().map(|s| s.end).fold(0.0, f64::max))
            .collect(),
    );
    let after = median(many.iter().map(|r| r.0 - r.2).collect());
    println!(
        "  busy (clear + draw, all jobs) {:.1} us = {:.2}x the 1-thread's {:.1}; end spread {:.1}; join {:.1}; after return {:.1}; ideal frame {:.1}",
        busy,
        busy / (c1 + d1),
        c1 + d1,
        spread,
        join,
        after,
        f1 / k as f64
    );
}

/// `ab`: a one-thread frame, a frame on `Pool::outside(k)`, a one-thread frame and one on
/// `Pool::new(k)` in turn, `frames` times, in one process (a change of the machine's state moves
/// both pools alike): medians of each, and the pools' ratio.
fn ab(
    soft: &render_cmd::SoftScene,
    k: usize,
    frames: usize,
    scratches: &mut [Scratch],
    color: &mut [u32],
    depth: &mut [f32],
) {
    let outside = render_cmd::Pool::outside(k);
    let joined = render_cmd::Pool::new(k);
    let mut t = [(); 4].map(|_| Vec::new());
    for i in 0..frames + 3 {
        for (j, w) in [
            &shader::back::raster::Serial as &dyn Workers,
            &outside,
            &shader::back::raster::Serial,
            &joined,
        ]
        .into_iter()
        .enumerate()
        {
            let n = if j % 2 == 0 { 1 } else { k };
            let s = Instant::now();
            soft.draw_parallel(w, &mut scratches[..n], color, depth)
                .unwrap();
            if i >= 3 {
                t[j].push(s.elapsed().as_secs_f64() * 1e6);
            }
        }
    }
    let m = t.map(median);
    println!(
        "ab {}: 1 thread {:.1} / {:.1} us; outside pool {:.1} us ({:.2}x), joined pool {:.1} us ({:.2}x); joined/outside {:.3}",
        frames,
        m[0],
        m[2],
        m[1],
        m[0] / m[1],
        m[3],
        m[2] / m[3],
        m[3] / m[1]
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
