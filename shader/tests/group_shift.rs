//! A two-group draw learns which group ends last and moves rows from it to the other
//! (`Scratch`'s group shift, see `raster::draw_parallel`): with the job that takes the second
//! group held up, frame after frame through the same scratches, the first group gains rows, and
//! every frame still gives the one-band picture, depth and statistics bit for bit.
mod ircore_util;
use ircore_util::p2::OnThreads;
use ircore_util::scene as scene_render;

use std::sync::Mutex;

use shader::back::raster::{Scratch, TraceMark};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// First row and rows of each take this frame.
static TAKES: Mutex<Vec<(i64, i64)>> = Mutex::new(Vec::new());

/// Records the take and holds up the job that took the second group (its bands do not start
/// at row 0): the other job, which took the first group, ends first.
fn record(m: TraceMark) {
    if let TraceMark::Take { row0, rows, .. } = m {
        if let Ok(mut t) = TAKES.lock() {
            t.push((row0, rows));
        }
        if row0 != 0 {
            std::thread::sleep(std::time::Duration::from_millis(15));
        } else {
            // Waits (up to 0.2 s) for the other job to take the second group, so that each
            // job draws one.
            for _ in 0..200 {
                if TAKES.lock().map_or(true, |t| t.len() >= 2) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

#[test]
fn the_group_that_ends_last_gives_rows_and_the_picture_stays() {
    let p = |x: &str| format!("{}/{}", ROOT, x);
    for (vs, fs, sc) in [
        (
            "tools/shc/tests/diff/lit_cube.vert",
            "tools/shc/tests/diff/lit_cube.frag",
            "tools/shc/benches/scenes/cube.json",
        ),
        (
            "tools/shc/benches/scenes/p2_lights.vert",
            "tools/shc/benches/scenes/p2_lights.frag",
            "tools/shc/benches/scenes/p2_lights.json",
        ),
    ] {
        let prep = scene_render::prepare(&p(vs), &p(fs), &p(sc));
        let n = (prep.scene.width * prep.scene.height) as usize;
        let draw = |scratches: &mut [Scratch], threads: usize| {
            let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
            let stats = scene_render::render_parallel(
                &prep,
                &OnThreads(threads),
                scratches,
                &mut color,
                &mut depth,
            );
            let depth: Vec<u32> = depth.iter().map(|d| d.to_bits()).collect();
            (color, depth, stats)
        };
        let base = draw(&mut [Scratch::new()], 1);
        let mut scratches = [Scratch::new(), Scratch::new()];
        scratches[0].set_trace(Some(&record));
        scratches[1].set_trace(Some(&record));
        let mut widest = 0;
        for frame in 0..40 {
            TAKES.lock().unwrap().clear();
            let got = draw(&mut scratches, 2);
            assert!(got.0 == base.0, "{}: frame {}: colour", sc, frame);
            assert!(got.1 == base.1, "{}: frame {}: depth", sc, frame);
            assert_eq!(got.2, base.2, "{}: frame {}: statistics", sc, frame);
            let takes = TAKES.lock().unwrap().clone();
            assert_eq!(takes.len(), 2, "{}: frame {}: two takes", sc, frame);
            let first: i64 = takes.iter().filter(|t| t.0 == 0).map(|t| t.1).sum();
            let second: i64 = takes.iter().filter(|t| t.0 != 0).map(|t| t.1).sum();
            widest = widest.max(first - second);
        }
        // Two rows per frame whose groups two jobs drew (most of the 40; the first frame's
        // groups differ by the odd rows' hint and a short last band only).
        assert!(
            widest >= 40,
            "{}: the first group has at most {} rows more",
            sc,
            widest
        );
    }
}
