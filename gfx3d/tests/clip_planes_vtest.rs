//! VirGL user clip planes (brief C, session 6): the rasterizer enables the clip planes of the
//! gl_ClipDistance elements the linked vertex shader writes (S3 bits 24..31, which
//! virglrenderer turns into glEnable(GL_CLIP_DISTANCEi)), and a draw clipped by
//! gl_ClipDistance on VirGL equals the software backend's. Before, the rasterizer sent no
//! enables (the stream test fails); this machine's host (virglrenderer over llvmpipe) happens
//! to clip by the written distances even without them, so the picture test passes either way.
use std::sync::{Arc, Mutex};

use gfx3d::compare::compare;
use gfx3d::linked::Linked;
use gfx3d::virgl::{clip_planes_of, VirglBackend};
use gfx3d::*;
use virtio_gpu::caps::HostCaps;
use virtio_gpu::proto::Box3d;
use virtio_gpu::protocol::{CCMD_CREATE_OBJECT, OBJ_RASTERIZER};
use virtio_gpu::transport::ResourceDesc;
use virtio_gpu::vtest::VtestTransport;
use virtio_gpu::{CtxId, GpuTransport3d, ResId};

mod common;
use common::layout;

type G = Gfx3d<Linked>;
const SIZE: u32 = 32;

/// Distances 0 and 5 (not contiguous): keep x > -0.3 and y < 0.5 - x / 4.
const CLIP_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
void main() {
    gl_Position = position;
    gl_ClipDistance[0] = position.x + 0.3;
    gl_ClipDistance[5] = 0.5 - position.x * 0.25 - position.y;
}
";

/// Only distance 2 (the linker writes distances 0 and 1 as 0.0: enabled, never clipped).
const CLIP_ONE_VERT: &str = "#version 330 core
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
void main() {
    gl_Position = position;
    gl_ClipDistance[2] = 0.25 - position.y - position.x;
}
";

const RED_FRAG: &str = "#version 330 core
#pragma chrisos profile 2
out vec4 color;
void main() {
    color = vec4(1.0, 0.2, 0.1, 1.0);
}
";

fn draw(g: &mut G, vs: &str) -> Vec<u32> {
    let m = g.mesh_create(0, Usage::Static).unwrap();
    let mut v = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        v.extend_from_slice(&[x, y, 0.0, 1.0]);
    }
    g.mesh_upload_f32(0, m, &layout(16, &[(0, 4, 0)]), &v, None)
        .unwrap();
    let c = g.context_create(0).unwrap();
    let tg = g.target_create(0, c, SIZE, SIZE).unwrap();
    let linked = Linked::from_glsl(g.compiler(), vs, RED_FRAG, "clip").unwrap();
    let p = g.prog_prepare(0, c, linked).unwrap();
    g.begin(0, c, tg).unwrap();
    g.clear(0, c, [0.0, 0.0, 0.0, 1.0], true).unwrap();
    g.use_program(0, c, p).unwrap();
    g.draw(0, c, m).unwrap();
    g.end(0, c).unwrap();
    let mut px = vec![0u32; (SIZE * SIZE) as usize];
    g.target_read(0, tg, &mut px).unwrap();
    g.context_destroy(0, c).unwrap();
    g.mesh_destroy(0, m).unwrap();
    px
}

#[test]
fn clip_planes_come_from_the_clipdist_declarations() {
    assert_eq!(clip_planes_of("VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n"), 0);
    assert_eq!(
        clip_planes_of("VERT\nDCL OUT[2].x, CLIPDIST[0]\nDCL OUT[3].y, CLIPDIST[1]\n"),
        0b10_0001
    );
    assert_eq!(
        clip_planes_of("DCL OUT[2].xyzw, CLIPDIST[0]\nDCL OUT[3], CLIPDIST[1]\n"),
        0xFF
    );
    assert_eq!(clip_planes_of("DCL OUT[2].zw, CLIPDIST[0]\n"), 0b1100);
    // Garbage never panics.
    assert_eq!(
        clip_planes_of("DCL OUT[, CLIPDIST[\nDCL OUT[2]., CLIPDIST[9]"),
        0
    );
}

