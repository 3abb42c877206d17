//! A draw split into bands over several threads (`raster::draw_parallel`) gives the same
//! picture, depth and statistics as the one-band draw: every pair of the differential corpus and
//! the three bench scenes, at 1, 2, 3 and 4 threads (and a count above the rows of a small
//! target), bit for bit. The bench scenes keep their recorded picture hashes.
// The bench scenes (`scene_render`) and the shared worker pools (`OnThreads`: each job on its
// own scoped thread, what `Threads` does under the `std` feature; `Backwards`: the jobs on this
// thread, last first).
mod ircore_util;
use ircore_util::p2::{Backwards, OnThreads};
use ircore_util::scene as scene_render;

use shader::back::raster::{DrawStats, Scratch, Workers};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn fnv(color: &[u32]) -> u64 {
    color.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
        (h ^ *p as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The scene drawn twice through the same scratches (the second draw cuts its bands where the
/// first one's triangles started their block rows: `Scratch`'s hint), both alike.
fn frame(p: &scene_render::Prepared, threads: usize) -> (Vec<u32>, Vec<u32>, DrawStats) {
    let n = (p.scene.width * p.scene.height) as usize;
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new()).collect();
    let mut draw = || {
        let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
        let stats = scene_render::render_parallel(
            p,
            &OnThreads(threads),
            &mut scratches,
            &mut color,
            &mut depth,
        );
        (
            color,
            depth.iter().map(|d| d.to_bits()).collect::<Vec<u32>>(),
            stats,
        )
    };
    let first = draw();
    let second = draw();
    assert!(
        first == second,
        "{} threads: the second draw through the same scratches differs",
        threads
    );
    second
}

fn same_for_every_thread_count(vs: &str, fs: &str, sc: &str) -> u64 {
    let p = scene_render::prepare(vs, fs, sc);
    let base = frame(&p, 1);
    let rows = p.scene.height as usize;
    for threads in [2, 3, 4, rows + 5] {
        let got = frame(&p, threads);
        let diff = got.0.iter().zip(&base.0).filter(|(a, b)| a != b).count();
        assert_eq!(
            diff, 0,
            "{} / {} on {} threads: {} pixels differ",
            fs, sc, threads, diff
        );
        assert!(
            got.1 == base.1,
            "{} / {} on {} threads: depth differs",
            fs,
            sc,
            threads
        );
        assert_eq!(
            got.2, base.2,
            "{} / {} on {} threads: statistics",
            fs, sc, threads
        );
    }
    fnv(&base.0)
}

#[test]
fn bands_draw_the_differential_corpus_alike() {
    for (vs, fs, sc) in scene_render::one_pass_diff_corpus() {
        same_for_every_thread_count(&vs, &fs, &sc);
    }
}

#[test]
fn bands_keep_the_bench_picture_hashes() {
    let scenes = [
        (
            "tools/shc/tests/diff/lit_cube.vert",
            "tools/shc/tests/diff/lit_cube.frag",
            "tools/shc/benches/scenes/cube.json",
            0xeb21_c14d_4c33_1c81u64,
        ),
        (
            "tools/shc/tests/diff/fullscreen.vert",
            "tools/shc/tests/diff/functions.frag",
            "tools/shc/benches/scenes/fullscreen.json",
            0x8efc_c9e3_8ea4_cd0a,
        ),
        (
            "tools/shc/tests/diff/textured.vert",
            "tools/shc/benches/scenes/tex_quad.frag",
            "tools/shc/benches/scenes/textured_quad.json",
            0xf223_5941_bc8b_b277,
        ),
    ];
    for (vs, fs, sc, want) in scenes {
        let p = |x: &str| format!("{}/{}", ROOT, x);
        let got = same_for_every_thread_count(&p(vs), &p(fs), &p(sc));
        assert_eq!(got, want, "{}: picture hash", sc);
    }
}

#[test]
fn bands_keep_the_profile_2_bench_scene() {
    let p = |x: &str| format!("{}/{}", ROOT, x);
    same_for_every_thread_count(
        &p("tools/shc/benches/scenes/p2_lights.vert"),
        &p("tools/shc/benches/scenes/p2_lights.frag"),
        &p("tools/shc/benches/scenes/p2_lights.json"),
    );
}

/// Scoped threads with the first job started late, so the others take most bands.
struct LateFirst(usize);

impl Workers for LateFirst {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        std::thread::scope(|s| {
            for (i, job) in jobs.iter_mut().enumerate() {
                s.spawn(move || {
                    if i == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                    job()
                });
            }
        });
    }
}

#[test]
fn bands_dealt_to_any_job_draw_alike() {
    let p = |x: &str| format!("{}/{}", ROOT, x);
    for (vs, fs, sc) in [
        (
            "tools/shc/tests/diff/lit_cube.vert",
            "tools/shc/tests/diff/lit_cube.frag",
            "tools/shc/benches/scenes/cube.json",
        ),
        (
            "tools/shc/tests/diff/textured.vert",
            "tools/shc/benches/scenes/tex_quad.frag",
            "tools/shc/benches/scenes/textured_quad.json",
        ),
    ] {
        let prep = scene_render::prepare(&p(vs), &p(fs), &p(sc));
        let base = frame(&prep, 1);
        let n = (prep.scene.width * prep.scene.height) as usize;
        for threads in [2, 3, 5] {
            let draws: [&dyn Workers; 2] = [&Backwards(threads), &LateFirst(threads)];
            for (k, workers) in draws.into_iter().enumerate() {
                let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
                let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new()).collect();
                let stats = scene_render::render_parallel(
                    &prep,
                    workers,
                    &mut scratches,
                    &mut color,
                    &mut depth,
                );
                let depth: Vec<u32> = depth.iter().map(|d| d.to_bits()).collect();
                assert!(
                    color == base.0,
                    "{}: dealing {} on {} jobs: colour",
                    sc,
                    k,
                    threads
                );
                assert!(
                    depth == base.1,
                    "{}: dealing {} on {} jobs: depth",
                    sc,
                    k,
                    threads
                );
                assert_eq!(
                    stats, base.2,
                    "{}: dealing {} on {} jobs: statistics",
                    sc, k, threads
                );
            }
        }
    }
}

