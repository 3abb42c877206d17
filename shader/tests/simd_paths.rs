//! Every instruction set the executor and the rasterizer can run on (`exec::simd`) draws the
//! same pixels: the differential corpus and the bench scenes (profile 2's loop scenes too), rendered once per path this
//! machine can run (forced through `Scratch::set_isa`), compared pixel by pixel with the base
//! (SSE2) path; the bench scenes also keep their recorded picture hashes.
#[path = "ircore_util/scene.rs"]
mod scene_render;

use shader::back::exec::simd::{Isa, Simd};
use shader::back::raster::Scratch;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn fnv(color: &[u32]) -> u64 {
    color.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, p| {
        (h ^ *p as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Colour and depth of one frame on `isa`.
fn frame(vs: &str, fs: &str, sc: &str, isa: Isa) -> (Vec<u32>, Vec<u32>) {
    let p = scene_render::prepare(vs, fs, sc);
    let n = (p.scene.width * p.scene.height) as usize;
    let (mut color, mut depth) = (vec![0u32; n], vec![1.0f32; n]);
    let mut scratch = Box::new(Scratch::new());
    assert!(
        scratch.set_isa(isa),
        "{:?} was detected but cannot be set",
        isa
    );
    // Twice through the same scratch: the second frame reuses the loaded constant bank.
    scene_render::render(&p, &mut scratch, &mut color, &mut depth);
    scene_render::render(&p, &mut scratch, &mut color, &mut depth);
    (color, depth.iter().map(|d| d.to_bits()).collect())
}

fn paths() -> Vec<Isa> {
    [Isa::Base, Isa::Avx2]
        .into_iter()
        .filter(|i| Simd::with(*i).is_some())
        .collect()
}

fn same_on_every_path(vs: &str, fs: &str, sc: &str) -> u64 {
    let base = frame(vs, fs, sc, Isa::Base);
    for isa in paths() {
        let got = frame(vs, fs, sc, isa);
        let diff = got.0.iter().zip(&base.0).filter(|(a, b)| a != b).count();
        assert_eq!(
            diff, 0,
            "{} / {} on {:?}: {} pixels differ",
            fs, sc, isa, diff
        );
        assert!(
            got.1 == base.1,
            "{} / {} on {:?}: depth differs",
            fs,
            sc,
            isa
        );
    }
    fnv(&base.0)
}

#[test]
fn simd_paths_draw_the_differential_corpus_alike() {
    for (vs, fs, sc) in scene_render::one_pass_diff_corpus() {
        same_on_every_path(&vs, &fs, &sc);
    }
}

#[test]
fn simd_paths_keep_the_bench_picture_hashes() {
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
        // Profile 2's loop scenes: divergent loops (masked writes, the loop budget, integer
        // lanes) on every path.
        (
            "tools/shc/benches/scenes/p2_fractal.vert",
            "tools/shc/benches/scenes/p2_fractal.frag",
            "tools/shc/benches/scenes/p2_fractal.json",
            0xe53b_d6e2_e7f5_ee70,
        ),
        (
            "tools/shc/benches/scenes/p2_lights.vert",
            "tools/shc/benches/scenes/p2_lights.frag",
            "tools/shc/benches/scenes/p2_lights.json",
            0x9dd1_a639_a788_8417,
        ),
    ];
    for (vs, fs, sc, want) in scenes {
        let p = |x: &str| format!("{}/{}", ROOT, x);
        let got = same_on_every_path(&p(vs), &p(fs), &p(sc));
        assert_eq!(got, want, "{}: picture hash", sc);
    }
}

/// Detection is stable and a Regs starts on the detected path.
#[test]
fn simd_paths_are_reported() {
    let d = Simd::detect();
    assert!(paths().contains(&d.isa()));
    let mut regs = shader::back::exec::Regs::new();
    assert_eq!(regs.simd(), d, "first use detects");
    assert!(regs.set_isa(Isa::Base));
    assert_eq!(regs.simd(), Simd::BASE);
    std::println!("simd paths on this machine: {:?}", paths());
}
