//! Reusable VirGL test scenes, generic over the transport: the host runs them through vtest,
//! the kernel through the virtio device. Each renders, reads the target back with
//! TRANSFER_FROM_HOST_3D and checks pixels.
//!
//! Owns: the scene list, hand-written TGSI for them, and the pixel checks.
//! Must never: depend on the shader compiler, or report success without checking pixels.
use crate::batch::{CommandBuffer, Sink};
use crate::encode::*;
use crate::error::{GpuError, Result};
use crate::handles::IdPool;
use crate::limits::{DEFAULT_BATCH_DWORDS, MAX_OBJECT_HANDLES};
use crate::proto::Box3d;
use crate::protocol::*;
use crate::transport::{CtxId, CtxSink, GpuTransport3d, ResId, ResourceDesc};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;

/// Scene names, in the order `run_all` runs them.
pub const SCENES: &[&str] = &[
    "clear",
    "triangle",
    "cull",
    "texture",
    "texture_units",
    "indexed",
    "depth",
    "constants",
    "inline_write",
    "long_shader",
    "longest_shader",
    "resource_cycles",
    "context_cycles",
];

/// Knobs of the cycle scenes.
#[derive(Debug, Clone, Copy)]
pub struct SceneParams {
    pub resource_cycles: u32,
    pub context_cycles: u32,
}

impl Default for SceneParams {
    fn default() -> Self {
        SceneParams {
            resource_cycles: 128,
            context_cycles: 64,
        }
    }
}

pub const W: u32 = 64;
pub const H: u32 = 64;

/// Pass-through vertex shader: position from IN[0].
pub const VS_POS: &str =
    "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
/// Vertex shader passing IN[1] to GENERIC[0].
pub const VS_POS_ATTR: &str = "VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[1]\n  2: END\n";
/// Fragment shader writing CONST[0].
pub const FS_CONST0: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL OUT[0], COLOR\nDCL CONST[0]\n  0: MOV OUT[0], CONST[0]\n  1: END\n";
/// Fragment shader writing CONST[0] + CONST[1] * CONST[2].
pub const FS_CONST_MAD: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL OUT[0], COLOR\nDCL CONST[0..2]\n  0: MAD OUT[0], CONST[1], CONST[2], CONST[0]\n  1: END\n";
/// Fragment shader writing the interpolated GENERIC[0].
pub const FS_VARYING: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
/// Fragment shader sampling unit 0 at GENERIC[0].
pub const FS_TEX: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n  0: TEX OUT[0], IN[0], SAMP[0], 2D\n  1: END\n";

/// Fragment shader reading the red channel of units 0..3 into R, G, B, A.
pub const FS_TEX4: &str = "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\nDCL SAMP[2]\nDCL SAMP[3]\nDCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[1], 2D, FLOAT\nDCL SVIEW[2], 2D, FLOAT\nDCL SVIEW[3], 2D, FLOAT\nDCL TEMP[0..3]\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D\n  1: TEX TEMP[1], IN[0], SAMP[1], 2D\n  2: TEX TEMP[2], IN[0], SAMP[2], 2D\n  3: TEX TEMP[3], IN[0], SAMP[3], 2D\n  4: MOV OUT[0].x, TEMP[0].xxxx\n  5: MOV OUT[0].y, TEMP[1].xxxx\n  6: MOV OUT[0].z, TEMP[2].xxxx\n  7: MOV OUT[0].w, TEMP[3].xxxx\n  8: END\n";

/// One triangle covering the whole target (positions only).
const FULL_TRIANGLE: [f32; 12] = [
    -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
];

pub const RED: u32 = 0xFFFF_0000;
pub const GREEN: u32 = 0xFF00_FF00;
pub const BLUE: u32 = 0xFF00_00FF;

/// Runs one scene; writes why it failed to `out` and returns false on failure.
pub fn run_scene<T: GpuTransport3d + ?Sized>(name: &str, t: &mut T, out: &mut dyn Write) -> bool {
    run_scene_with(name, t, out, SceneParams::default())
}

