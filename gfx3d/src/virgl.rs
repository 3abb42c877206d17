//! The VirGL backend: implements Gfx3D's `Device` contract over the virtio-gpu crate's
//! `GpuTransport3d` (the virtio device in the kernel, vtest on the host) and its encoder.
//!
//! Per device context it keeps one command batch, an object-handle pool and the fixed pipe
//! objects (blend, depth on/off, cull on/off, one sampler state per sampler kind); colour targets
//! are B8G8R8A8 with a Z32F depth buffer; buffers and textures are resources of the context that
//! uses them; programs are a VS/FS pair (linked when the host supports LINK_SHADER). Targets
//! are drawn GL-native (a positive viewport y-scale: host row 0 is window y 0, the bottom of
//! the picture), so a sampled target reads as in GL (t = 0 at the bottom); readback reverses
//! the rows into Gfx3D's top-row-first images. virglrenderer turns a positive y-scale into no
//! gl_Position flip and inverts gallium's front_ccw for a framebuffer without
//! VIRGL_RESOURCE_Y_0_TOP, so the rasterizer state sends the opposite winding; gl_FragCoord's
//! origin is gallium's UPPER_LEFT there (the program's TGSI, `linked`); the scissor rectangle
//! is in GL's window coordinates.
//! Presentation goes through caller-supplied scanout hooks because scanout is a property of the
//! virtio device, not of every transport; what they show is a per-target scanout copy filled
//! by a vertically flipped host BLIT (the host's display reads a resource top row first), sent
//! at the end of each frame's own batch once the copy exists.
//!
//! It must never: let a device id escape through Gfx3D's public API, panic on any transport
//! answer, or send a command the encoder did not validate.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use virtio_gpu::encode::{
    float_format, int_format, BlendState, BlitSide, DrawInfo, DsaState, Encoder, RasterState,
    SamplerState as VSampler, VertexBuffer, VertexElement, Viewport as VViewport,
};
use virtio_gpu::limits::{DEFAULT_BATCH_DWORDS, MAX_OBJECT_HANDLES};
use virtio_gpu::proto::Box3d;
use virtio_gpu::protocol::*;
use virtio_gpu::transport::{CtxSink, ResourceDesc};
use virtio_gpu::{CommandBuffer, CtxId, GpuError, GpuTransport3d, IdPool, ResId};

// Every TGSI text the compiler may emit (profile 2's bound) is one the encoder uploads.
const _: () = assert!(
    virtio_gpu::limits::MAX_SHADER_TEXT_BYTES == shader::limits::P2_TGSI_MAX
        && shader::limits::TGSI_CAP <= virtio_gpu::limits::MAX_SHADER_TEXT_BYTES
);

use crate::device::*;
use crate::limits::TEXTURE_UNITS;
use crate::program::Viewport;
use crate::state::{BlendFactor, BlendOp, CompareFunc, CullFace, FrontFace, Pipeline, Scissor};
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::{Filter, MipFilter, SamplerState, Wrap};

/// Fills scanout copy `shown` with RGBA8 target colour `color` (w x h), rows reversed: one
/// host BLIT with the source box flipped.
fn scanout_blit<S: virtio_gpu::Sink>(
    e: &mut Encoder<'_, S>,
    shown: ResId,
    color: ResId,
    w: u32,
    h: u32,
) -> virtio_gpu::Result<()> {
    let side = |resource: ResId| BlitSide {
        resource: resource.0,
        level: 0,
        format: FORMAT_B8G8R8A8_UNORM,
        bx: Box3d::new_2d(w, h),
    };
    e.blit(&side(shown), &side(color).flipped_y(), BLIT_FILTER_NEAREST)
}

/// How a VirGL colour target is made the scanout (supplied by the kernel's virtio device).
pub struct ScanoutHooks<T> {
    /// SET_SCANOUT to the resource (w x h), then RESOURCE_FLUSH.
    pub present: fn(&mut T, ResId, u32, u32) -> virtio_gpu::Result<()>,
    /// Back to the 2D console resource.
    pub primary: fn(&mut T) -> virtio_gpu::Result<()>,
}

impl<T> Clone for ScanoutHooks<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ScanoutHooks<T> {}

struct Pipe {
    blend: u32,
    dsa: [u32; 2],
    raster: [u32; 2],
    /// Sampler states by their description (filters, wraps, mip filter, LODs), created on
    /// first use; at most `SAMPLER_CACHE_MAX` (see [`VirglBackend::sampler`]).
    samplers: Vec<(VSampler, u32)>,
    /// Blend, DSA and rasterizer objects by their description: the fixed objects above first,
    /// then those made on demand for other pipeline state (at most `STATE_CACHE_MAX` each; the
    /// oldest unbound one made on demand is destroyed to make room).
    blends: Vec<(BlendState, u32)>,
    dsas: Vec<(DsaState, u32)>,
    rasters: Vec<(RasterState, u32)>,
    /// Blend object bound (0: unknown, re-bind), blend colour and scissor sent last (`None`:
    /// unknown, re-send).
    blend_bound: u32,
    blend_color: Option<[f32; 4]>,
    scissor: Option<([u32; 2], [u32; 2])>,
}

/// State objects of each kind a device context keeps.
const STATE_CACHE_MAX: usize = 16;
/// Sampler state objects a device context keeps: more than two draws' worth of units, so the
/// states of the draw being encoded and of the one bound before are never evicted.
const SAMPLER_CACHE_MAX: usize = 48;

/// The cached object for `key`, creating it (and evicting the oldest unbound on-demand entry
/// past the fixed `keep` ones when the cache is full).
#[allow(clippy::too_many_arguments)]
fn state_object<K: PartialEq + Copy, S: virtio_gpu::batch::Sink + ?Sized>(
    e: &mut Encoder<'_, S>,
    handles: &mut IdPool,
    cache: &mut Vec<(K, u32)>,
    key: K,
    bound: u32,
    keep: usize,
    obj: u32,
    create: fn(&mut Encoder<'_, S>, u32, &K) -> virtio_gpu::Result<()>,
) -> virtio_gpu::Result<u32> {
    if let Some((_, h)) = cache.iter().find(|(k, _)| *k == key) {
        return Ok(*h);
    }
    if cache.len() >= STATE_CACHE_MAX {
        if let Some(i) = (keep..cache.len()).find(|&i| cache.get(i).is_some_and(|c| c.1 != bound)) {
            let (_, old) = cache.remove(i);
            e.destroy_object(obj, old)?;
            let _ = handles.free(old);
        }
    }
    let h = handles.alloc()?;
    if let Err(err) = create(e, h, &key) {
        let _ = handles.free(h);
        return Err(err);
    }
    cache.push((key, h));
    Ok(h)
}

fn pipe_factor(f: BlendFactor) -> u32 {
    match f {
        BlendFactor::Zero => BLENDFACTOR_ZERO,
        BlendFactor::One => BLENDFACTOR_ONE,
        BlendFactor::SrcColor => BLENDFACTOR_SRC_COLOR,
        BlendFactor::OneMinusSrcColor => BLENDFACTOR_INV_SRC_COLOR,
        BlendFactor::DstColor => BLENDFACTOR_DST_COLOR,
        BlendFactor::OneMinusDstColor => BLENDFACTOR_INV_DST_COLOR,
        BlendFactor::SrcAlpha => BLENDFACTOR_SRC_ALPHA,
        BlendFactor::OneMinusSrcAlpha => BLENDFACTOR_INV_SRC_ALPHA,
        BlendFactor::DstAlpha => BLENDFACTOR_DST_ALPHA,
        BlendFactor::OneMinusDstAlpha => BLENDFACTOR_INV_DST_ALPHA,
        BlendFactor::ConstantColor => BLENDFACTOR_CONST_COLOR,
        BlendFactor::OneMinusConstantColor => BLENDFACTOR_INV_CONST_COLOR,
        BlendFactor::ConstantAlpha => BLENDFACTOR_CONST_ALPHA,
        BlendFactor::OneMinusConstantAlpha => BLENDFACTOR_INV_CONST_ALPHA,
        BlendFactor::SrcAlphaSaturate => BLENDFACTOR_SRC_ALPHA_SATURATE,
    }
}

fn pipe_func(op: BlendOp) -> u32 {
    match op {
        BlendOp::Add => BLEND_ADD,
        BlendOp::Subtract => BLEND_SUBTRACT,
        BlendOp::ReverseSubtract => BLEND_REVERSE_SUBTRACT,
        BlendOp::Min => BLEND_MIN,
        BlendOp::Max => BLEND_MAX,
    }
}

/// The VirGL blend state of a pipeline (blending off keeps the default factors).
fn blend_state(p: &Pipeline) -> BlendState {
    let m = p.color_mask;
    let colormask = m.r as u32 | (m.g as u32) << 1 | (m.b as u32) << 2 | (m.a as u32) << 3;
    match &p.blend {
        None => BlendState {
            colormask,
            ..BlendState::default()
        },
        Some(b) => BlendState {
            enable: true,
            rgb_func: pipe_func(b.color.op),
            rgb_src: pipe_factor(b.color.src),
            rgb_dst: pipe_factor(b.color.dst),
            alpha_func: pipe_func(b.alpha.op),
            alpha_src: pipe_factor(b.alpha.src),
            alpha_dst: pipe_factor(b.alpha.dst),
            colormask,
        },
    }
}

/// Pipe compare functions share GL's order (NEVER = 0 .. ALWAYS = 7).
fn pipe_compare(f: CompareFunc) -> u32 {
    match f {
        CompareFunc::Never => FUNC_NEVER,
        CompareFunc::Less => FUNC_LESS,
        CompareFunc::Equal => FUNC_EQUAL,
        CompareFunc::LessEqual => FUNC_LEQUAL,
        CompareFunc::Greater => FUNC_GREATER,
        CompareFunc::NotEqual => FUNC_NOTEQUAL,
        CompareFunc::GreaterEqual => FUNC_GEQUAL,
        CompareFunc::Always => FUNC_ALWAYS,
    }
}

fn dsa_state(test: bool, write: bool, p: &Pipeline) -> DsaState {
    if test {
        DsaState {
            depth_enable: true,
            depth_write: write,
            depth_func: pipe_compare(p.depth_func),
        }
    } else {
        // What the fixed "depth off" object holds (the encoder sends 0 for any of these).
        DsaState {
            depth_enable: false,
            depth_write: false,
            depth_func: FUNC_LESS,
        }
    }
}

/// The clip distances a vertex shader's TGSI writes: the components of its `CLIPDIST[h]`
/// output declarations (`DCL OUT[n].xy, CLIPDIST[0]`: distances 0 and 1; CLIPDIST[1] holds
/// 4..=7), which become the rasterizer's clip-plane enables, as GL enables the planes an
/// application turns on for the distances its shader writes.
pub fn clip_planes_of(vs_tgsi: &str) -> u8 {
    let mut planes = 0u8;
    for line in vs_tgsi.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("DCL OUT[") else {
            continue;
        };
        let Some(at) = rest.find(", CLIPDIST[") else {
            continue;
        };
        let half = match rest.get(at + 11..at + 12) {
            Some("0") => 0,
            Some("1") => 4,
            _ => continue,
        };
        // "n].xyzw": the write mask after the register (none: all four).
        let head = rest.get(..at).unwrap_or("");
        let mask = head.split_once("].").map_or("xyzw", |(_, m)| m);
        for (i, c) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
            if mask.contains(c) {
                planes |= 1 << (half + i);
            }
        }
    }
    planes
}

