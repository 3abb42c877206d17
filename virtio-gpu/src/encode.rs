//! The VirGL command encoder: one function per command Gfx3D needs.
//!
//! Owns: turning typed arguments into exactly the dwords virglrenderer's decoder accepts, using
//! the sizes of `protocol.rs`; validation of every argument before a dword is written: object
//! handles and resource ids in the ranges the pools hand out (`limits.rs`), formats, stages,
//! enums and blend factors from the protocol table (never silently masked), counts, strides and
//! offsets, and viewport / clear floats (finite, in the ranges the host converts without
//! error). What the host would refuse, the encoder refuses first, with an error.
//! Must never: write a command whose length the host would reject, write part of a command, or
//! exceed the batch (a command that does not fit flushes the batch first through the sink).
use crate::batch::{CommandBuffer, Sink};
use crate::error::{GpuError, Result};
use crate::limits::{
    MAX_ARRAY_LAYERS, MAX_BACKING_BYTES, MAX_CONSTANT_VEC4, MAX_DRAW_VERTICES, MAX_MIP_LEVELS,
    MAX_OBJECT_HANDLES, MAX_RESOURCES, MAX_RESOURCE_DIM, MAX_SAMPLER_UNITS, MAX_SHADER_TEXT_BYTES,
    MAX_VERTEX_BUFFERS, MAX_VERTEX_ELEMENTS, MAX_VERTEX_STRIDE, MAX_VIEWPORT_BOUND,
    MAX_VIEWPORT_DIM,
};
use crate::proto::Box3d;
use crate::protocol::*;

mod blit;
pub use blit::BlitSide;

/// Blend state for the single colour buffer (blending off = opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlendState {
    pub enable: bool,
    /// pipe_blend_func (0 = ADD).
    pub rgb_func: u32,
    /// pipe_blendfactor values (1 = ONE, 0x11 = ZERO, 0x03 = SRC_ALPHA, 0x13 = INV_SRC_ALPHA).
    pub rgb_src: u32,
    pub rgb_dst: u32,
    pub alpha_func: u32,
    pub alpha_src: u32,
    pub alpha_dst: u32,
    /// RGBA write mask, 4 bits.
    pub colormask: u32,
}

impl Default for BlendState {
    fn default() -> Self {
        BlendState {
            enable: false,
            rgb_func: 0,
            rgb_src: 1,
            rgb_dst: 0x11,
            alpha_func: 0,
            alpha_src: 1,
            alpha_dst: 0x11,
            colormask: 0xF,
        }
    }
}

/// Rasterizer state: the fields Gfx3D sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RasterState {
    /// CULL_NONE / CULL_FRONT / CULL_BACK.
    pub cull_face: u32,
    pub front_ccw: bool,
    pub depth_clip: bool,
    pub scissor: bool,
    /// Polygon offset of filled triangles (offset_tri) with its units and scale (finite).
    pub offset_tri: bool,
    pub offset_units: f32,
    pub offset_scale: f32,
    /// User clip planes enabled (bit i: gl_ClipDistance[i], i < 8; S3 bits 24..31): the
    /// distances the linked vertex shader writes. 0: none.
    pub clip_planes: u8,
}

impl Default for RasterState {
    fn default() -> Self {
        RasterState {
            cull_face: CULL_NONE,
            front_ccw: true,
            depth_clip: true,
            scissor: false,
            offset_tri: false,
            offset_units: 0.0,
            offset_scale: 0.0,
            clip_planes: 0,
        }
    }
}

/// Depth/stencil/alpha state: depth only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DsaState {
    pub depth_enable: bool,
    pub depth_write: bool,
    /// FUNC_* compare function.
    pub depth_func: u32,
}

/// Sampler state (nearest/repeat by default, the GL defaults the project uses).
/// `mip_filter` is a `MIPFILTER_*` (NONE: level 0 only); the LODs are GL's
/// TEXTURE_LOD_BIAS/MIN_LOD/MAX_LOD, each within +-`SAMPLER_LOD_MAX`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerState {
    pub wrap_s: u32,
    pub wrap_t: u32,
    pub min_filter: u32,
    pub mag_filter: u32,
    pub mip_filter: u32,
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// Depth compare (COMPARE_MODE 1 with this FUNC_* function) for shadow samplers; None is
    /// COMPARE_MODE 0 (the texel itself).
    pub compare_func: Option<u32>,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            wrap_s: WRAP_REPEAT,
            wrap_t: WRAP_REPEAT,
            min_filter: FILTER_NEAREST,
            mag_filter: FILTER_NEAREST,
            mip_filter: MIPFILTER_NONE,
            lod_bias: 0.0,
            min_lod: 0.0,
            max_lod: SAMPLER_LOD_MAX,
            compare_func: None,
        }
    }
}

/// One vertex element: `components` f32 values at `offset` in vertex buffer `buffer_index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexElement {
    pub offset: u32,
    pub buffer_index: u32,
    pub components: u32,
}

/// The VirGL format of `n` packed f32 components (1..=4).
pub fn float_format(components: u32) -> Result<u32> {
    match components {
        1 => Ok(FORMAT_R32_FLOAT),
        2 => Ok(FORMAT_R32G32_FLOAT),
        3 => Ok(FORMAT_R32G32B32_FLOAT),
        4 => Ok(FORMAT_R32G32B32A32_FLOAT),
        n => Err(GpuError::OutOfRange {
            what: "vertex element components",
            value: n as u64,
            limit: 4,
        }),
    }
}

/// The VirGL format of `n` packed 32-bit integer components (1..=4): R32{,G32,G32B32,G32B32A32}
/// _SINT when `signed`, else _UINT (a vertex element feeding an `int`/`uint` attribute).
pub fn int_format(components: u32, signed: bool) -> Result<u32> {
    let base = if signed {
        FORMAT_R32_SINT
    } else {
        FORMAT_R32_UINT
    };
    match components {
        1..=4 => Ok(base + components - 1),
        n => Err(GpuError::OutOfRange {
            what: "vertex element components",
            value: n as u64,
            limit: 4,
        }),
    }
}

/// One bound vertex buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VertexBuffer {
    pub stride: u32,
    pub offset: u32,
    pub resource: u32,
}

/// Viewport transform: window = ndc * scale + translate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub scale: [f32; 3],
    pub translate: [f32; 3],
}