pub fn run_scene_with<T: GpuTransport3d + ?Sized>(
    name: &str,
    t: &mut T,
    out: &mut dyn Write,
    p: SceneParams,
) -> bool {
    let r = match name {
        "clear" => scene_clear(t, out),
        "triangle" => scene_triangle(t, out),
        "cull" => scene_cull(t, out),
        "texture" => scene_texture(t, out),
        "texture_units" => scene_texture_units(t, out),
        "indexed" => scene_indexed(t, out),
        "depth" => scene_depth(t, out),
        "constants" => scene_constants(t, out),
        "inline_write" => scene_inline_write(t, out),
        "long_shader" => scene_long_shader(t, out),
        "longest_shader" => scene_longest_shader(t, out),
        "resource_cycles" => scene_resource_cycles(t, out, p.resource_cycles),
        "context_cycles" => scene_context_cycles(t, out, p.context_cycles),
        _ => {
            let _ = write!(out, "unknown scene {}", name);
            return false;
        }
    };
    match r {
        Ok(true) => true,
        Ok(false) => false,
        Err(e) => {
            let _ = write!(out, "scene {}: {}", name, e);
            false
        }
    }
}

/// A context with a W x H colour target (and optionally depth) and the basic pipe state bound.
pub struct SceneCtx<'t, T: GpuTransport3d + ?Sized> {
    pub t: &'t mut T,
    pub ctx: CtxId,
    pub cb: CommandBuffer,
    pub handles: IdPool,
    pub color: ResId,
    pub depth: Option<ResId>,
    pub resources: Vec<ResId>,
}

impl<'t, T: GpuTransport3d + ?Sized> SceneCtx<'t, T> {
    pub fn new(t: &'t mut T, with_depth: bool) -> Result<Self> {
        let ctx = t.ctx_create()?;
        let color = t.resource_create_3d(ctx, &ResourceDesc::color_target(W, H))?;
        let depth = if with_depth {
            Some(t.resource_create_3d(ctx, &ResourceDesc::depth_target(W, H))?)
        } else {
            None
        };
        let mut s = SceneCtx {
            t,
            ctx,
            cb: CommandBuffer::new(DEFAULT_BATCH_DWORDS)?,
            handles: IdPool::new("scene object", MAX_OBJECT_HANDLES)?,
            color,
            depth,
            resources: Vec::new(),
        };
        let surf = s.handles.alloc()?;
        let zsurf = if with_depth { s.handles.alloc()? } else { 0 };
        let blend = s.handles.alloc()?;
        let dsa = s.handles.alloc()?;
        let rs = s.handles.alloc()?;
        s.enc(|e| {
            e.create_surface(surf, color.0, FORMAT_B8G8R8A8_UNORM, 0, 0)?;
            if let Some(d) = depth {
                e.create_surface(zsurf, d.0, FORMAT_Z32_FLOAT, 0, 0)?;
            }
            e.set_framebuffer_state(&[surf], zsurf)?;
            e.set_viewport(&Viewport::top_down(0.0, 0.0, W as f32, H as f32))?;
            e.create_blend(blend, &BlendState::default())?;
            e.bind_object(OBJ_BLEND, blend)?;
            e.create_dsa(
                dsa,
                &DsaState {
                    depth_enable: with_depth,
                    depth_write: with_depth,
                    depth_func: FUNC_LESS,
                },
            )?;
            e.bind_object(OBJ_DSA, dsa)?;
            e.create_rasterizer(rs, &RasterState::default())?;
            e.bind_object(OBJ_RASTERIZER, rs)
        })?;
        Ok(s)
    }

    /// Runs encoder calls against this context's batch.
    pub fn enc<R>(
        &mut self,
        f: impl FnOnce(&mut Encoder<'_, CtxSink<'_, T>>) -> Result<R>,
    ) -> Result<R> {
        let mut sink = CtxSink {
            transport: &mut *self.t,
            ctx: self.ctx,
        };
        let mut e = Encoder::new(&mut self.cb, &mut sink);
        f(&mut e)
    }

    pub fn flush(&mut self) -> Result<()> {
        self.enc(|e| e.flush())
    }