#[test]
fn parallel_clear_fills_like_the_serial_one() {
    use shader::back::raster::Target;
    for (w, h) in [(1u32, 1u32), (7, 5), (640, 480), (3, 200)] {
        let n = (w * h) as usize;
        for threads in [1, 2, 3, 4, 64, 100] {
            // A colour buffer longer than width * height is filled to its end, as `clear` does.
            for extra in [0usize, 5] {
                let (mut c1, mut d1) = (vec![1u32; n + extra], vec![0.5f32; n]);
                let (mut c2, mut d2) = (c1.clone(), d1.clone());
                Target {
                    width: w,
                    height: h,
                    color: &mut c1,
                    depth: &mut d1,
                }
                .clear(0xff10_2030, 1.0);
                Target {
                    width: w,
                    height: h,
                    color: &mut c2,
                    depth: &mut d2,
                }
                .clear_parallel(&OnThreads(threads), 0xff10_2030, 1.0);
                assert!(c1 == c2, "{}x{} on {} threads: colour", w, h, threads);
                assert!(d1 == d2, "{}x{} on {} threads: depth", w, h, threads);
            }
        }
    }
}

#[test]
fn cleared_draw_equals_clear_then_draw() {
    use shader::back::raster::{draw_parallel_cleared, Clear, Pipeline, Target, VertexInput};
    let p = |x: &str| format!("{}/{}", ROOT, x);
    for (vs, fs, sc) in [
        (
            "tools/shc/tests/diff/lit_cube.vert",
            "tools/shc/tests/diff/lit_cube.frag",
            "tools/shc/benches/scenes/cube.json",
        ),
        (
            "tools/shc/tests/diff/fullscreen.vert",
            "tools/shc/tests/diff/functions.frag",
            "tools/shc/benches/scenes/fullscreen.json",
        ),
    ] {
        let prep = scene_render::prepare(&p(vs), &p(fs), &p(sc));
        let base = frame(&prep, 1);
        let n = (prep.scene.width * prep.scene.height) as usize;
        let input = VertexInput {
            data: &prep.data,
            stride: prep.stride,
            attribs: &prep.attribs,
            count: prep.scene.vertex_count as u32,
        };
        let clear = Clear {
            color: prep.scene.clear_argb(),
            colorf: [0.0; 4],
            depth: 1.0,
        };
        for threads in [1, 2, 3] {
            let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new()).collect();
            // Dirty buffers, each 5 entries longer than the target (filled to their end).
            let (mut color, mut depth) = (vec![0x1234_5678u32; n + 5], vec![0.25f32; n + 5]);
            let mut draw = |state: &shader::back::raster::RasterState,
                            color: &mut [u32],
                            depth: &mut [f32]| {
                draw_parallel_cleared(
                    &OnThreads(threads),
                    &mut scratches,
                    &prep.program,
                    &input,
                    &[],
                    0,
                    prep.scene.indices.as_deref(),
                    &[None, None, None, None],
                    state,
                    &Pipeline::DEFAULT,
                    &mut Target {
                        width: prep.scene.width,
                        height: prep.scene.height,
                        color,
                        depth,
                    },
                    &mut [],
                    Some(&clear),
                )
            };
            let stats = draw(&prep.state, &mut color, &mut depth).expect("draw");
            let bits: Vec<u32> = depth[..n].iter().map(|d| d.to_bits()).collect();
            assert!(
                color[..n] == base.0[..],
                "{} on {} threads: colour",
                sc,
                threads
            );
            assert!(bits == base.1, "{} on {} threads: depth", sc, threads);
            assert_eq!(stats, base.2, "{} on {} threads: statistics", sc, threads);
            assert!(
                color[n..].iter().all(|&c| c == clear.color),
                "{}: colour tail",
                sc
            );
            assert!(depth[n..].iter().all(|&d| d == 1.0), "{}: depth tail", sc);
            // A draw that fails (a viewport of no width) still clears the whole target.
            let mut bad = prep.state;
            bad.viewport[2] = 0;
            color.fill(7);
            depth.fill(0.5);
            assert!(draw(&bad, &mut color, &mut depth).is_err());
            assert!(
                color.iter().all(|&c| c == clear.color),
                "{}: cleared on error",
                sc
            );
            assert!(
                depth.iter().all(|&d| d == 1.0),
                "{}: depth cleared on error",
                sc
            );
        }
    }
}