#[test]
fn a_draw_clipped_by_gl_clip_distance_on_virgl_equals_software() {
    let server = common::vtest_server();
    let mut hw = common::virgl_on(&server);
    let mut sw: G = Gfx3d::new();
    let mut report = String::new();
    for (what, vs) in [
        ("distances 0 and 5", CLIP_VERT),
        ("distance 2", CLIP_ONE_VERT),
    ] {
        let a = draw(&mut sw, vs);
        let b = draw(&mut hw, vs);
        let red = a.iter().filter(|&&p| p != 0xFF00_0000).count();
        // The software picture is clipped: some pixels drawn, some not.
        assert!(
            red > 100 && red < 900,
            "{what}: {red} pixels drawn in software"
        );
        let c = compare(&a, &b, SIZE, SIZE);
        eprintln!(
            "{what}: drawn {red}, differing {} off-edge {}",
            c.differing, c.off_edge
        );
        if !c.agrees() {
            report.push_str(&format!("{what}: {c:?}\n"));
        }
    }
    assert_eq!(hw.backend_name(), "virgl");
    let errors = server.host_errors();
    assert!(
        report.is_empty() && errors.is_empty(),
        "{}host errors: {:?}",
        report,
        errors
    );
}

/// A vtest transport that keeps every submitted dword.
struct Recording {
    inner: VtestTransport,
    dwords: Arc<Mutex<Vec<u32>>>,
}

impl GpuTransport3d for Recording {
    fn caps(&self) -> &HostCaps {
        self.inner.caps()
    }
    fn ctx_create(&mut self) -> virtio_gpu::Result<CtxId> {
        self.inner.ctx_create()
    }
    fn ctx_destroy(&mut self, ctx: CtxId) -> virtio_gpu::Result<()> {
        self.inner.ctx_destroy(ctx)
    }
    fn resource_create_3d(&mut self, ctx: CtxId, d: &ResourceDesc) -> virtio_gpu::Result<ResId> {
        self.inner.resource_create_3d(ctx, d)
    }
    fn resource_destroy(&mut self, ctx: CtxId, res: ResId) -> virtio_gpu::Result<()> {
        self.inner.resource_destroy(ctx, res)
    }
    fn transfer_level_to_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        level: u32,
        bx: Box3d,
        stride: u32,
        data: &[u8],
    ) -> virtio_gpu::Result<()> {
        self.inner
            .transfer_level_to_host_3d(ctx, res, level, bx, stride, data)
    }
    fn transfer_from_host_3d(
        &mut self,
        ctx: CtxId,
        res: ResId,
        bx: Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> virtio_gpu::Result<()> {
        self.inner.transfer_from_host_3d(ctx, res, bx, stride, out)
    }
    fn submit_3d(&mut self, ctx: CtxId, dwords: &[u32]) -> virtio_gpu::Result<()> {
        self.dwords.lock().unwrap().extend_from_slice(dwords);
        self.inner.submit_3d(ctx, dwords)
    }
    fn is_lost(&self) -> bool {
        self.inner.is_lost()
    }
}

/// The S3 word of every CREATE_OBJECT(RASTERIZER) in a stream.
fn rasterizer_s3(stream: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&h) = stream.get(i) {
        let len = (h >> 16) as usize;
        if h & 0xFF == CCMD_CREATE_OBJECT && (h >> 8) & 0xFF == OBJ_RASTERIZER {
            // Payload: handle, S0, point size, sprite coord enable, S3, ...
            if let Some(&s3) = stream.get(i + 5) {
                out.push(s3);
            }
        }
        i += 1 + len;
    }
    out
}

#[test]
fn the_rasterizer_enables_the_written_clip_distances() {
    let server = common::vtest_server();
    let dwords = Arc::new(Mutex::new(Vec::new()));
    let t = Recording {
        inner: VtestTransport::connect(server.socket_path()).expect("connect to vtest"),
        dwords: dwords.clone(),
    };
    let mut hw: G = Gfx3d::new();
    hw.boot(BackendMode::Virgl, Some(Box::new(VirglBackend::new(t))))
        .unwrap();
    // Context setup creates the fixed rasterizers without clip planes.
    // The linked program declares (and writes, unwritten ones as 0: never clipped)
    // distances 0..=highest written, as Mesa does (NUM_CLIPDIST_ENABLED).
    draw(&mut hw, CLIP_VERT);
    let first = rasterizer_s3(&dwords.lock().unwrap());
    assert!(
        first.contains(&(0x3F << 24)),
        "distances 0 and 5 enable planes 0..=5: {first:08x?}"
    );
    dwords.lock().unwrap().clear();
    draw(&mut hw, CLIP_ONE_VERT);
    let second = rasterizer_s3(&dwords.lock().unwrap());
    assert!(
        second.contains(&(0b111 << 24)),
        "distance 2 enables planes 0..=2: {second:08x?}"
    );
    // The context's fixed rasterizers (no program yet) enable none.
    assert!(second.iter().all(|s| *s == 0 || *s == 0b111 << 24));
    assert!(
        server.host_errors().is_empty(),
        "{:?}",
        server.host_errors()
    );
}
