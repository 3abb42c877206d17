//! The `Gfx3d` value: owns every table, the backend selection and the device-lost policy, and
//! implements the public object calls (contexts, targets, meshes, textures, program instances,
//! statistics, cleanup). Frame calls live in `frame.rs`.
//!
//! Policy in one place: a device failure under AUTO marks the device lost, switches to software,
//! marks the statistics degraded and lets the call succeed on the CPU path; under forced VirGL
//! it keeps the selection, records the loss and fails the call. A program the device cannot take
//! (no TGSI, over the VirGL budget, refused by the encoder while the device stays available) is
//! `Error::ProgramUnsupported` for that call only: never a loss, on either mode. Device ids never leave this crate.
//! This module must never panic on any input and never keep global state.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::context::{Context, Sampled};
use crate::device::{DevId, Device, DeviceCounters, DeviceError, ShaderText};
use crate::error::{Error, ObjectKind, Result};
use crate::handle::*;
use crate::layout::VertexLayout;
use crate::limits::*;
use crate::mesh::{Mesh, MeshData, Usage};
use crate::mock::MockLog;
use crate::program::{ShaderProgram, Stage};
use crate::stats::{Backend, BackendMode, Counters, Stats};
use crate::target::{check_size, filled, Target, TargetFormat, TargetPlane};
use crate::texture::{SamplerState, Texture, TextureFormat};
use shader::back::raster::parallel::{Serial, Workers};

pub(crate) struct ProgramInst<P> {
    pub ctx: ContextId,
    pub program: P,
    /// Generation of the program last uploaded to the device.
    pub stamp: u32,
    /// Generation the context matrices were last written into (a relink resets uniforms).
    pub applied: u32,
    pub dev: Option<DevId>,
}

/// The whole Gfx3D state. The kernel keeps one behind a lock; tests make as many as they like.
/// `P` is the program type (the shader crate's linked program by default).
pub struct Gfx3d<P: ShaderProgram = crate::linked::Linked> {
    pub(crate) mode: BackendMode,
    pub(crate) backend: Backend,
    pub(crate) lost: bool,
    pub(crate) degraded: bool,
    pub(crate) device: Option<Box<dyn Device + Send>>,
    pub(crate) contexts: Table<ContextId, Context>,
    pub(crate) targets: Table<TargetId, Target>,
    pub(crate) meshes: Table<MeshId, Mesh>,
    pub(crate) textures: Table<TextureId, Texture>,
    pub(crate) programs: Table<ProgramId, ProgramInst<P>>,
    pub(crate) counters: Counters,
    /// Device counters when last sampled (statistics add the deltas).
    pub(crate) dev_seen: DeviceCounters,
    pub(crate) mock: MockLog,
    /// The compile path of the shader crate (its compile cache), for `Linked::from_glsl`.
    pub(crate) compiler: Box<shader::program::cache::Compiler>,
    /// Runs the bands of a software draw (see `shader::back::raster::parallel`).
    pub(crate) workers: &'static (dyn Workers + Sync),
}

impl<P: ShaderProgram> Default for Gfx3d<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: ShaderProgram> Gfx3d<P> {
    /// A Gfx3D on the software backend with empty tables.
    pub fn new() -> Self {
        Gfx3d {
            mode: BackendMode::Software,
            backend: Backend::Software,
            lost: false,
            degraded: false,
            device: None,
            contexts: Table::new(CONTEXT_MAX),
            targets: Table::new(TARGET_MAX),
            meshes: Table::new(MESH_MAX),
            textures: Table::new(TEXTURE_MAX),
            programs: Table::new(PROGRAM_MAX),
            counters: Counters::default(),
            dev_seen: DeviceCounters::default(),
            mock: MockLog::default(),
            compiler: Box::new(shader::program::cache::Compiler::new()),
            workers: &Serial,
        }
    }

    /// Splits later software draws into bands run by `workers` (the kernel's CPUs, host
    /// threads); [`Serial`] (the default) draws on the caller alone. Pictures do not depend on
    /// it.
    pub fn set_workers(&mut self, workers: &'static (dyn Workers + Sync)) {
        self.workers = workers;
    }

    /// The compile path programs are built through (`Linked::from_glsl(g.compiler(), ..)`): the
    /// shader crate's compile cache, whose hits and misses `stats` reports.
    pub fn compiler(&mut self) -> &mut shader::program::cache::Compiler {
        &mut self.compiler
    }

    /// Selects the backend. AUTO takes VirGL when `device` is available, else software; forced
    /// VIRGL without an available device fails with `VirglUnavailable` and stays selected (its
    /// name is then `virgl-lost` and frames are refused). Clears the lost state; keeps statistics
    /// and the mock log. Device objects of a previous backend are released first.
    pub fn boot(
        &mut self,
        mode: BackendMode,
        device: Option<Box<dyn Device + Send>>,
    ) -> Result<()> {
        self.release_device_objects();
        self.device = device;
        self.mode = mode;
        self.lost = false;
        self.degraded = false;
        let available = self.device.as_ref().is_some_and(|d| d.available());
        self.dev_seen = self
            .device
            .as_ref()
            .map(|d| d.counters())
            .unwrap_or_default();
        self.backend = match mode {
            BackendMode::Software => Backend::Software,
            BackendMode::Mock => Backend::Mock,
            BackendMode::Auto if available => Backend::Virgl,
            BackendMode::Auto => Backend::Software,
            BackendMode::Virgl => Backend::Virgl,
        };
        if mode == BackendMode::Virgl && !available {
            self.lost = true;
            return Err(Error::VirglUnavailable);
        }
        Ok(())
    }