    /// Creates and binds a VS/FS pair (linked when the host supports LINK_SHADER).
    pub fn program(&mut self, vs_text: &str, fs_text: &str) -> Result<(u32, u32)> {
        let vs = self.handles.alloc()?;
        let fs = self.handles.alloc()?;
        let link = self.t.caps().supports_link_shader;
        self.enc(|e| {
            e.create_shader(vs, SHADER_VERTEX, vs_text)?;
            e.create_shader(fs, SHADER_FRAGMENT, fs_text)?;
            e.bind_shader(vs, SHADER_VERTEX)?;
            e.bind_shader(fs, SHADER_FRAGMENT)?;
            if link {
                e.link_shader(vs, fs)?;
            }
            Ok(())
        })?;
        Ok((vs, fs))
    }

    /// Uploads f32 vertices into a new vertex buffer and binds it with the given layout.
    pub fn vertices(&mut self, data: &[f32], components: &[u32]) -> Result<ResId> {
        let vbo = self.buffer(BIND_VERTEX_BUFFER, &f32_bytes(data))?;
        self.bind_layout(vbo, components)?;
        Ok(vbo)
    }

    /// Creates a buffer resource owned by the scene and uploads `bytes` into it.
    pub fn buffer(&mut self, bind: u32, bytes: &[u8]) -> Result<ResId> {
        let len = bytes.len() as u32;
        let r = self
            .t
            .resource_create_3d(self.ctx, &ResourceDesc::buffer(len, bind))?;
        self.resources.push(r);
        self.t
            .transfer_to_host_3d(self.ctx, r, Box3d::linear(len), 0, bytes)?;
        Ok(r)
    }

    /// Creates a `w` x `h` BGRA texture owned by the scene and uploads tightly packed texels.
    pub fn texture(&mut self, w: u32, h: u32, bytes: &[u8]) -> Result<ResId> {
        let r = self
            .t
            .resource_create_3d(self.ctx, &ResourceDesc::texture(w, h))?;
        self.resources.push(r);
        self.t
            .transfer_to_host_3d(self.ctx, r, Box3d::new_2d(w, h), w * 4, bytes)?;
        Ok(r)
    }

    /// Binds `vbo` with interleaved f32 elements of the given component counts.
    pub fn bind_layout(&mut self, vbo: ResId, components: &[u32]) -> Result<()> {
        let mut elems = [VertexElement {
            offset: 0,
            buffer_index: 0,
            components: 4,
        }; 8];
        let mut off = 0;
        for (i, &c) in components.iter().enumerate().take(8) {
            elems[i] = VertexElement {
                offset: off,
                buffer_index: 0,
                components: c,
            };
            off += c * 4;
        }
        let ve = self.handles.alloc()?;
        let n = components.len().min(8);
        self.enc(|e| {
            e.create_vertex_elements(ve, &elems[..n])?;
            e.bind_object(OBJ_VERTEX_ELEMENTS, ve)?;
            e.set_vertex_buffers(&[VertexBuffer {
                stride: off,
                offset: 0,
                resource: vbo.0,
            }])
        })
    }

    /// Flushes and reads the colour target back as 0xAARRGGBB pixels, row 0 first.
    pub fn read_back(&mut self) -> Result<Vec<u32>> {
        self.flush()?;
        let mut bytes = vec![0u8; (W * H * 4) as usize];
        self.t.transfer_from_host_3d(
            self.ctx,
            self.color,
            Box3d::new_2d(W, H),
            W * 4,
            &mut bytes,
        )?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// Clears to blue and draws the first `count` vertices as red triangles (FS_CONST0).
    pub fn red_on_blue(&mut self, count: u32) -> Result<()> {
        self.enc(|e| {
            paint(e, BLUE, RED)?;
            e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, count)?)
        })
    }

    /// Reads the target back, releases everything and checks the named pixels.
    pub fn check(
        mut self,
        out: &mut dyn Write,
        scene: &str,
        checks: &[(u32, u32, u32, &str)],
        tol: i32,
    ) -> Result<bool> {
        let p = self.read_back()?;
        self.finish()?;
        Ok(expect(out, scene, &p, checks, tol))
    }

    /// Releases everything: resources, then the context.
    pub fn finish(self) -> Result<()> {
        let SceneCtx {
            t,
            ctx,
            color,
            depth,
            resources,
            ..
        } = self;
        for r in resources {
            t.resource_destroy(ctx, r)?;
        }
        if let Some(d) = depth {
            t.resource_destroy(ctx, d)?;
        }
        t.resource_destroy(ctx, color)?;
        t.ctx_destroy(ctx)
    }
}