impl Viewport {
    /// The viewport of a `w` x `h` target with row 0 of the target at the top of the picture
    /// (negative y scale), depth range [0, 1].
    pub fn top_down(x: f32, y: f32, w: f32, h: f32) -> Self {
        Viewport {
            scale: [w * 0.5, -h * 0.5, 0.5],
            translate: [x + w * 0.5, y + h * 0.5, 0.5],
        }
    }

    /// The viewport of a `w` x `h` box with its lower-left corner at (`x`, `y`) and row 0 of
    /// the target at window y 0, GL's (positive y scale), depth range [0, 1].
    pub fn gl_native(x: f32, y: f32, w: f32, h: f32) -> Self {
        Viewport {
            scale: [w * 0.5, h * 0.5, 0.5],
            translate: [x + w * 0.5, y + h * 0.5, 0.5],
        }
    }
}

/// DRAW_VBO arguments. Build them with `DrawInfo::arrays` or `DrawInfo::indexed` so the index
/// range is right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawInfo {
    pub start: u32,
    pub count: u32,
    pub mode: u32,
    pub indexed: bool,
    pub instance_count: u32,
    pub index_bias: i32,
    pub min_index: u32,
    pub max_index: u32,
}

impl DrawInfo {
    /// A non-indexed draw of `count` vertices from `start`: the range is [start, start+count-1].
    pub fn arrays(mode: u32, start: u32, count: u32) -> Result<Self> {
        if count == 0 {
            return Err(GpuError::Invalid {
                what: "draw with zero vertices",
            });
        }
        let max = start.checked_add(count - 1).ok_or(GpuError::OutOfRange {
            what: "draw start + count",
            value: start as u64 + count as u64,
            limit: u32::MAX as u64,
        })?;
        Ok(DrawInfo {
            start,
            count,
            mode,
            indexed: false,
            instance_count: 1,
            index_bias: 0,
            min_index: start,
            max_index: max,
        })
    }

    /// An indexed draw of `indices` (u16). virglrenderer ignores `start` for indexed draws (it
    /// draws from the index buffer offset), so the first index is chosen with the offset of
    /// SET_INDEX_BUFFER and `start` is always 0. The range is the smallest and largest index
    /// actually used.
    pub fn indexed(mode: u32, indices: &[u16]) -> Result<Self> {
        let (min, max) = index_range(indices).ok_or(GpuError::Invalid {
            what: "indexed draw with no indices",
        })?;
        Ok(DrawInfo {
            start: 0,
            count: indices.len() as u32,
            mode,
            indexed: true,
            instance_count: 1,
            index_bias: 0,
            min_index: min,
            max_index: max,
        })
    }
}

/// Smallest and largest index of a u16 index list.
pub fn index_range(indices: &[u16]) -> Option<(u32, u32)> {
    let min = *indices.iter().min()?;
    let max = *indices.iter().max()?;
    Some((min as u32, max as u32))
}

/// Upper bound of the TGSI token count for a text of `text_bytes` bytes (including the NUL).
/// Every TGSI token needs at least one character of text, and the header takes two tokens the
/// text may spell in fewer characters, so bytes + 16 always covers it.
pub fn shader_token_bound(text_bytes: usize) -> u32 {
    (text_bytes as u32).saturating_add(16)
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// An object handle: `1..=MAX_OBJECT_HANDLES` (what every handle pool hands out); `what` names
/// the argument.
fn check_handle(what: &'static str, h: u32) -> Result<()> {
    if h == 0 {
        return Err(GpuError::Invalid { what });
    }
    check_handle_or_none(what, h)
}

/// An object handle or 0 (unbind).
fn check_handle_or_none(what: &'static str, h: u32) -> Result<()> {
    if h > MAX_OBJECT_HANDLES {
        return Err(GpuError::OutOfRange {
            what,
            value: h as u64,
            limit: MAX_OBJECT_HANDLES as u64,
        });
    }
    Ok(())
}

/// A resource id: `1..=MAX_RESOURCES` (what both transports hand out).
fn check_resource(what: &'static str, r: u32) -> Result<()> {
    if r == 0 {
        return Err(GpuError::Invalid { what });
    }
    check_resource_or_none(what, r)
}

/// A resource id or 0 (unbind).
fn check_resource_or_none(what: &'static str, r: u32) -> Result<()> {
    if r > MAX_RESOURCES {
        return Err(GpuError::OutOfRange {
            what,
            value: r as u64,
            limit: MAX_RESOURCES as u64,
        });
    }
    Ok(())
}

/// The stages this encoder drives: vertex and fragment.
fn check_stage(stage: u32) -> Result<()> {
    if stage != SHADER_VERTEX && stage != SHADER_FRAGMENT {
        return Err(GpuError::OutOfRange {
            what: "shader stage (vertex 0 or fragment 1)",
            value: stage as u64,
            limit: SHADER_FRAGMENT as u64,
        });
    }
    Ok(())
}

fn check_max(what: &'static str, value: u32, limit: u32) -> Result<()> {
    if value > limit {
        return Err(GpuError::OutOfRange {
            what,
            value: value as u64,
            limit: limit as u64,
        });
    }
    Ok(())
}

fn check_format(what: &'static str, format: u32, allowed: &[u32]) -> Result<()> {
    if !allowed.contains(&format) {
        return Err(GpuError::Invalid { what });
    }
    Ok(())
}

/// The host turns the viewport back into glViewport integers and a depth range: every value
/// must be finite, the edges in `(0, MAX_VIEWPORT_DIM]`, the corners within
/// `MAX_VIEWPORT_BOUND` and the depth range within [0, 1].
pub fn check_viewport(vp: &Viewport) -> Result<()> {
    if vp
        .scale
        .iter()
        .chain(vp.translate.iter())
        .any(|v| !v.is_finite())
    {
        return Err(GpuError::Invalid {
            what: "viewport scale and translate must be finite",
        });
    }
    let (w, h) = (vp.scale[0] * 2.0, vp.scale[1].abs() * 2.0);
    if !(w > 0.0 && w <= MAX_VIEWPORT_DIM && h > 0.0 && h <= MAX_VIEWPORT_DIM) {
        return Err(GpuError::Invalid {
            what: "viewport width and height must be in (0, 16384] (x scale positive)",
        });
    }
    let corners = [
        vp.translate[0] - vp.scale[0],
        vp.translate[0] + vp.scale[0],
        vp.translate[1] - vp.scale[1],
        vp.translate[1] + vp.scale[1],
    ];
    if corners.iter().any(|c| c.abs() > MAX_VIEWPORT_BOUND) {
        return Err(GpuError::Invalid {
            what: "viewport corner beyond the viewport bounds (|x|, |y| <= 32768)",
        });
    }
    let (near, far) = (vp.translate[2] - vp.scale[2], vp.translate[2] + vp.scale[2]);
    if !((0.0..=1.0).contains(&near) && (0.0..=1.0).contains(&far)) {
        return Err(GpuError::Invalid {
            what: "viewport depth range must lie in [0, 1]",
        });
    }
    Ok(())
}

/// Packs bytes little-endian into dwords (byte 0 = lowest byte), zero padding the last dword.
fn pack_bytes(bytes: &[u8], out: &mut [u32]) {
    for (i, w) in out.iter_mut().enumerate() {
        let mut v = [0u8; 4];
        for (j, b) in v.iter_mut().enumerate() {
            *b = bytes.get(i * 4 + j).copied().unwrap_or(0);
        }
        *w = u32::from_le_bytes(v);
    }
}

/// Encodes commands into a batch; full batches go to the sink.
pub struct Encoder<'a, S: Sink + ?Sized> {
    pub cb: &'a mut CommandBuffer,
    pub sink: &'a mut S,
}

