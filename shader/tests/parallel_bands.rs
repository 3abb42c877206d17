//! A draw split into bands over several threads (`raster::draw_parallel`) gives the same
//! picture, depth and statistics as the one-band draw: every pair of the differential corpus and
//! the three bench scenes, at 1, 2, 3 and 4 threads (and a count above the rows of a small
//! target), bit for bit. The bench scenes keep their recorded picture hashes.
#[path = "ircore_util/scene.rs"]
mod scene_render;

use shader::back::raster::{DrawStats, Scratch, Workers};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// Each job on its own scoped thread (what `Threads` does under the `std` feature).
struct TestThreads(usize);

impl Workers for TestThreads {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        std::thread::scope(|s| {
            for job in jobs.iter_mut() {
                s.spawn(move || job());
            }
        });
    }
}

fn fnv(color: &[u32]) -> u64 {
    color.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
        (h ^ *p as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn frame(p: &scene_render::Prepared, threads: usize) -> (Vec<u32>, Vec<u32>, DrawStats) {
    let n = (p.scene.width * p.scene.height) as usize;
    let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
    let mut scratches: Vec<Scratch> = (0..threads).map(|_| Scratch::new()).collect();
    let stats = scene_render::render_parallel(
        p,
        &TestThreads(threads),
        &mut scratches,
        &mut color,
        &mut depth,
    );
    (color, depth.iter().map(|d| d.to_bits()).collect(), stats)
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
