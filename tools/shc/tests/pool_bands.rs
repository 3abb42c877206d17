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
