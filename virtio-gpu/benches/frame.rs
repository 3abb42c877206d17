//! `cargo bench -p virtio-gpu`: a 100-draw frame where every draw changes two vec4 uniforms.
//! Reports encode time per draw and dwords per draw (pure), then the frame time through vtest
//! against a private virgl_test_server. Short: well under a minute.
use std::time::Instant;
use virtio_gpu::batch::Sink;
use virtio_gpu::encode::*;
use virtio_gpu::protocol::*;
use virtio_gpu::scenes::SceneCtx;
use virtio_gpu::vtest::{VtestServer, VtestTransport};
use virtio_gpu::{CommandBuffer, GpuTransport3d};

mod mesa_side;

const DRAWS: usize = 100;

const VS: &str = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\nDCL CONST[0..1]\n  0: ADD OUT[0], IN[0], CONST[0]\n  1: MOV OUT[1], CONST[1]\n  2: END\n";
const FS: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

struct Count(u64);
impl Sink for Count {
    fn submit(&mut self, d: &[u32]) -> virtio_gpu::Result<()> {
        self.0 += d.len() as u64;
        std::hint::black_box(d);
        Ok(())
    }
}

fn frame<S: Sink + ?Sized>(e: &mut Encoder<'_, S>, frame_no: u32) -> virtio_gpu::Result<()> {
    e.clear(CLEAR_COLOR0, [0.0, 0.0, 0.0, 1.0], 1.0, 0)?;
    for i in 0..DRAWS {
        let f = i as f32 / DRAWS as f32;
        let off = [f - 0.5, (frame_no % 7) as f32 * 0.01, 0.0, 0.0];
        let col = [f, 1.0 - f, 0.5, 1.0];
        e.set_constant_buffer(SHADER_VERTEX, &[off, col])?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)?;
    }
    e.flush()
}

fn main() {
    if let Ok(mode) = std::env::var("CHRISOS_VIRGL_MESA_CHILD") {
        if let Err(e) = mesa_side::child(&mode) {
            eprintln!("{}", e);
            std::process::exit(1);
        }
        return;
    }
    // Pure encoding.
    let mut cb = CommandBuffer::new(4096).unwrap();
    let mut sink = Count(0);
    let frames = 2000u32;
    let t0 = Instant::now();
    for n in 0..frames {
        let mut e = Encoder::new(&mut cb, &mut sink);
        frame(&mut e, n).unwrap();
    }
    let dt = t0.elapsed();
    let per_draw_ns = dt.as_nanos() as f64 / (frames as f64 * DRAWS as f64);
    let dwords_per_frame = sink.0 as f64 / frames as f64;
    println!(
        "encode: {:.1} ns per draw, {:.1} dwords per draw ({:.0} dwords per frame incl. clear)",
        per_draw_ns,
        (dwords_per_frame - 9.0) / DRAWS as f64,
        dwords_per_frame
    );

    // Through vtest.
    let server = match VtestServer::start() {
        Ok(s) => s,
        Err(e) => {
            println!("vtest: not measured: {}", e);
            return;
        }
    };
    let mut t = VtestTransport::connect(server.socket_path()).unwrap();
    let mut s = SceneCtx::new(&mut t, false).unwrap();
    s.program(VS, FS).unwrap();
    s.vertices(
        &[
            -0.05, -0.05, 0.0, 1.0, 0.05, -0.05, 0.0, 1.0, 0.0, 0.05, 0.0, 1.0,
        ],
        &[4],
    )
    .unwrap();
    let run = |s: &mut SceneCtx<'_, VtestTransport>, n: u32| s.enc(|e| frame(e, n)).unwrap();
    for n in 0..10 {
        run(&mut s, n);
    }
    let frames = 100;
    let t0 = Instant::now();
    for n in 0..frames {
        run(&mut s, n);
    }
    let ms = t0.elapsed().as_secs_f64() * 1000.0 / frames as f64;
    let p = s.read_back().unwrap();
    let lit = p.iter().filter(|&&v| v & 0x00FF_FFFF != 0).count();
    s.finish().unwrap();
    println!(
        "vtest: {:.3} ms per {}-draw frame (submit + host wait), {} lit pixels",
        ms, DRAWS, lit
    );
    println!("reference (DESIGN.md, Mesa virgl via vtest, same scene shape): ~37 dwords per draw, ~3.7 ms per frame");
    for mode in ["count", "time"] {
        match mesa_side::run_isolated(mode) {
            Ok(out) => print!("Mesa virpipe, same machine, same run: {}", out),
            Err(e) => println!("Mesa virpipe ({}): not measured: {}", mode, e),
        }
    }
    let errs = server.host_errors();
    assert!(errs.is_empty(), "host errors: {:?}", errs);
    let _ = t.is_lost();
}
