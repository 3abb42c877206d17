//! Measuring driver (not a test): `band_mig SCENE FRAMES` (SCENE as `band_cost`'s) times
//! one-thread frames drawn on this thread after the target was last written here (warm) and
//! after a `render_cmd::Pool` thread wrote all of it (moved: each line comes from the other
//! core's cache or the shared one), alternated in one process: medians of each. The difference is
//! what a frame pays for target rows last written by another thread (band ownership moving
//! between threads from frame to frame).
#[allow(dead_code)]
mod common;
#[allow(dead_code)]
#[path = "../src/render_cmd.rs"]
mod render_cmd;

use std::time::Instant;

use shader::back::raster::{Serial, Workers};

fn main() {
    common::on_big_stack(run);
}

fn run() {
    let args: Vec<String> = std::env::args().collect();
    let (scene, vert, frag) = common::scene(args.get(1).map_or("cube", String::as_str));
    let frames: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
    let (soft, mut color, mut depth) = common::load(scene, vert, frag);
    let mut scratch = render_cmd::jit_scratch();
    let pool = render_cmd::Pool::new(2);
    let (mut warm, mut moved, mut touch_here, mut touch_there) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let write_all = |color: &mut [u32], depth: &mut [f32], there: bool| {
        let mut job = || {
            for c in color.iter_mut() {
                *c = c.wrapping_add(1);
            }
            for d in depth.iter_mut() {
                *d += 0.5;
            }
        };
        let mut none = || {};
        let s = Instant::now();
        if there {
            pool.run(&mut [&mut none, &mut job]);
        } else {
            job();
        }
        s.elapsed().as_secs_f64()
    };
    for i in 0..frames * 2 {
        let there = i % 2 == 1;
        let t = write_all(&mut color, &mut depth, there);
        let s = Instant::now();
        soft.draw_parallel(
            &Serial,
            std::slice::from_mut(&mut scratch),
            &mut color,
            &mut depth,
        )
        .unwrap();
        let f = s.elapsed().as_secs_f64();
        if there {
            moved.push(f);
            touch_there.push(t);
        } else {
            warm.push(f);
            touch_here.push(t);
        }
    }
    let us = |v: Vec<f64>| median(v) * 1e6;
    println!(
        "frame after writing the target here {:.1} us, after a pool thread wrote it {:.1} us; \
         (the write: here {:.1} us, there with its run {:.1} us)",
        us(warm),
        us(moved),
        us(touch_here),
        us(touch_there)
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}
