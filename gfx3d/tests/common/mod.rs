//! Test doubles: a fake linked program that records what Gfx3D hands it, and a fake device that
//! records calls and fails on demand (fault injection for the device-lost policy).
#![allow(dead_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::string::String;
use std::sync::{Arc, Mutex};
use std::vec::Vec;

use gfx3d::device::*;
use gfx3d::limits::TEXTURE_UNITS;
use gfx3d::program::*;
use gfx3d::texture::SamplerState;

/// One value (or none) per texture unit.
pub type PerUnit<T> = [Option<T>; TEXTURE_UNITS];

/// What the fake program saw in its last software draw.
#[derive(Clone, Debug, Default)]
pub struct SeenDraw {
    pub stride: u32,
    pub vertex_bytes: usize,
    pub indices: Option<usize>,
    pub textures: PerUnit<(u32, u32, Vec<u32>, SamplerState)>,
    pub viewport: Option<Viewport>,
    pub depth_test: bool,
    pub cull_back: bool,
    pub vertices: Vec<f32>,
}

pub struct FakeProgram {
    pub linked: bool,
    pub generation: u32,
    pub attrs: Vec<AttributeReq>,
    /// name -> (float count, value)
    pub uniforms: HashMap<&'static str, (usize, Vec<f32>)>,
    pub draws: RefCell<Vec<SeenDraw>>,
    /// Colour the fake "rasterizer" writes into every pixel it is given.
    pub fill: Option<u32>,
    /// TGSI to hand to a device (defaults to markers the fake device checks).
    pub tgsi: Option<(&'static str, &'static str)>,
    pub vs_constants: Vec<f32>,
    pub fs_constants: Vec<f32>,
    /// Make the software draw fail with this reason.
    pub raster_error: Option<&'static str>,
    /// Make `tgsi` fail with this reason (a program the device cannot take).
    pub tgsi_error: Option<&'static str>,
}

impl FakeProgram {
    /// Reads location 0 (4) and 1 (4), declares model/view/projection (16) and normalMatrix (9).
    pub fn mvp() -> FakeProgram {
        let mut uniforms = HashMap::new();
        for n in ["model", "view", "projection"] {
            uniforms.insert(n, (16, vec![0.0; 16]));
        }
        uniforms.insert("normalMatrix", (9, vec![0.0; 9]));
        uniforms.insert("tint", (4, vec![0.0; 4]));
        FakeProgram {
            linked: true,
            generation: 2,
            attrs: vec![
                AttributeReq {
                    location: 0,
                    components: 4,
                },
                AttributeReq {
                    location: 1,
                    components: 4,
                },
            ],
            uniforms,
            draws: RefCell::new(Vec::new()),
            fill: None,
            tgsi: None,
            vs_constants: Vec::new(),
            fs_constants: Vec::new(),
            raster_error: None,
            tgsi_error: None,
        }
    }

    pub fn uniform(&self, name: &str) -> Vec<f32> {
        self.uniforms
            .get(name)
            .map(|u| u.1.clone())
            .unwrap_or_default()
    }
}