impl<'a, S: Sink + ?Sized> Encoder<'a, S> {
    pub fn new(cb: &'a mut CommandBuffer, sink: &'a mut S) -> Self {
        Encoder { cb, sink }
    }

    fn emit(&mut self, words: &[u32]) -> Result<()> {
        self.cb.push_command(self.sink, words)
    }

    /// Submits what is batched.
    pub fn flush(&mut self) -> Result<()> {
        self.cb.flush(self.sink)
    }

    pub fn create_surface(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        level: u32,
        layers: u32,
    ) -> Result<()> {
        check_handle("surface handle", handle)?;
        check_resource("surface resource", resource)?;
        check_format(
            "surface format (B8G8R8A8_UNORM, Z32_FLOAT, Z24_UNORM_S8_UINT or R32G32B32A32_FLOAT)",
            format,
            &SURFACE_FORMATS,
        )?;
        // Surfaces of this encoder are level 0, layer 0 of a 2D resource (the only kind made).
        check_max("surface level", level, 0)?;
        check_max("surface layers", layers, 0)?;
        self.emit(&[
            cmd0(CCMD_CREATE_OBJECT, OBJ_SURFACE, SURFACE_SIZE),
            handle,
            resource,
            format,
            level,
            layers,
        ])
    }

    pub fn create_blend(&mut self, handle: u32, s: &BlendState) -> Result<()> {
        check_handle("blend handle", handle)?;
        check_max("blend rgb func", s.rgb_func, BLEND_FUNC_MAX)?;
        check_max("blend alpha func", s.alpha_func, BLEND_FUNC_MAX)?;
        check_max("blend colour mask", s.colormask, 0xF)?;
        for f in [s.rgb_src, s.rgb_dst, s.alpha_src, s.alpha_dst] {
            if !is_blend_factor(f) {
                return Err(GpuError::Invalid {
                    what: "blend factor is not a pipe_blendfactor",
                });
            }
        }
        let rt0 = (s.enable as u32)
            | (s.rgb_func & 7) << 1
            | (s.rgb_src & 0x1f) << 4
            | (s.rgb_dst & 0x1f) << 9
            | (s.alpha_func & 7) << 14
            | (s.alpha_src & 0x1f) << 17
            | (s.alpha_dst & 0x1f) << 22
            | (s.colormask & 0xf) << 27;
        let mut w = [0u32; 1 + BLEND_SIZE as usize];
        w[0] = cmd0(CCMD_CREATE_OBJECT, OBJ_BLEND, BLEND_SIZE);
        w[1] = handle;
        // S0 = 0 (no independent blend, no logic op), S1 = 0; one render target.
        w[4] = rt0;
        self.emit(&w)
    }

    pub fn create_rasterizer(&mut self, handle: u32, s: &RasterState) -> Result<()> {
        check_handle("rasterizer handle", handle)?;
        if s.cull_face > CULL_BACK + 1 {
            return Err(GpuError::OutOfRange {
                what: "cull face",
                value: s.cull_face as u64,
                limit: 3,
            });
        }
        if !s.offset_units.is_finite() || !s.offset_scale.is_finite() {
            return Err(GpuError::Invalid {
                what: "polygon offset units and scale must be finite",
            });
        }
        let s0 = (s.depth_clip as u32) << 1
            | (s.cull_face & 3) << 8
            | (s.scissor as u32) << 14
            | (s.front_ccw as u32) << 15
            | (s.offset_tri as u32) << 20
            | 1 << 29 // half-pixel centres (GL)
            | 1 << 30; // bottom edge rule (GL window origin is lower-left)
        self.emit(&[
            cmd0(CCMD_CREATE_OBJECT, OBJ_RASTERIZER, RS_SIZE),
            handle,
            s0,
            f(1.0),                       // point size
            0,                            // sprite coord enable
            (s.clip_planes as u32) << 24, // S3: no stipple; clip plane enables in 24..31
            f(1.0),                       // line width
            f(s.offset_units),
            f(s.offset_scale),
            0, // offset clamp
        ])
    }

    /// SET_SCISSOR_STATE of scissor 0: the half-open rectangle [min, max) in framebuffer
    /// pixels (16-bit coordinates, min <= max).
    pub fn set_scissor(&mut self, min: [u32; 2], max: [u32; 2]) -> Result<()> {
        for (what, v) in [
            ("scissor min x", min[0]),
            ("scissor min y", min[1]),
            ("scissor max x", max[0]),
            ("scissor max y", max[1]),
        ] {
            check_max(what, v, SCISSOR_COORD_MAX)?;
        }
        if min[0] > max[0] || min[1] > max[1] {
            return Err(GpuError::Invalid {
                what: "scissor min must not exceed max",
            });
        }
        self.emit(&[
            cmd0(CCMD_SET_SCISSOR_STATE, 0, SCISSOR_SIZE_ONE),
            0,
            min[0] | min[1] << 16,
            max[0] | max[1] << 16,
        ])
    }