fn px(p: &[u32], x: u32, y: u32) -> u32 {
    p.get((y * W + x) as usize).copied().unwrap_or(0)
}

fn close(a: u32, b: u32, tol: i32) -> bool {
    (0..4).all(|i| {
        let ca = ((a >> (i * 8)) & 0xff) as i32;
        let cb = ((b >> (i * 8)) & 0xff) as i32;
        (ca - cb).abs() <= tol
    })
}

/// Checks named pixels; reports every mismatch.
fn expect(
    out: &mut dyn Write,
    scene: &str,
    p: &[u32],
    checks: &[(u32, u32, u32, &str)],
    tol: i32,
) -> bool {
    let mut ok = true;
    for &(x, y, want, what) in checks {
        let got = px(p, x, y);
        if !close(got, want, tol) {
            let _ = write!(
                out,
                "{}: pixel ({}, {}) {}: expected 0x{:08x}, got 0x{:08x}; ",
                scene, x, y, what, want, got
            );
            ok = false;
        }
    }
    ok
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// Clears the colour target to `bg` and sets the CONST[0] colour of FS_CONST0 to `fg`.
fn paint<S: Sink + ?Sized>(e: &mut Encoder<'_, S>, bg: u32, fg: u32) -> Result<()> {
    e.clear(CLEAR_COLOR0, rgba(bg), 1.0, 0)?;
    e.set_constant_buffer(SHADER_FRAGMENT, &[rgba(fg)])
}

fn rgba(c: u32) -> [f32; 4] {
    let ch = |s: u32| ((c >> s) & 0xff) as f32 / 255.0;
    [ch(16), ch(8), ch(0), ch(24)]
}

fn scene_clear<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let want = 0xFF33_6699;
    s.enc(|e| e.clear(CLEAR_COLOR0, rgba(want), 1.0, 0))?;
    let p = s.read_back()?;
    let bad = p.iter().filter(|&&v| v != want).count();
    s.finish()?;
    if bad != 0 {
        let _ = write!(
            out,
            "clear: {} of {} pixels differ from 0x{:08x} (first 0x{:08x})",
            bad,
            W * H,
            want,
            p.first().copied().unwrap_or(0)
        );
        return Ok(false);
    }
    Ok(true)
}

/// A red CCW triangle in the upper-left quadrant on blue: checks inside, outside and that the
/// picture is neither flipped nor mirrored.
fn scene_triangle<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    s.program(VS_POS, FS_CONST0)?;
    s.vertices(
        &[
            -0.9, 0.9, 0.0, 1.0, -0.9, 0.1, 0.0, 1.0, -0.1, 0.9, 0.0, 1.0,
        ],
        &[4],
    )?;
    s.red_on_blue(3)?;
    s.check(
        out,
        "triangle",
        &[
            (8, 8, RED, "inside, near the top-left corner"),
            (20, 10, RED, "inside"),
            (28, 28, BLUE, "outside, below the hypotenuse"),
            (56, 8, BLUE, "top-right (mirror check)"),
            (8, 56, BLUE, "bottom-left (flip check)"),
            (56, 56, BLUE, "bottom-right"),
        ],
        0,
    )
}

/// Back-face culling with counter-clockwise front faces: a CCW triangle (left) stays, a CW
/// triangle (right) is culled.
fn scene_cull<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let rs = s.handles.alloc()?;
    s.enc(|e| {
        e.create_rasterizer(
            rs,
            &RasterState {
                cull_face: CULL_BACK,
                ..RasterState::default()
            },
        )?;
        e.bind_object(OBJ_RASTERIZER, rs)
    })?;
    s.program(VS_POS, FS_CONST0)?;
    #[rustfmt::skip]
    let v = [
        // CCW in NDC (y up): left half.
        -0.9, -0.8, 0.0, 1.0,  -0.1, -0.8, 0.0, 1.0,  -0.5, 0.8, 0.0, 1.0,
        // CW: right half.
        0.1, -0.8, 0.0, 1.0,  0.5, 0.8, 0.0, 1.0,  0.9, -0.8, 0.0, 1.0,
    ];
    s.vertices(&v, &[4])?;
    s.red_on_blue(6)?;
    s.check(
        out,
        "cull",
        &[
            (16, 40, RED, "CCW triangle (front, kept)"),
            (48, 40, BLUE, "CW triangle (back, culled)"),
        ],
        0,
    )
}