impl ShaderProgram for FakeProgram {
    fn is_linked(&self) -> bool {
        self.linked
    }
    fn generation(&self) -> u32 {
        self.generation
    }
    fn attributes(&self) -> Attributes {
        let mut a = Attributes::new();
        for x in &self.attrs {
            let _ = a.push(*x);
        }
        a
    }
    fn has_uniform(&self, name: &str) -> bool {
        self.uniforms.contains_key(name)
    }
    fn set_uniform(&mut self, name: &str, values: &[f32]) -> Result<(), UniformError> {
        let u = self
            .uniforms
            .get_mut(name)
            .ok_or(UniformError::NoSuchUniform)?;
        if values.len() != u.0 {
            return Err(UniformError::Size {
                found: values.len(),
            });
        }
        u.1 = values.to_vec();
        Ok(())
    }
    fn draw_software(
        &mut self,
        d: &SoftDraw<'_>,
        t: &mut SoftTarget<'_>,
    ) -> Result<u32, &'static str> {
        let mut seen = SeenDraw {
            stride: d.layout.stride,
            vertex_bytes: d.vertices.len() * 4,
            indices: d.indices.map(|i| i.len()),
            viewport: Some(d.viewport),
            depth_test: d.depth_test,
            cull_back: d.cull_back,
            vertices: d.vertices.to_vec(),
            ..Default::default()
        };
        for (i, tx) in d.textures.iter().enumerate() {
            seen.textures[i] = tx.map(|x| (x.width, x.height, x.texels.to_vec(), x.sampler));
        }
        self.draws.borrow_mut().push(seen);
        if let Some(e) = self.raster_error {
            return Err(e);
        }
        if let Some(c) = self.fill {
            t.color.fill(c);
        }
        Ok(1)
    }
    fn tgsi(&self, stage: Stage, out: &mut String) -> Result<u32, &'static str> {
        if let Some(why) = self.tgsi_error {
            return Err(why);
        }
        if let Some((vs, fs)) = self.tgsi {
            out.push_str(if stage == Stage::Vertex { vs } else { fs });
            return Ok(out.len() as u32 + 16);
        }
        out.push_str(match stage {
            Stage::Vertex => "VERT\nEND\n",
            Stage::Fragment => "FRAG\nEND\n",
        });
        Ok(40)
    }
    fn constants(&self, stage: Stage) -> &[f32] {
        match stage {
            Stage::Vertex => &self.vs_constants,
            Stage::Fragment => &self.fs_constants,
        }
    }
    fn sampler_units(&self) -> u16 {
        1
    }
}

/// Shared record of a fake device.
#[derive(Default)]
pub struct DevLog {
    pub calls: Vec<String>,
    /// Fail the next call whose name starts with this.
    pub fail: Option<&'static str>,
    /// Fail every call from now on (a dead device).
    pub dead: bool,
    pub next_id: u32,
    pub submits: u64,
    pub draws: Vec<(u32, u32, bool, bool, Viewport, PerUnit<u32>)>,
}

impl DevLog {
    pub fn count(&self, prefix: &str) -> usize {
        self.calls.iter().filter(|c| c.starts_with(prefix)).count()
    }
}

pub struct FakeDevice {
    pub log: Arc<Mutex<DevLog>>,
    pub available: bool,
}

impl FakeDevice {
    pub fn new() -> (FakeDevice, Arc<Mutex<DevLog>>) {
        let log = Arc::new(Mutex::new(DevLog::default()));
        (
            FakeDevice {
                log: log.clone(),
                available: true,
            },
            log,
        )
    }

    fn call(&self, name: &str) -> Result<u32, DeviceError> {
        let mut l = self.log.lock().unwrap();
        l.calls.push(name.to_string());
        if l.dead {
            return Err(DeviceError("dead"));
        }
        if let Some(f) = l.fail {
            if name.starts_with(f) {
                l.fail = None;
                return Err(DeviceError("injected"));
            }
        }
        l.next_id += 1;
        Ok(l.next_id)
    }
}