fn raster_state(p: &Pipeline) -> RasterState {
    let offset = p.offset_factor != 0.0 || p.offset_units != 0.0;
    RasterState {
        cull_face: match p.cull {
            CullFace::None => CULL_NONE,
            CullFace::Front => CULL_FRONT,
            CullFace::Back => CULL_BACK,
            CullFace::FrontAndBack => CULL_BACK + 1,
        },
        // Drawn GL-native: virglrenderer inverts front_ccw for a framebuffer that is not
        // Y_0_TOP (it expects gallium's y-down winding), so GL's winding is sent inverted.
        front_ccw: p.front_face != FrontFace::Ccw,
        scissor: p.scissor.is_some(),
        offset_tri: offset,
        offset_units: if offset { p.offset_units } else { 0.0 },
        offset_scale: if offset { p.offset_factor } else { 0.0 },
        ..RasterState::default()
    }
}

/// The scissor rectangle clipped to the `w` x `h` target as [min, max) in rows from window
/// y 0 (the target is drawn GL-native: host row 0 is the bottom).
fn scissor_rect(s: &Scissor, w: u32, h: u32) -> ([u32; 2], [u32; 2]) {
    let (w, h) = (w as i64, h as i64);
    let x0 = (s.x as i64).clamp(0, w);
    let x1 = (s.x as i64 + s.width as i64).clamp(x0, w);
    let y0 = (s.y as i64).clamp(0, h);
    let y1 = (s.y as i64 + s.height as i64).clamp(y0, h);
    ([x0 as u32, y0 as u32], [x1 as u32, y1 as u32])
}

/// What is bound in a device context, so a draw sends only what changed. Reset whenever an
/// object of the context is destroyed (a handle may be reused) or an encoding failed.
#[derive(Default)]
struct Bound {
    dsa: u32,
    raster: u32,
    shaders: (u32, u32),
    ve: u32,
    vbuf: (u32, u32, usize),
    ibuf: u32,
    samplers: ([u32; TEXTURE_UNITS], [u32; TEXTURE_UNITS], usize),
    vs_consts: Vec<[f32; 4]>,
    fs_consts: Vec<[f32; 4]>,
}

struct Ctx {
    ctx: CtxId,
    bound: Bound,
    /// Sampler view of the 1x1 black texture for sampled units without a texture.
    black: Option<u32>,
    cb: CommandBuffer,
    handles: IdPool,
    pipe: Pipe,
    /// Vertex-element objects by their element list and instance divisors.
    ve_cache: Vec<(Vec<VertexElement>, Vec<u32>, Vec<u32>, u32)>,
    /// Target whose surfaces are bound as the framebuffer.
    bound_fb: Option<DevId>,
    viewport: Option<[i32; 4]>,
}

enum Obj {
    Context(Box<Ctx>),
    Target {
        ctx: DevId,
        color: ResId,
        depth: ResId,
        csurf: u32,
        zsurf: u32,
        /// Sampler views of the colour and the depth (0: none yet), made when a draw first
        /// samples the target (render to texture).
        views: [u32; 2],
        w: u32,
        h: u32,
        bytes: u64,
        format: TargetFormat,
        /// A mipmapped copy of the colour (`target_generate_levels` on the host, or
        /// `target_set_levels` uploaded): the texture whose view a draw samples for the colour
        /// while `mips_valid` (until the target is drawn into again). Kept for the next
        /// generation; destroyed with the target.
        mips: Option<DevId>,
        mips_valid: bool,
        /// The scanout copy of the colour (RGBA8 targets, made on first `present`, kept,
        /// destroyed with the target): the colour flipped vertically by a host BLIT, so its
        /// row 0 is the picture's top row, as the host's display expects of a resource without
        /// VIRGL_RESOURCE_Y_0_TOP. Its resource and backing bytes.
        scanout: Option<(ResId, u64)>,
        /// The scanout copy holds the target's picture: false once a clear or draw binds the
        /// target; `frame_end` then refreshes the copy in the frame's own batch (after its
        /// draws), so a `present` after it sends no command.
        scanout_fresh: bool,
    },
    Buffer {
        ctx: DevId,
        res: ResId,
        bytes: u64,
    },
    Texture {
        ctx: DevId,
        res: ResId,
        view: u32,
        sampler: SamplerState,
        bytes: u64,
    },
    Program {
        ctx: DevId,
        vs: u32,
        fs: u32,
        /// The user clip planes the vertex shader writes (bit k: gl_ClipDistance[k]).
        clip: u8,
    },
}

/// Gfx3D's VirGL device over a transport.
pub struct VirglBackend<T: GpuTransport3d> {
    transport: T,
    objects: BTreeMap<DevId, Obj>,
    next_id: DevId,
    hooks: Option<ScanoutHooks<T>>,
    submits: u64,
    dwords: u64,
    backing: u64,
    peak: u32,
    failed: bool,
}

fn e(what: &'static str) -> impl Fn(GpuError) -> DeviceError {
    move |_| DeviceError(what)
}

fn pipe_filter(f: Filter) -> u32 {
    match f {
        Filter::Nearest => FILTER_NEAREST,
        Filter::Linear => FILTER_LINEAR,
    }
}

fn pipe_wrap(w: Wrap) -> u32 {
    match w {
        Wrap::Repeat => WRAP_REPEAT,
        Wrap::ClampToEdge => WRAP_CLAMP_TO_EDGE,
        Wrap::MirroredRepeat => WRAP_MIRROR_REPEAT,
    }
}