/// A 4x4 texture on a full-target quad: each 16x16 cell shows its texel; v = 0 is the first row
/// in memory and lands at the top.
fn scene_texture<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let mut texels = [0u32; 16];
    for (i, tx) in texels.iter_mut().enumerate() {
        let (x, y) = ((i % 4) as u32, (i / 4) as u32);
        *tx = 0xFF00_0000
            | (x * 80) << 16
            | (y * 80) << 8
            | if (x + y) % 2 == 0 { 0x20 } else { 0xE0 };
    }
    let bytes: Vec<u8> = texels.iter().flat_map(|v| v.to_le_bytes()).collect();
    let tex = s.texture(4, 4, &bytes)?;
    let view = s.handles.alloc()?;
    let samp = s.handles.alloc()?;
    s.enc(|e| {
        e.create_sampler_view(view, tex.0, FORMAT_B8G8R8A8_UNORM)?;
        e.create_sampler_state(samp, &SamplerState::default())?;
        e.set_sampler_views(SHADER_FRAGMENT, 0, &[view])?;
        e.bind_sampler_states(SHADER_FRAGMENT, 0, &[samp])
    })?;
    s.program(VS_POS_ATTR, FS_TEX)?;
    #[rustfmt::skip]
    let v = [
        -1.0, 1.0, 0.0, 1.0,   0.0, 0.0,
        -1.0, -1.0, 0.0, 1.0,  0.0, 1.0,
        1.0, 1.0, 0.0, 1.0,    1.0, 0.0,
        1.0, -1.0, 0.0, 1.0,   1.0, 1.0,
    ];
    s.vertices(&v, &[4, 2])?;
    s.enc(|e| {
        e.clear(CLEAR_COLOR0, [0.0, 0.0, 0.0, 1.0], 1.0, 0)?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLE_STRIP, 0, 4)?)
    })?;
    let mut checks = Vec::new();
    for (i, &tx) in texels.iter().enumerate() {
        let (x, y) = ((i % 4) as u32, (i / 4) as u32);
        checks.push((x * 16 + 8, y * 16 + 8, tx, "texel cell centre"));
    }
    s.check(out, "texture", &checks, 0)
}

/// Four texture units at once: unit i holds a 1x1 texture whose red channel is distinct, and the
/// shader routes unit i's red into output channel i, so a swapped binding shows.
fn scene_texture_units<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let reds = [0x20u32, 0x60, 0xA0, 0xE0];
    let mut views = [0u32; 4];
    for (i, r) in reds.iter().enumerate() {
        let tex = s.texture(1, 1, &(r << 16).to_le_bytes())?;
        views[i] = s.handles.alloc()?;
        let v = views[i];
        s.enc(|e| e.create_sampler_view(v, tex.0, FORMAT_B8G8R8A8_UNORM))?;
    }
    let samp = s.handles.alloc()?;
    s.enc(|e| {
        e.create_sampler_state(samp, &SamplerState::default())?;
        e.set_sampler_views(SHADER_FRAGMENT, 0, &views)?;
        e.bind_sampler_states(SHADER_FRAGMENT, 0, &[samp; 4])
    })?;
    s.program(VS_POS_ATTR, FS_TEX4)?;
    #[rustfmt::skip]
    let v = [
        -1.0, -1.0, 0.0, 1.0,  0.5, 0.5, 0.0, 1.0,
        3.0, -1.0, 0.0, 1.0,   0.5, 0.5, 0.0, 1.0,
        -1.0, 3.0, 0.0, 1.0,   0.5, 0.5, 0.0, 1.0,
    ];
    s.vertices(&v, &[4, 4])?;
    s.enc(|e| {
        e.clear(CLEAR_COLOR0, [0.0; 4], 1.0, 0)?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)
    })?;
    let want = reds[3] << 24 | reds[0] << 16 | reds[1] << 8 | reds[2];
    s.check(
        out,
        "texture_units",
        &[(32, 32, want, "units 0..3 routed to R, G, B, A")],
        0,
    )
}