    /// `virgl`, `virgl-lost`, `software` or `mock`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Virgl if self.lost => "virgl-lost",
            Backend::Virgl => "virgl",
            Backend::Software => "software",
            Backend::Mock => "mock",
        }
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn is_lost(&self) -> bool {
        self.lost
    }

    /// Marks the device unusable. Under AUTO this degrades to software (every object stays
    /// usable; device ids are forgotten); under forced VirGL it only records the loss.
    pub fn mark_lost(&mut self) {
        self.lost = true;
        if self.mode != BackendMode::Virgl && self.backend == Backend::Virgl {
            self.forget_device_objects();
            self.backend = Backend::Software;
            self.degraded = true;
        }
    }

    pub(crate) fn virgl_active(&self) -> bool {
        self.backend == Backend::Virgl && !self.lost && self.device.is_some()
    }

    /// Applies the device-lost policy to a failed device call: `Ok` when the caller may go on
    /// (AUTO, now on software), `Err` under forced VirGL.
    pub(crate) fn device_failed(&mut self, e: DeviceError) -> Result<()> {
        if self.mode == BackendMode::Virgl {
            self.lost = true;
            Err(Error::Device { what: e.0 })
        } else {
            self.mark_lost();
            Ok(())
        }
    }

    /// Drops every device id without calling the (possibly dead) device.
    fn forget_device_objects(&mut self) {
        for c in self.contexts.values_mut() {
            c.dev = None;
        }
        for t in self.targets.values_mut() {
            t.dev = None;
        }
        for m in self.meshes.values_mut() {
            m.resident.clear();
        }
        for t in self.textures.values_mut() {
            t.resident.clear();
        }
        for p in self.programs.values_mut() {
            p.dev = None;
        }
    }

    /// Releases device contexts (which frees everything in them) before a backend switch.
    fn release_device_objects(&mut self) {
        if let Some(dev) = self.device.as_deref_mut() {
            if !self.lost {
                for c in self.contexts.values_mut() {
                    if let Some(d) = c.dev.take() {
                        dev.context_destroy(d);
                    }
                }
            }
        }
        self.forget_device_objects();
    }

    pub(crate) fn log_mock(&mut self, op: &str) {
        if self.backend == Backend::Mock {
            self.mock.push(op);
        }
    }

    /// The mock log (one operation per line).
    pub fn mock_log(&self) -> &str {
        self.mock.text()
    }

    /// Log lines dropped because the log was full.
    pub fn mock_log_dropped(&self) -> u32 {
        self.mock.dropped()
    }

    pub fn mock_log_clear(&mut self) {
        self.mock.clear();
    }

    // ----- contexts -----

    /// A context with the defaults (depth on, FOV 60, near 0.1, far 200, identity matrices).
    pub fn context_create(&mut self, owner: u32) -> Result<ContextId> {
        let id = self.contexts.insert(owner, Context::new())?;
        if self.virgl_active() {
            if let Err(e) = self.ensure_ctx_dev(owner, id) {
                let _ = self.contexts.remove(owner, id);
                return Err(e);
            }
        }
        Ok(id)
    }

    /// The device context of `ctx`, created on first need. `Ok(None)` when not on VirGL (or
    /// just degraded).
    pub(crate) fn ensure_ctx_dev(&mut self, owner: u32, ctx: ContextId) -> Result<Option<DevId>> {
        if !self.virgl_active() {
            return Ok(None);
        }
        if let Some(d) = self.contexts.get(owner, ctx)?.dev {
            return Ok(Some(d));
        }
        let r = match self.device.as_deref_mut() {
            Some(dev) => dev.context_create(),
            None => Err(DeviceError("no device")),
        };
        match r {
            Ok(d) => {
                self.contexts.get_mut(owner, ctx)?.dev = Some(d);
                Ok(Some(d))
            }
            Err(e) => self.device_failed(e).map(|_| None),
        }
    }

    /// Destroys the context's targets and program instances, then the context (and its device
    /// context, which frees its device resources). Meshes and textures are owner-scoped and stay.
    pub fn context_destroy(&mut self, owner: u32, ctx: ContextId) -> Result<()> {
        self.contexts.get(owner, ctx)?;
        let targets: Vec<TargetId> = self
            .targets
            .iter_all()
            .filter(|(_, o, t)| *o == owner && t.ctx == ctx)
            .map(|(h, _, _)| h)
            .collect();
        for t in targets {
            self.target_destroy(owner, t)?;
        }
        let progs: Vec<ProgramId> = self
            .programs
            .iter_all()
            .filter(|(_, o, p)| *o == owner && p.ctx == ctx)
            .map(|(h, _, _)| h)
            .collect();
        for p in progs {
            self.program_destroy(owner, p)?;
        }
        let c = self.contexts.remove(owner, ctx)?;
        if let Some(d) = c.dev {
            for m in self.meshes.values_mut() {
                m.resident.retain(|r| r.dev_ctx != d);
            }
            for t in self.textures.values_mut() {
                t.resident.retain(|r| r.0 != d);
            }
            if self.virgl_active() {
                if let Some(dev) = self.device.as_deref_mut() {
                    dev.context_destroy(d);
                }
            }
        }
        Ok(())
    }

    // ----- targets -----

    /// A `width` x `height` target (1x1..1920x1080) of `ctx`, with CPU colour and depth, and
    /// device colour + depth under VirGL. The colour is RGBA8 (see `target_create_format`).
    pub fn target_create(
        &mut self,
        owner: u32,
        ctx: ContextId,
        width: u32,
        height: u32,
    ) -> Result<TargetId> {
        self.target_create_format(owner, ctx, width, height, TargetFormat::Rgba8)
    }

    /// [`Self::target_create`] with the colour format `format`. An RGBA32F target stores its
    /// colour as floats (16 bytes a pixel in `Stats::target_bytes`); under VirGL its device
    /// colour is an R32G32B32A32_FLOAT resource (rendered to, sampled and read back as
    /// floats), and a host whose capset cannot render to or sample that format refuses it
    /// with `TargetFormatUnsupported` (also under AUTO with the device active). Only an RGBA8
    /// target can be presented on the scanout.
    pub fn target_create_format(
        &mut self,
        owner: u32,
        ctx: ContextId,
        width: u32,
        height: u32,
        format: TargetFormat,
    ) -> Result<TargetId> {
        self.contexts.get(owner, ctx)?;
        let n = check_size(width, height)?;
        if self.virgl_active()
            && !self
                .device
                .as_deref()
                .is_some_and(|d| d.supports_target_format(format))
        {
            return Err(Error::TargetFormatUnsupported {
                format: format.name(),
                backend: "virgl",
            });
        }
        let (color, colorf) = Target::planes(format, n)?;
        let depth = filled(n, 1.0f32)?;
        let id = self.targets.insert(
            owner,
            Target {
                ctx,
                width,
                height,
                format,
                color,
                colorf,
                depth,
                levels: Vec::new(),
                chainf: Vec::new(),
                dev_levels: false,
                dev: None,
                color_bottom_first: false,
                depth_bottom_first: false,
            },
        )?;
        if let Err(e) = self.ensure_target_dev(owner, id) {
            let _ = self.targets.remove(owner, id);
            return Err(e);
        }
        // RGBA8 targets are not logged (the log of RGBA8-only programs is unchanged).
        if format != TargetFormat::Rgba8 {
            let line = alloc::format!("target {} {}x{}", format.name(), width, height);
            self.log_mock(&line);
        }
        Ok(id)
    }

    /// The colour format the target was created with.
    pub fn target_format(&self, owner: u32, t: TargetId) -> Result<TargetFormat> {
        Ok(self.targets.get(owner, t)?.format)
    }

    pub(crate) fn ensure_target_dev(&mut self, owner: u32, t: TargetId) -> Result<Option<DevId>> {
        let (ctx, w, h, have, format) = {
            let tg = self.targets.get(owner, t)?;
            (tg.ctx, tg.width, tg.height, tg.dev, tg.format)
        };
        if have.is_some() && self.virgl_active() {
            return Ok(have);
        }
        let Some(dctx) = self.ensure_ctx_dev(owner, ctx)? else {
            return Ok(None);
        };
        let r = match self.device.as_deref_mut() {
            Some(dev) => dev.target_create_format(dctx, w, h, format),
            None => Err(DeviceError("no device")),
        };
        match r {
            Ok(d) => {
                self.targets.get_mut(owner, t)?.dev = Some(d);
                Ok(Some(d))
            }
            Err(e) => self.device_failed(e).map(|_| None),
        }
    }

    fn target_dev_release(&mut self, owner: u32, t: TargetId) -> Result<()> {
        let (ctx, dev_t) = {
            let tg = self.targets.get_mut(owner, t)?;
            (tg.ctx, tg.dev.take())
        };
        if let Some(d) = dev_t {
            let dctx = self.contexts.get(owner, ctx).ok().and_then(|c| c.dev);
            if let (Some(dctx), true) = (dctx, self.virgl_active()) {
                if let Some(dev) = self.device.as_deref_mut() {
                    dev.target_destroy(dctx, d);
                }
            }
        }
        Ok(())
    }

    pub fn target_destroy(&mut self, owner: u32, t: TargetId) -> Result<()> {
        self.target_dev_release(owner, t)?;
        self.targets.remove(owner, t)?;
        for c in self.contexts.values_mut() {
            if c.target == Some(t) {
                c.target = None;
            }
            if c.last_target == Some(t) {
                c.last_target = None;
            }
            for u in c.textures.iter_mut() {
                if matches!(u, Some(Sampled::Target { id, .. }) if *id == t) {
                    *u = None;
                }
            }
        }
        Ok(())
    }

    /// Resizes a target: unchanged size is a no-op; otherwise the content is not kept (colour 0,
    /// depth 1.0). Under AUTO a device failure degrades to software and keeps the CPU target.
    pub fn target_resize(
        &mut self,
        owner: u32,
        t: TargetId,
        width: u32,
        height: u32,
    ) -> Result<()> {
        let (w, h) = self.target_size(owner, t)?;
        if (w, h) == (width, height) {
            return Ok(());
        }
        let n = check_size(width, height)?;
        let format = self.targets.get(owner, t)?.format;
        let (color, colorf) = Target::planes(format, n)?;
        let depth = filled(n, 1.0f32)?;
        self.target_dev_release(owner, t)?;
        {
            let tg = self.targets.get_mut(owner, t)?;
            tg.width = width;
            tg.height = height;
            tg.color = color;
            tg.colorf = colorf;
            tg.depth = depth;
            tg.levels.clear();
            tg.chainf = Vec::new();
            tg.dev_levels = false;
            tg.color_bottom_first = false;
            tg.depth_bottom_first = false;
        }
        self.ensure_target_dev(owner, t)?;
        Ok(())
    }

    pub fn target_size(&self, owner: u32, t: TargetId) -> Result<(u32, u32)> {
        let tg = self.targets.get(owner, t)?;
        Ok((tg.width, tg.height))
    }

    /// Builds mip levels 1, 2, ... down to 1x1 of a target's colour, after its frame ended
    /// (render to level 0, then generate): binding the colour with `bind_target_texture` then
    /// samples the chain with the sampler's mip filter, on both backends. The software backend
    /// builds GL's chain (`texture::gl_chain`: the box chain of [`Gfx3d::tex_generate_mipmaps`]
    /// on even extents, the linear blit's weights on odd ones; an RGBA32F target:
    /// `texture::gl_chain_f32`, in floats). VirGL builds the chain on the host
    /// GPU from the device colour, with no transfer (a host-side copy of level 0 and a linear
    /// BLIT from each level to the next, see docs/VIRGL.md). The levels last until the next
    /// `begin` on the target. The target of an open frame is `SampleTargetInFrame`.
    pub fn target_generate_mipmaps(&mut self, owner: u32, t: TargetId) -> Result<()> {
        let (ctx, format, w, h) = {
            let tg = self.targets.get(owner, t)?;
            (tg.ctx, tg.format, tg.width, tg.height)
        };
        let c = self.contexts.get(owner, ctx)?;
        if c.in_frame && c.target == Some(t) {
            return Err(Error::SampleTargetInFrame);
        }
        // Levels below level 0: floor(log2(max(w, h))).
        let below = 31 - w.max(h).max(1).leading_zeros();
        if self.virgl_active() {
            let dctx = self.contexts.get(owner, ctx)?.dev;
            let dt = self.targets.get(owner, t)?.dev;
            if let (Some(dctx), Some(dt)) = (dctx, dt) {
                let r = match self.device.as_deref_mut() {
                    Some(dev) => dev.target_generate_levels(dctx, dt),
                    None => Err(DeviceError("no device")),
                };
                if let Err(e) = r {
                    self.device_failed(e)?;
                }
            }
            let tg = self.targets.get_mut(owner, t)?;
            tg.levels.clear();
            tg.dev_levels = below > 0;
        } else {
            let tg = self.targets.get_mut(owner, t)?;
            // The chain is made from, and sampled in, GL's row order (bottom row first).
            tg.orient(TargetPlane::Color, true);
            match format {
                TargetFormat::Rgba8 => {
                    tg.levels = crate::texture::gl_chain(w, h, &tg.color);
                }
                TargetFormat::Rgba32F => {
                    let chain = crate::texture::gl_chain_f32(w, h, &tg.colorf);
                    let n = tg.colorf.len() + chain.iter().map(Vec::len).sum::<usize>();
                    let mut all = Vec::new();
                    all.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
                        bytes: n.saturating_mul(16),
                    })?;
                    all.extend_from_slice(&tg.colorf);
                    for l in &chain {
                        all.extend_from_slice(l);
                    }
                    tg.chainf = all;
                }
            }
        }
        let line = alloc::format!("target-mipmaps {}x{} {}", w, h, below);
        self.log_mock(&line);
        Ok(())
    }

    /// Copies the target's colour (row 0 = top, 0xAARRGGBB) into `dst`, which must hold
    /// width x height pixels. Under VirGL the device colour is transferred back first. An
    /// RGBA32F target's floats are converted as GL converts to UNORM8: clamped to [0, 1] (NaN
    /// to 0), times 255, rounded to nearest (even on a tie).
    pub fn target_read(&mut self, owner: u32, t: TargetId, dst: &mut [u32]) -> Result<()> {
        if self.targets.get(owner, t)?.format == TargetFormat::Rgba32F {
            self.float_readback(owner, t)?;
        }
        {
            let tg = self.targets.get(owner, t)?;
            if tg.format == TargetFormat::Rgba32F {
                let n = tg.colorf.len();
                let Some(out) = dst.get_mut(..n) else {
                    return Err(Error::ReadbackCapacity {
                        found: dst.len(),
                        expected: n,
                    });
                };
                let (w, h) = (tg.width as usize, tg.height as usize);
                for (y, row) in out.chunks_mut(w.max(1)).enumerate() {
                    // Row y from the top, in the plane's stored order.
                    let sy = if tg.color_bottom_first {
                        h.saturating_sub(y + 1)
                    } else {
                        y
                    };
                    let src = tg.colorf.iter().skip(sy * w).take(w);
                    for (o, c) in row.iter_mut().zip(src) {
                        *o = crate::frame::pack_color(*c);
                    }
                }
                return Ok(());
            }
        }
        let (ctx, n, dev_t) = {
            let tg = self.targets.get(owner, t)?;
            (tg.ctx, tg.color.len(), tg.dev)
        };
        if dst.len() < n {
            return Err(Error::ReadbackCapacity {
                found: dst.len(),
                expected: n,
            });
        }
        if let (Some(d), true) = (dev_t, self.virgl_active()) {
            let dctx = self.contexts.get(owner, ctx)?.dev;
            let tg = self.targets.get_mut(owner, t)?;
            let r = match (self.device.as_deref_mut(), dctx) {
                (Some(dev), Some(dctx)) => dev.read_target(dctx, d, &mut tg.color),
                _ => Err(DeviceError("no device context")),
            };
            // The device's readback is top row first.
            tg.color_bottom_first = false;
            match r {
                Ok(()) => self.counters.readbacks += 1,
                Err(e) => self.device_failed(e)?,
            }
        }
        let tg = self.targets.get(owner, t)?;
        if let Some(out) = dst.get_mut(..n) {
            crate::target::copy_top_first(out, &tg.color, tg.width as usize, tg.color_bottom_first);
        }
        Ok(())
    }

    /// Copies the target's colour as floats (r, g, b, a; row 0 = top) into `dst`, which must
    /// hold width x height entries: an RGBA32F target's stored values unclamped, an RGBA8
    /// target's channels as c / 255 (after the device readback under VirGL).
    pub fn target_read_float(
        &mut self,
        owner: u32,
        t: TargetId,
        dst: &mut [[f32; 4]],
    ) -> Result<()> {
        let (format, n) = {
            let tg = self.targets.get(owner, t)?;
            (tg.format, tg.pixels())
        };
        if dst.len() < n {
            return Err(Error::ReadbackCapacity {
                found: dst.len(),
                expected: n,
            });
        }
        if format == TargetFormat::Rgba32F {
            self.float_readback(owner, t)?;
            let tg = self.targets.get(owner, t)?;
            crate::target::copy_top_first(
                dst,
                &tg.colorf,
                tg.width as usize,
                tg.color_bottom_first,
            );
            return Ok(());
        }
        let mut px = filled(n, 0u32)?;
        self.target_read(owner, t, &mut px)?;
        for (o, p) in dst.iter_mut().zip(px.iter()) {
            *o = shader::back::raster::state::unpack(*p);
        }
        Ok(())
    }

    /// Under VirGL, transfers an RGBA32F target's device colour back into its CPU floats
    /// (nothing to do on the other backends: they draw into the CPU floats).
    fn float_readback(&mut self, owner: u32, t: TargetId) -> Result<()> {
        let (ctx, dev_t) = {
            let tg = self.targets.get(owner, t)?;
            (tg.ctx, tg.dev)
        };
        let (Some(d), true) = (dev_t, self.virgl_active()) else {
            return Ok(());
        };
        let dctx = self.contexts.get(owner, ctx)?.dev;
        let tg = self.targets.get_mut(owner, t)?;
        let r = match (self.device.as_deref_mut(), dctx) {
            (Some(dev), Some(dctx)) => dev.read_target_float(dctx, d, &mut tg.colorf),
            _ => Err(DeviceError("no device context")),
        };
        // The device's readback is top row first.
        tg.color_bottom_first = false;
        match r {
            Ok(()) => {
                self.counters.readbacks += 1;
                Ok(())
            }
            Err(e) => self.device_failed(e),
        }
    }

    /// Makes a VirGL target the scanout (upright) and flushes it. Only an RGBA8 target can
    /// be shown (`TargetFormatUnsupported` otherwise).
    pub fn present_scanout(&mut self, owner: u32, t: TargetId) -> Result<()> {
        if !self.virgl_active() {
            return Err(Error::NotVirgl);
        }
        let format = self.targets.get(owner, t)?.format;
        if format != TargetFormat::Rgba8 {
            return Err(Error::TargetFormatUnsupported {
                format: format.name(),
                backend: "scanout",
            });
        }
        let ctx = self.targets.get(owner, t)?.ctx;
        let dctx = self.ensure_ctx_dev(owner, ctx)?;
        let dt = self.ensure_target_dev(owner, t)?;
        // A scanout failure is reported, not treated as a lost device: rendering may still work.
        match (self.device.as_deref_mut(), dctx, dt) {
            (Some(dev), Some(c), Some(d)) => {
                dev.present(c, d).map_err(|e| Error::Device { what: e.0 })
            }
            _ => Err(Error::NotVirgl),
        }
    }

    /// Restores the 2D console scanout.
    pub fn scanout_primary(&mut self) -> Result<()> {
        if !self.virgl_active() {
            return Err(Error::NotVirgl);
        }
        match self.device.as_deref_mut() {
            Some(dev) => dev
                .scanout_primary()
                .map_err(|e| Error::Device { what: e.0 }),
            None => Err(Error::NotVirgl),
        }
    }

    // ----- meshes -----

    pub fn mesh_create(&mut self, owner: u32, usage: Usage) -> Result<MeshId> {
        self.meshes.insert(
            owner,
            Mesh {
                usage,
                data: None,
                builder: Vec::new(),
                resident: Vec::new(),
            },
        )
    }

    pub fn mesh_usage(&self, owner: u32, mesh: MeshId) -> Result<Usage> {
        Ok(self.meshes.get(owner, mesh)?.usage)
    }

    fn mesh_release_device(&mut self, owner: u32, mesh: MeshId) -> Result<()> {
        let resident = core::mem::take(&mut self.meshes.get_mut(owner, mesh)?.resident);
        if self.virgl_active() {
            if let Some(dev) = self.device.as_deref_mut() {
                for r in resident {
                    dev.buffer_destroy(r.dev_ctx, r.vbo);
                    if let Some(ib) = r.ibo {
                        dev.buffer_destroy(r.dev_ctx, ib);
                    }
                }
            }
        }
        Ok(())
    }

    /// Copies vertices (little-endian f32 bytes per the layout) and optional u16 indices; see
    /// `mesh_upload_f32`.
    pub fn mesh_upload(
        &mut self,
        owner: u32,
        mesh: MeshId,
        layout: &VertexLayout,
        vertices: &[u8],
        indices: Option<&[u16]>,
    ) -> Result<()> {
        self.meshes.get(owner, mesh)?;
        layout.validate()?;
        layout.vertex_count(vertices.len())?;
        let mut floats = Vec::new();
        floats
            .try_reserve_exact(vertices.len() / 4)
            .map_err(|_| Error::OutOfMemory {
                bytes: vertices.len(),
            })?;
        for b in vertices.chunks_exact(4) {
            floats.push(f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
        self.mesh_upload_f32(owner, mesh, layout, &floats, indices)
    }

    /// Copies vertex floats and optional u16 indices. The layout is validated fully, the vertex
    /// bytes must be a positive multiple of the stride, the index count a positive multiple of 3
    /// and every index below the vertex count. Device copies are made on first use in each
    /// device context.
    pub fn mesh_upload_f32(
        &mut self,
        owner: u32,
        mesh: MeshId,
        layout: &VertexLayout,
        vertices: &[f32],
        indices: Option<&[u16]>,
    ) -> Result<()> {
        self.meshes.get(owner, mesh)?;
        layout.validate()?;
        let vertex_count = layout.vertex_count(vertices.len().saturating_mul(4))?;
        let mut max_index = 0u16;
        let idx = match indices {
            Some(ix) => {
                if ix.is_empty() || ix.len() % 3 != 0 {
                    return Err(Error::IndexCount { count: ix.len() });
                }
                for &i in ix {
                    if i as usize >= vertex_count {
                        return Err(Error::IndexOutOfRange {
                            index: i,
                            vertices: vertex_count,
                        });
                    }
                    max_index = max_index.max(i);
                }
                let mut v = Vec::new();
                v.try_reserve_exact(ix.len())
                    .map_err(|_| Error::OutOfMemory {
                        bytes: ix.len() * 2,
                    })?;
                v.extend_from_slice(ix);
                Some(v)
            }
            None => {
                max_index = u16::try_from(vertex_count.saturating_sub(1)).unwrap_or(u16::MAX);
                None
            }
        };
        let mut copy = Vec::new();
        copy.try_reserve_exact(vertices.len())
            .map_err(|_| Error::OutOfMemory {
                bytes: vertices.len() * 4,
            })?;
        copy.extend_from_slice(vertices);
        self.mesh_release_device(owner, mesh)?;
        let m = self.meshes.get_mut(owner, mesh)?;
        m.data = Some(MeshData {
            layout: layout.clone(),
            vertices: copy,
            vertex_count,
            indices: idx,
            max_index,
        });
        Ok(())
    }

    /// Appends one vertex to the mesh's builder (at most `BUILDER_VERTEX_MAX`).
    pub fn mesh_vertex(
        &mut self,
        owner: u32,
        mesh: MeshId,
        pos: [f32; 3],
        normal: [f32; 3],
        uv: [f32; 2],
    ) -> Result<()> {
        let m = self.meshes.get_mut(owner, mesh)?;
        if m.builder.len() >= BUILDER_VERTEX_MAX {
            return Err(Error::BuilderFull);
        }
        if m.builder.len() == m.builder.capacity() {
            // Start at 64 and double up to the cap, as the contract describes.
            let want =
                (m.builder.capacity() * 2).clamp(BUILDER_INITIAL_CAPACITY, BUILDER_VERTEX_MAX);
            let extra = want.saturating_sub(m.builder.len()).max(1);
            m.builder
                .try_reserve_exact(extra)
                .map_err(|_| Error::OutOfMemory { bytes: want * 32 })?;
        }
        m.builder.push([
            pos[0], pos[1], pos[2], normal[0], normal[1], normal[2], uv[0], uv[1],
        ]);
        Ok(())
    }

    /// Vertices currently in the mesh's builder.
    pub fn mesh_builder_len(&self, owner: u32, mesh: MeshId) -> Result<usize> {
        Ok(self.meshes.get(owner, mesh)?.builder.len())
    }

    /// Uploads the builder's vertices (at least 3) in the canonical 40-byte layout and empties it.
    pub fn mesh_finish(&mut self, owner: u32, mesh: MeshId) -> Result<()> {
        let verts = core::mem::take(&mut self.meshes.get_mut(owner, mesh)?.builder);
        if verts.len() < 3 {
            let n = verts.len();
            self.meshes.get_mut(owner, mesh)?.builder = verts;
            return Err(Error::BuilderTooFew { vertices: n });
        }
        let mut floats = Vec::new();
        floats
            .try_reserve_exact(verts.len() * 10)
            .map_err(|_| Error::OutOfMemory {
                bytes: verts.len() * 40,
            })?;
        for v in &verts {
            floats.extend_from_slice(&[v[0], v[1], v[2], 1.0, v[3], v[4], v[5], 0.0, v[6], v[7]]);
        }
        let r = self.mesh_upload_f32(owner, mesh, &VertexLayout::canonical(), &floats, None);
        if r.is_err() {
            // Keep the accumulated vertices so the caller can retry.
            if let Ok(m) = self.meshes.get_mut(owner, mesh) {
                m.builder = verts;
            }
        }
        r
    }

    pub fn mesh_destroy(&mut self, owner: u32, mesh: MeshId) -> Result<()> {
        self.mesh_release_device(owner, mesh)?;
        self.meshes.remove(owner, mesh)?;
        Ok(())
    }

    // ----- textures -----

    /// A `width` x `height` texture (1..=1024 each), texels 0 until uploaded.
    pub fn tex_create(&mut self, owner: u32, width: u32, height: u32) -> Result<TextureId> {
        if width == 0 || height == 0 || width > TEXTURE_SIZE_MAX || height > TEXTURE_SIZE_MAX {
            return Err(Error::BadTextureSize { width, height });
        }
        let texels = filled(width as usize * height as usize, 0u32)?;
        self.textures.insert(
            owner,
            Texture {
                texels,
                ..Texture::blank(width, height, TextureFormat::Rgba8)
            },
        )
    }

    /// A `width` x `height` texture of `format` (1..=1024 each). RGBA8 is [`Self::tex_create`];
    /// an integer texture (RGBA32I/RGBA32UI: 4 words a texel, 16 bytes, (0, 0, 0, 0) until
    /// uploaded with [`Self::tex_upload_ints`]) has level 0 only and is sampled only by an
    /// isampler2D (RGBA32I) / usampler2D (RGBA32UI) with NEAREST filters (checked at draw).
    pub fn tex_create_format(
        &mut self,
        owner: u32,
        width: u32,
        height: u32,
        format: TextureFormat,
    ) -> Result<TextureId> {
        if !format.is_integer() {
            return self.tex_create(owner, width, height);
        }
        if width == 0 || height == 0 || width > TEXTURE_SIZE_MAX || height > TEXTURE_SIZE_MAX {
            return Err(Error::BadTextureSize { width, height });
        }
        let ints = filled(width as usize * height as usize, [0u32; 4])?;
        let line = alloc::format!("tex-format {} {}x{}", format.name(), width, height);
        self.log_mock(&line);
        self.textures.insert(
            owner,
            Texture {
                ints,
                ..Texture::blank(width, height, format)
            },
        )
    }

    /// The texel format of a texture.
    pub fn tex_format(&self, owner: u32, tex: TextureId) -> Result<TextureFormat> {
        Ok(self.textures.get(owner, tex)?.format)
    }

    /// Replaces every texel of an integer texture: `words` holds 4 words a texel (r, g, b, a;
    /// an RGBA32I word is the i32's bits), row 0 first, width x height x 4 words exactly.
    pub fn tex_upload_ints(&mut self, owner: u32, tex: TextureId, words: &[u32]) -> Result<()> {
        self.upload_int_plane(
            owner,
            tex,
            0,
            words,
            "tex_upload_ints needs an RGBA32I/RGBA32UI texture (upload RGBA8 texels with tex_upload)",
        )?;
        let line = alloc::format!("tex-ints {}", words.len() / 4);
        self.log_mock(&line);
        Ok(())
    }

    /// A cube texture of 6 square `width` x `height` faces (1..=1024; `CubeNotSquare`
    /// otherwise), texels 0 until uploaded with [`Self::tex_upload_face`]. Sampled by
    /// `samplerCube` (a 2D sampler reads it as incomplete: opaque black). The software
    /// and VirGL backends draw it (VirGL: a PIPE_TEXTURE_CUBE resource, level 0 only).
    pub fn tex_create_cube(&mut self, owner: u32, width: u32, height: u32) -> Result<TextureId> {
        if width == 0 || height == 0 || width > TEXTURE_SIZE_MAX || height > TEXTURE_SIZE_MAX {
            return Err(Error::BadTextureSize { width, height });
        }
        if width != height {
            return Err(Error::CubeNotSquare { width, height });
        }
        let n = width as usize * height as usize;
        let texels = filled(n, 0u32)?;
        let mut faces = Vec::new();
        for _ in 1..6 {
            faces.push((filled(n, 0u32)?, Vec::new()));
        }
        self.log_mock("tex-cube");
        self.textures.insert(
            owner,
            Texture {
                texels,
                faces,
                ..Texture::blank(width, height, TextureFormat::Rgba8)
            },
        )
    }

    /// Whether `tex` is a cube texture.
    pub fn tex_is_cube(&self, owner: u32, tex: TextureId) -> Result<bool> {
        Ok(!self.textures.get(owner, tex)?.faces.is_empty())
    }

    /// Replaces every texel of face `face` (0..=5: +x, -x, +y, -y, +z, -z) of a cube texture,
    /// as [`Self::tex_upload`] does for a 2D texture (face 0 of a 2D texture is the texture).
    /// Mip levels of the face are dropped (generate them again).
    pub fn tex_upload_face(
        &mut self,
        owner: u32,
        tex: TextureId,
        face: u32,
        texels: &[u32],
    ) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        let cube = !t.faces.is_empty();
        if face >= 6 || (!cube && face != 0) {
            return Err(Error::BadCubeFace { face, cube });
        }
        if face == 0 {
            return self.tex_upload(owner, tex, texels);
        }
        self.upload_plane(owner, tex, texels, |t, texels| {
            if let Some(f) = t.faces.get_mut(face as usize - 1) {
                f.0.copy_from_slice(texels);
                f.1.clear();
            }
        })?;
        self.log_mock("tex-face");
        Ok(())
    }

    /// The common part of writing a cube face or an array layer past the first: the size check
    /// (exactly the texture's width x height), the device copy released (it is rebuilt at the
    /// next draw), then `write` on the texture's own planes.
    fn upload_plane(
        &mut self,
        owner: u32,
        tex: TextureId,
        texels: &[u32],
        write: impl FnOnce(&mut Texture, &[u32]),
    ) -> Result<()> {
        let expected = self.textures.get(owner, tex)?.texels.len();
        if texels.len() != expected {
            return Err(Error::PixelCount {
                found: texels.len(),
                expected,
            });
        }
        self.tex_release_device(owner, tex)?;
        write(self.textures.get_mut(owner, tex)?, texels);
        Ok(())
    }

    /// A 2D array texture of `layers` layers (1..=[`TEXTURE_LAYERS_MAX`], at most
    /// [`TEXTURE_ARRAY_BYTES_MAX`] bytes of level 0 together) of `width` x `height` texels
    /// each (1..=1024), texels 0 until uploaded with
    /// [`Self::tex_upload_layer`]. Sampled by `sampler2DArray` only (another sampler on its
    /// unit, or a sampler2DArray on another texture, is [`Error::ArraySamplerMismatch`] at the
    /// draw). Each layer has its own mip levels ([`Self::tex_layer_levels`] or
    /// [`Self::tex_generate_mipmaps`]); every layer must have as many at a draw. Both backends
    /// draw it (VirGL: a PIPE_TEXTURE_2D_ARRAY resource).
    pub fn tex_create_array(
        &mut self,
        owner: u32,
        width: u32,
        height: u32,
        layers: u32,
    ) -> Result<TextureId> {
        check_array_size(width, height, layers, 4)?;
        let n = width as usize * height as usize;
        let texels = filled(n, 0u32)?;
        let mut rest = Vec::new();
        rest.try_reserve_exact(layers as usize - 1)
            .map_err(|_| Error::OutOfMemory {
                bytes: n * 4 * layers as usize,
            })?;
        for _ in 1..layers {
            rest.push((filled(n, 0u32)?, Vec::new()));
        }
        let line = alloc::format!("tex-array {}x{} {}", width, height, layers);
        self.log_mock(&line);
        self.textures.insert(
            owner,
            Texture {
                texels,
                layers: rest,
                array: true,
                ..Texture::blank(width, height, TextureFormat::Rgba8)
            },
        )
    }

    /// A 2D array texture of `format`: RGBA8 is [`Self::tex_create_array`]; an integer one
    /// (RGBA32I/RGBA32UI, session 9) has `layers` layers (1..=[`TEXTURE_LAYERS_MAX`], at most
    /// [`TEXTURE_ARRAY_BYTES_MAX`] bytes together at 16 a texel) of `width` x `height` texels
    /// of four words, (0, 0, 0, 0) until uploaded with [`Self::tex_upload_layer_ints`], level
    /// 0 only. It is sampled only by an isampler2DArray (RGBA32I) / usampler2DArray
    /// (RGBA32UI) with NEAREST filters (checked at the draw); both backends draw it (VirGL: a
    /// PIPE_TEXTURE_2D_ARRAY resource of R32G32B32A32_SINT/_UINT).
    pub fn tex_create_array_format(
        &mut self,
        owner: u32,
        width: u32,
        height: u32,
        layers: u32,
        format: TextureFormat,
    ) -> Result<TextureId> {
        if !format.is_integer() {
            return self.tex_create_array(owner, width, height, layers);
        }
        check_array_size(width, height, layers, 16)?;
        let n = width as usize * height as usize;
        let ints = filled(n, [0u32; 4])?;
        let mut rest = Vec::new();
        rest.try_reserve_exact(layers as usize - 1)
            .map_err(|_| Error::OutOfMemory {
                bytes: n * 16 * layers as usize,
            })?;
        for _ in 1..layers {
            rest.push(filled(n, [0u32; 4])?);
        }
        let line = alloc::format!(
            "tex-array-format {} {}x{} {}",
            format.name(),
            width,
            height,
            layers
        );
        self.log_mock(&line);
        self.textures.insert(
            owner,
            Texture {
                array: true,
                ints,
                int_layers: rest,
                ..Texture::blank(width, height, format)
            },
        )
    }

    /// Replaces every texel of layer `layer` of an integer array texture: 4 words a texel as
    /// [`Self::tex_upload_ints`] (width x height x 4 words exactly; layer 0 is what
    /// `tex_upload_ints` writes).
    pub fn tex_upload_layer_ints(
        &mut self,
        owner: u32,
        tex: TextureId,
        layer: u32,
        words: &[u32],
    ) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        Self::check_layer(t, layer)?;
        if layer == 0 {
            return self.tex_upload_ints(owner, tex, words);
        }
        self.upload_int_plane(
            owner,
            tex,
            layer as usize,
            words,
            "tex_upload_layer_ints needs an RGBA32I/RGBA32UI array texture (upload RGBA8 layers with tex_upload_layer)",
        )?;
        let line = alloc::format!("tex-layer-ints {} {}", layer, words.len() / 4);
        self.log_mock(&line);
        Ok(())
    }

    /// The common part of writing an integer texture's level 0 (`layer` 0) or an integer
    /// array's layer: the format check (`what` is the error), the size check (width x height
    /// x 4 words exactly), the device copy released, then the copy.
    fn upload_int_plane(
        &mut self,
        owner: u32,
        tex: TextureId,
        layer: usize,
        words: &[u32],
        what: &'static str,
    ) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        if !t.format.is_integer() {
            return Err(Error::TextureFormatOp { what });
        }
        let expected = t.ints.len() * 4;
        if words.len() != expected {
            return Err(Error::PixelCount {
                found: words.len(),
                expected,
            });
        }
        self.tex_release_device(owner, tex)?;
        let t = self.textures.get_mut(owner, tex)?;
        let plane = match layer.checked_sub(1) {
            None => Some(&mut t.ints),
            Some(k) => t.int_layers.get_mut(k),
        };
        if let Some(plane) = plane {
            for (d, s) in plane.iter_mut().zip(words.chunks_exact(4)) {
                d.copy_from_slice(s);
            }
        }
        Ok(())
    }

    /// Layers of an array texture; 0 for a texture that is not an array.
    pub fn tex_layers(&self, owner: u32, tex: TextureId) -> Result<u32> {
        Ok(self.textures.get(owner, tex)?.layer_count())
    }

    /// Checks that `layer` is a layer of array texture `t` ([`Error::BadArrayLayer`]).
    fn check_layer(t: &Texture, layer: u32) -> Result<()> {
        let layers = t.layer_count();
        if layer >= layers {
            return Err(Error::BadArrayLayer { layer, layers });
        }
        Ok(())
    }

    /// Replaces every texel of layer `layer` of an array texture (0xAARRGGBB, row 0 first,
    /// width x height exactly, as [`Self::tex_upload`]; layer 0 is what `tex_upload` writes).
    /// The layer's mip levels are kept (upload them again, or generate them).
    pub fn tex_upload_layer(
        &mut self,
        owner: u32,
        tex: TextureId,
        layer: u32,
        texels: &[u32],
    ) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        Self::check_layer(t, layer)?;
        if layer == 0 {
            return self.tex_upload(owner, tex, texels);
        }
        if t.format.is_integer() {
            return Err(Error::TextureFormatOp {
                what: "tex_upload_layer takes RGBA8 texels (upload an integer array's layers with tex_upload_layer_ints)",
            });
        }
        self.upload_plane(owner, tex, texels, |t, texels| {
            if let Some(l) = t.layers.get_mut(layer as usize - 1) {
                l.0.copy_from_slice(texels);
            }
        })?;
        let line = alloc::format!("tex-layer {}", layer);
        self.log_mock(&line);
        Ok(())
    }

    /// Replaces mip levels 1, 2, ... of layer `layer` of an array texture, as
    /// [`Self::tex_levels`] does for a 2D texture (`tex_levels` on an array is layer 0's).
    /// Every layer needs the same number of levels when the array is drawn
    /// ([`Error::ArrayLevelMismatch`] otherwise).
    pub fn tex_layer_levels(
        &mut self,
        owner: u32,
        tex: TextureId,
        layer: u32,
        levels: &[&[u32]],
    ) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        Self::check_layer(t, layer)?;
        if layer == 0 || t.format.is_integer() {
            // An integer array's layers have level 0 only: tex_levels refuses it.
            return self.tex_levels(owner, tex, levels);
        }
        let copy = Self::level_copies(t.width, t.height, levels)?;
        self.tex_release_device(owner, tex)?;
        let t = self.textures.get_mut(owner, tex)?;
        let line = alloc::format!(
            "tex-layer-levels {} {}x{} {}",
            layer,
            t.width,
            t.height,
            copy.len()
        );
        if let Some(l) = t.layers.get_mut(layer as usize - 1) {
            l.1 = copy;
        }
        self.log_mock(&line);
        Ok(())
    }

    /// Checked copies of mip levels 1, 2, ... of a `w` x `h` picture (see [`Self::tex_levels`]).
    fn level_copies(w: u32, h: u32, levels: &[&[u32]]) -> Result<Vec<Vec<u32>>> {
        let max = 32 - w.max(h).leading_zeros() - 1;
        if levels.len() > max as usize {
            return Err(Error::BadMipLevel {
                level: levels.len() as u32,
                max,
            });
        }
        let mut copy = Vec::new();
        for (i, l) in levels.iter().enumerate() {
            let s = i as u32 + 1;
            let n = (w >> s).max(1) as usize * (h >> s).max(1) as usize;
            if l.len() != n {
                return Err(Error::PixelCount {
                    found: l.len(),
                    expected: n,
                });
            }
            let mut v = filled(n, 0u32)?;
            v.copy_from_slice(l);
            copy.push(v);
        }
        Ok(copy)
    }

    fn tex_release_device(&mut self, owner: u32, tex: TextureId) -> Result<()> {
        let resident = core::mem::take(&mut self.textures.get_mut(owner, tex)?.resident);
        if self.virgl_active() {
            if let Some(dev) = self.device.as_deref_mut() {
                for (c, d) in resident {
                    dev.texture_destroy(c, d);
                }
            }
        }
        Ok(())
    }

    /// Replaces every texel (0xAARRGGBB, row 0 first; alpha kept). The count must be
    /// width x height exactly.
    pub fn tex_upload(&mut self, owner: u32, tex: TextureId, texels: &[u32]) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        if t.format.is_integer() {
            return Err(Error::TextureFormatOp {
                what:
                    "tex_upload takes RGBA8 texels (upload an integer texture with tex_upload_ints)",
            });
        }
        if texels.len() != t.texels.len() {
            return Err(Error::PixelCount {
                found: texels.len(),
                expected: t.texels.len(),
            });
        }
        self.tex_release_device(owner, tex)?;
        self.textures
            .get_mut(owner, tex)?
            .texels
            .copy_from_slice(texels);
        Ok(())
    }

    /// Replaces mip levels 1, 2, ... (0xAARRGGBB, row 0 first): `levels[i]` is level i + 1,
    /// max(1, width >> (i + 1)) x max(1, height >> (i + 1)) texels exactly, and there are at
    /// most as many as the chain down to 1x1 has. An empty list leaves level 0 only. On an
    /// array texture these are layer 0's levels ([`Self::tex_layer_levels`]).
    pub fn tex_levels(&mut self, owner: u32, tex: TextureId, levels: &[&[u32]]) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        if t.format.is_integer() {
            return Err(Error::TextureFormatOp {
                what: "an integer texture has level 0 only (no tex_levels)",
            });
        }
        if !t.faces.is_empty() {
            return Err(Error::CubeUnsupported {
                what: "by tex_levels (generate a cube's levels with tex_generate_mipmaps)",
            });
        }
        let (w, h) = (t.width, t.height);
        let copy = Self::level_copies(w, h, levels)?;
        self.tex_release_device(owner, tex)?;
        let line = alloc::format!("tex-levels {}x{} {}", w, h, copy.len());
        self.textures.get_mut(owner, tex)?.levels = copy;
        self.log_mock(&line);
        Ok(())
    }

    /// Builds mip levels 1, 2, ... down to 1x1 from level 0 with a box filter
    /// ([`crate::texture::box_chain`]).
    pub fn tex_generate_mipmaps(&mut self, owner: u32, tex: TextureId) -> Result<()> {
        let t = self.textures.get(owner, tex)?;
        if t.format.is_integer() {
            return Err(Error::TextureFormatOp {
                what: "an integer texture has level 0 only (no tex_generate_mipmaps)",
            });
        }
        let chain = crate::texture::box_chain(t.width, t.height, &t.texels);
        let face_chains: Vec<Vec<Vec<u32>>> = t
            .faces
            .iter()
            .map(|f| crate::texture::box_chain(t.width, t.height, &f.0))
            .collect();
        let layer_chains: Vec<Vec<Vec<u32>>> = t
            .layers
            .iter()
            .map(|l| crate::texture::box_chain(t.width, t.height, &l.0))
            .collect();
        self.tex_release_device(owner, tex)?;
        let t = self.textures.get_mut(owner, tex)?;
        let line = alloc::format!("tex-mipmaps {}x{} {}", t.width, t.height, chain.len());
        t.levels = chain;
        for (f, c) in t.faces.iter_mut().zip(face_chains) {
            f.1 = c;
        }
        for (l, c) in t.layers.iter_mut().zip(layer_chains) {
            l.1 = c;
        }
        self.log_mock(&line);
        Ok(())
    }

    /// The sampler state of a texture: filters, mip filter, wrap per axis, LOD bias and clamp
    /// (bad LOD values are [`Error::BadSampler`]).
    pub fn tex_sampler(&mut self, owner: u32, tex: TextureId, sampler: SamplerState) -> Result<()> {
        self.textures.get(owner, tex)?;
        if !crate::texture::sampler_valid(&sampler) {
            return Err(Error::BadSampler);
        }
        self.tex_release_device(owner, tex)?;
        self.textures.get_mut(owner, tex)?.sampler = sampler;
        self.log_mock(&crate::mock::sampler_line(&sampler));
        Ok(())
    }

    pub fn tex_size(&self, owner: u32, tex: TextureId) -> Result<(u32, u32)> {
        let t = self.textures.get(owner, tex)?;
        Ok((t.width, t.height))
    }

    /// A 1x1 texture of one colour (alpha kept).
    pub fn tex_solid(&mut self, owner: u32, argb: u32) -> Result<TextureId> {
        let t = self.tex_create(owner, 1, 1)?;
        if let Err(e) = self.tex_upload(owner, t, &[argb]) {
            let _ = self.tex_destroy(owner, t);
            return Err(e);
        }
        Ok(t)
    }

    pub fn tex_destroy(&mut self, owner: u32, tex: TextureId) -> Result<()> {
        self.tex_release_device(owner, tex)?;
        self.textures.remove(owner, tex)?;
        for c in self.contexts.values_mut() {
            for u in c.textures.iter_mut() {
                if *u == Some(Sampled::Texture(tex)) {
                    *u = None;
                }
            }
        }
        Ok(())
    }

    // ----- program instances -----

    /// Prepares a linked program for `ctx` (under VirGL its shaders are uploaded now).
    pub fn prog_prepare(&mut self, owner: u32, ctx: ContextId, program: P) -> Result<ProgramId> {
        self.contexts.get(owner, ctx)?;
        if !program.is_linked() {
            return Err(Error::ProgramNotLinked);
        }
        let stamp = program.generation();
        let id = self.programs.insert(
            owner,
            ProgramInst {
                ctx,
                program,
                stamp,
                applied: 0,
                dev: None,
            },
        )?;
        if let Err(e) = self.ensure_program_dev(owner, id) {
            let _ = self.programs.remove(owner, id);
            return Err(e);
        }
        Ok(id)
    }

    /// Uploads the program's shaders to its context's device context when they are missing or
    /// when the program's generation changed since the last upload (hot refresh).
    pub(crate) fn ensure_program_dev(
        &mut self,
        owner: u32,
        id: ProgramId,
    ) -> Result<Option<DevId>> {
        let (ctx, gen, stamp, have) = {
            let p = self.programs.get(owner, id)?;
            (p.ctx, p.program.generation(), p.stamp, p.dev)
        };
        let Some(dctx) = self.ensure_ctx_dev(owner, ctx)? else {
            return Ok(None);
        };
        if let (Some(d), true) = (have, gen == stamp) {
            return Ok(Some(d));
        }
        let mut vs = alloc::string::String::new();
        let mut fs = alloc::string::String::new();
        let tokens;
        {
            let p = self.programs.get(owner, id)?;
            let texts = p
                .program
                .tgsi(Stage::Vertex, &mut vs)
                .and_then(|a| Ok((a, p.program.tgsi(Stage::Fragment, &mut fs)?)));
            match texts {
                Ok(t) => tokens = t,
                // The program's fault, not the device's: no loss policy.
                Err(what) => return Err(Error::ProgramUnsupported { what }),
            }
        }
        let r = match self.device.as_deref_mut() {
            Some(dev) => {
                if let Some(old) = have {
                    dev.program_destroy(dctx, old);
                }
                dev.program_create(
                    dctx,
                    ShaderText {
                        text: &vs,
                        tokens: tokens.0,
                    },
                    ShaderText {
                        text: &fs,
                        tokens: tokens.1,
                    },
                )
            }
            None => Err(DeviceError("no device")),
        };
        let p = self.programs.get_mut(owner, id)?;
        p.dev = None;
        match r {
            Ok(d) => {
                p.dev = Some(d);
                p.stamp = gen;
                Ok(Some(d))
            }
            // A device that is still available refused this program (its encoder validates
            // shaders before sending them): a program error. Only a failed device is a loss.
            Err(e) if self.device.as_deref().is_some_and(|d| d.available()) => {
                Err(Error::ProgramUnsupported { what: e.0 })
            }
            Err(e) => self.device_failed(e).map(|_| None),
        }
    }

    /// The prepared program (for reflection).
    pub fn program(&self, owner: u32, id: ProgramId) -> Result<&P> {
        Ok(&self.programs.get(owner, id)?.program)
    }

    /// The prepared program, mutably: relink it here; the next use or draw notices the new
    /// generation and refreshes the device shaders.
    pub fn program_mut(&mut self, owner: u32, id: ProgramId) -> Result<&mut P> {
        Ok(&mut self.programs.get_mut(owner, id)?.program)
    }

    pub fn program_destroy(&mut self, owner: u32, id: ProgramId) -> Result<()> {
        let p = self.programs.remove(owner, id)?;
        if let Some(d) = p.dev {
            let dctx = self.contexts.get(owner, p.ctx).ok().and_then(|c| c.dev);
            if let (Some(c), true) = (dctx, self.virgl_active()) {
                if let Some(dev) = self.device.as_deref_mut() {
                    dev.program_destroy(c, d);
                }
            }
        }
        for c in self.contexts.values_mut() {
            if c.program == Some(id) {
                c.program = None;
            }
        }
        Ok(())
    }

    // ----- cleanup and statistics -----

    /// Destroys everything `owner` has: meshes, textures, program instances, targets, contexts,
    /// in that order.
    pub fn drop_owner(&mut self, owner: u32) {
        for m in self.meshes.handles_of(owner) {
            let _ = self.mesh_destroy(owner, m);
        }
        for t in self.textures.handles_of(owner) {
            let _ = self.tex_destroy(owner, t);
        }
        for p in self.programs.handles_of(owner) {
            let _ = self.program_destroy(owner, p);
        }
        for t in self.targets.handles_of(owner) {
            let _ = self.target_destroy(owner, t);
        }
        for c in self.contexts.handles_of(owner) {
            let _ = self.context_destroy(owner, c);
        }
    }

    /// Adds the device's submit/dword deltas since the last sample.
    pub(crate) fn sample_device(&mut self) {
        if let Some(dev) = self.device.as_deref() {
            let now = dev.counters();
            self.counters.submits += now.submits.saturating_sub(self.dev_seen.submits);
            self.counters.dwords += now.dwords.saturating_sub(self.dev_seen.dwords);
            self.dev_seen = now;
        }
    }

    pub fn stats(&mut self) -> Stats {
        if self.virgl_active() {
            self.sample_device();
        }
        let c = self.counters;
        let dev = if self.virgl_active() {
            self.device.as_deref().map(|d| d.counters())
        } else {
            None
        };
        let mesh_bytes: usize = self
            .meshes
            .iter_all()
            .filter_map(|(_, _, m)| m.data.as_ref())
            .map(|d| d.bytes())
            .sum();
        let tex_bytes: usize = self
            .textures
            .iter_all()
            .map(|(_, _, t)| {
                // A cube's faces 1..=5 and an array's layers 1.., each with its levels.
                let faces: usize = t
                    .faces
                    .iter()
                    .chain(t.layers.iter())
                    .map(|f| f.0.len() + f.1.iter().map(Vec::len).sum::<usize>())
                    .sum();
                (t.texels.len() + t.levels.iter().map(Vec::len).sum::<usize>() + faces) * 4
                    + (t.ints.len() + t.int_layers.iter().map(Vec::len).sum::<usize>()) * 16
            })
            .sum();
        let target_bytes: usize = self
            .targets
            .iter_all()
            .map(|(_, _, t)| t.color_bytes())
            .sum();
        let depth_bytes: usize = self
            .targets
            .iter_all()
            .map(|(_, _, t)| t.depth.len() * 4)
            .sum();
        Stats {
            submits: c.submits,
            dwords: c.dwords,
            draws: c.draws,
            triangles: c.triangles,
            uploads: c.uploads,
            bytes_up: c.bytes_up,
            readbacks: c.readbacks,
            frames: c.frames,
            cpu_mesh_bytes: mesh_bytes as u64,
            cpu_texture_bytes: tex_bytes as u64,
            gpu_backing_bytes: dev.map_or(0, |d| d.backing_bytes),
            target_bytes: target_bytes as u64,
            depth_bytes: depth_bytes as u64,
            live_mesh: self.meshes.live() as u32,
            live_tex: self.textures.live() as u32,
            live_target: self.targets.live() as u32,
            live_prog: self.programs.live() as u32,
            live_ctx: self.contexts.live() as u32,
            reserved_ctx: self.contexts.reserved() as u32,
            reserved_target: self.targets.reserved() as u32,
            reserved_mesh: self.meshes.reserved() as u32,
            reserved_tex: self.textures.reserved() as u32,
            reserved_prog: self.programs.reserved() as u32,
            virgl_obj_live: dev.map_or(0, |d| d.objects_live),
            virgl_obj_peak: dev.map_or(0, |d| d.objects_peak),
            compile_hits: self.compiler.stats().hits,
            compile_misses: self.compiler.stats().misses,
            backend: self.backend,
            forced: self.mode == BackendMode::Virgl,
            degraded: self.degraded,
        }
    }

    /// Zeroes the event counters; live counts and memory totals are kept.
    pub fn stats_reset(&mut self) {
        self.sample_device();
        self.counters = Counters::default();
    }

    /// Kind of object a raw handle value would name is unknowable; this checks liveness only.
    pub fn is_live_context(&self, owner: u32, ctx: ContextId) -> bool {
        self.contexts.get(owner, ctx).is_ok()
    }
}

/// Error helper for objects of another context.
pub(crate) fn wrong_context(kind: ObjectKind) -> Error {
    Error::WrongContext { kind }
}

/// An array texture's size and layer count against the limits: `texel_bytes` a texel (4 for
/// RGBA8, 16 for the integer formats), at most `TEXTURE_ARRAY_BYTES_MAX` for level 0 of every
/// layer together.
fn check_array_size(width: u32, height: u32, layers: u32, texel_bytes: u64) -> Result<()> {
    if width == 0 || height == 0 || width > TEXTURE_SIZE_MAX || height > TEXTURE_SIZE_MAX {
        return Err(Error::BadTextureSize { width, height });
    }
    let bytes = width as u64 * height as u64 * layers as u64 * texel_bytes;
    if layers == 0 || layers > TEXTURE_LAYERS_MAX || bytes > TEXTURE_ARRAY_BYTES_MAX {
        return Err(Error::BadLayerCount {
            layers,
            width,
            height,
        });
    }
    Ok(())
}
