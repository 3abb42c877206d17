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

fn main() {
    // `cargo test --benches` passes --bench-less arguments; only measure under `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    for (w, h) in [(640, 480), (1280, 720)] {
        let mut g: Gfx3d<Linked> = Gfx3d::new();
        run("software", &mut g, w, h);
    }
    match VtestServer::start() {
        Ok(server) => {
            for (w, h) in [(640, 480), (1280, 720)] {
                let t = VtestTransport::connect(server.socket_path()).expect("vtest connect");
                let mut g: Gfx3d<Linked> = Gfx3d::new();
                g.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
                    .expect("virgl boot");
                run("vtest", &mut g, w, h);
            }
        }
        Err(e) => println!("demo vtest: skipped, virgl_test_server unavailable: {}", e),
    }
}