/// An indexed quad (4 vertices, 6 u16 indices starting at element 2 of the index buffer, chosen
/// with the index buffer offset) over the left half; the index range comes from the indices.
fn scene_indexed<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    s.program(VS_POS, FS_CONST0)?;
    #[rustfmt::skip]
    let v = [
        9.0, 9.0, 0.0, 1.0,   9.0, 9.0, 0.0, 1.0, // unused vertices 0 and 1
        -1.0, 1.0, 0.0, 1.0,  -1.0, -1.0, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,  0.0, -1.0, 0.0, 1.0,
    ];
    s.vertices(&v, &[4])?;
    let indices: [u16; 8] = [0, 0, 2, 3, 4, 4, 3, 5];
    let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    let ibo = s.buffer(BIND_INDEX_BUFFER, &bytes)?;
    s.enc(|e| {
        paint(e, BLUE, RED)?;
        e.set_index_buffer(Some((ibo.0, 2, 4)))?;
        e.draw_vbo(&DrawInfo::indexed(PRIM_TRIANGLES, &indices[2..])?)
    })?;
    s.check(
        out,
        "indexed",
        &[
            (4, 4, RED, "quad, top-left"),
            (28, 60, RED, "quad, bottom"),
            (40, 30, BLUE, "right half"),
        ],
        0,
    )
}

/// Depth test LESS: a near red triangle drawn first is not overwritten by a far green one.
fn scene_depth<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, true)?;
    s.program(VS_POS, FS_CONST0)?;
    #[rustfmt::skip]
    let v = [
        // near (z = -0.4), small, centre
        -0.5, -0.5, -0.4, 1.0,  0.5, -0.5, -0.4, 1.0,  0.0, 0.5, -0.4, 1.0,
        // far (z = 0.6), large
        -0.9, -0.9, 0.6, 1.0,  0.9, -0.9, 0.6, 1.0,  0.0, 0.9, 0.6, 1.0,
    ];
    s.vertices(&v, &[4])?;
    s.enc(|e| {
        e.clear(CLEAR_COLOR0 | CLEAR_DEPTH, rgba(BLUE), 1.0, 0)?;
        e.set_constant_buffer(SHADER_FRAGMENT, &[rgba(RED)])?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)?;
        e.set_constant_buffer(SHADER_FRAGMENT, &[rgba(GREEN)])?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 3, 3)?)
    })?;
    s.check(
        out,
        "depth",
        &[
            (32, 36, RED, "near triangle survives"),
            (32, 58, GREEN, "far triangle outside the near one"),
            (2, 2, BLUE, "background"),
        ],
        0,
    )
}

/// CONST[0] + CONST[1] * CONST[2] computed in the fragment shader.
fn scene_constants<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    s.program(VS_POS, FS_CONST_MAD)?;
    s.vertices(&FULL_TRIANGLE, &[4])?;
    let c = [
        [0.2, 0.0, 0.4, 1.0],
        [0.5, 0.25, 0.5, 0.0],
        [0.4, 2.0, 0.2, 0.0],
    ];
    s.enc(|e| {
        e.clear(CLEAR_COLOR0, [0.0, 0.0, 0.0, 1.0], 1.0, 0)?;
        e.set_constant_buffer(SHADER_FRAGMENT, &c)?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)
    })?;
    // (0.2 + 0.2, 0 + 0.5, 0.4 + 0.1, 1) -> (102, 128, 128, 255) within rounding.
    let want = 0xFF66_8080;
    s.check(
        out,
        "constants",
        &[
            (10, 10, want, "computed colour"),
            (50, 50, want, "computed colour"),
        ],
        1,
    )
}

