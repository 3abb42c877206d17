//! Frames per second of the demo scene on the host: the software backend at 640x480 and
//! 1280x720, and the VirGL backend through vtest when virgl_test_server is installed, with draws,
//! triangles, submits and dwords per frame. A short custom harness (about 2 s per case).
use std::time::{Duration, Instant};

use gfx3d::demo::Demo;
use gfx3d::linked::Linked;
use gfx3d::virgl::VirglBackend;
use gfx3d::{BackendMode, Gfx3d};
use virtio_gpu::vtest::{VtestServer, VtestTransport};

const BUDGET: Duration = Duration::from_secs(2);

fn run(label: &str, g: &mut Gfx3d<Linked>, w: u32, h: u32) {
    let demo = Demo::new(g, 1, w, h).unwrap_or_else(|e| panic!("demo setup: {}", e));
    let mut px = vec![0u32; (w * h) as usize];
    for i in 0..3 {
        demo.frame(g, i).unwrap();
    }
    demo.read(g, &mut px).unwrap();
    g.stats_reset();
    let start = Instant::now();
    let mut frames = 0u32;
    while start.elapsed() < BUDGET || frames < 5 {
        demo.frame(g, frames).unwrap();
        frames += 1;
    }
    // Include the cost of getting the last picture back.
    demo.read(g, &mut px).unwrap();
    let secs = start.elapsed().as_secs_f64();
    let s = g.stats();
    let f = frames as f64;
    println!(
        "demo {:8} {:4}x{:<4}: {:7.1} frames/s ({:6.2} ms/frame)  draws/frame {:.0}  triangles/frame {:.0}  submits/frame {:.2}  dwords/frame {:.0}",
        label,
        w,
        h,
        f / secs,
        secs * 1000.0 / f,
        s.draws as f64 / f,
        s.triangles as f64 / f,
        s.submits as f64 / f,
        s.dwords as f64 / f
    );
    demo.destroy(g);
}

const OFFSET_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
uniform vec4 offset;
void main() {
    gl_Position = position + offset;
}
";

const COLOR_FRAG: &str = "#version 330
uniform vec4 tint;
out vec4 color;
void main() {
    color = tint;
}
";

/// 100 small draws per frame, each changing two vec4 uniforms (DESIGN's Mesa anchor: about 37
/// dwords per draw and 3.7 ms per frame through vtest).
fn many_draws(label: &str, g: &mut Gfx3d<Linked>) {
    use gfx3d::{Element, Usage, VertexLayout};
    let o = 2;
    let c = g.context_create(o).unwrap();
    let t = g.target_create(o, c, 640, 480).unwrap();
    let linked = Linked::from_glsl(g.compiler(), OFFSET_VERT, COLOR_FRAG, "many").unwrap();
    let p = g.prog_prepare(o, c, linked).unwrap();
    let m = g.mesh_create(o, Usage::Static).unwrap();
    let l = VertexLayout::new(
        16,
        &[Element {
            location: 0,
            components: 4,
            offset: 0,
        }],
    )
    .unwrap();
    g.mesh_upload_f32(
        o,
        m,
        &l,
        &[
            -0.05, -0.05, 0.0, 0.0, 0.05, -0.05, 0.0, 0.0, 0.0, 0.05, 0.0, 0.0,
        ],
        None,
    )
    .unwrap();
    let frame = |g: &mut Gfx3d<Linked>, f: u32| {
        g.begin(o, c, t).unwrap();
        g.clear(o, c, [0.0, 0.0, 0.0, 1.0], true).unwrap();
        g.use_program(o, c, p).unwrap();
        for i in 0..100u32 {
            let (x, y) = ((i % 10) as f32 * 0.18 - 0.85, (i / 10) as f32 * 0.18 - 0.85);
            g.uniform_f(o, c, "offset", &[x, y, 0.0, 1.0]).unwrap();
            let k = ((i + f) % 7) as f32 / 7.0;
            g.uniform_f(o, c, "tint", &[k, 1.0 - k, 0.5, 1.0]).unwrap();
            g.draw(o, c, m).unwrap();
        }
        g.end(o, c).unwrap();
    };
    frame(g, 0);
    g.stats_reset();
    let start = Instant::now();
    let mut frames = 0u32;
    while start.elapsed() < BUDGET || frames < 5 {
        frame(g, frames);
        frames += 1;
    }
    let mut px = vec![0u32; 640 * 480];
    g.target_read(o, t, &mut px).unwrap();
    let secs = start.elapsed().as_secs_f64();
    let s = g.stats();
    let f = frames as f64;
    println!(
        "100 draws {:8} 640x480  : {:7.1} frames/s ({:6.2} ms/frame)  dwords/draw {:.1}  dwords/frame {:.0}  submits/frame {:.2}",
        label,
        f / secs,
        secs * 1000.0 / f,
        s.dwords as f64 / s.draws.max(1) as f64,
        s.dwords as f64 / f,
        s.submits as f64 / f
    );
    g.drop_owner(o);
}

fn main() {
    // `cargo test --benches` passes --bench-less arguments; only measure under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    for (w, h) in [(640, 480), (1280, 720)] {
        let mut g: Gfx3d<Linked> = Gfx3d::new();
        run("software", &mut g, w, h);
    }
    many_draws("software", &mut Gfx3d::new());
    match VtestServer::start() {
        Ok(server) => {
            for (w, h) in [(640, 480), (1280, 720)] {
                let t = VtestTransport::connect(server.socket_path()).expect("vtest connect");
                let mut g: Gfx3d<Linked> = Gfx3d::new();
                g.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
                    .expect("virgl boot");
                run("vtest", &mut g, w, h);
            }
            let t = VtestTransport::connect(server.socket_path()).expect("vtest connect");
            let mut g: Gfx3d<Linked> = Gfx3d::new();
            g.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
                .expect("virgl boot");
            many_draws("vtest", &mut g);
        }
        Err(e) => println!("demo vtest: skipped, virgl_test_server unavailable: {}", e),
    }
}