/// The VirGL sampler state of a Gfx3D sampler: every field carried (filters, wraps, mip filter,
/// LOD bias/min/max). Without a mip filter only the sign of the LOD against 0 matters
/// (magnify or minify), so a min LOD below 0 is sent as 0: the same choice, and the stream of
/// a default sampler stays what it was before mip states existed.
fn vsampler(s: SamplerState) -> VSampler {
    let mip_filter = match s.mip {
        MipFilter::None => MIPFILTER_NONE,
        MipFilter::Nearest => MIPFILTER_NEAREST,
        MipFilter::Linear => MIPFILTER_LINEAR,
    };
    let clamp = |v: f32| {
        if v.is_nan() {
            0.0
        } else {
            v.clamp(-SAMPLER_LOD_MAX, SAMPLER_LOD_MAX)
        }
    };
    let min_lod = if s.mip == MipFilter::None {
        clamp(s.min_lod).max(0.0)
    } else {
        clamp(s.min_lod)
    };
    VSampler {
        wrap_s: pipe_wrap(s.wrap),
        wrap_t: pipe_wrap(s.wrap_t()),
        min_filter: pipe_filter(s.min()),
        mag_filter: pipe_filter(s.filter),
        mip_filter,
        lod_bias: clamp(s.lod_bias),
        min_lod,
        max_lod: clamp(s.max_lod),
        // Shadow samplers: COMPARE_MODE with the function (pipe's order is GL's).
        compare_func: s.compare.map(pipe_compare),
    }
}

impl<T: GpuTransport3d> VirglBackend<T> {
    pub fn new(transport: T) -> Self {
        VirglBackend {
            transport,
            objects: BTreeMap::new(),
            next_id: 1,
            hooks: None,
            submits: 0,
            dwords: 0,
            backing: 0,
            peak: 0,
            failed: false,
        }
    }

    /// Adds scanout hooks: `present` then shows an RGBA8 target through its scanout copy.
    pub fn with_scanout(mut self, hooks: ScanoutHooks<T>) -> Self {
        self.hooks = Some(hooks);
        self
    }

    pub fn transport(&mut self) -> &mut T {
        &mut self.transport
    }

    fn alloc_id(&mut self) -> DevId {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        id
    }

    fn ctx_mut(&mut self, ctx: DevId) -> Result<(&mut T, &mut Ctx), DeviceError> {
        match self.objects.get_mut(&ctx) {
            Some(Obj::Context(c)) => Ok((&mut self.transport, c)),
            _ => Err(DeviceError("unknown device context")),
        }
    }

    /// Runs encoder calls against a context's batch.
    fn enc<R>(
        &mut self,
        ctx: DevId,
        what: &'static str,
        f: impl FnOnce(
            &mut Encoder<'_, CtxSink<'_, T>>,
            &mut IdPool,
            &mut Pipe,
        ) -> virtio_gpu::Result<R>,
    ) -> Result<R, DeviceError> {
        let (t, c) = self.ctx_mut(ctx)?;
        let mut sink = CtxSink {
            transport: t,
            ctx: c.ctx,
        };
        let before = (c.cb.submits(), c.cb.dwords_submitted());
        let r = {
            let mut enc = Encoder::new(&mut c.cb, &mut sink);
            f(&mut enc, &mut c.handles, &mut c.pipe)
        };
        let after = (c.cb.submits(), c.cb.dwords_submitted());
        let live = c.handles.live();
        self.submits += after.0 - before.0;
        self.dwords += after.1 - before.1;
        self.peak = self.peak.max(self.objects_live().max(live));
        if r.is_err() {
            self.failed = self.failed || self.transport.is_lost();
        }
        r.map_err(e(what))
    }

    fn objects_live(&self) -> u32 {
        self.objects
            .values()
            .map(|o| match o {
                Obj::Context(c) => c.handles.live(),
                _ => 0,
            })
            .sum()
    }

    fn flush(&mut self, ctx: DevId) -> Result<(), DeviceError> {
        self.enc(ctx, "virgl submit failed", |e, _, _| e.flush())
    }

    /// The sampler state object of `s` in context `ctx`, created on first use. When the cache
    /// is full the oldest state neither in `keep` (this draw's states so far) nor bound is
    /// destroyed, and the bound sampler list is forgotten so the next draw re-binds.
    fn sampler(&mut self, ctx: DevId, s: SamplerState, keep: &[u32]) -> Result<u32, DeviceError> {
        let key = vsampler(s);
        let (_, c) = self.ctx_mut(ctx)?;
        if let Some((_, h)) = c.pipe.samplers.iter().find(|(k, _)| *k == key) {
            return Ok(*h);
        }
        let bound = c.bound.samplers.0;
        let mut evicted = false;
        let h = self.enc(ctx, "virgl sampler state failed", |e, handles, pipe| {
            if pipe.samplers.len() >= SAMPLER_CACHE_MAX {
                let old = pipe
                    .samplers
                    .iter()
                    .position(|(_, h)| !keep.contains(h) && !bound.contains(h));
                if let Some(i) = old {
                    let (_, old) = pipe.samplers.remove(i);
                    e.destroy_object(OBJ_SAMPLER_STATE, old)?;
                    let _ = handles.free(old);
                    evicted = true;
                }
            }
            let h = handles.alloc()?;
            if let Err(err) = e.create_sampler_state(h, &key) {
                let _ = handles.free(h);
                return Err(err);
            }
            pipe.samplers.push((key, h));
            Ok(h)
        })?;
        if evicted {
            if let Ok((_, c)) = self.ctx_mut(ctx) {
                c.bound.samplers = Default::default();
            }
        }
        Ok(h)
    }

    /// Makes `target` the framebuffer (a clear or a draw follows: its scanout copy is stale).
    fn bind_target(&mut self, ctx: DevId, target: DevId) -> Result<(u32, u32), DeviceError> {
        let (csurf, zsurf, w, h) = match self.objects.get_mut(&target) {
            Some(Obj::Target {
                csurf,
                zsurf,
                w,
                h,
                ctx: c,
                scanout_fresh,
                ..
            }) if *c == ctx => {
                *scanout_fresh = false;
                (*csurf, *zsurf, *w, *h)
            }
            _ => return Err(DeviceError("unknown device target")),
        };
        let (_, c) = self.ctx_mut(ctx)?;
        if c.bound_fb != Some(target) {
            c.bound_fb = Some(target);
            c.viewport = None;
            self.enc(ctx, "virgl framebuffer failed", |e, _, _| {
                e.set_framebuffer_state(&[csurf], zsurf)
            })?;
        }
        Ok((w, h))
    }

    fn set_viewport(&mut self, ctx: DevId, vp: Viewport, target_h: u32) -> Result<(), DeviceError> {
        let key = [vp.x, vp.y, vp.width as i32, vp.height as i32];
        let (_, c) = self.ctx_mut(ctx)?;
        if c.viewport == Some(key) {
            return Ok(());
        }
        c.viewport = Some(key);
        // GL's (x, y) is the lower-left corner, and the target's row 0 is window y 0 (drawn
        // GL-native: a positive y-scale).
        let _ = target_h;
        let v = VViewport::gl_native(vp.x as f32, vp.y as f32, vp.width as f32, vp.height as f32);
        self.enc(ctx, "virgl viewport failed", |e, _, _| e.set_viewport(&v))
    }

    fn release(&mut self, ctx: DevId, res: ResId, bytes: u64) {
        if let Some(Obj::Context(c)) = self.objects.get(&ctx) {
            let cid = c.ctx;
            let _ = self.transport.resource_destroy(cid, res);
        }
        self.backing = self.backing.saturating_sub(bytes);
    }

    fn create_resource(
        &mut self,
        ctx: DevId,
        desc: &ResourceDesc,
    ) -> Result<(ResId, u64), DeviceError> {
        let cid = match self.objects.get(&ctx) {
            Some(Obj::Context(c)) => c.ctx,
            _ => return Err(DeviceError("unknown device context")),
        };
        let res = self
            .transport
            .resource_create_3d(cid, desc)
            .map_err(e("virgl resource create failed"))?;
        let bytes = desc.backing_bytes().unwrap_or(0) as u64;
        self.backing += bytes;
        Ok((res, bytes))
    }

    /// The view of a 1x1 opaque black texture, made on first need per context (what an unbound
    /// sampler reads).
    fn black_view(&mut self, ctx: DevId) -> Result<u32, DeviceError> {
        if let Ok((_, c)) = self.ctx_mut(ctx) {
            if let Some(v) = c.black {
                return Ok(v);
            }
        }
        let (res, _) = self.create_resource(ctx, &ResourceDesc::texture(1, 1))?;
        let cid = self.cid(ctx)?;
        self.transport
            .transfer_to_host_3d(
                cid,
                res,
                Box3d::new_2d(1, 1),
                4,
                &0xFF00_0000u32.to_le_bytes(),
            )
            .map_err(e("virgl texture upload failed"))?;
        let view = self.enc(ctx, "virgl sampler view failed", |e, hp, _| {
            let v = hp.alloc()?;
            e.create_sampler_view(v, res.0, FORMAT_B8G8R8A8_UNORM)?;
            Ok(v)
        })?;
        let (_, c) = self.ctx_mut(ctx)?;
        c.black = Some(view);
        Ok(view)
    }