    /// SET_BLEND_COLOR: the constant colour of the blend factors (finite).
    pub fn set_blend_color(&mut self, rgba: [f32; 4]) -> Result<()> {
        if rgba.iter().any(|c| !c.is_finite()) {
            return Err(GpuError::Invalid {
                what: "blend colour must be finite",
            });
        }
        self.emit(&[
            cmd0(CCMD_SET_BLEND_COLOR, 0, BLEND_COLOR_SIZE),
            f(rgba[0]),
            f(rgba[1]),
            f(rgba[2]),
            f(rgba[3]),
        ])
    }

    pub fn create_dsa(&mut self, handle: u32, s: &DsaState) -> Result<()> {
        check_handle("dsa handle", handle)?;
        if s.depth_func > FUNC_ALWAYS {
            return Err(GpuError::OutOfRange {
                what: "depth func",
                value: s.depth_func as u64,
                limit: 7,
            });
        }
        let s0 = if s.depth_enable {
            1 | (s.depth_write as u32) << 1 | (s.depth_func & 7) << 2
        } else {
            0
        };
        self.emit(&[
            cmd0(CCMD_CREATE_OBJECT, OBJ_DSA, DSA_SIZE),
            handle,
            s0,
            0,
            0,
            0,
        ])
    }

    pub fn create_vertex_elements(
        &mut self,
        handle: u32,
        elements: &[VertexElement],
    ) -> Result<()> {
        self.create_vertex_elements_divided(handle, elements, &[])
    }

    /// [`Self::create_vertex_elements`] with an instance divisor per element (`divisors[i]`
    /// for element i, 0 when missing: per vertex; N: the element advances every N instances).
    pub fn create_vertex_elements_divided(
        &mut self,
        handle: u32,
        elements: &[VertexElement],
        divisors: &[u32],
    ) -> Result<()> {
        self.create_vertex_elements_formats(handle, elements, divisors, &[])
    }

    /// [`Self::create_vertex_elements_divided`] with a format per element: `formats[i]` for
    /// element i when given (a float format of its components, or an [`int_format`] one for an
    /// integer attribute), the float format of its components otherwise.
    pub fn create_vertex_elements_formats(
        &mut self,
        handle: u32,
        elements: &[VertexElement],
        divisors: &[u32],
        formats: &[u32],
    ) -> Result<()> {
        check_handle("vertex elements handle", handle)?;
        if formats.len() > elements.len() {
            return Err(GpuError::OutOfRange {
                what: "vertex element formats",
                value: formats.len() as u64,
                limit: elements.len() as u64,
            });
        }
        if divisors.len() > elements.len() {
            return Err(GpuError::OutOfRange {
                what: "vertex element divisors",
                value: divisors.len() as u64,
                limit: elements.len() as u64,
            });
        }
        if elements.is_empty() || elements.len() > MAX_VERTEX_ELEMENTS {
            return Err(GpuError::OutOfRange {
                what: "vertex elements",
                value: elements.len() as u64,
                limit: MAX_VERTEX_ELEMENTS as u64,
            });
        }
        let n = elements.len() as u32;
        let mut w = [0u32; 2 + 4 * MAX_VERTEX_ELEMENTS];
        w[0] = cmd0(
            CCMD_CREATE_OBJECT,
            OBJ_VERTEX_ELEMENTS,
            vertex_elements_size(n),
        );
        w[1] = handle;
        for (i, e) in elements.iter().enumerate() {
            if e.buffer_index as usize >= MAX_VERTEX_BUFFERS {
                return Err(GpuError::OutOfRange {
                    what: "vertex buffer index",
                    value: e.buffer_index as u64,
                    limit: MAX_VERTEX_BUFFERS as u64 - 1,
                });
            }
            check_max("vertex element offset", e.offset, MAX_VERTEX_STRIDE - 1)?;
            let at = 2 + i * 4;
            w[at] = e.offset;
            w[at + 1] = divisors.get(i).copied().unwrap_or(0);
            w[at + 2] = e.buffer_index;
            let float = float_format(e.components)?;
            w[at + 3] = match formats.get(i).copied() {
                None => float,
                Some(f)
                    if f == float
                        || f == int_format(e.components, true)?
                        || f == int_format(e.components, false)? =>
                {
                    f
                }
                Some(_) => {
                    return Err(GpuError::Invalid {
                        what: "vertex element format (R32..R32G32B32A32 FLOAT, SINT or UINT of its components)",
                    })
                }
            };
        }
        self.emit(&w[..2 + 4 * elements.len()])
    }

    /// CREATE_OBJECT SAMPLER_STATE: wraps (REPEAT, CLAMP_TO_EDGE, MIRROR_REPEAT; r follows t:
    /// 2D textures never read it), filters, the mip filter and the three LODs; no border colour.
    pub fn create_sampler_state(&mut self, handle: u32, s: &SamplerState) -> Result<()> {
        check_handle("sampler state handle", handle)?;
        for wrap in [s.wrap_s, s.wrap_t] {
            if !matches!(wrap, WRAP_REPEAT | WRAP_CLAMP_TO_EDGE | WRAP_MIRROR_REPEAT) {
                return Err(GpuError::Invalid {
                    what: "sampler wrap (REPEAT, CLAMP_TO_EDGE or MIRROR_REPEAT)",
                });
            }
        }
        check_max("sampler min filter", s.min_filter, FILTER_LINEAR)?;
        check_max("sampler mag filter", s.mag_filter, FILTER_LINEAR)?;
        check_max("sampler mip filter", s.mip_filter, MIPFILTER_NONE)?;
        if let Some(func) = s.compare_func {
            check_max("sampler compare function", func, FUNC_ALWAYS)?;
        }
        for lod in [s.lod_bias, s.min_lod, s.max_lod] {
            if !(-SAMPLER_LOD_MAX..=SAMPLER_LOD_MAX).contains(&lod) {
                return Err(GpuError::Invalid {
                    what: "sampler LOD (finite, within +-1000)",
                });
            }
        }
        let s0 = (s.wrap_s & 7) << SAMPLER_S0_WRAP_S_SHIFT
            | (s.wrap_t & 7) << SAMPLER_S0_WRAP_T_SHIFT
            | (s.wrap_t & 7) << SAMPLER_S0_WRAP_R_SHIFT
            | (s.min_filter & 3) << SAMPLER_S0_MIN_IMG_FILTER_SHIFT
            | (s.mip_filter & 3) << SAMPLER_S0_MIN_MIP_FILTER_SHIFT
            | (s.mag_filter & 3) << SAMPLER_S0_MAG_IMG_FILTER_SHIFT
            | match s.compare_func {
                Some(func) => {
                    1 << SAMPLER_S0_COMPARE_MODE_SHIFT | (func & 7) << SAMPLER_S0_COMPARE_FUNC_SHIFT
                }
                None => 0,
            };
        self.emit(&[
            cmd0(CCMD_CREATE_OBJECT, OBJ_SAMPLER_STATE, SAMPLER_STATE_SIZE),
            handle,
            s0,
            f(s.lod_bias),
            f(s.min_lod),
            f(s.max_lod),
            0,
            0,
            0,
            0,
        ])
    }

