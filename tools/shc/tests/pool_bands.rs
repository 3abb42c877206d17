//! `render_cmd::Pool` (the persistent worker pool of `shc render --threads N` and the bench)
//! draws every pair of the differential corpus exactly as one thread does: the same colour,
//! depth and statistics from pools of 2, 3 and 4 threads, each pool started once and reused for
//! every draw of every pair, several frames in a row into the last frame's buffers.

#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

mod common;

use std::path::Path;

use shader::back::raster::{DrawStats, Scratch, Serial, Workers};

/// One frame of `soft` on `workers` with `threads` scratches into `color`/`depth`.
fn frame(
    soft: &render_cmd::SoftScene,
    workers: &dyn Workers,
    threads: usize,
    color: &mut [u32],
    depth: &mut [f32],
) -> DrawStats {
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new()).collect();
    soft.draw_parallel(workers, &mut scratches, color, depth)
        .unwrap_or_else(|f| panic!("{}", f.message))
}

#[test]
fn pools_draw_the_differential_corpus_like_one_thread() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let pairs = common::corpus(&dir);
    assert!(pairs.len() >= 15, "the corpus lost pairs: {}", pairs.len());
    let pools: Vec<(usize, render_cmd::Pool)> = [2, 3, 4]
        .into_iter()
        .map(|n| (n, render_cmd::Pool::new(n)))
        .collect();
    for (n, pool) in &pools {
        assert_eq!(
            pool.count(),
            *n,
            "a pool of {} could not start its threads",
            n
        );
    }
    let opts = shader::program::compile::CompileOptions::default();
    for pair in &pairs {
        let name = pair.name();
        let (soft, _) = render_cmd::load(&pair.vert, &pair.frag, &pair.scene, &opts)
            .unwrap_or_else(|f| panic!("{}: {}", name, f.message));
        let n = soft.width as usize * soft.height as usize;
        let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
        let stats = frame(&soft, &Serial, 1, &mut color, &mut depth);
        let depth_bits: Vec<u32> = depth.iter().map(|d| d.to_bits()).collect();
        for (threads, pool) in &pools {
            let (mut c, mut d) = (vec![0x1234_5678u32; n], vec![0.5f32; n]);
            for round in 0..3 {
                let s = frame(&soft, pool, *threads, &mut c, &mut d);
                let differ = c.iter().zip(&color).filter(|(a, b)| a != b).count();
                assert_eq!(
                    differ, 0,
                    "{} on a pool of {} (frame {}): {} pixels differ",
                    name, threads, round, differ
                );
                assert!(
                    d.iter().map(|x| x.to_bits()).eq(depth_bits.iter().copied()),
                    "{} on a pool of {} (frame {}): depth differs",
                    name,
                    threads,
                    round
                );
                assert_eq!(s, stats, "{} on a pool of {}: statistics", name, threads);
            }
        }
    }
}

#[test]
fn a_pool_of_one_runs_every_job_here() {
    let pool = render_cmd::Pool::new(1);
    assert_eq!(pool.count(), 1);
    let mut ran = [0u32; 3];
    let [a, b, c] = &mut ran;
    pool.run(&mut [&mut || *a += 1, &mut || *b += 1, &mut || *c += 1]);
    assert_eq!(ran, [1, 1, 1]);
}

#[test]
fn a_pool_runs_every_job_exactly_once_draw_after_draw() {
    let pool = render_cmd::Pool::new(3);
    let mut ran = [0u32; 5];
    for _ in 0..200 {
        let [a, b, c, d, e] = &mut ran;
        pool.run(&mut [
            &mut || *a += 1,
            &mut || *b += 1,
            &mut || *c += 1,
            &mut || *d += 1,
            &mut || *e += 1,
        ]);
    }
    assert_eq!(ran, [200; 5]);
}

/// Runs back to back (the pool's threads then wait awake for the next one), a little apart
/// and far apart: every job runs exactly once, and a run returns only when all have ended.
#[test]
fn a_pool_runs_every_job_once_whatever_the_gaps_between_runs() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;
    for threads in [2, 4] {
        let pool = render_cmd::Pool::new(threads);
        let ran: Vec<AtomicU32> = (0..threads + 1).map(|_| AtomicU32::new(0)).collect();
        let gaps_us = [0u64, 0, 0, 100, 0, 1000, 0, 0, 2500, 0, 5000, 0, 30, 0];
        for (round, gap) in gaps_us.iter().enumerate() {
            std::thread::sleep(Duration::from_micros(*gap));
            let mut jobs: Vec<Box<dyn FnMut() + Send + '_>> = ran
                .iter()
                .map(|r| {
                    Box::new(move || {
                        r.fetch_add(1, Ordering::Relaxed);
                    }) as Box<dyn FnMut() + Send + '_>
                })
                .collect();
            let mut refs: Vec<&mut (dyn FnMut() + Send)> =
                jobs.iter_mut().map(|j| &mut **j as _).collect();
            pool.run(&mut refs);
            for (j, r) in ran.iter().enumerate() {
                assert_eq!(
                    r.load(Ordering::Relaxed),
                    round as u32 + 1,
                    "pool of {}: job {} after run {}",
                    threads,
                    j,
                    round
                );
            }
        }
        // Dropped while its threads wait awake for a next run.
        drop(pool);
    }
}