    /// The sampler view of a target's colour or depth, made on first use (a depth view reads
    /// (d, d, d, 1), as the software backend's depth sampling does).
    fn target_view(
        &mut self,
        ctx: DevId,
        target: DevId,
        plane: TargetPlane,
    ) -> Result<u32, DeviceError> {
        let i = match plane {
            TargetPlane::Color => 0,
            TargetPlane::Depth => 1,
        };
        // The colour with generated levels: the mipmapped copy's view.
        if let (
            0,
            Some(Obj::Target {
                mips: Some(m),
                mips_valid: true,
                ..
            }),
        ) = (i, self.objects.get(&target))
        {
            if let Some(Obj::Texture { view, .. }) = self.objects.get(m) {
                return Ok(*view);
            }
        }
        let (res, have, color_format) = match self.objects.get(&target) {
            Some(Obj::Target {
                ctx: c,
                color,
                depth,
                views,
                format,
                ..
            }) if *c == ctx => (
                if i == 0 { *color } else { *depth },
                views.get(i).copied().unwrap_or(0),
                color_format(*format),
            ),
            _ => return Err(DeviceError("unknown device target")),
        };
        if have != 0 {
            return Ok(have);
        }
        let (format, swizzle) = if i == 0 {
            (color_format, SWIZZLE_IDENTITY)
        } else {
            (FORMAT_Z32_FLOAT, SWIZZLE_RRR1)
        };
        let view = self.enc(ctx, "virgl target sampler view failed", |e, hp, _| {
            let v = hp.alloc()?;
            if let Err(err) = e.create_sampler_view_swizzled(v, res.0, format, swizzle) {
                let _ = hp.free(v);
                return Err(err);
            }
            Ok(v)
        })?;
        if let Some(Obj::Target { views, .. }) = self.objects.get_mut(&target) {
            if let Some(v) = views.get_mut(i) {
                *v = view;
            }
        }
        Ok(view)
    }

    /// Handles and resource ids may be reused after a destroy: stop trusting the bound cache.
    fn forget_bound(&mut self, ctx: DevId) {
        if let Ok((_, c)) = self.ctx_mut(ctx) {
            c.bound = Bound::default();
        }
    }

    fn cid(&self, ctx: DevId) -> Result<CtxId, DeviceError> {
        match self.objects.get(&ctx) {
            Some(Obj::Context(c)) => Ok(c.ctx),
            _ => Err(DeviceError("unknown device context")),
        }
    }

    /// A B8G8R8A8 texture resource `desc` (2D: one layer; cube: six faces as layers 0..6,
    /// each transferred with its face as the box's z; 2D array: its layers, the layer as z) with as many mip levels as
    /// `layers[0]` has (`layers[z][l]`: level l of layer z, max(1, w >> l) x max(1, h >> l)
    /// texels; every layer the same count), one transfer per level and layer, and its
    /// sampler view over all the levels (a cube view for a cube, every layer of an array).
    fn texture_layers(
        &mut self,
        ctx: DevId,
        desc: &ResourceDesc,
        layers: &[&[&[u32]]],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        let levels = layers.first().map_or(1, |l| l.len().max(1)) as u32;
        if layers.iter().any(|l| l.len() as u32 != levels) {
            return Err(DeviceError(
                "virgl texture layers with different mip levels",
            ));
        }
        let desc = desc.with_levels(levels);
        self.sampler(ctx, sampler, &[])?;
        let (res, n) = self.create_resource(ctx, &desc)?;
        let cid = self.cid(ctx)?;
        let cube = desc.target == TARGET_TEXTURE_CUBE;
        let array = desc.target == TARGET_TEXTURE_2D_ARRAY;
        for (z, chain) in layers.iter().enumerate() {
            for (level, texels) in chain.iter().enumerate() {
                let level = level as u32;
                let (w, h) = desc.level_size(level);
                let mut bytes = Vec::with_capacity(texels.len() * 4);
                for t in texels.iter() {
                    bytes.extend_from_slice(&t.to_le_bytes());
                }
                let bx = Box3d {
                    z: z as u32,
                    ..Box3d::new_2d(w, h)
                };
                if let Err(err) = self.transport.transfer_level_to_host_3d(
                    cid,
                    res,
                    level,
                    bx,
                    w * desc.bytes_per_texel,
                    &bytes,
                ) {
                    self.release(ctx, res, n);
                    return Err(e("virgl texture upload failed")(err));
                }
            }
        }
        let last_level = desc.last_level;
        let view = self.enc(ctx, "virgl sampler view failed", |e, hp, _| {
            let v = hp.alloc()?;
            let r = if array {
                e.create_sampler_view_array(v, res.0, desc.format, desc.array_size, last_level)
            } else {
                e.create_sampler_view_levels(v, res.0, desc.format, cube, last_level)
            };
            if let Err(err) = r {
                let _ = hp.free(v);
                return Err(err);
            }
            Ok(v)
        });
        let view = match view {
            Ok(v) => v,
            Err(err) => {
                self.release(ctx, res, n);
                return Err(err);
            }
        };
        let id = self.alloc_id();
        self.objects.insert(
            id,
            Obj::Texture {
                ctx,
                res,
                view,
                sampler,
                bytes: n,
            },
        );
        Ok(id)
    }
}

impl<T: GpuTransport3d> VirglBackend<T> {
    /// Reads a device target of `format` back (after flushing the context's batch), rows
    /// reversed into top row first (host row 0 is the bottom of the picture): the caller
    /// unpacks the pixels in order.
    fn read_rows(
        &mut self,
        ctx: DevId,
        target: DevId,
        format: TargetFormat,
    ) -> Result<Vec<u8>, DeviceError> {
        let (bpp, wrong, failed) = match format {
            TargetFormat::Rgba8 => (4, "not an RGBA8 device target", "virgl readback failed"),
            TargetFormat::Rgba32F => (
                16,
                "not an RGBA32F device target",
                "virgl float readback failed",
            ),
        };
        let (color, w, h) = match self.objects.get(&target) {
            Some(Obj::Target {
                color,
                w,
                h,
                ctx: c,
                format: f,
                ..
            }) if *c == ctx && *f == format => (*color, *w, *h),
            Some(Obj::Target { .. }) => return Err(DeviceError(wrong)),
            _ => return Err(DeviceError("unknown device target")),
        };
        self.flush(ctx)?;
        let cid = self.cid(ctx)?;
        let row = w as usize * bpp;
        let mut bytes = vec![0u8; row * h as usize];
        self.transport
            .transfer_from_host_3d(cid, color, Box3d::new_2d(w, h), w * bpp as u32, &mut bytes)
            .map_err(e(failed))?;
        let mut rows = Vec::with_capacity(bytes.len());
        for r in bytes.chunks_exact(row.max(1)).rev() {
            rows.extend_from_slice(r);
        }
        Ok(rows)
    }
}

impl<T: GpuTransport3d + Send> Device for VirglBackend<T> {
    fn available(&self) -> bool {
        !self.failed && !self.transport.is_lost()
    }

    fn context_create(&mut self) -> Result<DevId, DeviceError> {
        let cid = self
            .transport
            .ctx_create()
            .map_err(e("virgl context create failed"))?;
        let cb = CommandBuffer::new(DEFAULT_BATCH_DWORDS).map_err(e("virgl batch"))?;
        let handles =
            IdPool::new("virgl object", MAX_OBJECT_HANDLES).map_err(e("virgl handles"))?;
        let id = self.alloc_id();
        let pipe = Pipe {
            blend: 0,
            dsa: [0; 2],
            raster: [0; 2],
            samplers: Vec::new(),
            blends: Vec::new(),
            dsas: Vec::new(),
            rasters: Vec::new(),
            blend_bound: 0,
            blend_color: Some([0.0; 4]),
            scissor: None,
        };
        self.objects.insert(
            id,
            Obj::Context(Box::new(Ctx {
                ctx: cid,
                cb,
                handles,
                pipe,
                ve_cache: Vec::new(),
                bound: Bound::default(),
                black: None,
                bound_fb: None,
                viewport: None,
            })),
        );
        let r = self.enc(id, "virgl pipe state failed", |e, h, pipe| {
            pipe.blend = h.alloc()?;
            e.create_blend(pipe.blend, &BlendState::default())?;
            pipe.blends.push((BlendState::default(), pipe.blend));
            for (i, on) in [false, true].into_iter().enumerate() {
                pipe.dsa[i] = h.alloc()?;
                let dsa = DsaState {
                    depth_enable: on,
                    depth_write: on,
                    depth_func: FUNC_LESS,
                };
                e.create_dsa(pipe.dsa[i], &dsa)?;
                pipe.dsas.push((dsa, pipe.dsa[i]));
                pipe.raster[i] = h.alloc()?;
                let cull = if on { CULL_BACK } else { CULL_NONE };
                let rs = RasterState {
                    cull_face: cull,
                    ..RasterState::default()
                };
                e.create_rasterizer(pipe.raster[i], &rs)?;
                pipe.rasters.push((rs, pipe.raster[i]));
            }
            e.bind_object(OBJ_BLEND, pipe.blend)?;
            pipe.blend_bound = pipe.blend;
            e.flush()
        });
        if let Err(err) = r {
            self.objects.remove(&id);
            let _ = self.transport.ctx_destroy(cid);
            return Err(err);
        }
        Ok(id)
    }