impl Device for FakeDevice {
    fn available(&self) -> bool {
        // A dead device is not available (as the VirGL backend's transport reports it).
        self.available && !self.log.lock().unwrap().dead
    }
    fn context_create(&mut self) -> Result<DevId, DeviceError> {
        self.call("context_create")
    }
    fn context_destroy(&mut self, _ctx: DevId) {
        let _ = self.call("context_destroy");
    }
    fn target_create(&mut self, _ctx: DevId, w: u32, h: u32) -> Result<DevId, DeviceError> {
        self.call(&format!("target_create {}x{}", w, h))
    }
    fn target_destroy(&mut self, _ctx: DevId, _t: DevId) {
        let _ = self.call("target_destroy");
    }
    fn buffer_create(
        &mut self,
        ctx: DevId,
        kind: BufferKind,
        bytes: &[u8],
    ) -> Result<DevId, DeviceError> {
        self.call(&format!(
            "buffer_create {:?} ctx{} {}",
            kind,
            ctx,
            bytes.len()
        ))
    }
    fn buffer_destroy(&mut self, _ctx: DevId, _b: DevId) {
        let _ = self.call("buffer_destroy");
    }
    fn texture_create(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        texels: &[u32],
        _s: SamplerState,
    ) -> Result<DevId, DeviceError> {
        self.call(&format!(
            "texture_create ctx{} {}x{} {:08x}",
            ctx,
            w,
            h,
            texels.first().copied().unwrap_or(0)
        ))
    }
    fn texture_destroy(&mut self, _ctx: DevId, _t: DevId) {
        let _ = self.call("texture_destroy");
    }
    fn program_create(
        &mut self,
        _ctx: DevId,
        vs: ShaderText<'_>,
        fs: ShaderText<'_>,
    ) -> Result<DevId, DeviceError> {
        assert!(vs.text.starts_with("VERT") && fs.text.starts_with("FRAG") && vs.tokens == 40);
        self.call("program_create")
    }
    fn program_destroy(&mut self, _ctx: DevId, _p: DevId) {
        let _ = self.call("program_destroy");
    }
    fn frame_begin(&mut self, _ctx: DevId) -> Result<(), DeviceError> {
        self.call("frame_begin").map(|_| ())
    }
    fn clear(
        &mut self,
        _ctx: DevId,
        _t: DevId,
        rgba: [f32; 4],
        depth: bool,
    ) -> Result<(), DeviceError> {
        self.call(&format!("clear {:?} {}", rgba, depth))
            .map(|_| ())
    }
    fn draw(&mut self, _ctx: DevId, d: &DevDraw<'_>) -> Result<(), DeviceError> {
        self.call("draw")?;
        self.log.lock().unwrap().draws.push((
            d.count,
            d.max_index,
            d.depth_test,
            d.cull_back,
            d.viewport,
            d.textures,
        ));
        Ok(())
    }
    fn frame_end(&mut self, _ctx: DevId) -> Result<(), DeviceError> {
        self.call("frame_end")?;
        self.log.lock().unwrap().submits += 1;
        Ok(())
    }
    fn read_target(&mut self, _ctx: DevId, _t: DevId, out: &mut [u32]) -> Result<(), DeviceError> {
        self.call("read_target")?;
        out.fill(0xFF12_3456);
        Ok(())
    }
    fn present(&mut self, _ctx: DevId, _t: DevId) -> Result<(), DeviceError> {
        self.call("present").map(|_| ())
    }
    fn scanout_primary(&mut self) -> Result<(), DeviceError> {
        self.call("scanout_primary").map(|_| ())
    }
    fn counters(&self) -> DeviceCounters {
        let l = self.log.lock().unwrap();
        DeviceCounters {
            submits: l.submits,
            dwords: l.submits * 100,
            backing_bytes: 4096,
            objects_live: 6,
            objects_peak: 9,
        }
    }
}

/// A vertex layout of `stride` bytes from (location, components, offset) triples; panics on
/// a layout `VertexLayout::new` refuses.
pub fn layout(stride: u32, elements: &[(u8, u8, u32)]) -> gfx3d::VertexLayout {
    let elements: Vec<gfx3d::Element> = elements
        .iter()
        .map(|&(location, components, offset)| gfx3d::Element {
            location,
            components,
            offset,
        })
        .collect();
    gfx3d::VertexLayout::new(stride, &elements).unwrap()
}

/// A full-target quad of two triangles on owner 0: position xyzw at location 0, uv at
/// location 1 = xy * 0.5 + 0.5 (GL's: v = 0 at the bottom, so a sampled target is copied
/// upright; 24 bytes a vertex).
pub fn screen_quad(g: &mut gfx3d::Gfx3d<gfx3d::linked::Linked>) -> gfx3d::MeshId {
    let mut v = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        v.extend_from_slice(&[x, y, 0.0, 1.0, x * 0.5 + 0.5, y * 0.5 + 0.5]);
    }
    let m = g.mesh_create(0, gfx3d::Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &layout(24, &[(0, 4, 0), (1, 2, 16)]), &v, None)
        .unwrap();
    m
}