    /// A 2D sampler view of the whole resource (level 0, layer 0, identity swizzle).
    pub fn create_sampler_view(&mut self, handle: u32, resource: u32, format: u32) -> Result<()> {
        self.create_sampler_view_swizzled(handle, resource, format, SWIZZLE_IDENTITY)
    }

    /// [`Self::create_sampler_view`] with a swizzle word (four 3-bit pipe_swizzle selectors,
    /// R in bits 0..2 .. A in bits 9..11; e.g. `SWIZZLE_RRR1` for a depth texture).
    pub fn create_sampler_view_swizzled(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        swizzle: u32,
    ) -> Result<()> {
        self.sampler_view(handle, resource, format, swizzle, TARGET_TEXTURE_2D)
    }

    /// A cube sampler view of a TEXTURE_CUBE resource: all six faces (layers 0..=5), level 0,
    /// identity swizzle (what TGSI's `SVIEW CUBE` / `SHADOWCUBE` sample).
    pub fn create_sampler_view_cube(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
    ) -> Result<()> {
        self.sampler_view(
            handle,
            resource,
            format,
            SWIZZLE_IDENTITY,
            TARGET_TEXTURE_CUBE,
        )
    }

    /// A sampler view of levels 0..=`last_level` of a mipmapped TEXTURE_2D resource (`cube`
    /// false) or TEXTURE_CUBE resource (`cube` true, all six faces), identity swizzle. The
    /// level word is first | last << 8 (virgl_protocol.h's TEXTURE_LEVEL); `last_level` 0 is
    /// the plain view.
    pub fn create_sampler_view_levels(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        cube: bool,
        last_level: u32,
    ) -> Result<()> {
        check_max("sampler view last level", last_level, MAX_MIP_LEVELS - 1)?;
        let target = if cube {
            TARGET_TEXTURE_CUBE
        } else {
            TARGET_TEXTURE_2D
        };
        self.sampler_view_levels(
            handle,
            resource,
            format,
            SWIZZLE_IDENTITY,
            target,
            last_level,
        )
    }

    /// A sampler view of a TEXTURE_2D_ARRAY resource: layers 0..`layers` (1..=256), levels
    /// 0..=`last_level`, identity swizzle (what TGSI's `SVIEW 2D_ARRAY` samples). The layer word
    /// is first | last << 16 (virgl_protocol.h's TEXTURE_LAYER).
    pub fn create_sampler_view_array(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        layers: u32,
        last_level: u32,
    ) -> Result<()> {
        check_max("sampler view last level", last_level, MAX_MIP_LEVELS - 1)?;
        if layers == 0 || layers > MAX_ARRAY_LAYERS {
            return Err(GpuError::OutOfRange {
                what: "sampler view array layers",
                value: layers as u64,
                limit: MAX_ARRAY_LAYERS as u64,
            });
        }
        self.sampler_view_span(
            handle,
            resource,
            format,
            SWIZZLE_IDENTITY,
            TARGET_TEXTURE_2D_ARRAY,
            (layers - 1) << 16,
            last_level,
        )
    }

    fn sampler_view(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        swizzle: u32,
        target: u32,
    ) -> Result<()> {
        self.sampler_view_levels(handle, resource, format, swizzle, target, 0)
    }