    fn context_destroy(&mut self, ctx: DevId) {
        let owned: Vec<DevId> = self
            .objects
            .iter()
            .filter(|(_, o)| match o {
                Obj::Target { ctx: c, .. }
                | Obj::Buffer { ctx: c, .. }
                | Obj::Texture { ctx: c, .. }
                | Obj::Program { ctx: c, .. } => *c == ctx,
                Obj::Context(_) => false,
            })
            .map(|(k, _)| *k)
            .collect();
        for k in owned {
            match self.objects.remove(&k) {
                Some(Obj::Target {
                    bytes,
                    scanout: Some((_, n)),
                    ..
                }) => self.backing = self.backing.saturating_sub(bytes + n),
                Some(Obj::Target { bytes, .. })
                | Some(Obj::Buffer { bytes, .. })
                | Some(Obj::Texture { bytes, .. }) => {
                    self.backing = self.backing.saturating_sub(bytes)
                }
                _ => {}
            }
        }
        if let Some(Obj::Context(mut c)) = self.objects.remove(&ctx) {
            let mut sink = CtxSink {
                transport: &mut self.transport,
                ctx: c.ctx,
            };
            let _ = c.cb.flush(&mut sink);
            // The transport releases the context's resources with it.
            let _ = self.transport.ctx_destroy(c.ctx);
        }
    }

    fn target_create(&mut self, ctx: DevId, width: u32, height: u32) -> Result<DevId, DeviceError> {
        self.target_create_format(ctx, width, height, TargetFormat::Rgba8)
    }

    /// RGBA32F when the host renders to and samples R32G32B32A32_FLOAT (its capset's render
    /// and sampler format masks).
    fn supports_target_format(&self, format: TargetFormat) -> bool {
        match format {
            TargetFormat::Rgba8 => true,
            TargetFormat::Rgba32F => {
                let caps = self.transport.caps();
                caps.render_formats.supports(FORMAT_R32G32B32A32_FLOAT)
                    && caps.sampler_formats.supports(FORMAT_R32G32B32A32_FLOAT)
            }
        }
    }

    fn target_create_format(
        &mut self,
        ctx: DevId,
        width: u32,
        height: u32,
        format: TargetFormat,
    ) -> Result<DevId, DeviceError> {
        let cformat = color_format(format);
        let cdesc = match format {
            TargetFormat::Rgba8 => ResourceDesc::color_target(width, height),
            TargetFormat::Rgba32F => ResourceDesc::float_color_target(width, height),
        };
        // The scanout is the target's flipped copy (see `present`), not the target itself.
        let (color, cbytes) = self.create_resource(ctx, &cdesc)?;
        let (depth, dbytes) = match self.create_resource(ctx, &{
            // Sampled as a texture too (shadow maps).
            let mut d = ResourceDesc::depth_target(width, height);
            d.bind |= BIND_SAMPLER_VIEW;
            d
        }) {
            Ok(r) => r,
            Err(err) => {
                self.release(ctx, color, cbytes);
                return Err(err);
            }
        };
        // The device's new resources hold undefined content; the CPU target starts at colour 0
        // and depth 1.0, so the device target is cleared to the same before anything draws
        // into it (a target never cleared by the caller then looks the same on both backends).
        let surfs = self.enc(ctx, "virgl surface create failed", |e, h, _| {
            let cs = h.alloc()?;
            let zs = h.alloc()?;
            e.create_surface(cs, color.0, cformat, 0, 0)?;
            e.create_surface(zs, depth.0, FORMAT_Z32_FLOAT, 0, 0)?;
            e.set_framebuffer_state(&[cs], zs)?;
            e.clear(CLEAR_COLOR0 | CLEAR_DEPTH, [0.0; 4], 1.0, 0)?;
            Ok((cs, zs))
        });
        let (csurf, zsurf) = match surfs {
            Ok(s) => s,
            Err(err) => {
                self.release(ctx, color, cbytes);
                self.release(ctx, depth, dbytes);
                return Err(err);
            }
        };
        let id = self.alloc_id();
        if let Ok((_, c)) = self.ctx_mut(ctx) {
            // The initialising clear bound this target's surfaces.
            c.bound_fb = Some(id);
            c.viewport = None;
        }
        self.objects.insert(
            id,
            Obj::Target {
                ctx,
                color,
                depth,
                csurf,
                zsurf,
                views: [0; 2],
                w: width,
                h: height,
                bytes: cbytes + dbytes,
                format,
                mips: None,
                mips_valid: false,
                scanout: None,
                scanout_fresh: false,
            },
        );
        Ok(id)
    }

    fn target_set_levels(
        &mut self,
        ctx: DevId,
        target: DevId,
        width: u32,
        height: u32,
        levels: &[&[u32]],
    ) -> Result<(), DeviceError> {
        // Drawn into again: the chain is stale (its resource is kept for the next generation).
        if levels.is_empty() {
            return match self.objects.get_mut(&target) {
                Some(Obj::Target {
                    ctx: c, mips_valid, ..
                }) if *c == ctx => {
                    *mips_valid = false;
                    Ok(())
                }
                _ => Err(DeviceError("unknown device target")),
            };
        }
        let old = match self.objects.get_mut(&target) {
            Some(Obj::Target {
                ctx: c,
                mips,
                mips_valid,
                ..
            }) if *c == ctx => {
                *mips_valid = false;
                mips.take()
            }
            _ => return Err(DeviceError("unknown device target")),
        };
        if let Some(m) = old {
            self.texture_destroy(ctx, m);
        }
        let desc = ResourceDesc::texture(width, height);
        let tex = self.texture_layers(ctx, &desc, &[levels], SamplerState::default())?;
        match self.objects.get_mut(&target) {
            Some(Obj::Target {
                mips, mips_valid, ..
            }) => {
                *mips = Some(tex);
                *mips_valid = true;
                Ok(())
            }
            _ => {
                self.texture_destroy(ctx, tex);
                Err(DeviceError("unknown device target"))
            }
        }
    }

    fn target_generate_levels(&mut self, ctx: DevId, target: DevId) -> Result<(), DeviceError> {
        let (color, w, h, format, mips) = match self.objects.get(&target) {
            Some(Obj::Target {
                ctx: c,
                color,
                w,
                h,
                format,
                mips,
                ..
            }) if *c == ctx => (*color, *w, *h, *format, *mips),
            _ => return Err(DeviceError("unknown device target")),
        };
        // Levels 0..n of the full chain: floor(log2(max(w, h))) + 1.
        let levels = 32 - w.max(h).max(1).leading_zeros();
        if levels <= 1 {
            return Ok(());
        }
        let cformat = color_format(format);
        let desc = match format {
            TargetFormat::Rgba8 => ResourceDesc::color_target(w, h),
            TargetFormat::Rgba32F => ResourceDesc::float_color_target(w, h),
        }
        .with_levels(levels);
        let chain = match mips.map(|m| self.objects.get(&m)) {
            Some(Some(Obj::Texture { res, .. })) => *res,
            _ => {
                // The chain's resource: made once per target, kept while it lives.
                let (res, n) = self.create_resource(ctx, &desc)?;
                let view = self.enc(ctx, "virgl sampler view failed", |e, hp, _| {
                    let v = hp.alloc()?;
                    let r = e.create_sampler_view_levels(v, res.0, cformat, false, levels - 1);
                    if let Err(err) = r {
                        let _ = hp.free(v);
                        return Err(err);
                    }
                    Ok(v)
                });
                let view = match view {
                    Ok(v) => v,
                    Err(err) => {
                        self.release(ctx, res, n);
                        return Err(err);
                    }
                };
                let id = self.alloc_id();
                self.objects.insert(
                    id,
                    Obj::Texture {
                        ctx,
                        res,
                        view,
                        sampler: SamplerState::default(),
                        bytes: n,
                    },
                );
                if let Some(Obj::Target { mips, .. }) = self.objects.get_mut(&target) {
                    *mips = Some(id);
                }
                res
            }
        };
        // Level 0 copied on the host, then each level a linear 2:1 BLIT of the one above
        // (what glGenerateMipmap does in Mesa); no transfer, no wait.
        self.enc(ctx, "virgl mip generation failed", |e, _, _| {
            e.copy_region(chain.0, 0, (0, 0), color.0, 0, Box3d::new_2d(w, h))?;
            for l in 1..levels {
                let (sw, sh) = desc.level_size(l - 1);
                let (dw, dh) = desc.level_size(l);
                let side = |level, w, h| BlitSide {
                    resource: chain.0,
                    level,
                    format: cformat,
                    bx: Box3d::new_2d(w, h),
                };
                e.blit(&side(l, dw, dh), &side(l - 1, sw, sh), BLIT_FILTER_LINEAR)?;
            }
            Ok(())
        })?;
        if let Some(Obj::Target { mips_valid, .. }) = self.objects.get_mut(&target) {
            *mips_valid = true;
        }
        Ok(())
    }