/// loc 0 position (4 floats at 0), loc 1 colour (4 floats at 16), 32 bytes a vertex.
pub fn tri_layout() -> gfx3d::VertexLayout {
    layout(32, &[(0, 4, 0), (1, 4, 16)])
}

/// A red triangle (-0.8,-0.8), (0.8,-0.8), (0,0.8) in the 32-byte layout.
pub fn red_triangle() -> Vec<f32> {
    vec![
        -0.8, -0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, //
        0.8, -0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, //
        0.0, 0.8, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0,
    ]
}

/// Asserts that no context, target, mesh, texture or program instance is live (`what` names
/// the case in the failure message).
pub fn assert_nothing_live(s: &gfx3d::Stats, what: &str) {
    assert_eq!(live_counts(s), (0, 0, 0, 0, 0), "{}", what);
}

/// Live (contexts, targets, meshes, textures, program instances).
pub fn live_counts(s: &gfx3d::Stats) -> (u32, u32, u32, u32, u32) {
    (
        s.live_ctx,
        s.live_target,
        s.live_mesh,
        s.live_tex,
        s.live_prog,
    )
}

/// Every file of `dir` (a test corpus: tools/shc/tests/compat, tools/shc/tests/diff) as
/// (name, text), sorted by name.
pub fn dir_files(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// `dir_files`' pairs borrowed, as `gfx3d::compat::Suite` takes them.
pub fn borrowed(owned: &[(String, String)]) -> Vec<(&str, &str)> {
    owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect()
}

/// What went through a [`Logged`] transport: every count a transport test checks.
#[derive(Default)]
pub struct TransportLog {
    /// The last context created.
    pub ctx: Option<virtio_gpu::CtxId>,
    pub creates: u32,
    pub destroys: Vec<virtio_gpu::ResId>,
    pub to_host: u32,
    pub from_host: u32,
    /// The command ids of each submit, in order.
    pub submits: Vec<Vec<u32>>,
    /// What each present showed (filled by a test's scanout hook): the resource, its size and
    /// its contents read back (row 0 first, as stored on the host).
    pub shown: Vec<(virtio_gpu::ResId, u32, u32, Vec<u32>)>,
}

impl TransportLog {
    /// Transfers in either direction.
    pub fn transfers(&self) -> u32 {
        self.to_host + self.from_host
    }

    /// The command ids of every submitted command, in order.
    pub fn commands(&self) -> Vec<u32> {
        self.submits.iter().flatten().copied().collect()
    }
}

/// A transport that logs what goes through it into a shared [`TransportLog`].
pub struct Logged<T> {
    pub inner: T,
    pub log: Arc<Mutex<TransportLog>>,
}

impl<T> Logged<T> {
    pub fn new(inner: T) -> (Logged<T>, Arc<Mutex<TransportLog>>) {
        let log = Arc::new(Mutex::new(TransportLog::default()));
        (
            Logged {
                inner,
                log: log.clone(),
            },
            log,
        )
    }
}

impl<T: virtio_gpu::GpuTransport3d> virtio_gpu::GpuTransport3d for Logged<T> {
    fn caps(&self) -> &virtio_gpu::HostCaps {
        self.inner.caps()
    }
    fn ctx_create(&mut self) -> virtio_gpu::Result<virtio_gpu::CtxId> {
        let c = self.inner.ctx_create()?;
        self.log.lock().unwrap().ctx = Some(c);
        Ok(c)
    }
    fn ctx_destroy(&mut self, ctx: virtio_gpu::CtxId) -> virtio_gpu::Result<()> {
        self.inner.ctx_destroy(ctx)
    }
    fn resource_create_3d(
        &mut self,
        ctx: virtio_gpu::CtxId,
        d: &virtio_gpu::ResourceDesc,
    ) -> virtio_gpu::Result<virtio_gpu::ResId> {
        self.log.lock().unwrap().creates += 1;
        self.inner.resource_create_3d(ctx, d)
    }
    fn resource_destroy(
        &mut self,
        ctx: virtio_gpu::CtxId,
        res: virtio_gpu::ResId,
    ) -> virtio_gpu::Result<()> {
        self.log.lock().unwrap().destroys.push(res);
        self.inner.resource_destroy(ctx, res)
    }
    fn transfer_level_to_host_3d(
        &mut self,
        ctx: virtio_gpu::CtxId,
        res: virtio_gpu::ResId,
        level: u32,
        bx: virtio_gpu::proto::Box3d,
        stride: u32,
        data: &[u8],
    ) -> virtio_gpu::Result<()> {
        self.log.lock().unwrap().to_host += 1;
        self.inner
            .transfer_level_to_host_3d(ctx, res, level, bx, stride, data)
    }
    fn transfer_from_host_3d(
        &mut self,
        ctx: virtio_gpu::CtxId,
        res: virtio_gpu::ResId,
        bx: virtio_gpu::proto::Box3d,
        stride: u32,
        out: &mut [u8],
    ) -> virtio_gpu::Result<()> {
        self.log.lock().unwrap().from_host += 1;
        self.inner.transfer_from_host_3d(ctx, res, bx, stride, out)
    }
    fn submit_3d(&mut self, ctx: virtio_gpu::CtxId, dwords: &[u32]) -> virtio_gpu::Result<()> {
        let mut ids = Vec::new();
        let mut at = 0;
        while let Some(h) = dwords.get(at) {
            ids.push(h & 0xff);
            at += 1 + (h >> 16) as usize;
        }
        self.log.lock().unwrap().submits.push(ids);
        self.inner.submit_3d(ctx, dwords)
    }
    fn is_lost(&self) -> bool {
        self.inner.is_lost()
    }
}

/// Starts virgl_test_server: the VirGL backend's host tests need it (scripts/setup.sh installs
/// it), so a missing server fails the test and says so.
pub fn vtest_server() -> virtio_gpu::vtest::VtestServer {
    virtio_gpu::vtest::VtestServer::start()
        .unwrap_or_else(|e| panic!("virgl_test_server is required: {}", e))
}

/// A Gfx3D booted on the VirGL backend over a new vtest connection to `server`.
pub fn virgl_on(server: &virtio_gpu::vtest::VtestServer) -> gfx3d::Gfx3d<gfx3d::linked::Linked> {
    let t =
        virtio_gpu::vtest::VtestTransport::connect(server.socket_path()).expect("connect to vtest");
    let mut g = gfx3d::Gfx3d::new();
    g.boot(
        gfx3d::BackendMode::Virgl,
        Some(Box::new(gfx3d::virgl::VirglBackend::new(t))),
    )
    .unwrap();
    g
}

/// Compiles and links a GLSL pair and prepares it for owner 0 in context `c` (panics on any
/// error: a test helper).
pub fn prog(
    g: &mut gfx3d::Gfx3d<gfx3d::linked::Linked>,
    c: gfx3d::ContextId,
    vs: &str,
    fs: &str,
) -> gfx3d::ProgramId {
    let linked = gfx3d::linked::Linked::from_glsl(g.compiler(), vs, fs, "t").unwrap();
    g.prog_prepare(0, c, linked).unwrap()
}

/// A rectangle `[x0, y0, x1, y1]` at depth `z` as two triangles of `tri_layout` (position xyzw,
/// white colour), owner 0.
pub fn rect(g: &mut gfx3d::Gfx3d<gfx3d::linked::Linked>, r: [f32; 4], z: f32) -> gfx3d::MeshId {
    let [x0, y0, x1, y1] = r;
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, z, 1.0, 1.0, 1.0, 1.0, 1.0]);
    }
    let m = g.mesh_create(0, gfx3d::Usage::Static).unwrap();
    g.mesh_upload_f32(0, m, &tri_layout(), &v, None).unwrap();
    m
}
