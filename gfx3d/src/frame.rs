//! Frame calls of `Gfx3d`: begin, clear, state (viewport, depth, cull), matrices and uniforms,
//! program use, texture binding, draw, end; with every precondition of the contract.
//!
//! Context matrices (model, view, projection and the derived normal matrix) are context state:
//! they are written into a program whenever it is bound and whenever they change while it is
//! bound. This module must never bypass the device-lost policy in `gfx3d.rs`.

use heapless::Vec as HVec;

use crate::context::Sampled;
use crate::device::{BufferKind, DevDraw, DevElement, DevId, DevSampledTarget, DeviceError};
use crate::error::{Error, ObjectKind, Result};
use crate::gfx3d::{wrong_context, Gfx3d};
use crate::handle::*;
use crate::limits::{INSTANCES_MAX, TEXTURE_UNITS, VIEWPORT_MAX};
use crate::math::{Mat4, Vec3};
use crate::mesh::MeshResidency;
use crate::program::{
    ShaderProgram, SoftDraw, SoftTarget, SoftTexture, Stage, UniformError, Viewport,
};
use crate::state::{
    check_blend, check_depth, check_offset, check_scissor, Blend, ColorMask, CullFace, DepthDesc,
    FrontFace, Pipeline, Primitive, Scissor,
};
use crate::stats::{Backend, BackendMode};
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::{Filter, MipFilter, SamplerState, TextureFormat};

/// Packs a clear colour: each channel clamped to [0, 1] and rounded.
pub fn pack_color(rgba: [f32; 4]) -> u32 {
    let ch = |v: f32| -> u32 {
        let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        (v * 255.0 + 0.5) as u32 & 0xFF
    };
    (ch(rgba[3]) << 24) | (ch(rgba[0]) << 16) | (ch(rgba[1]) << 8) | ch(rgba[2])
}

/// `NoProgram` is the draw's message; a uniform call names itself instead.
fn uniform_call(e: Error, call: &'static str) -> Error {
    match e {
        Error::NoProgram => Error::NoBoundProgram { call },
        e => e,
    }
}