    fn target_destroy(&mut self, ctx: DevId, target: DevId) {
        if let Some(Obj::Target { mips: Some(m), .. }) = self.objects.get(&target) {
            let m = *m;
            self.texture_destroy(ctx, m);
        }
        let Some(Obj::Target {
            color,
            depth,
            csurf,
            zsurf,
            views,
            bytes,
            scanout,
            ..
        }) = self.objects.remove(&target)
        else {
            return;
        };
        // Its sampler views may be bound (and their handles are reused).
        self.forget_bound(ctx);
        let _ = self.enc(ctx, "virgl surface destroy failed", |e, h, _| {
            for v in views.into_iter().filter(|v| *v != 0) {
                e.destroy_object(OBJ_SAMPLER_VIEW, v)?;
                let _ = h.free(v);
            }
            e.destroy_object(OBJ_SURFACE, csurf)?;
            e.destroy_object(OBJ_SURFACE, zsurf)?;
            let _ = h.free(csurf);
            let _ = h.free(zsurf);
            e.flush()
        });
        if let Ok((_, c)) = self.ctx_mut(ctx) {
            if c.bound_fb == Some(target) {
                c.bound_fb = None;
            }
        }
        self.release(ctx, color, 0);
        self.release(ctx, depth, 0);
        if let Some((res, n)) = scanout {
            self.release(ctx, res, n);
        }
        self.backing = self.backing.saturating_sub(bytes);
    }

    fn buffer_create(
        &mut self,
        ctx: DevId,
        kind: BufferKind,
        bytes: &[u8],
    ) -> Result<DevId, DeviceError> {
        let bind = match kind {
            BufferKind::Vertex => BIND_VERTEX_BUFFER,
            BufferKind::Index => BIND_INDEX_BUFFER,
        };
        let len = u32::try_from(bytes.len()).map_err(|_| DeviceError("buffer too large"))?;
        let (res, n) = self.create_resource(ctx, &ResourceDesc::buffer(len, bind))?;
        let cid = self.cid(ctx)?;
        let bx = Box3d {
            x: 0,
            y: 0,
            z: 0,
            w: len,
            h: 1,
            d: 1,
        };
        if let Err(err) = self.transport.transfer_to_host_3d(cid, res, bx, 0, bytes) {
            self.release(ctx, res, n);
            return Err(e("virgl buffer upload failed")(err));
        }
        let id = self.alloc_id();
        self.objects.insert(id, Obj::Buffer { ctx, res, bytes: n });
        Ok(id)
    }

    fn buffer_destroy(&mut self, ctx: DevId, buffer: DevId) {
        self.forget_bound(ctx);
        let Some(Obj::Buffer { res, bytes, .. }) = self.objects.remove(&buffer) else {
            return;
        };
        // Draws still in the batch may read it.
        let _ = self.flush(ctx);
        self.release(ctx, res, bytes);
    }

    fn texture_create(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        texels: &[u32],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        self.texture_layers(ctx, &ResourceDesc::texture(w, h), &[&[texels]], sampler)
    }

    fn texture_create_levels(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        levels: &[&[u32]],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        self.texture_layers(ctx, &ResourceDesc::texture(w, h), &[levels], sampler)
    }

    fn texture_create_cube_levels(
        &mut self,
        ctx: DevId,
        size: u32,
        faces: [&[&[u32]]; 6],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        self.texture_layers(ctx, &ResourceDesc::cube_texture(size), &faces, sampler)
    }

    fn supports_cube_textures(&self) -> bool {
        true
    }

    fn texture_create_cube(
        &mut self,
        ctx: DevId,
        size: u32,
        faces: [&[u32]; 6],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        let [a, b, c, d, e, f] = faces;
        self.texture_layers(
            ctx,
            &ResourceDesc::cube_texture(size),
            &[&[a], &[b], &[c], &[d], &[e], &[f]],
            sampler,
        )
    }

    fn supports_array_textures(&self) -> bool {
        true
    }

    fn texture_create_array(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        layers: &[&[&[u32]]],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        let n = u32::try_from(layers.len()).map_err(|_| DeviceError("too many array layers"))?;
        self.texture_layers(ctx, &ResourceDesc::array_texture(w, h, n), layers, sampler)
    }

    fn supports_integer_textures(&self) -> bool {
        let caps = self.transport.caps();
        caps.sampler_formats.supports(FORMAT_R32G32B32A32_SINT)
            && caps.sampler_formats.supports(FORMAT_R32G32B32A32_UINT)
    }

    fn texture_create_ints(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        words: &[[u32; 4]],
        signed: bool,
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        // PIPE_FORMAT_R32G32B32A32_SINT (200) / _UINT (196): 16 bytes a texel, level 0; the
        // sampler view has the resource's format.
        let desc = ResourceDesc {
            format: if signed {
                FORMAT_R32G32B32A32_SINT
            } else {
                FORMAT_R32G32B32A32_UINT
            },
            bytes_per_texel: 16,
            ..ResourceDesc::texture(w, h)
        };
        let flat: Vec<u32> = words.iter().flatten().copied().collect();
        self.texture_layers(ctx, &desc, &[&[&flat]], sampler)
    }

    fn texture_create_array_ints(
        &mut self,
        ctx: DevId,
        w: u32,
        h: u32,
        layers: &[&[[u32; 4]]],
        signed: bool,
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        // A PIPE_TEXTURE_2D_ARRAY of R32G32B32A32_SINT/_UINT: 16 bytes a texel, level 0, one
        // transfer per layer; the view spans every layer with the resource's format.
        let n = u32::try_from(layers.len()).map_err(|_| DeviceError("too many array layers"))?;
        let desc = ResourceDesc {
            format: if signed {
                FORMAT_R32G32B32A32_SINT
            } else {
                FORMAT_R32G32B32A32_UINT
            },
            bytes_per_texel: 16,
            ..ResourceDesc::array_texture(w, h, n)
        };
        let flat: Vec<Vec<u32>> = layers
            .iter()
            .map(|l| l.iter().flatten().copied().collect())
            .collect();
        let levels: Vec<[&[u32]; 1]> = flat.iter().map(|f| [f.as_slice()]).collect();
        let chains: Vec<&[&[u32]]> = levels.iter().map(|l| &l[..]).collect();
        self.texture_layers(ctx, &desc, &chains, sampler)
    }

    fn texture_destroy(&mut self, ctx: DevId, texture: DevId) {
        self.forget_bound(ctx);
        let Some(Obj::Texture {
            res, view, bytes, ..
        }) = self.objects.remove(&texture)
        else {
            return;
        };
        let _ = self.enc(ctx, "virgl sampler view destroy failed", |e, h, _| {
            e.destroy_object(OBJ_SAMPLER_VIEW, view)?;
            let _ = h.free(view);
            e.flush()
        });
        self.release(ctx, res, bytes);
    }

    fn program_create(
        &mut self,
        ctx: DevId,
        vs: ShaderText<'_>,
        fs: ShaderText<'_>,
    ) -> Result<DevId, DeviceError> {
        let (vsh, fsh) = self.enc(ctx, "virgl shader create failed", |e, h, _| {
            let a = h.alloc()?;
            let b = match h.alloc() {
                Ok(b) => b,
                Err(err) => {
                    let _ = h.free(a);
                    return Err(err);
                }
            };
            // A refused shader leaves nothing behind: the handles go back to the pool and a
            // vertex shader already created is destroyed (the device stays usable).
            if let Err(err) = e.create_shader(a, SHADER_VERTEX, vs.text) {
                let _ = h.free(a);
                let _ = h.free(b);
                return Err(err);
            }
            if let Err(err) = e.create_shader(b, SHADER_FRAGMENT, fs.text) {
                let _ = e.destroy_object(OBJ_SHADER, a);
                let _ = h.free(a);
                let _ = h.free(b);
                return Err(err);
            }
            Ok((a, b))
        })?;
        let id = self.alloc_id();
        self.objects.insert(
            id,
            Obj::Program {
                ctx,
                vs: vsh,
                fs: fsh,
                clip: clip_planes_of(vs.text),
            },
        );
        Ok(id)
    }