    fn sampler_view_levels(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        swizzle: u32,
        target: u32,
        last_level: u32,
    ) -> Result<()> {
        // Layers: first in bits 0..15, last in bits 16..31 (a cube view spans its 6 faces).
        let layers = if target == TARGET_TEXTURE_CUBE {
            (CUBE_FACES - 1) << 16
        } else {
            0
        };
        self.sampler_view_span(
            handle, resource, format, swizzle, target, layers, last_level,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn sampler_view_span(
        &mut self,
        handle: u32,
        resource: u32,
        format: u32,
        swizzle: u32,
        target: u32,
        layers: u32,
        last_level: u32,
    ) -> Result<()> {
        check_handle("sampler view handle", handle)?;
        check_resource("sampler view resource", resource)?;
        check_format(
            "sampler view format (B8G8R8A8_UNORM, R8_UNORM, Z32_FLOAT, R32G32B32A32_FLOAT, _SINT or _UINT)",
            format,
            &SAMPLER_VIEW_FORMATS,
        )?;
        if swizzle >> 12 != 0 || (0..4).any(|i| (swizzle >> (3 * i)) & 7 > SWIZZLE_SELECTOR_MAX) {
            return Err(GpuError::Invalid {
                what: "sampler view swizzle (four selectors 0..=5 in bits 0..11)",
            });
        }
        // Format word: format in bits 0..23, texture target in bits 24..31.
        let fmt = (format & 0x00FF_FFFF) | (target << 24);
        self.emit(&[
            cmd0(CCMD_CREATE_OBJECT, OBJ_SAMPLER_VIEW, SAMPLER_VIEW_SIZE),
            handle,
            resource,
            fmt,
            layers,
            (last_level & 0xFF) << 8, // levels: first 0 (bits 0..7), last (bits 8..15)
            swizzle,
        ])
    }

    /// CREATE_OBJECT(SHADER) from TGSI text. Text longer than one batch goes out as a first
    /// packet carrying the full length followed by continuation packets.
    pub fn create_shader(&mut self, handle: u32, stage: u32, tgsi: &str) -> Result<()> {
        check_handle("shader handle", handle)?;
        check_stage(stage)?;
        let text = tgsi.as_bytes();
        // The host parses the text as TGSI of the stage it is created for.
        let header: &[u8] = if stage == SHADER_VERTEX {
            b"VERT"
        } else {
            b"FRAG"
        };
        if !text.starts_with(header) {
            return Err(GpuError::Invalid {
                what: "shader text must start with the stage's TGSI header (VERT or FRAG)",
            });
        }
        if text.len() > MAX_SHADER_TEXT_BYTES {
            return Err(GpuError::OutOfRange {
                what: "shader text bytes",
                value: text.len() as u64,
                limit: MAX_SHADER_TEXT_BYTES as u64,
            });
        }
        if text.contains(&0) {
            return Err(GpuError::Invalid {
                what: "shader text contains a NUL byte",
            });
        }
        let total = text.len() + 1; // with the NUL
        let total_dwords = total.div_ceil(4);
        let tokens = shader_token_bound(total);
        let hdr = 1 + SHADER_HDR_SIZE as usize;
        let mut sent_dwords = 0usize;
        let mut first = true;
        while first || sent_dwords < total_dwords {
            let remaining = total_dwords - sent_dwords;
            // Fill the free part of the current batch when it has room for a useful chunk,
            // otherwise start a fresh batch.
            let mut room = self.cb.free().saturating_sub(hdr);
            // Split only text that does not fit an empty batch: a shader that fits whole goes
            // into a fresh batch rather than into continuation packets.
            let fits_empty = remaining + hdr <= self.cb.capacity();
            if room < remaining && (fits_empty || room < 16) {
                self.cb.flush(self.sink)?;
                room = self.cb.capacity() - hdr;
            }
            let chunk = remaining
                .min(room)
                .min(crate::protocol::MAX_PAYLOAD_DWORDS - SHADER_HDR_SIZE as usize);
            if chunk == 0 {
                return Err(GpuError::TooLarge {
                    what: "shader packet",
                    dwords: hdr + 1,
                    capacity: self.cb.capacity(),
                });
            }
            let offlen = if first {
                total as u32
            } else {
                SHADER_OFFSET_CONT | (sent_dwords * 4) as u32
            };
            let head = [
                cmd0(
                    CCMD_CREATE_OBJECT,
                    OBJ_SHADER,
                    SHADER_HDR_SIZE + chunk as u32,
                ),
                handle,
                stage,
                offlen,
                tokens,
                0,
            ];
            self.cb.reserve(hdr + chunk, self.sink)?;
            self.cb.extend_reserved(&head)?;
            // Text with its NUL, as dwords; the bytes after the NUL are zero.
            let mut words = [0u32; 64];
            let mut done = 0;
            while done < chunk {
                let n = (chunk - done).min(words.len());
                let byte_at = (sent_dwords + done) * 4;
                let src = text.get(byte_at.min(text.len())..).unwrap_or(&[]);
                pack_bytes(src, &mut words[..n]);
                self.cb.extend_reserved(&words[..n])?;
                done += n;
            }
            sent_dwords += chunk;
            first = false;
        }
        Ok(())
    }

    pub fn bind_object(&mut self, obj_type: u32, handle: u32) -> Result<()> {
        if !matches!(
            obj_type,
            OBJ_BLEND | OBJ_RASTERIZER | OBJ_DSA | OBJ_VERTEX_ELEMENTS
        ) {
            return Err(GpuError::Invalid {
                what: "BIND_OBJECT takes blend, rasterizer, dsa or vertex elements",
            });
        }
        check_handle_or_none("bound object handle", handle)?;
        self.emit(&[cmd0(CCMD_BIND_OBJECT, obj_type, BIND_OBJECT_SIZE), handle])
    }

    pub fn destroy_object(&mut self, obj_type: u32, handle: u32) -> Result<()> {
        check_handle("destroyed object handle", handle)?;
        if obj_type == OBJ_NULL || obj_type >= OBJ_MAX {
            return Err(GpuError::OutOfRange {
                what: "object type",
                value: obj_type as u64,
                limit: OBJ_MAX as u64 - 1,
            });
        }
        self.emit(&[
            cmd0(CCMD_DESTROY_OBJECT, obj_type, DESTROY_OBJECT_SIZE),
            handle,
        ])
    }

    pub fn bind_shader(&mut self, handle: u32, stage: u32) -> Result<()> {
        check_stage(stage)?;
        check_handle_or_none("bound shader handle", handle)?;
        self.emit(&[cmd0(CCMD_BIND_SHADER, 0, BIND_SHADER_SIZE), handle, stage])
    }

    /// LINK_SHADER for a VS/FS pair; only valid when the host advertises it
    /// (`HostCaps::supports_link_shader`).
    pub fn link_shader(&mut self, vs: u32, fs: u32) -> Result<()> {
        check_handle("linked vertex shader handle", vs)?;
        check_handle("linked fragment shader handle", fs)?;
        self.emit(&[
            cmd0(CCMD_LINK_SHADER, 0, LINK_SHADER_SIZE),
            vs,
            fs,
            0,
            0,
            0,
            0,
        ])
    }

    pub fn set_framebuffer_state(&mut self, cbufs: &[u32], zsurf: u32) -> Result<()> {
        if cbufs.len() > 8 {
            return Err(GpuError::OutOfRange {
                what: "colour buffers",
                value: cbufs.len() as u64,
                limit: 8,
            });
        }
        check_handle_or_none("framebuffer depth surface", zsurf)?;
        // The host takes 0 for "no depth surface" but not for a colour buffer.
        for &c in cbufs {
            check_handle("framebuffer colour surface", c)?;
        }
        let mut w = [0u32; 11];
        w[0] = cmd0(
            CCMD_SET_FRAMEBUFFER_STATE,
            0,
            framebuffer_size(cbufs.len() as u32),
        );
        w[1] = cbufs.len() as u32;
        w[2] = zsurf;
        w[3..3 + cbufs.len()].copy_from_slice(cbufs);
        self.emit(&w[..3 + cbufs.len()])
    }

    /// SET_VIEWPORT_STATE of viewport 0; see [`check_viewport`] for what is refused.
    pub fn set_viewport(&mut self, vp: &Viewport) -> Result<()> {
        check_viewport(vp)?;
        self.emit(&[
            cmd0(CCMD_SET_VIEWPORT_STATE, 0, viewport_size(1)),
            0,
            f(vp.scale[0]),
            f(vp.scale[1]),
            f(vp.scale[2]),
            f(vp.translate[0]),
            f(vp.translate[1]),
            f(vp.translate[2]),
        ])
    }

    pub fn set_vertex_buffers(&mut self, buffers: &[VertexBuffer]) -> Result<()> {
        if buffers.len() > MAX_VERTEX_BUFFERS {
            return Err(GpuError::OutOfRange {
                what: "vertex buffers",
                value: buffers.len() as u64,
                limit: MAX_VERTEX_BUFFERS as u64,
            });
        }
        let mut w = [0u32; 1 + 3 * MAX_VERTEX_BUFFERS];
        w[0] = cmd0(
            CCMD_SET_VERTEX_BUFFERS,
            0,
            vertex_buffers_size(buffers.len() as u32),
        );
        for (i, b) in buffers.iter().enumerate() {
            check_max("vertex buffer stride", b.stride, MAX_VERTEX_STRIDE)?;
            check_max(
                "vertex buffer offset",
                b.offset,
                MAX_BACKING_BYTES as u32 - 1,
            )?;
            check_resource_or_none("vertex buffer resource", b.resource)?;
            w[1 + i * 3] = b.stride;
            w[2 + i * 3] = b.offset;
            w[3 + i * 3] = b.resource;
        }
        self.emit(&w[..1 + 3 * buffers.len()])
    }

    /// Binds an index buffer of `index_size` (2 or 4) byte indices, or unbinds with `None`.
    pub fn set_index_buffer(&mut self, buffer: Option<(u32, u32, u32)>) -> Result<()> {
        match buffer {
            Some((res, index_size, offset)) => {
                if index_size != 2 && index_size != 4 && index_size != 1 {
                    return Err(GpuError::Invalid {
                        what: "index size must be 1, 2 or 4",
                    });
                }
                check_resource("index buffer resource", res)?;
                if offset % index_size != 0 || offset as usize >= MAX_BACKING_BYTES {
                    return Err(GpuError::Invalid {
                        what: "index buffer offset must be a multiple of the index size inside a buffer",
                    });
                }
                self.emit(&[
                    cmd0(CCMD_SET_INDEX_BUFFER, 0, INDEX_BUFFER_SIZE),
                    res,
                    index_size,
                    offset,
                ])
            }
            None => self.emit(&[cmd0(CCMD_SET_INDEX_BUFFER, 0, INDEX_BUFFER_UNBIND_SIZE), 0]),
        }
    }

    /// Uploads constant buffer 0 of a stage: whole vec4s, at most `MAX_CONSTANT_VEC4`.
    pub fn set_constant_buffer(&mut self, stage: u32, vec4s: &[[f32; 4]]) -> Result<()> {
        check_stage(stage)?;
        if vec4s.is_empty() || vec4s.len() > MAX_CONSTANT_VEC4 {
            return Err(GpuError::OutOfRange {
                what: "constant vec4s",
                value: vec4s.len() as u64,
                limit: MAX_CONSTANT_VEC4 as u64,
            });
        }
        let n = vec4s.len() * 4;
        let mut w = [0u32; 3 + 4 * MAX_CONSTANT_VEC4];
        w[0] = cmd0(CCMD_SET_CONSTANT_BUFFER, 0, constant_buffer_size(n as u32));
        w[1] = stage;
        w[2] = 0; // index: only buffer 0 exists for these uploads
        for (i, v) in vec4s.iter().enumerate() {
            for (j, c) in v.iter().enumerate() {
                w[3 + i * 4 + j] = f(*c);
            }
        }
        self.emit(&w[..3 + n])
    }

    pub fn set_sampler_views(&mut self, stage: u32, start: u32, views: &[u32]) -> Result<()> {
        let size = sampler_views_size(views.len() as u32);
        self.sampler_slots(
            CCMD_SET_SAMPLER_VIEWS,
            size,
            "sampler view slot",
            stage,
            start,
            views,
        )
    }

    pub fn bind_sampler_states(&mut self, stage: u32, start: u32, states: &[u32]) -> Result<()> {
        let size = bind_sampler_states_size(states.len() as u32);
        self.sampler_slots(
            CCMD_BIND_SAMPLER_STATES,
            size,
            "sampler state slot",
            stage,
            start,
            states,
        )
    }

    /// The shared layout of SET_SAMPLER_VIEWS and BIND_SAMPLER_STATES: stage, first slot, then
    /// one handle per slot.
    fn sampler_slots(
        &mut self,
        ccmd: u32,
        size: u32,
        what: &'static str,
        stage: u32,
        start: u32,
        handles: &[u32],
    ) -> Result<()> {
        check_stage(stage)?;
        for &h in handles {
            check_handle_or_none(what, h)?;
        }
        if handles.len() + start as usize > MAX_SAMPLER_UNITS {
            return Err(GpuError::OutOfRange {
                what,
                value: (start as usize + handles.len()) as u64,
                limit: MAX_SAMPLER_UNITS as u64,
            });
        }
        let mut w = [0u32; 3 + MAX_SAMPLER_UNITS];
        w[0] = cmd0(ccmd, 0, size);
        w[1] = stage;
        w[2] = start;
        w[3..3 + handles.len()].copy_from_slice(handles);
        self.emit(&w[..3 + handles.len()])
    }

    /// CLEAR: exactly 8 payload dwords (buffers, RGBA, depth as a double, stencil).
    pub fn clear(&mut self, buffers: u32, rgba: [f32; 4], depth: f64, stencil: u32) -> Result<()> {
        if buffers == 0 || buffers & !(CLEAR_DEPTH | CLEAR_STENCIL | CLEAR_COLOR0) != 0 {
            return Err(GpuError::Invalid {
                what: "clear buffers must be a non-empty set of COLOR0/DEPTH/STENCIL",
            });
        }
        if rgba.iter().any(|c| !c.is_finite()) || !(0.0..=1.0).contains(&depth) {
            return Err(GpuError::Invalid {
                what: "clear colour must be finite and clear depth in [0, 1]",
            });
        }
        check_max("clear stencil", stencil, 0xFF)?;
        let d = depth.to_bits();
        self.emit(&[
            cmd0(CCMD_CLEAR, 0, CLEAR_SIZE),
            buffers,
            f(rgba[0]),
            f(rgba[1]),
            f(rgba[2]),
            f(rgba[3]),
            d as u32,
            (d >> 32) as u32,
            stencil,
        ])
    }

    /// DRAW_VBO: exactly 12 payload dwords.
    pub fn draw_vbo(&mut self, d: &DrawInfo) -> Result<()> {
        if d.count == 0 {
            return Err(GpuError::Invalid {
                what: "draw with zero vertices",
            });
        }
        if d.min_index > d.max_index {
            return Err(GpuError::Invalid {
                what: "draw min index above max index",
            });
        }
        if d.indexed && d.start != 0 {
            return Err(GpuError::Invalid {
                what: "indexed draw with start != 0 (the host ignores it; use the index buffer offset)",
            });
        }
        check_max("draw primitive mode", d.mode, PRIM_MAX)?;
        let instances = d.instance_count.max(1);
        let work = d.count as u64 * instances as u64;
        if work > MAX_DRAW_VERTICES as u64 {
            return Err(GpuError::OutOfRange {
                what: "draw vertices (count x instances)",
                value: work,
                limit: MAX_DRAW_VERTICES as u64,
            });
        }
        if !d.indexed
            && (d.start.checked_add(d.count - 1).is_none()
                || d.min_index != d.start
                || d.max_index != d.start + (d.count - 1))
        {
            return Err(GpuError::Invalid {
                what: "non-indexed draw range must be [start, start + count - 1]",
            });
        }
        if d.max_index > MAX_DRAW_VERTICES {
            return Err(GpuError::OutOfRange {
                what: "draw max index",
                value: d.max_index as u64,
                limit: MAX_DRAW_VERTICES as u64,
            });
        }
        self.emit(&[
            cmd0(CCMD_DRAW_VBO, 0, DRAW_VBO_SIZE),
            d.start,
            d.count,
            d.mode,
            d.indexed as u32,
            instances,
            d.index_bias as u32,
            0, // start instance
            0, // primitive restart off
            0, // restart index
            d.min_index,
            d.max_index,
            0, // count from stream output
        ])
    }

    /// RESOURCE_INLINE_WRITE of `data` into `bx` of `resource` (`bpp` bytes per texel, rows
    /// `stride` bytes apart in `data`). Data larger than one batch is split by rows, and a row
    /// larger than one batch is split along x.
    pub fn resource_inline_write(
        &mut self,
        resource: u32,
        bx: Box3d,
        bpp: u32,
        stride: u32,
        data: &[u8],
    ) -> Result<()> {
        check_resource("inline write resource", resource)?;
        if bpp == 0 || bpp > 16 || bx.w == 0 || bx.h == 0 || bx.d != 1 || bx.z != 0 {
            return Err(GpuError::Invalid {
                what: "inline write box must be non-empty, 2D (z 0, depth 1), with bpp 1..=16",
            });
        }
        let fits = |o: u32, n: u32| o.checked_add(n).is_some_and(|e| e <= MAX_RESOURCE_DIM);
        if !fits(bx.x, bx.w) || !fits(bx.y, bx.h) {
            return Err(GpuError::Invalid {
                what: "inline write box beyond the largest resource (16384)",
            });
        }
        let row_bytes = bx.w as u64 * bpp as u64;
        if row_bytes > u32::MAX as u64 {
            return Err(GpuError::OutOfRange {
                what: "inline write row bytes",
                value: row_bytes,
                limit: u32::MAX as u64,
            });
        }
        if (stride as u64) < row_bytes {
            return Err(GpuError::Invalid {
                what: "inline write stride shorter than a row",
            });
        }
        let need = stride as u64 * (bx.h as u64 - 1) + row_bytes;
        if (data.len() as u64) < need {
            return Err(GpuError::OutOfRange {
                what: "inline write data bytes",
                value: data.len() as u64,
                limit: need,
            });
        }
        let hdr = 1 + INLINE_WRITE_HDR_SIZE as usize;
        let max_data_bytes = (self.cb.capacity() - hdr) * 4;
        let row_bytes = row_bytes as usize;
        if row_bytes <= max_data_bytes {
            let rows_per = (max_data_bytes / row_bytes).max(1) as u32;
            let mut y = 0;
            while y < bx.h {
                let rows = rows_per.min(bx.h - y);
                let sub = Box3d {
                    x: bx.x,
                    y: bx.y + y,
                    z: bx.z,
                    w: bx.w,
                    h: rows,
                    d: 1,
                };
                self.inline_packet(resource, sub, row_bytes as u32, |row, out| {
                    let at = (y + row) as usize * stride as usize;
                    data.get(at..at + row_bytes).map(|s| out.copy_from_slice(s))
                })?;
                y += rows;
            }
        } else {
            let texels_per = (max_data_bytes / bpp as usize).max(1) as u32;
            for row in 0..bx.h {
                let mut x = 0;
                while x < bx.w {
                    let n = texels_per.min(bx.w - x);
                    let sub = Box3d {
                        x: bx.x + x,
                        y: bx.y + row,
                        z: bx.z,
                        w: n,
                        h: 1,
                        d: 1,
                    };
                    let bytes = (n * bpp) as usize;
                    let at = row as usize * stride as usize + (x * bpp) as usize;
                    self.inline_packet(resource, sub, bytes as u32, |_, out| {
                        data.get(at..at + bytes).map(|s| out.copy_from_slice(s))
                    })?;
                    x += n;
                }
            }
        }
        Ok(())
    }

    fn inline_packet(
        &mut self,
        resource: u32,
        bx: Box3d,
        row_bytes: u32,
        mut row_data: impl FnMut(u32, &mut [u8]) -> Option<()>,
    ) -> Result<()> {
        let total = row_bytes as usize * bx.h as usize;
        let data_dwords = total.div_ceil(4);
        let hdr = 1 + INLINE_WRITE_HDR_SIZE as usize;
        self.cb.reserve(hdr + data_dwords, self.sink)?;
        self.cb.extend_reserved(&[
            cmd0(
                CCMD_RESOURCE_INLINE_WRITE,
                0,
                INLINE_WRITE_HDR_SIZE + data_dwords as u32,
            ),
            resource,
            0, // level
            0, // usage
            row_bytes,
            row_bytes * bx.h,
            bx.x,
            bx.y,
            bx.z,
            bx.w,
            bx.h,
            bx.d,
        ])?;
        // Rows are packed back to back; carry bytes across dword boundaries.
        let mut pending = [0u8; 4];
        let mut npending = 0;
        let mut tmp = alloc::vec![0u8; row_bytes as usize];
        for row in 0..bx.h {
            row_data(row, &mut tmp).ok_or(GpuError::Invalid {
                what: "inline write data range",
            })?;
            for &b in tmp.iter() {
                pending[npending] = b;
                npending += 1;
                if npending == 4 {
                    self.cb.extend_reserved(&[u32::from_le_bytes(pending)])?;
                    npending = 0;
                }
            }
        }
        if npending > 0 {
            for b in pending.iter_mut().skip(npending) {
                *b = 0;
            }
            self.cb.extend_reserved(&[u32::from_le_bytes(pending)])?;
        }
        Ok(())
    }
}