impl<P: ShaderProgram> Gfx3d<P> {
    /// Opens a frame of `ctx` on `target` (which must belong to `ctx`); the viewport becomes the
    /// whole target. Under forced VirGL with the device lost this fails with
    /// `forced virgl unavailable`.
    pub fn begin(&mut self, owner: u32, ctx: ContextId, target: TargetId) -> Result<()> {
        let c = self.contexts.get(owner, ctx)?;
        let t = self.targets.get(owner, target)?;
        if t.ctx != ctx {
            return Err(wrong_context(ObjectKind::Target));
        }
        if self.mode == BackendMode::Virgl && (self.lost || self.backend != Backend::Virgl) {
            return Err(Error::ForcedVirglUnavailable);
        }
        if c.in_frame {
            return Err(Error::FrameOpen);
        }
        let (w, h) = (t.width, t.height);
        // Drawing into the target makes its generated mip levels stale.
        let had_levels = !t.levels.is_empty() || t.dev_levels;
        {
            let tg = self.targets.get_mut(owner, target)?;
            tg.levels.clear();
            tg.chainf = alloc::vec::Vec::new();
            tg.dev_levels = false;
            // Drawn top row first (a plane a draw sampled was stored bottom row first).
            tg.orient(TargetPlane::Color, false);
            tg.orient(TargetPlane::Depth, false);
        }
        if self.virgl_active() {
            self.ensure_target_dev(owner, target)?;
            if let Some(d) = self.contexts.get(owner, ctx)?.dev {
                let dt = self.targets.get(owner, target)?.dev;
                let r = match self.device.as_deref_mut() {
                    Some(dev) => match (had_levels, dt) {
                        (true, Some(dt)) => dev
                            .target_set_levels(d, dt, w, h, &[])
                            .and_then(|_| dev.frame_begin(d)),
                        _ => dev.frame_begin(d),
                    },
                    None => Err(DeviceError("no device")),
                };
                if let Err(e) = r {
                    self.device_failed(e)?;
                }
            }
        }
        let c = self.contexts.get_mut(owner, ctx)?;
        c.in_frame = true;
        c.target = Some(target);
        c.last_target = Some(target);
        c.viewport = Viewport {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        // A projection made by `camera`/`perspective` follows the aspect of the target it now
        // draws to (before the first frame it was made with aspect 1).
        let aspect = w as f32 / h as f32;
        let stale = c.derived_aspect.is_some_and(|a| a != aspect);
        if stale {
            c.projection = Mat4::perspective(c.fov, aspect, c.near, c.far);
            c.derived_aspect = Some(aspect);
            self.apply_matrices(owner, ctx)?;
        }
        self.log_mock("begin");
        Ok(())
    }

    fn frame_target(&self, owner: u32, ctx: ContextId) -> Result<TargetId> {
        let c = self.contexts.get(owner, ctx)?;
        if !c.in_frame {
            return Err(Error::NoFrame);
        }
        c.target.ok_or(Error::StaleHandle {
            kind: ObjectKind::Target,
        })
    }

    /// Clears the whole target's colour (channels clamped to [0, 1]; an RGBA32F target keeps
    /// them unclamped, NaN as 0) and, when `depth` is set,
    /// its depth to the context's depth clear value (1.0 unless `set_depth` changed it). Depth
    /// testing itself is controlled only by `depth_test` / `set_depth`. The scissor and the
    /// masks do not apply to clears.
    pub fn clear(&mut self, owner: u32, ctx: ContextId, rgba: [f32; 4], depth: bool) -> Result<()> {
        let target = self.frame_target(owner, ctx)?;
        let clamped = rgba.map(|v| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) });
        let depth_value = self.contexts.get(owner, ctx)?.depth.clear;
        if self.backend != Backend::Mock {
            let packed = pack_color(clamped);
            let t = self.targets.get_mut(owner, target)?;
            t.color.fill(packed);
            t.colorf
                .fill(rgba.map(|v| if v.is_nan() { 0.0 } else { v }));
            if depth {
                t.depth.fill(depth_value);
            }
        }
        if self.virgl_active() {
            let dctx = self.contexts.get(owner, ctx)?.dev;
            let (dt, format) = {
                let t = self.targets.get(owner, target)?;
                (t.dev, t.format)
            };
            // A float target is cleared to the unclamped colour, as its CPU floats are.
            let rgba = match format {
                TargetFormat::Rgba8 => clamped,
                TargetFormat::Rgba32F => rgba.map(|v| if v.is_nan() { 0.0 } else { v }),
            };
            let r = match (self.device.as_deref_mut(), dctx, dt) {
                (Some(dev), Some(c), Some(t)) if depth && depth_value != 1.0 => {
                    dev.clear_to(c, t, rgba, Some(depth_value))
                }
                (Some(dev), Some(c), Some(t)) => dev.clear(c, t, rgba, depth),
                _ => Err(DeviceError("no device target")),
            };
            if let Err(e) = r {
                self.device_failed(e)?;
            }
        }
        self.log_mock("clear");
        Ok(())
    }

    /// Sets the viewport of the open frame (GL convention: x, y is the lower-left corner).
    pub fn viewport(
        &mut self,
        owner: u32,
        ctx: ContextId,
        x: i32,
        y: i32,
        width: u32,
        height: u32,
    ) -> Result<()> {
        self.frame_target(owner, ctx)?;
        let far = |v: i32| v.unsigned_abs() > VIEWPORT_MAX;
        if width == 0
            || height == 0
            || width > VIEWPORT_MAX
            || height > VIEWPORT_MAX
            || far(x)
            || far(y)
        {
            return Err(Error::BadViewport {
                x,
                y,
                width,
                height,
            });
        }
        self.contexts.get_mut(owner, ctx)?.viewport = Viewport {
            x,
            y,
            width,
            height,
        };
        Ok(())
    }

    /// Enables or disables the depth test (with the context's function, LESS by default) and
    /// with it depth writes (when the write mask is on).
    pub fn depth_test(&mut self, owner: u32, ctx: ContextId, on: bool) -> Result<()> {
        self.contexts.get_mut(owner, ctx)?.depth.test = on;
        Ok(())
    }

    /// Enables or disables back-face culling (`set_raster(.., CullFace::Back)` /
    /// `CullFace::None`, keeping the front face).
    pub fn cull_back(&mut self, owner: u32, ctx: ContextId, on: bool) -> Result<()> {
        self.contexts.get_mut(owner, ctx)?.pipe.cull =
            if on { CullFace::Back } else { CullFace::None };
        Ok(())
    }

    /// Sets blending (`None`: opaque writes, the default). The constant colour must be finite.
    pub fn set_blend(&mut self, owner: u32, ctx: ContextId, blend: Option<Blend>) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        check_blend(&blend)?;
        c.pipe.blend = blend;
        let line = match blend {
            None => alloc::string::String::from("blend off"),
            Some(b) => alloc::format!(
                "blend {:x},{:x},{:x} {:x},{:x},{:x} {:?}",
                b.color.src.gl(),
                b.color.dst.gl(),
                b.color.op.gl(),
                b.alpha.src.gl(),
                b.alpha.dst.gl(),
                b.alpha.op.gl(),
                b.constant
            ),
        };
        self.log_mock(&line);
        Ok(())
    }

    /// Sets the depth test, compare function, write mask and clear value (in [0, 1]).
    pub fn set_depth(&mut self, owner: u32, ctx: ContextId, depth: DepthDesc) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        check_depth(&depth)?;
        c.depth = depth;
        let line = alloc::format!(
            "depth {} {:x} write={} clear={}",
            if depth.test { "on" } else { "off" },
            depth.func.gl(),
            depth.write as u8,
            depth.clear
        );
        self.log_mock(&line);
        Ok(())
    }

    /// Sets which colour channels draws write (all by default).
    pub fn set_color_mask(&mut self, owner: u32, ctx: ContextId, mask: ColorMask) -> Result<()> {
        self.contexts.get_mut(owner, ctx)?.pipe.color_mask = mask;
        let b = |on: bool, ch: char| if on { ch } else { '-' };
        let line = alloc::format!(
            "mask {}{}{}{}",
            b(mask.r, 'r'),
            b(mask.g, 'g'),
            b(mask.b, 'b'),
            b(mask.a, 'a')
        );
        self.log_mock(&line);
        Ok(())
    }

    /// Sets the scissor rectangle (GL convention, lower-left corner; `None`: off, the default).
    /// Width and height 0..=8192 (0 draws nothing), |x|, |y| at most 8192.
    pub fn set_scissor(&mut self, owner: u32, ctx: ContextId, s: Option<Scissor>) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        check_scissor(&s)?;
        c.pipe.scissor = s;
        let line = match s {
            None => alloc::string::String::from("scissor off"),
            Some(s) => alloc::format!("scissor {},{} {}x{}", s.x, s.y, s.width, s.height),
        };
        self.log_mock(&line);
        Ok(())
    }

    /// Sets GL's polygon offset (factor, units) of filled triangles; (0, 0), the default, is off.
    pub fn set_polygon_offset(
        &mut self,
        owner: u32,
        ctx: ContextId,
        factor: f32,
        units: f32,
    ) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        check_offset(factor, units)?;
        c.pipe.offset_factor = factor;
        c.pipe.offset_units = units;
        let line = alloc::format!("offset {} {}", factor, units);
        self.log_mock(&line);
        Ok(())
    }

    /// Sets the front-face winding and the culled faces (default CCW, no culling).
    pub fn set_raster(
        &mut self,
        owner: u32,
        ctx: ContextId,
        front: FrontFace,
        cull: CullFace,
    ) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        c.pipe.front_face = front;
        c.pipe.cull = cull;
        let line = alloc::format!("raster {:?} {:?}", front, cull);
        self.log_mock(&line);
        Ok(())
    }

    /// The context's depth state.
    pub fn depth(&self, owner: u32, ctx: ContextId) -> Result<DepthDesc> {
        Ok(self.contexts.get(owner, ctx)?.depth)
    }

    /// The context's output state as a draw uses it (the depth function included).
    pub fn pipeline(&self, owner: u32, ctx: ContextId) -> Result<Pipeline> {
        let c = self.contexts.get(owner, ctx)?;
        Ok(Pipeline {
            depth_func: c.depth.func,
            ..c.pipe
        })
    }

    /// Sets view and projection from a first-person camera (see `Mat4::camera`) and the
    /// context's field of view and planes; the aspect comes from the current (or last) target.
    pub fn camera(
        &mut self,
        owner: u32,
        ctx: ContextId,
        pos: Vec3,
        yaw_deg: f32,
        pitch_deg: f32,
    ) -> Result<()> {
        let aspect = self.aspect(owner, ctx)?;
        let c = self.contexts.get_mut(owner, ctx)?;
        c.view = Mat4::camera(pos, yaw_deg, pitch_deg);
        c.projection = Mat4::perspective(c.fov, aspect, c.near, c.far);
        c.derived_aspect = Some(aspect);
        self.apply_matrices(owner, ctx)
    }

    /// Sets the field of view and the planes, and recomputes the projection.
    pub fn perspective(
        &mut self,
        owner: u32,
        ctx: ContextId,
        fov_deg: f32,
        near: f32,
        far: f32,
    ) -> Result<()> {
        let aspect = self.aspect(owner, ctx)?;
        let c = self.contexts.get_mut(owner, ctx)?;
        c.fov = fov_deg;
        c.near = near;
        c.far = far;
        c.projection = Mat4::perspective(fov_deg, aspect, near, far);
        c.derived_aspect = Some(aspect);
        self.apply_matrices(owner, ctx)
    }

    fn aspect(&self, owner: u32, ctx: ContextId) -> Result<f32> {
        let c = self.contexts.get(owner, ctx)?;
        let t = c
            .target
            .or(c.last_target)
            .and_then(|t| self.targets.get(owner, t).ok());
        Ok(t.map_or(1.0, |t| t.width as f32 / t.height as f32))
    }

    pub fn set_model(&mut self, owner: u32, ctx: ContextId, m: &Mat4) -> Result<()> {
        self.contexts.get_mut(owner, ctx)?.model = *m;
        self.apply_matrices(owner, ctx)
    }

    pub fn set_view(&mut self, owner: u32, ctx: ContextId, m: &Mat4) -> Result<()> {
        self.contexts.get_mut(owner, ctx)?.view = *m;
        self.apply_matrices(owner, ctx)
    }

    pub fn set_projection(&mut self, owner: u32, ctx: ContextId, m: &Mat4) -> Result<()> {
        let c = self.contexts.get_mut(owner, ctx)?;
        c.projection = *m;
        c.derived_aspect = None;
        self.apply_matrices(owner, ctx)
    }

    /// The context's (model, view, projection).
    pub fn matrices(&self, owner: u32, ctx: ContextId) -> Result<(Mat4, Mat4, Mat4)> {
        let c = self.contexts.get(owner, ctx)?;
        Ok((c.model, c.view, c.projection))
    }

    /// Writes model, view, projection and normalMatrix into the bound program (those it declares).
    fn apply_matrices(&mut self, owner: u32, ctx: ContextId) -> Result<()> {
        let c = self.contexts.get(owner, ctx)?;
        let Some(pid) = c.program else {
            return Ok(());
        };
        let (model, view, proj) = (c.model, c.view, c.projection);
        let normal = model.normal_matrix();
        let Ok(p) = self.programs.get_mut(owner, pid) else {
            return Ok(());
        };
        // A program that declares one of these names with another type keeps its own value.
        for (name, vals) in [
            ("model", &model.0[..]),
            ("view", &view.0[..]),
            ("projection", &proj.0[..]),
        ] {
            if p.program.has_uniform(name) {
                let _ = p.program.set_uniform(name, vals);
            }
        }
        if p.program.has_uniform("normalMatrix") {
            let _ = p.program.set_uniform("normalMatrix", &normal.0);
        }
        p.applied = p.program.generation();
        Ok(())
    }

    /// Binds a program instance of this context; the context's matrices are applied to it.
    pub fn use_program(&mut self, owner: u32, ctx: ContextId, prog: ProgramId) -> Result<()> {
        self.contexts.get(owner, ctx)?;
        if self.programs.get(owner, prog)?.ctx != ctx {
            return Err(wrong_context(ObjectKind::Program));
        }
        self.contexts.get_mut(owner, ctx)?.program = Some(prog);
        self.apply_matrices(owner, ctx)?;
        if self.virgl_active() {
            self.ensure_program_dev(owner, prog)?;
        }
        self.log_mock("use");
        Ok(())
    }

    fn bound_program(&mut self, owner: u32, ctx: ContextId) -> Result<ProgramId> {
        self.contexts
            .get(owner, ctx)?
            .program
            .ok_or(Error::NoProgram)
    }

    fn map_uniform(e: UniformError) -> Error {
        match e {
            UniformError::NoSuchUniform => Error::NoSuchUniform,
            UniformError::Size { found } => Error::UniformSize { found },
        }
    }

    /// Sets a mat4 uniform of the bound program. `model`, `view` and `projection` are context
    /// state: setting them here updates the context too (so the next bind keeps them).
    pub fn uniform_mat4(&mut self, owner: u32, ctx: ContextId, name: &str, m: &Mat4) -> Result<()> {
        let pid = self
            .bound_program(owner, ctx)
            .map_err(|e| uniform_call(e, "uniform_mat4"))?;
        match name {
            "model" => self.contexts.get_mut(owner, ctx)?.model = *m,
            "view" => self.contexts.get_mut(owner, ctx)?.view = *m,
            "projection" => {
                let c = self.contexts.get_mut(owner, ctx)?;
                c.projection = *m;
                c.derived_aspect = None;
            }
            _ => {}
        }
        let p = self.programs.get_mut(owner, pid)?;
        p.program
            .set_uniform(name, &m.0)
            .map_err(Self::map_uniform)?;
        if name == "model" {
            self.apply_matrices(owner, ctx)?;
        }
        Ok(())
    }

    /// Sets a float/vector (or packed matrix) uniform of the bound program.
    pub fn uniform_f(
        &mut self,
        owner: u32,
        ctx: ContextId,
        name: &str,
        values: &[f32],
    ) -> Result<()> {
        let pid = self
            .bound_program(owner, ctx)
            .map_err(|e| uniform_call(e, "uniform_f"))?;
        let p = self.programs.get_mut(owner, pid)?;
        p.program
            .set_uniform(name, values)
            .map_err(Self::map_uniform)
    }

    /// Binds `tex` (or nothing) to texture unit `unit` (0..TEXTURE_UNITS, 0..=15) of the context.
    pub fn bind_texture(
        &mut self,
        owner: u32,
        ctx: ContextId,
        unit: u32,
        tex: Option<TextureId>,
    ) -> Result<()> {
        self.contexts.get(owner, ctx)?;
        if unit as usize >= TEXTURE_UNITS {
            return Err(Error::TextureUnit { unit });
        }
        if let Some(t) = tex {
            self.textures.get(owner, t)?;
        }
        let c = self.contexts.get_mut(owner, ctx)?;
        if let Some(slot) = c.textures.get_mut(unit as usize) {
            *slot = tex.map(Sampled::Texture);
        }
        self.log_mock("tex");
        Ok(())
    }

    /// Binds the colour or the depth of render target `target` (of this context) to texture
    /// unit `unit` (0..=15), sampled with `sampler` (render to texture; a depth plane reads
    /// (d, d, d, 1)). The target's frame must have ended: binding the target of the open frame
    /// is `SampleTargetInFrame`, and so is a draw into a target that one of its units samples.
    /// No copy is made: the software backend samples the target's own pixels, VirGL its
    /// resources through sampler views. `bind_texture(unit, None)` unbinds it.
    pub fn bind_target_texture(
        &mut self,
        owner: u32,
        ctx: ContextId,
        unit: u32,
        target: TargetId,
        plane: TargetPlane,
        sampler: SamplerState,
    ) -> Result<()> {
        let c = self.contexts.get(owner, ctx)?;
        if unit as usize >= TEXTURE_UNITS {
            return Err(Error::TextureUnit { unit });
        }
        if self.targets.get(owner, target)?.ctx != ctx {
            return Err(wrong_context(ObjectKind::Target));
        }
        if c.in_frame && c.target == Some(target) {
            return Err(Error::SampleTargetInFrame);
        }
        let c = self.contexts.get_mut(owner, ctx)?;
        if let Some(slot) = c.textures.get_mut(unit as usize) {
            *slot = Some(Sampled::Target {
                id: target,
                plane,
                sampler,
            });
        }
        let mut line = alloc::format!(
            "tex-target {} {}",
            unit,
            match plane {
                TargetPlane::Color => "color",
                TargetPlane::Depth => "depth",
            }
        );
        // A shadow sampler's compare function (GL's number), so a log shows the compare.
        if let Some(f) = sampler.compare {
            line.push_str(&alloc::format!(" compare {:x}", f.gl()));
        }
        self.log_mock(&line);
        Ok(())
    }

    /// Draws the mesh's triangles with the bound program and textures into the frame's target.
    pub fn draw(&mut self, owner: u32, ctx: ContextId, mesh: MeshId) -> Result<()> {
        self.draw_mesh(owner, ctx, mesh, 1, false)
    }

    /// Draws `instances` (1..=`INSTANCES_MAX`) copies of the mesh's triangles, instance by
    /// instance. Layout elements made per instance (`VertexLayout::instanced`) read vertex
    /// row `instance / divisor` of the mesh's buffer for every vertex of that instance; each
    /// needs that many rows (`InstanceRows` otherwise). Counted as one draw of
    /// triangles x instances.
    pub fn draw_instanced(
        &mut self,
        owner: u32,
        ctx: ContextId,
        mesh: MeshId,
        instances: u32,
    ) -> Result<()> {
        self.draw_mesh(owner, ctx, mesh, instances, true)
    }

    /// `draw_instanced` with a primitive kind: triangles draw, lines and points are
    /// `PrimitiveUnsupported` (neither backend rasterizes them).
    pub fn draw_primitives(
        &mut self,
        owner: u32,
        ctx: ContextId,
        mesh: MeshId,
        primitive: Primitive,
        instances: u32,
    ) -> Result<()> {
        match primitive {
            Primitive::Triangles => self.draw_instanced(owner, ctx, mesh, instances),
            Primitive::Lines => Err(Error::PrimitiveUnsupported { what: "lines" }),
            Primitive::Points => Err(Error::PrimitiveUnsupported { what: "points" }),
        }
    }

    fn draw_mesh(
        &mut self,
        owner: u32,
        ctx: ContextId,
        mesh: MeshId,
        instances: u32,
        instanced: bool,
    ) -> Result<()> {
        let target = self.frame_target(owner, ctx)?;
        self.targets.get(owner, target)?;
        if instances == 0 || instances > INSTANCES_MAX {
            return Err(Error::InstanceCount { instances });
        }
        // Render to texture: never sample the target being drawn into.
        let sampled = self.contexts.get(owner, ctx)?.textures;
        if sampled
            .iter()
            .any(|u| matches!(u, Some(Sampled::Target { id, .. }) if *id == target))
        {
            return Err(Error::SampleTargetInFrame);
        }
        let pid = self.bound_program(owner, ctx)?;
        self.check_sampler_formats(owner, pid, &sampled)?;
        // A relink since the last bind reset the program's uniforms: restore the context state.
        let relinked = {
            let p = self.programs.get(owner, pid)?;
            p.applied != p.program.generation()
        };
        if relinked {
            self.apply_matrices(owner, ctx)?;
        }
        let triangles = {
            let p = self.programs.get(owner, pid)?;
            let m = self.meshes.get(owner, mesh)?;
            let data = m.data.as_ref().ok_or(Error::MeshNotUploaded)?;
            let attributes = p.program.attributes();
            data.layout.supplies(&attributes)?;
            data.layout.supplies_kinds(
                attributes
                    .iter()
                    .map(|a| (a.location, p.program.attribute_kind(a.location))),
            )?;
            let n = data.triangles();
            if n == 0 {
                return Err(Error::NoTriangles);
            }
            for e in data.layout.elements.iter() {
                let div = data.layout.divisor(e.location);
                if div != 0 {
                    let needed = (instances as u64).div_ceil(div as u64);
                    if needed > data.vertex_count as u64 {
                        return Err(Error::InstanceRows {
                            location: e.location,
                            needed,
                            rows: data.vertex_count,
                        });
                    }
                }
            }
            n
        };
        // The mock log names integer elements: ` ints=LOC:KIND,...` (nothing for float ones).
        let mut ints = alloc::string::String::new();
        if self.backend == Backend::Mock {
            let m = self.meshes.get(owner, mesh)?;
            if let Some(data) = m.data.as_ref().filter(|d| d.layout.has_int()) {
                let mut els: HVec<_, 8> = data.layout.elements.clone();
                els.sort_unstable_by_key(|e| e.location);
                for e in els.iter() {
                    let k = data.layout.kind(e.location);
                    if k != crate::layout::ElementKind::F32 {
                        let sep = if ints.is_empty() { " ints=" } else { "," };
                        ints.push_str(&alloc::format!("{}{}:{}", sep, e.location, k.name()));
                    }
                }
            }
        }
        match self.backend {
            Backend::Mock if instanced => {
                let line = alloc::format!("draw instances={}{}", instances, ints);
                self.log_mock(&line)
            }
            Backend::Mock if !ints.is_empty() => {
                let line = alloc::format!("draw{}", ints);
                self.log_mock(&line)
            }
            Backend::Mock => self.log_mock("draw"),
            Backend::Virgl if self.virgl_active() => {
                if !self.draw_device(owner, ctx, target, pid, mesh, instances)? {
                    // Degraded during the draw: render this one on the CPU.
                    self.draw_software(owner, ctx, target, pid, mesh, instances)?;
                }
            }
            _ => self.draw_software(owner, ctx, target, pid, mesh, instances)?,
        }
        self.counters.draws += 1;
        self.counters.triangles += triangles as u64 * instances as u64;
        Ok(())
    }

    /// Every sampled unit's texture format matches its sampler type (isampler2D and
    /// isampler2DArray: RGBA32I, usampler2D and usampler2DArray: RGBA32UI, float samplers:
    /// RGBA8 or a target), an array sampler has an array texture and another sampler none,
    /// and an integer texture's sampler state is NEAREST without mip filter.
    fn check_sampler_formats(
        &self,
        owner: u32,
        pid: ProgramId,
        sampled: &[Option<Sampled>; TEXTURE_UNITS],
    ) -> Result<()> {
        let p = &self.programs.get(owner, pid)?.program;
        let (units, ints, uints, arrays) = (
            p.sampler_units(),
            p.integer_sampler_units(),
            p.unsigned_sampler_units(),
            p.array_sampler_units(),
        );
        for (u, bound) in sampled.iter().enumerate() {
            let bit = 1u16 << (u & 15);
            if (units | ints | arrays) & bit == 0 {
                continue;
            }
            // Array samplers and array textures go together (nothing bound reads black).
            let array_tex = match bound {
                Some(Sampled::Texture(h)) => self.textures.get(owner, *h).ok().map(|t| t.array),
                Some(Sampled::Target { .. }) => Some(false),
                None => None,
            };
            if let Some(is_array) = array_tex {
                if is_array != (arrays & bit != 0) {
                    return Err(Error::ArraySamplerMismatch {
                        unit: u as u32,
                        array_sampler: arrays & bit != 0,
                    });
                }
            }
            if let Some(Sampled::Texture(h)) = bound {
                if let Ok(t) = self.textures.get(owner, *h) {
                    let expected = t.levels.len();
                    for (i, l) in t.layers.iter().enumerate() {
                        if l.1.len() != expected {
                            return Err(Error::ArrayLevelMismatch {
                                layer: i as u32 + 1,
                                levels: l.1.len() as u32 + 1,
                                expected: expected as u32 + 1,
                            });
                        }
                    }
                }
            }
            let sampler = match (uints & bit != 0, ints & bit != 0, arrays & bit != 0) {
                (true, _, false) => "usampler2D",
                (true, _, true) => "usampler2DArray",
                (false, true, false) => "isampler2D",
                (false, true, true) => "isampler2DArray",
                _ => "float sampler",
            };
            let tex = match bound {
                Some(Sampled::Texture(h)) => self.textures.get(owner, *h).ok(),
                _ => None,
            };
            let Some(t) = tex else {
                if ints & bit != 0 {
                    return Err(Error::IntegerSamplerUnsupported { unit: u as u32 });
                }
                continue;
            };
            let want = if uints & bit != 0 {
                TextureFormat::Rgba32UI
            } else if ints & bit != 0 {
                TextureFormat::Rgba32I
            } else {
                TextureFormat::Rgba8
            };
            if t.format != want {
                return Err(Error::TextureFormatMismatch {
                    unit: u as u32,
                    sampler,
                    format: t.format.name(),
                });
            }
            if t.format.is_integer() {
                let s = &t.sampler;
                if s.filter != Filter::Nearest
                    || s.min() != Filter::Nearest
                    || s.mip != MipFilter::None
                {
                    return Err(Error::IntegerTextureFilter { unit: u as u32 });
                }
            }
        }
        Ok(())
    }

    fn draw_software(
        &mut self,
        owner: u32,
        ctx: ContextId,
        target: TargetId,
        pid: ProgramId,
        mesh: MeshId,
        instances: u32,
    ) -> Result<()> {
        // The frame target's buffers are moved out for the draw, so sampled targets (never the
        // frame's own: see `draw_mesh`) can be borrowed from the table meanwhile.
        let (width, height, mut color, mut colorf, mut depth) = {
            let t = self.targets.get_mut(owner, target)?;
            (
                t.width,
                t.height,
                core::mem::take(&mut t.color),
                core::mem::take(&mut t.colorf),
                core::mem::take(&mut t.depth),
            )
        };
        let r = self.draw_software_into(
            owner,
            ctx,
            pid,
            mesh,
            instances,
            (width, height),
            &mut color,
            &mut colorf,
            &mut depth,
        );
        if let Ok(t) = self.targets.get_mut(owner, target) {
            t.color = color;
            t.colorf = colorf;
            t.depth = depth;
        }
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn draw_software_into(
        &mut self,
        owner: u32,
        ctx: ContextId,
        pid: ProgramId,
        mesh: MeshId,
        instances: u32,
        (width, height): (u32, u32),
        color: &mut [u32],
        colorf: &mut [[f32; 4]],
        depth: &mut [f32],
    ) -> Result<()> {
        // Sampled targets are read in GL's row order: the row drawn at window y = 0 at t = 0.
        let sampled: [Option<(TargetId, TargetPlane)>; TEXTURE_UNITS] =
            core::array::from_fn(|u| match self.contexts.get(owner, ctx) {
                Ok(c) => match c.textures.get(u) {
                    Some(Some(Sampled::Target { id, plane, .. })) => Some((*id, *plane)),
                    _ => None,
                },
                Err(_) => None,
            });
        for (id, plane) in sampled.iter().flatten() {
            if let Ok(t) = self.targets.get_mut(owner, *id) {
                t.orient(*plane, true);
            }
        }
        let c = self.contexts.get(owner, ctx)?;
        let p = self.programs.get_mut(owner, pid)?;
        let m = self.meshes.get(owner, mesh)?;
        let data = m.data.as_ref().ok_or(Error::MeshNotUploaded)?;
        let mut textures: [Option<SoftTexture<'_>>; TEXTURE_UNITS] = [None; TEXTURE_UNITS];
        let level_refs: [alloc::vec::Vec<&[u32]>; TEXTURE_UNITS] =
            core::array::from_fn(|u| match c.textures.get(u) {
                Some(Some(Sampled::Texture(h))) => self
                    .textures
                    .get(owner, *h)
                    .map(|t| t.levels.iter().map(|l| l.as_slice()).collect())
                    .unwrap_or_default(),
                // A target's colour with its generated levels (`target_generate_mipmaps`).
                Some(Some(Sampled::Target {
                    id,
                    plane: TargetPlane::Color,
                    ..
                })) => self
                    .targets
                    .get(owner, *id)
                    .map(|t| t.levels.iter().map(|l| l.as_slice()).collect())
                    .unwrap_or_default(),
                _ => alloc::vec::Vec::new(),
            });
        // A cube's faces 1..=5: their level lists, then (texels, levels) per face.
        let face_levels: [alloc::vec::Vec<alloc::vec::Vec<&[u32]>>; TEXTURE_UNITS] =
            core::array::from_fn(|u| match c.textures.get(u) {
                Some(Some(Sampled::Texture(h))) => self
                    .textures
                    .get(owner, *h)
                    .map(|t| {
                        t.faces
                            .iter()
                            .map(|f| f.1.iter().map(|l| l.as_slice()).collect())
                            .collect()
                    })
                    .unwrap_or_default(),
                _ => alloc::vec::Vec::new(),
            });
        let face_refs: PerUnitLayers<'_> = core::array::from_fn(|u| match c.textures.get(u) {
            Some(Some(Sampled::Texture(h))) => {
                match (self.textures.get(owner, *h), face_levels.get(u)) {
                    (Ok(t), Some(fl)) => t
                        .faces
                        .iter()
                        .zip(fl.iter())
                        .map(|(f, l)| (f.0.as_slice(), l.as_slice()))
                        .collect(),
                    _ => alloc::vec::Vec::new(),
                }
            }
            _ => alloc::vec::Vec::new(),
        });
        // An array's layers 1..: their level lists; then (texels, levels) per layer, layer 0
        // (`texels`, `level_refs`) first.
        let layer_levels: [alloc::vec::Vec<alloc::vec::Vec<&[u32]>>; TEXTURE_UNITS] =
            core::array::from_fn(|u| match c.textures.get(u) {
                Some(Some(Sampled::Texture(h))) => self
                    .textures
                    .get(owner, *h)
                    .map(|t| {
                        t.layers
                            .iter()
                            .map(|l| l.1.iter().map(|v| v.as_slice()).collect())
                            .collect()
                    })
                    .unwrap_or_default(),
                _ => alloc::vec::Vec::new(),
            });
        let layer_refs: PerUnitLayers<'_> = core::array::from_fn(|u| match c.textures.get(u) {
            Some(Some(Sampled::Texture(h))) => {
                match (
                    self.textures.get(owner, *h),
                    layer_levels.get(u),
                    level_refs.get(u),
                ) {
                    // (An integer array's layers are `int_layer_refs`.)
                    (Ok(t), Some(ll), Some(l0)) if t.array && !t.format.is_integer() => {
                        core::iter::once((t.texels.as_slice(), l0.as_slice()))
                            .chain(
                                t.layers
                                    .iter()
                                    .zip(ll.iter())
                                    .map(|(l, v)| (l.0.as_slice(), v.as_slice())),
                            )
                            .collect()
                    }
                    _ => alloc::vec::Vec::new(),
                }
            }
            _ => alloc::vec::Vec::new(),
        });
        // An integer array's layers' words, layer 0 (`ints`) first.
        let int_layer_refs: [alloc::vec::Vec<&[[u32; 4]]>; TEXTURE_UNITS] =
            core::array::from_fn(|u| match c.textures.get(u) {
                Some(Some(Sampled::Texture(h))) => match self.textures.get(owner, *h) {
                    Ok(t) if t.array && t.format.is_integer() => {
                        core::iter::once(t.ints.as_slice())
                            .chain(t.int_layers.iter().map(|l| l.as_slice()))
                            .collect()
                    }
                    _ => alloc::vec::Vec::new(),
                },
                _ => alloc::vec::Vec::new(),
            });
        for (((((slot, bound), mips), faces), layers), int_layers) in textures
            .iter_mut()
            .zip(c.textures.iter())
            .zip(level_refs.iter())
            .zip(face_refs.iter())
            .zip(layer_refs.iter())
            .zip(int_layer_refs.iter())
        {
            match bound {
                Some(Sampled::Texture(h)) => {
                    if let Ok(t) = self.textures.get(owner, *h) {
                        *slot = Some(SoftTexture {
                            mips,
                            faces,
                            layers,
                            int_layers,
                            width: t.width,
                            height: t.height,
                            texels: &t.texels,
                            sampler: t.sampler,
                            depth: None,
                            rgba: None,
                            ints: t.format.is_integer().then_some(&t.ints[..]),
                        });
                    }
                }
                Some(Sampled::Target { id, plane, sampler }) => {
                    if let Ok(t) = self.targets.get(owner, *id) {
                        *slot = Some(SoftTexture {
                            mips: if *plane == TargetPlane::Color {
                                mips
                            } else {
                                &[]
                            },
                            faces: &[],
                            layers: &[],
                            int_layers: &[],
                            width: t.width,
                            height: t.height,
                            texels: &t.color,
                            sampler: *sampler,
                            depth: (*plane == TargetPlane::Depth).then_some(&t.depth[..]),
                            // With generated levels: the colour and its chain.
                            rgba: (*plane == TargetPlane::Color
                                && t.format == TargetFormat::Rgba32F)
                                .then_some(if t.chainf.is_empty() {
                                    &t.colorf[..]
                                } else {
                                    &t.chainf[..]
                                }),
                            ints: None,
                        });
                    }
                }
                None => {}
            }
        }
        let job = SoftDraw {
            workers: self.workers,
            layout: &data.layout,
            vertices: &data.vertices,
            indices: data.indices.as_deref(),
            textures,
            instances,
            viewport: c.viewport,
            depth_test: c.depth.test,
            depth_write: c.depth.write,
            cull_back: c.pipe.cull == CullFace::Back,
            pipeline: Pipeline {
                depth_func: c.depth.func,
                ..c.pipe
            },
        };
        let mut st = SoftTarget {
            width,
            height,
            color,
            depth,
            colorf,
        };
        p.program
            .draw_software(&job, &mut st)
            .map_err(|reason| Error::Raster { reason })?;
        Ok(())
    }

    /// Makes the mesh resident on `dctx` (uploading on first use there).
    fn mesh_resident(
        &mut self,
        owner: u32,
        mesh: MeshId,
        dctx: DevId,
    ) -> Result<Option<MeshResidency>> {
        let m = self.meshes.get(owner, mesh)?;
        if let Some(r) = m.resident.iter().find(|r| r.dev_ctx == dctx) {
            return Ok(Some(*r));
        }
        let data = m.data.as_ref().ok_or(Error::MeshNotUploaded)?;
        let Some(dev) = self.device.as_deref_mut() else {
            return Ok(None);
        };
        let mut vbytes = alloc::vec::Vec::new();
        vbytes
            .try_reserve_exact(data.vertices.len() * 4)
            .map_err(|_| Error::OutOfMemory {
                bytes: data.vertices.len() * 4,
            })?;
        for f in &data.vertices {
            vbytes.extend_from_slice(&f.to_le_bytes());
        }
        let mut up = vbytes.len() as u64;
        let r = dev
            .buffer_create(dctx, BufferKind::Vertex, &vbytes)
            .and_then(|vbo| match &data.indices {
                None => Ok(MeshResidency {
                    dev_ctx: dctx,
                    vbo,
                    ibo: None,
                }),
                Some(ix) => {
                    let mut bytes = alloc::vec::Vec::with_capacity(ix.len() * 2);
                    for i in ix {
                        bytes.extend_from_slice(&i.to_le_bytes());
                    }
                    up += bytes.len() as u64;
                    match dev.buffer_create(dctx, BufferKind::Index, &bytes) {
                        Ok(ib) => Ok(MeshResidency {
                            dev_ctx: dctx,
                            vbo,
                            ibo: Some(ib),
                        }),
                        Err(e) => {
                            dev.buffer_destroy(dctx, vbo);
                            Err(e)
                        }
                    }
                }
            });
        match r {
            Ok(res) => {
                self.counters.uploads += 1 + res.ibo.is_some() as u64;
                self.counters.bytes_up += up;
                self.meshes.get_mut(owner, mesh)?.resident.push(res);
                Ok(Some(res))
            }
            Err(e) => self.device_failed(e).map(|_| None),
        }
    }

    fn texture_resident(
        &mut self,
        owner: u32,
        tex: TextureId,
        dctx: DevId,
    ) -> Result<Option<DevId>> {
        let t = self.textures.get(owner, tex)?;
        if let Some(r) = t.resident.iter().find(|r| r.0 == dctx) {
            return Ok(Some(r.1));
        }
        let Some(dev) = self.device.as_deref_mut() else {
            return Ok(None);
        };
        if t.format.is_integer() {
            if !dev.supports_integer_textures() {
                return Err(Error::TextureFormatOp {
                    what: "integer textures are not supported by this device backend (draw with the software backend)",
                });
            }
            let signed = t.format == TextureFormat::Rgba32I;
            let r = if t.array {
                if !dev.supports_array_textures() {
                    return Err(Error::ArrayUnsupported {
                        what: "by this device backend (draw with the software backend)",
                    });
                }
                let layers: alloc::vec::Vec<&[[u32; 4]]> = core::iter::once(t.ints.as_slice())
                    .chain(t.int_layers.iter().map(|l| l.as_slice()))
                    .collect();
                dev.texture_create_array_ints(dctx, t.width, t.height, &layers, signed, t.sampler)
            } else {
                dev.texture_create_ints(dctx, t.width, t.height, &t.ints, signed, t.sampler)
            };
            let words = t.ints.len() + t.int_layers.iter().map(|l| l.len()).sum::<usize>();
            let bytes = words as u64 * 16;
            return match r {
                Ok(d) => {
                    self.counters.uploads += 1;
                    self.counters.bytes_up += bytes;
                    self.textures.get_mut(owner, tex)?.resident.push((dctx, d));
                    Ok(Some(d))
                }
                Err(e) => self.device_failed(e).map(|_| None),
            };
        }
        if t.array {
            if !dev.supports_array_textures() {
                return Err(Error::ArrayUnsupported {
                    what: "by this device backend (draw with the software backend)",
                });
            }
            let chains: alloc::vec::Vec<alloc::vec::Vec<&[u32]>> =
                core::iter::once(level_chain(&t.texels, &t.levels))
                    .chain(t.layers.iter().map(|l| level_chain(&l.0, &l.1)))
                    .collect();
            let refs: alloc::vec::Vec<&[&[u32]]> = chains.iter().map(|c| c.as_slice()).collect();
            let r = dev.texture_create_array(dctx, t.width, t.height, &refs, t.sampler);
            let texels: u64 = chains.iter().flatten().map(|l| l.len() as u64).sum();
            return match r {
                Ok(d) => {
                    self.counters.uploads += 1;
                    self.counters.bytes_up += texels * 4;
                    self.textures.get_mut(owner, tex)?.resident.push((dctx, d));
                    Ok(Some(d))
                }
                Err(e) => self.device_failed(e).map(|_| None),
            };
        }
        if !t.faces.is_empty() && !dev.supports_cube_textures() {
            return Err(Error::CubeUnsupported {
                what: "by this device backend (draw with the software backend)",
            });
        }
        // Level 0 and the mip levels 1.. (face 0: `texels`/`levels`).
        let chain0 = level_chain(&t.texels, &t.levels);
        let r = match t.faces.as_slice() {
            [] => dev.texture_create_levels(dctx, t.width, t.height, &chain0, t.sampler),
            // A cube: face 0 is `texels`/`levels`, faces 1..6 follow, each with its levels.
            [f1, f2, f3, f4, f5] => {
                let (c1, c2, c3) = (
                    level_chain(&f1.0, &f1.1),
                    level_chain(&f2.0, &f2.1),
                    level_chain(&f3.0, &f3.1),
                );
                let (c4, c5) = (level_chain(&f4.0, &f4.1), level_chain(&f5.0, &f5.1));
                dev.texture_create_cube_levels(
                    dctx,
                    t.width,
                    [&chain0, &c1, &c2, &c3, &c4, &c5],
                    t.sampler,
                )
            }
            _ => {
                return Err(Error::CubeUnsupported {
                    what: "with other than six faces",
                })
            }
        };
        let layers = 1 + t.faces.len() as u64;
        let texels = chain0.iter().map(|l| l.len() as u64).sum::<u64>();
        match r {
            Ok(d) => {
                self.counters.uploads += 1;
                self.counters.bytes_up += texels * 4 * layers;
                self.textures.get_mut(owner, tex)?.resident.push((dctx, d));
                Ok(Some(d))
            }
            Err(e) => self.device_failed(e).map(|_| None),
        }
    }

    /// The device draw. `Ok(false)` when the device was lost under AUTO on the way (the caller
    /// then draws on the CPU).
    fn draw_device(
        &mut self,
        owner: u32,
        ctx: ContextId,
        target: TargetId,
        pid: ProgramId,
        mesh: MeshId,
        instances: u32,
    ) -> Result<bool> {
        let Some(dctx) = self.ensure_ctx_dev(owner, ctx)? else {
            return Ok(false);
        };
        let Some(dt) = self.ensure_target_dev(owner, target)? else {
            return Ok(false);
        };
        let Some(dprog) = self.ensure_program_dev(owner, pid)? else {
            return Ok(false);
        };
        let Some(res) = self.mesh_resident(owner, mesh, dctx)? else {
            return Ok(false);
        };
        let bound = self.contexts.get(owner, ctx)?.textures;
        let mut dev_tex: [Option<DevId>; TEXTURE_UNITS] = [None; TEXTURE_UNITS];
        let mut dev_targets: [Option<DevSampledTarget>; TEXTURE_UNITS] = [None; TEXTURE_UNITS];
        for ((slot, tslot), b) in dev_tex
            .iter_mut()
            .zip(dev_targets.iter_mut())
            .zip(bound.iter())
        {
            match b {
                Some(Sampled::Texture(h)) if self.textures.get(owner, *h).is_ok() => {
                    match self.texture_resident(owner, *h, dctx)? {
                        Some(d) => *slot = Some(d),
                        None => return Ok(false),
                    }
                }
                Some(Sampled::Target { id, plane, sampler })
                    if self.targets.get(owner, *id).is_ok() =>
                {
                    match self.ensure_target_dev(owner, *id)? {
                        Some(d) => {
                            *tslot = Some(DevSampledTarget {
                                target: d,
                                plane: *plane,
                                sampler: *sampler,
                            })
                        }
                        None => return Ok(false),
                    }
                }
                _ => {}
            }
        }
        let c = self.contexts.get(owner, ctx)?;
        let t = self.targets.get(owner, target)?;
        let p = self.programs.get(owner, pid)?;
        let m = self.meshes.get(owner, mesh)?;
        let data = m.data.as_ref().ok_or(Error::MeshNotUploaded)?;
        let mut elements = HVec::new();
        let mut els: HVec<_, 8> = data.layout.elements.clone();
        els.sort_unstable_by_key(|e| e.location);
        for e in els.iter() {
            let _ = elements.push((
                e.location,
                DevElement {
                    offset: e.offset,
                    components: e.components,
                    divisor: data.layout.divisor(e.location),
                    kind: data.layout.kind(e.location),
                },
            ));
        }
        let (count, max_index) = match &data.indices {
            Some(ix) => (ix.len() as u32, data.max_index as u32),
            None => (
                (data.triangles() * 3) as u32,
                (data.triangles() * 3).saturating_sub(1) as u32,
            ),
        };
        let draw = DevDraw {
            target: dt,
            width: t.width,
            height: t.height,
            program: dprog,
            vbo: res.vbo,
            ibo: res.ibo,
            stride: data.layout.stride,
            elements,
            count,
            max_index,
            depth_test: c.depth.test,
            depth_write: c.depth.write,
            cull_back: c.pipe.cull == CullFace::Back,
            pipeline: Pipeline {
                depth_func: c.depth.func,
                ..c.pipe
            },
            viewport: c.viewport,
            textures: dev_tex,
            target_textures: dev_targets,
            instances,
            sampled_units: p.program.sampler_units(),
            vs_constants: p.program.constants(Stage::Vertex),
            fs_constants: p.program.constants(Stage::Fragment),
        };
        let r = match self.device.as_deref_mut() {
            Some(dev) => dev.draw(dctx, &draw),
            None => Err(DeviceError("no device")),
        };
        match r {
            Ok(()) => Ok(true),
            Err(e) => self.device_failed(e).map(|_| false),
        }
    }

    /// Closes the frame (under VirGL: submits and waits) and folds device counters into the
    /// statistics.
    pub fn end(&mut self, owner: u32, ctx: ContextId) -> Result<()> {
        let c = self.contexts.get(owner, ctx)?;
        if !c.in_frame {
            return Err(Error::NoFrame);
        }
        let dctx = c.dev;
        if self.virgl_active() {
            if let Some(d) = dctx {
                let r = match self.device.as_deref_mut() {
                    Some(dev) => dev.frame_end(d),
                    None => Err(DeviceError("no device")),
                };
                if let Err(e) = r {
                    // The frame is closed either way; forced VirGL reports the failure.
                    let c = self.contexts.get_mut(owner, ctx)?;
                    c.in_frame = false;
                    c.target = None;
                    self.device_failed(e)?;
                }
            }
            self.sample_device();
        }
        let c = self.contexts.get_mut(owner, ctx)?;
        c.in_frame = false;
        c.target = None;
        self.counters.frames += 1;
        self.log_mock("end");
        Ok(())
    }

    /// True while a frame is open on `ctx`.
    pub fn in_frame(&self, owner: u32, ctx: ContextId) -> Result<bool> {
        Ok(self.contexts.get(owner, ctx)?.in_frame)
    }
}

/// Level 0 and the mip levels 1.. of one texture face, level 0 first.
/// Per texture unit: a cube's faces or an array's layers as (texels, levels 1, 2, ...).
type PerUnitLayers<'a> = [alloc::vec::Vec<(&'a [u32], &'a [&'a [u32]])>; TEXTURE_UNITS];

fn level_chain<'a>(l0: &'a [u32], rest: &'a [alloc::vec::Vec<u32>]) -> alloc::vec::Vec<&'a [u32]> {
    core::iter::once(l0)
        .chain(rest.iter().map(alloc::vec::Vec::as_slice))
        .collect()
}