    fn program_destroy(&mut self, ctx: DevId, program: DevId) {
        self.forget_bound(ctx);
        let Some(Obj::Program { vs, fs, .. }) = self.objects.remove(&program) else {
            return;
        };
        let _ = self.enc(ctx, "virgl shader destroy failed", |e, h, _| {
            e.destroy_object(OBJ_SHADER, vs)?;
            e.destroy_object(OBJ_SHADER, fs)?;
            let _ = h.free(vs);
            let _ = h.free(fs);
            Ok(())
        });
    }

    fn frame_begin(&mut self, ctx: DevId) -> Result<(), DeviceError> {
        self.ctx_mut(ctx).map(|_| ())
    }

    fn clear(
        &mut self,
        ctx: DevId,
        target: DevId,
        rgba: [f32; 4],
        depth: bool,
    ) -> Result<(), DeviceError> {
        self.clear_to(ctx, target, rgba, depth.then_some(1.0))
    }

    fn clear_to(
        &mut self,
        ctx: DevId,
        target: DevId,
        rgba: [f32; 4],
        depth: Option<f32>,
    ) -> Result<(), DeviceError> {
        self.bind_target(ctx, target)?;
        let bits = CLEAR_COLOR0 | if depth.is_some() { CLEAR_DEPTH } else { 0 };
        let value = depth.unwrap_or(1.0) as f64;
        self.enc(ctx, "virgl clear failed", |e, _, _| {
            e.clear(bits, rgba, value, 0)
        })
    }

    fn draw(&mut self, ctx: DevId, d: &DevDraw<'_>) -> Result<(), DeviceError> {
        let (_, th) = self.bind_target(ctx, d.target)?;
        self.set_viewport(ctx, d.viewport, th)?;
        let (vs, fs, clip) = match self.objects.get(&d.program) {
            Some(Obj::Program {
                vs,
                fs,
                clip,
                ctx: c,
            }) if *c == ctx => (*vs, *fs, *clip),
            _ => return Err(DeviceError("unknown device program")),
        };
        let res_of = |objs: &BTreeMap<DevId, Obj>, id: DevId| match objs.get(&id) {
            Some(Obj::Buffer { res, ctx: c, .. }) if *c == ctx => Some(res.0),
            _ => None,
        };
        let vbo = res_of(&self.objects, d.vbo).ok_or(DeviceError("unknown device buffer"))?;
        let ibo = match d.ibo {
            Some(i) => Some(res_of(&self.objects, i).ok_or(DeviceError("unknown device buffer"))?),
            None => None,
        };
        // Sampler views and states for units 0..=last bound unit.
        let mut views = [0u32; TEXTURE_UNITS];
        let mut kinds = [SamplerState::default(); TEXTURE_UNITS];
        let mut units = 0usize;
        for (u, t) in d.textures.iter().enumerate() {
            if let Some(t) = t {
                match self.objects.get(t) {
                    Some(Obj::Texture {
                        view,
                        sampler,
                        ctx: c,
                        ..
                    }) if *c == ctx => {
                        views[u] = *view;
                        kinds[u] = *sampler;
                        units = u + 1;
                    }
                    _ => return Err(DeviceError("unknown device texture")),
                }
            }
        }
        for (u, t) in d.target_textures.iter().enumerate() {
            if let Some(t) = t {
                let view = self.target_view(ctx, t.target, t.plane)?;
                if let (Some(v), Some(k)) = (views.get_mut(u), kinds.get_mut(u)) {
                    *v = view;
                    *k = t.sampler;
                }
                units = units.max(u + 1);
            }
        }
        let missing = (0..TEXTURE_UNITS).filter(|u| {
            d.sampled_units & (1 << u) != 0
                && d.textures[*u].is_none()
                && d.target_textures[*u].is_none()
        });
        let missing: Vec<usize> = missing.collect();
        if !missing.is_empty() {
            let black = self.black_view(ctx)?;
            for u in missing {
                views[u] = black;
                kinds[u] = SamplerState::default();
                units = units.max(u + 1);
            }
        }
        let mut states = [0u32; TEXTURE_UNITS];
        for u in 0..units {
            let s = self.sampler(ctx, kinds[u], &states[..u])?;
            states[u] = s;
        }
        // Vertex elements in location order; a location the layout skips reads element 0's data.
        let mut elements: Vec<VertexElement> = Vec::new();
        let mut divisors: Vec<u32> = Vec::new();
        // Each element's format: R32..R32G32B32A32 FLOAT, or SINT/UINT for integer attributes.
        let mut formats: Vec<u32> = Vec::new();
        let last = d
            .elements
            .iter()
            .map(|(l, _)| *l as usize)
            .max()
            .unwrap_or(0);
        for loc in 0..=last {
            let el = d
                .elements
                .iter()
                .find(|(l, _)| *l as usize == loc)
                .map(|(_, e)| *e);
            let el = el.unwrap_or(DevElement {
                offset: 0,
                components: 1,
                divisor: 0,
                kind: crate::layout::ElementKind::F32,
            });
            let n = el.components as u32;
            let format = match el.kind {
                crate::layout::ElementKind::F32 => float_format(n),
                crate::layout::ElementKind::I32 => int_format(n, true),
                crate::layout::ElementKind::U32 => int_format(n, false),
            }
            .map_err(e("virgl vertex format"))?;
            formats.push(format);
            elements.push(VertexElement {
                offset: el.offset,
                buffer_index: 0,
                components: el.components as u32,
            });
            divisors.push(el.divisor);
        }
        // virglrenderer applies divisors per vertex-buffer binding (GL's vertex attrib
        // binding), so with any per-instance element every element gets its own binding of
        // the same buffer (as Mesa's virgl driver splits mixed bindings).
        let bindings = if divisors.iter().any(|d| *d != 0) {
            for (i, el) in elements.iter_mut().enumerate() {
                el.buffer_index = i as u32;
            }
            elements.len().max(1)
        } else {
            1
        };
        let cached = {
            let (_, c) = self.ctx_mut(ctx)?;
            c.ve_cache
                .iter()
                .find(|(k, dv, f, _)| *k == elements && *dv == divisors && *f == formats)
                .map(|(_, _, _, h)| *h)
        };
        let ve = match cached {
            Some(h) => h,
            None => {
                let h = self.enc(ctx, "virgl vertex elements failed", |e, hp, _| {
                    let h = hp.alloc()?;
                    e.create_vertex_elements_formats(h, &elements, &divisors, &formats)?;
                    Ok(h)
                })?;
                let (_, c) = self.ctx_mut(ctx)?;
                c.ve_cache.push((elements, divisors, formats, h));
                h
            }
        };
        let vs_consts = to_vec4s(d.vs_constants);
        let fs_consts = to_vec4s(d.fs_constants);
        let link = self.transport.caps().supports_link_shader;
        let mut info = if ibo.is_some() {
            DrawInfo {
                start: 0,
                count: d.count,
                mode: PRIM_TRIANGLES,
                indexed: true,
                instance_count: 1,
                index_bias: 0,
                min_index: 0,
                max_index: d.max_index,
            }
        } else {
            DrawInfo::arrays(PRIM_TRIANGLES, 0, d.count).map_err(e("virgl draw"))?
        };
        info.instance_count = d.instances.max(1);
        let stride = d.stride;
        let blend_s = blend_state(&d.pipeline);
        let dsa_s = dsa_state(d.depth_test, d.depth_write, &d.pipeline);
        let rs_s = RasterState {
            clip_planes: clip,
            ..raster_state(&d.pipeline)
        };
        let constant = d
            .pipeline
            .blend
            .map(|b| b.constant.map(|v| v.clamp(0.0, 1.0)));
        let scissor = d
            .pipeline
            .scissor
            .map(|s| scissor_rect(&s, d.width, d.height));
        let (_, c) = self.ctx_mut(ctx)?;
        let mut b = core::mem::take(&mut c.bound);
        let r = self.enc(ctx, "virgl draw failed", |e, h, pipe| {
            let blend = state_object(
                e,
                h,
                &mut pipe.blends,
                blend_s,
                pipe.blend_bound,
                1,
                OBJ_BLEND,
                |e, h, s| e.create_blend(h, s),
            )?;
            if pipe.blend_bound != blend {
                pipe.blend_bound = 0;
                e.bind_object(OBJ_BLEND, blend)?;
                pipe.blend_bound = blend;
            }
            if let Some(k) = constant {
                if pipe.blend_color != Some(k) {
                    pipe.blend_color = None;
                    e.set_blend_color(k)?;
                    pipe.blend_color = Some(k);
                }
            }
            if let Some((min, max)) = scissor {
                if pipe.scissor != Some((min, max)) {
                    pipe.scissor = None;
                    e.set_scissor(min, max)?;
                    pipe.scissor = Some((min, max));
                }
            }
            let dsa = state_object(e, h, &mut pipe.dsas, dsa_s, b.dsa, 2, OBJ_DSA, |e, h, s| {
                e.create_dsa(h, s)
            })?;
            if b.dsa != dsa {
                b.dsa = dsa;
                e.bind_object(OBJ_DSA, b.dsa)?;
            }
            let raster = state_object(
                e,
                h,
                &mut pipe.rasters,
                rs_s,
                b.raster,
                2,
                OBJ_RASTERIZER,
                |e, h, s| e.create_rasterizer(h, s),
            )?;
            if b.raster != raster {
                b.raster = raster;
                e.bind_object(OBJ_RASTERIZER, b.raster)?;
            }
            if b.shaders != (vs, fs) {
                b.shaders = (vs, fs);
                e.bind_shader(vs, SHADER_VERTEX)?;
                e.bind_shader(fs, SHADER_FRAGMENT)?;
                if link {
                    e.link_shader(vs, fs)?;
                }
            }
            if !vs_consts.is_empty() && b.vs_consts != vs_consts {
                e.set_constant_buffer(SHADER_VERTEX, &vs_consts)?;
                b.vs_consts = vs_consts;
            }
            if !fs_consts.is_empty() && b.fs_consts != fs_consts {
                e.set_constant_buffer(SHADER_FRAGMENT, &fs_consts)?;
                b.fs_consts = fs_consts;
            }
            if units > 0 && b.samplers != (states, views, units) {
                b.samplers = (states, views, units);
                e.bind_sampler_states(SHADER_FRAGMENT, 0, &states[..units])?;
                e.set_sampler_views(SHADER_FRAGMENT, 0, &views[..units])?;
            }
            if b.ve != ve {
                b.ve = ve;
                e.bind_object(OBJ_VERTEX_ELEMENTS, ve)?;
            }
            if b.vbuf != (stride, vbo, bindings) {
                b.vbuf = (stride, vbo, bindings);
                let vb = VertexBuffer {
                    stride,
                    offset: 0,
                    resource: vbo,
                };
                e.set_vertex_buffers(&[vb; 8][..bindings.min(8)])?;
            }
            if let Some(ib) = ibo {
                if b.ibuf != ib {
                    b.ibuf = ib;
                    e.set_index_buffer(Some((ib, 2, 0)))?;
                }
            }
            e.draw_vbo(&info)
        });
        // Keep the cache only when everything was encoded.
        let (_, c) = self.ctx_mut(ctx)?;
        c.bound = if r.is_ok() { b } else { Bound::default() };
        r
    }

