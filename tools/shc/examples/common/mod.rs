//! What the measuring examples share (not an example itself): the bench's scenes by short name,
//! a run on a big stack, and workers that run every job on the calling thread in order.

use shader::back::raster::Workers;

/// The bench's scenes: (short name, scene file, vertex shader, fragment shader), paths relative
/// to `tools/shc`.
pub const SCENES: [(&str, &str, &str, &str); 6] = [
    (
        "cube",
        "benches/scenes/cube.json",
        "tests/diff/lit_cube.vert",
        "tests/diff/lit_cube.frag",
    ),
    (
        "functions",
        "benches/scenes/fullscreen.json",
        "tests/diff/fullscreen.vert",
        "tests/diff/functions.frag",
    ),
    (
        "quad",
        "benches/scenes/textured_quad.json",
        "tests/diff/textured.vert",
        "benches/scenes/tex_quad.frag",
    ),
    (
        "lights",
        "benches/scenes/p2_lights.json",
        "benches/scenes/p2_lights.vert",
        "benches/scenes/p2_lights.frag",
    ),
    (
        "fractal",
        "benches/scenes/p2_fractal.json",
        "benches/scenes/p2_fractal.vert",
        "benches/scenes/p2_fractal.frag",
    ),
    (
        "floor",
        "benches/scenes/mip_floor.json",
        "tests/compat/mesh.vert",
        "tests/compat/floor_ll.frag",
    ),
];

/// The (scene, vertex, fragment) files of the scene named `name` (`fullscreen` is `functions`);
/// any other name: the lit cube.
pub fn scene(name: &str) -> (&'static str, &'static str, &'static str) {
    let name = if name == "fullscreen" {
        "functions"
    } else {
        name
    };
    let (_, s, v, f) = SCENES
        .iter()
        .find(|e| e.0 == name)
        .copied()
        .unwrap_or(SCENES[0]);
    (s, v, f)
}

/// Runs `f` on a thread with a 256 MiB stack (the compiler's tables are large, as in the shc
/// binary) and waits for it.
pub fn on_big_stack(f: fn()) {
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(f);
    if let Ok(t) = t {
        let _ = t.join();
    }
}

/// `k` workers whose jobs all run on this thread, one after the other.
pub struct InOrder(pub usize);

impl Workers for InOrder {
    fn count(&self) -> usize {
        self.0
    }
    fn run(&self, jobs: &mut [&mut (dyn FnMut() + Send)]) {
        for job in jobs.iter_mut() {
            job();
        }
    }
}

/// The scene of these files (paths relative to `tools/shc`) compiled with the default options,
/// and a colour and a depth target of its size. Panics on a failure (measuring examples only).
pub fn load(
    scene: &str,
    vert: &str,
    frag: &str,
) -> (crate::render_cmd::SoftScene, Vec<u32>, Vec<f32>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let opts = shader::program::compile::CompileOptions::default();
    let (soft, _) =
        crate::render_cmd::load(&dir.join(vert), &dir.join(frag), &dir.join(scene), &opts)
            .unwrap_or_else(|f| panic!("{}", f.message));
    let n = soft.width as usize * soft.height as usize;
    (soft, vec![0u32; n], vec![1.0f32; n])
}