/// Vertex data uploaded with RESOURCE_INLINE_WRITE instead of a transfer; per-vertex colours.
fn scene_inline_write<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    s.program(VS_POS_ATTR, FS_VARYING)?;
    #[rustfmt::skip]
    let v: [f32; 24] = [
        -1.0, -1.0, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,
        3.0, -1.0, 0.0, 1.0,   0.0, 1.0, 0.0, 1.0,
        -1.0, 3.0, 0.0, 1.0,   0.0, 1.0, 0.0, 1.0,
    ];
    let bytes = f32_bytes(&v);
    let vbo = s.t.resource_create_3d(
        s.ctx,
        &ResourceDesc::buffer(bytes.len() as u32, BIND_VERTEX_BUFFER),
    )?;
    s.resources.push(vbo);
    s.enc(|e| {
        e.resource_inline_write(
            vbo.0,
            Box3d::linear(bytes.len() as u32),
            1,
            bytes.len() as u32,
            &bytes,
        )
    })?;
    s.bind_layout(vbo, &[4, 4])?;
    s.enc(|e| {
        e.clear(CLEAR_COLOR0, rgba(BLUE), 1.0, 0)?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)
    })?;
    s.check(
        out,
        "inline_write",
        &[
            (5, 5, GREEN, "inline-written vertices"),
            (60, 60, GREEN, "inline-written vertices"),
        ],
        0,
    )
}

/// A fragment shader longer than one batch, sent with continuation packets.
fn scene_long_shader<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let mut text = alloc::string::String::from("FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL OUT[0], COLOR\nDCL CONST[0]\nDCL TEMP[0]\n  0: MOV TEMP[0], CONST[0]\n");
    let mut n = 1;
    while text.len() < (DEFAULT_BATCH_DWORDS * 4 * 3) / 2 {
        let _ = writeln!(text, "  {}: MOV TEMP[0], TEMP[0]", n);
        n += 1;
    }
    let _ = write!(text, "  {}: MOV OUT[0], TEMP[0]\n  {}: END\n", n, n + 1);
    s.program(VS_POS, &text)?;
    s.vertices(&FULL_TRIANGLE, &[4])?;
    s.red_on_blue(3)?;
    s.check(
        out,
        "long_shader",
        &[(32, 32, RED, "long shader output")],
        0,
    )
}

/// A fragment shader of TGSI text exactly `bytes` long (at least 512): CONST[0] plus
/// CONST[1] added 768 times, with ADD/SUB pairs of CONST[1] (net zero) filling the text. Every
/// partial sum of CONST[1] = (1/1024, 1/2048, 1/4096, 0) is exact in f32, so any evaluation
/// order gives CONST[0] + 768 * CONST[1]; with CONST[0] = (0, 0, 0, 1) that is
/// (0.75, 0.375, 0.1875, 1), the pixel [`LONGEST_SHADER_PIXEL`] (+-1 per channel).
pub fn long_fragment_shader(bytes: usize) -> String {
    let mut text = String::from(
        "FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\nDCL OUT[0], COLOR\nDCL CONST[0..1]\nDCL TEMP[0]\n  0: MOV TEMP[0], CONST[0]\n",
    );
    let tail = |n: usize| alloc::format!("  {}: MOV OUT[0], TEMP[0]\n  {}: END\n", n, n + 1);
    let mut n = 1usize;
    let mut adds = 0usize;
    loop {
        // Net ADDs first (768 of them), then ADD/SUB pairs while a pair and the tail still fit.
        let line =
            |n: usize, op: &str| alloc::format!("  {}: {} TEMP[0], TEMP[0], CONST[1]\n", n, op);
        if adds < 768 {
            text.push_str(&line(n, "ADD"));
            adds += 1;
            n += 1;
            continue;
        }
        let pair = line(n, "ADD").len() + line(n + 1, "SUB").len();
        if text.len() + pair + tail(n + 2).len() + 16 > bytes {
            break;
        }
        text.push_str(&line(n, "ADD"));
        text.push_str(&line(n + 1, "SUB"));
        n += 2;
    }
    // Pad with comment-free blank space the TGSI parser skips, to hit the length exactly.
    let t = tail(n);
    while text.len() + t.len() < bytes {
        text.push(' ');
    }
    text.push_str(&t);
    text
}

/// The pixel [`long_fragment_shader`] draws (0xAARRGGBB).
pub const LONGEST_SHADER_PIXEL: u32 = 0xFFBF_6030;