    fn frame_end(&mut self, ctx: DevId) -> Result<(), DeviceError> {
        // Every presented target of the context drawn since its last copy: the copy is
        // refreshed by its BLIT at the end of this batch (after the frame's draws, in the
        // same submit), so the `present` that follows sends nothing.
        let stale: Vec<(ResId, ResId, u32, u32)> = self
            .objects
            .values_mut()
            .filter_map(|o| match o {
                Obj::Target {
                    ctx: c,
                    color,
                    w,
                    h,
                    scanout: Some((shown, _)),
                    scanout_fresh,
                    ..
                } if *c == ctx && !*scanout_fresh => {
                    *scanout_fresh = true;
                    Some((*shown, *color, *w, *h))
                }
                _ => None,
            })
            .collect();
        self.enc(ctx, "virgl submit failed", |e, _, _| {
            for (shown, color, w, h) in &stale {
                scanout_blit(e, *shown, *color, *w, *h)?;
            }
            e.flush()
        })
    }

    fn read_target(
        &mut self,
        ctx: DevId,
        target: DevId,
        out: &mut [u32],
    ) -> Result<(), DeviceError> {
        let rows = self.read_rows(ctx, target, TargetFormat::Rgba8)?;
        for (o, b) in out.iter_mut().zip(rows.chunks_exact(4)) {
            *o = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        Ok(())
    }

    fn read_target_float(
        &mut self,
        ctx: DevId,
        target: DevId,
        out: &mut [[f32; 4]],
    ) -> Result<(), DeviceError> {
        let rows = self.read_rows(ctx, target, TargetFormat::Rgba32F)?;
        for (o, px) in out.iter_mut().zip(rows.chunks_exact(16)) {
            for (c, b) in o.iter_mut().zip(px.chunks_exact(4)) {
                *c = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        Ok(())
    }

    fn present(&mut self, ctx: DevId, target: DevId) -> Result<(), DeviceError> {
        let Some(hooks) = self.hooks else {
            return Err(DeviceError("no scanout on this transport"));
        };
        let (color, w, h, have, fresh) = match self.objects.get(&target) {
            Some(Obj::Target {
                ctx: c,
                color,
                w,
                h,
                format: TargetFormat::Rgba8,
                scanout,
                scanout_fresh,
                ..
            }) if *c == ctx => (*color, *w, *h, *scanout, *scanout_fresh),
            Some(Obj::Target { ctx: c, .. }) if *c == ctx => {
                return Err(DeviceError("only an RGBA8 target is shown"))
            }
            _ => return Err(DeviceError("unknown device target")),
        };
        // The target is drawn GL-native (host row 0 = the picture's bottom row), while the
        // host's display reads a resource without VIRGL_RESOURCE_Y_0_TOP top row first. The
        // scanout is a kept copy of the target's size and format, filled by a host BLIT with
        // the source box flipped (y = h, height = -h): no transfer either way. The copy is
        // refreshed by the frame's own batch once it exists (`frame_end`); the first present
        // of a target (or one drawn in a frame not yet ended) sends its BLIT here.
        let shown = match have {
            Some((res, _)) if fresh => {
                return (hooks.present)(&mut self.transport, res, w, h)
                    .map_err(e("virgl scanout failed"))
            }
            Some((res, _)) => res,
            None => {
                let mut desc = ResourceDesc::color_target(w, h);
                desc.bind |= BIND_SCANOUT | BIND_DISPLAY_TARGET;
                let (res, n) = self.create_resource(ctx, &desc)?;
                match self.objects.get_mut(&target) {
                    Some(Obj::Target { scanout, .. }) => *scanout = Some((res, n)),
                    _ => {
                        self.release(ctx, res, n);
                        return Err(DeviceError("unknown device target"));
                    }
                }
                res
            }
        };
        self.enc(ctx, "virgl scanout copy failed", |e, _, _| {
            scanout_blit(e, shown, color, w, h)?;
            e.flush()
        })?;
        if let Some(Obj::Target { scanout_fresh, .. }) = self.objects.get_mut(&target) {
            *scanout_fresh = true;
        }
        (hooks.present)(&mut self.transport, shown, w, h).map_err(e("virgl scanout failed"))
    }

    fn scanout_primary(&mut self) -> Result<(), DeviceError> {
        let Some(hooks) = self.hooks else {
            return Err(DeviceError("no scanout on this transport"));
        };
        (hooks.primary)(&mut self.transport).map_err(e("virgl scanout failed"))
    }

    fn counters(&self) -> DeviceCounters {
        DeviceCounters {
            submits: self.submits,
            dwords: self.dwords,
            backing_bytes: self.backing,
            objects_live: self.objects_live(),
            objects_peak: self.peak,
        }
    }
}

/// The pipe format of a target's colour resource, surface and sampler view.
fn color_format(f: TargetFormat) -> u32 {
    match f {
        TargetFormat::Rgba8 => FORMAT_B8G8R8A8_UNORM,
        TargetFormat::Rgba32F => FORMAT_R32G32B32A32_FLOAT,
    }
}

fn to_vec4s(words: &[f32]) -> Vec<[f32; 4]> {
    words
        .chunks(4)
        .map(|c| {
            [
                c.first().copied().unwrap_or(0.0),
                c.get(1).copied().unwrap_or(0.0),
                c.get(2).copied().unwrap_or(0.0),
                c.get(3).copied().unwrap_or(0.0),
            ]
        })
        .collect()
}