/// The caller's job ends at once and the others take longer than the caller waits awake for
/// them: the run still returns only when every job has ended.
#[test]
fn a_pool_waits_for_jobs_longer_than_its_awake_wait() {
    let pool = render_cmd::Pool::new(3);
    for _ in 0..3 {
        let mut ended = [false; 3];
        let [a, b, c] = &mut ended;
        pool.run(&mut [
            &mut || *a = true,
            &mut || {
                std::thread::sleep(std::time::Duration::from_millis(3));
                *b = true
            },
            &mut || {
                std::thread::sleep(std::time::Duration::from_millis(1));
                *c = true
            },
        ]);
        assert_eq!(ended, [true; 3]);
    }
}

/// A pool whose other jobs start only after a delay (a worker woken late, or never before the
/// caller has drawn every band): they find no band left or take the last ones.
struct Late<'a> {
    pool: &'a render_cmd::Pool,
    delay_us: u64,
}

impl Workers for Late<'_> {
    fn count(&self) -> usize {
        self.pool.count()
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        let delay = std::time::Duration::from_micros(self.delay_us);
        let mut wrapped: Vec<Box<dyn FnMut() + Send + '_>> = jobs
            .iter_mut()
            .enumerate()
            .map(|(i, j)| {
                Box::new(move || {
                    if i > 0 {
                        std::thread::sleep(delay);
                    }
                    j();
                }) as Box<dyn FnMut() + Send + '_>
            })
            .collect();
        let mut refs: Vec<&mut (dyn FnMut() + Send)> =
            wrapped.iter_mut().map(|j| &mut **j as _).collect();
        self.pool.run(&mut refs);
    }
}

/// The bench's short scenes (lit cube, textured quad) on pools of 2-4 whose other jobs start
/// late (from at once to after the whole frame), frames alternated with one-thread frames as
/// the bench times them: the one-thread colour, depth bits and statistics every time.
#[test]
fn late_workers_leave_the_short_scenes_unchanged() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scenes = [
        (
            "benches/scenes/cube.json",
            "tests/diff/lit_cube.vert",
            "tests/diff/lit_cube.frag",
        ),
        (
            "benches/scenes/textured_quad.json",
            "tests/diff/textured.vert",
            "benches/scenes/tex_quad.frag",
        ),
    ];
    let opts = shader::program::compile::CompileOptions::default();
    for (scene, vert, frag) in scenes {
        let (soft, _) = render_cmd::load(&dir.join(vert), &dir.join(frag), &dir.join(scene), &opts)
            .unwrap_or_else(|f| panic!("{}: {}", scene, f.message));
        let n = soft.width as usize * soft.height as usize;
        let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
        let stats = frame(&soft, &Serial, 1, &mut color, &mut depth);
        for threads in [2, 3, 4] {
            let pool = render_cmd::Pool::new(threads);
            for delay_us in [0, 50, 300, 20_000] {
                let late = Late {
                    pool: &pool,
                    delay_us,
                };
                let (mut c, mut d) = (vec![7u32; n], vec![0.25f32; n]);
                for _ in 0..2 {
                    let s = frame(&soft, &late, threads, &mut c, &mut d);
                    assert!(
                        c == color
                            && d.iter()
                                .map(|x| x.to_bits())
                                .eq(depth.iter().map(|x| x.to_bits())),
                        "{} on {} threads, others {} us late: the picture differs",
                        scene,
                        threads,
                        delay_us
                    );
                    assert_eq!(s, stats, "{} on {} threads: statistics", scene, threads);
                    // A one-thread frame in between, as the bench alternates them.
                    let (mut c1, mut d1) = (vec![0u32; n], vec![1.0f32; n]);
                    frame(&soft, &Serial, 1, &mut c1, &mut d1);
                }
            }
        }
    }
}

/// The thread that made the pool is one of its threads: a job that no other thread can start
/// (the pool's only other thread is busy with another caller's long job) runs on the caller
/// once its own has ended, and the run returns without waiting for that thread.
#[test]
fn a_pool_runs_here_a_job_no_thread_has_started() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let pool = render_cmd::Pool::new(2);
    let busy = AtomicBool::new(false);
    let release = AtomicBool::new(false);
    let me = std::thread::current().id();
    std::thread::scope(|s| {
        // Another thread's run: its second job holds the pool's other thread until released.
        s.spawn(|| {
            pool.run(&mut [&mut || {}, &mut || {
                busy.store(true, Ordering::Release);
                let t = Instant::now();
                while !release.load(Ordering::Acquire) && t.elapsed() < Duration::from_secs(5) {
                    std::thread::sleep(Duration::from_micros(200));
                }
            }]);
        });
        let t = Instant::now();
        while !busy.load(Ordering::Acquire) && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_micros(100));
        }
        let mut second = None;
        let start = Instant::now();
        pool.run(&mut [&mut || {}, &mut || {
            second = Some(std::thread::current().id())
        }]);
        let took = start.elapsed();
        release.store(true, Ordering::Release);
        assert_eq!(second, Some(me), "the second job ran on another thread");
        assert!(took < Duration::from_secs(1), "the run waited {:?}", took);
    });
}