/// A fragment shader as long as the encoder accepts (`MAX_SHADER_TEXT_BYTES`, the shader
/// compiler's profile-2 TGSI bound): a first packet and continuations over several batches.
fn scene_longest_shader<T: GpuTransport3d + ?Sized>(
    t: &mut T,
    out: &mut dyn Write,
) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let text = long_fragment_shader(crate::limits::MAX_SHADER_TEXT_BYTES);
    s.program(VS_POS, &text)?;
    s.vertices(&FULL_TRIANGLE, &[4])?;
    s.enc(|e| {
        e.clear(CLEAR_COLOR0, rgba(BLUE), 1.0, 0)?;
        e.set_constant_buffer(
            SHADER_FRAGMENT,
            &[
                [0.0, 0.0, 0.0, 1.0],
                [1.0 / 1024.0, 1.0 / 2048.0, 1.0 / 4096.0, 0.0],
            ],
        )?;
        e.draw_vbo(&DrawInfo::arrays(PRIM_TRIANGLES, 0, 3)?)
    })?;
    s.check(
        out,
        "longest_shader",
        &[
            (32, 32, LONGEST_SHADER_PIXEL, "longest shader output"),
            (2, 60, LONGEST_SHADER_PIXEL, "longest shader output"),
        ],
        1,
    )
}

/// Creates, fills and destroys small textures `n` times, then proves the context still renders.
fn scene_resource_cycles<T: GpuTransport3d + ?Sized>(
    t: &mut T,
    out: &mut dyn Write,
    n: u32,
) -> Result<bool> {
    let mut s = SceneCtx::new(t, false)?;
    let data = [0x55u8; 16 * 16 * 4];
    for _ in 0..n {
        let r =
            s.t.resource_create_3d(s.ctx, &ResourceDesc::texture(16, 16))?;
        s.t.transfer_to_host_3d(s.ctx, r, Box3d::new_2d(16, 16), 64, &data)?;
        s.t.resource_destroy(s.ctx, r)?;
    }
    s.enc(|e| e.clear(CLEAR_COLOR0, rgba(GREEN), 1.0, 0))?;
    s.check(
        out,
        "resource_cycles",
        &[
            (0, 0, GREEN, "after cycles"),
            (63, 63, GREEN, "after cycles"),
        ],
        0,
    )
}

/// Creates and destroys contexts `n` times, then renders in a fresh one.
fn scene_context_cycles<T: GpuTransport3d + ?Sized>(
    t: &mut T,
    out: &mut dyn Write,
    n: u32,
) -> Result<bool> {
    for _ in 0..n {
        let c = t.ctx_create()?;
        t.ctx_destroy(c)?;
    }
    if t.is_lost() {
        return Err(GpuError::Lost);
    }
    scene_clear(t, out)
}

/// Runs every scene; returns the number of failures.
pub fn run_all<T: GpuTransport3d + ?Sized>(t: &mut T, out: &mut dyn Write, p: SceneParams) -> u32 {
    let mut failed = 0;
    for name in SCENES {
        if !run_scene_with(name, t, out, p) {
            failed += 1;
        }
    }
    failed
}

/// Runs every scene and reports each as `test virtio_gpu::scene::NAME ... ok|FAILED` (the
/// kernel's selftest line format), with the reason on the next line when it failed. Returns
/// (passed, failed).
pub fn run_all_reporting<T: GpuTransport3d + ?Sized>(
    t: &mut T,
    out: &mut dyn Write,
    p: SceneParams,
) -> (u32, u32) {
    let (mut passed, mut failed) = (0, 0);
    for name in SCENES {
        let mut why = ReasonBuf::default();
        let ok = run_scene_with(name, t, &mut why, p);
        let _ = writeln!(
            out,
            "test virtio_gpu::scene::{} ... {}",
            name,
            if ok { "ok" } else { "FAILED" }
        );
        if ok {
            passed += 1;
        } else {
            failed += 1;
            let _ = writeln!(out, "  {}", why.as_str());
        }
    }
    (passed, failed)
}

/// A bounded text buffer for failure reasons (no_std, no allocation growth beyond 512 bytes).
#[derive(Default)]
struct ReasonBuf {
    buf: heapless::String<512>,
}

impl ReasonBuf {
    fn as_str(&self) -> &str {
        self.buf.as_str()
    }
}

impl Write for ReasonBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for c in s.chars() {
            if self.buf.push(c).is_err() {
                break;
            }
        }
        Ok(())
    }
}
