//! The contract between Gfx3D and a 3D device (the VirGL backend implements it over the
//! virtio-gpu crate; tests implement it with fakes that inject faults).
//!
//! Device ids (`DevId`) are opaque to Gfx3D and never cross the public API. Every call may fail
//! with a `DeviceError`; Gfx3D then applies the device-lost policy (AUTO degrades to software,
//! forced VirGL reports). This module must never hold Gfx3D state.

use heapless::Vec as HVec;

use crate::limits::{LAYOUT_ELEMENTS_MAX, TEXTURE_UNITS};
use crate::program::Viewport;
use crate::state::Pipeline;
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::SamplerState;

/// An opaque device-side id (context, target, buffer, texture or program).
pub type DevId = u32;

/// A device failure; the text says which step failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceError(pub &'static str);

/// Buffer kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    Vertex,
    Index,
}

/// One vertex element as the device needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DevElement {
    pub offset: u32,
    pub components: u8,
    /// Instance divisor (0: per vertex).
    pub divisor: u32,
    /// What its words are (integer elements: SINT/UINT vertex formats).
    pub kind: crate::layout::ElementKind,
}

/// A render target sampled by a draw (render to texture): the device target, which of its
/// buffers, and the sampler state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DevSampledTarget {
    pub target: DevId,
    pub plane: TargetPlane,
    pub sampler: SamplerState,
}

/// Everything one device draw needs (ids are the device's own).
pub struct DevDraw<'a> {
    pub target: DevId,
    pub width: u32,
    pub height: u32,
    pub program: DevId,
    pub vbo: DevId,
    pub ibo: Option<DevId>,
    pub stride: u32,
    /// Elements in location order 0.. (a gap never occurs: missing locations are not read).
    pub elements: HVec<(u8, DevElement), LAYOUT_ELEMENTS_MAX>,
    /// Index count when indexed, else vertex count.
    pub count: u32,
    pub max_index: u32,
    pub depth_test: bool,
    /// With the test on: write depth.
    pub depth_write: bool,
    /// Back faces culled (`pipeline.cull` is Back; informational, `pipeline` decides).
    pub cull_back: bool,
    /// Blend, depth function, colour mask, scissor, polygon offset, front face, cull.
    pub pipeline: Pipeline,
    pub viewport: Viewport,
    pub textures: [Option<DevId>; TEXTURE_UNITS],
    /// Units that sample a render target of the same device context instead (a unit has a
    /// texture or a target, never both).
    pub target_textures: [Option<DevSampledTarget>; TEXTURE_UNITS],
    /// Instances (1: a plain draw).
    pub instances: u32,
    /// Units the fragment program samples (bit n = unit n); a sampled unit without a texture
    /// reads opaque black, as in GL and the software backend.
    pub sampled_units: u16,
    pub vs_constants: &'a [f32],
    pub fs_constants: &'a [f32],
}

/// TGSI text of one stage and an upper bound of its binary tokens.
#[derive(Clone, Copy, Debug)]
pub struct ShaderText<'a> {
    pub text: &'a str,
    pub tokens: u32,
}

/// Cumulative device counters (Gfx3D adds deltas to its statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceCounters {
    pub submits: u64,
    pub dwords: u64,
    pub backing_bytes: u64,
    pub objects_live: u32,
    pub objects_peak: u32,
}

pub trait Device {
    /// The device can do 3D now (negotiated VirGL, a usable capset, not dead).
    fn available(&self) -> bool;
    fn context_create(&mut self) -> Result<DevId, DeviceError>;
    /// Destroys the context and every resource created in it.
    fn context_destroy(&mut self, ctx: DevId);
    /// Colour (B8G8R8A8) + depth (Z32F) resources of `width` x `height`, initialised to what a
    /// new CPU target holds: colour 0 (transparent black) and depth 1.0.
    fn target_create(&mut self, ctx: DevId, width: u32, height: u32) -> Result<DevId, DeviceError>;
    /// Whether [`Device::target_create_format`] can make a target of `format` (RGBA8 always;
    /// devices without float targets keep this default).
    fn supports_target_format(&self, format: TargetFormat) -> bool {
        format == TargetFormat::Rgba8
    }
    /// [`Device::target_create`] with the colour format `format` (an RGBA32F colour is
    /// initialised to (0, 0, 0, 0) as well).
    fn target_create_format(
        &mut self,
        ctx: DevId,
        width: u32,
        height: u32,
        format: TargetFormat,
    ) -> Result<DevId, DeviceError> {
        match format {
            TargetFormat::Rgba8 => self.target_create(ctx, width, height),
            TargetFormat::Rgba32F => Err(DeviceError("this device has no RGBA32F targets")),
        }
    }
    fn target_destroy(&mut self, ctx: DevId, target: DevId);
    /// Gives the target's colour the mip chain `levels` (level 0 first: the colour as drawn,
    /// `width` x `height`, then the box-filtered levels) for sampling it as a texture, until
    /// the next call; an empty `levels` drops the chain (the target is drawn into again).
    /// Devices without target mip levels keep this default.
    fn target_set_levels(
        &mut self,
        _ctx: DevId,
        _target: DevId,
        _width: u32,
        _height: u32,
        levels: &[&[u32]],
    ) -> Result<(), DeviceError> {
        if levels.is_empty() {
            Ok(())
        } else {
            Err(DeviceError("this device has no target mip levels"))
        }
    }
    /// Builds mip levels 1, 2, ... (down to 1x1) of the target's colour on the device from
    /// what was drawn into it, without a transfer; sampling the colour then reads the chain
    /// until `target_set_levels(.., &[])` (the target is drawn into again). Devices that
    /// cannot keep this default.
    fn target_generate_levels(&mut self, _ctx: DevId, _target: DevId) -> Result<(), DeviceError> {
        Err(DeviceError("this device cannot generate target mip levels"))
    }
    fn buffer_create(
        &mut self,
        ctx: DevId,
        kind: BufferKind,
        bytes: &[u8],
    ) -> Result<DevId, DeviceError>;
    fn buffer_destroy(&mut self, ctx: DevId, buffer: DevId);
    /// Texels 0xAARRGGBB, row 0 first.
    fn texture_create(
        &mut self,
        ctx: DevId,
        width: u32,
        height: u32,
        texels: &[u32],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError>;
    /// Whether [`Device::texture_create_cube`] makes cube textures (a cube texture at a draw
    /// on a device without them is `Error::CubeUnsupported`).
    fn supports_cube_textures(&self) -> bool {
        false
    }
    /// A cube texture of six `size` x `size` faces (`faces[f]`: face f, +x, -x, +y, -y, +z,
    /// -z; texels as [`Device::texture_create`]), destroyed with [`Device::texture_destroy`].
    /// Devices without cube textures keep this default.
    fn texture_create_cube(
        &mut self,
        _ctx: DevId,
        _size: u32,
        _faces: [&[u32]; 6],
        _sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        Err(DeviceError("this device has no cube textures"))
    }
    /// [`Device::texture_create`] with mip levels: `levels[l]` is level l (level 0 first,
    /// max(1, width >> l) x max(1, height >> l) texels). Devices without mip levels keep this
    /// default, which makes a level-0 texture (`levels` empty is an error).
    fn texture_create_levels(
        &mut self,
        ctx: DevId,
        width: u32,
        height: u32,
        levels: &[&[u32]],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        match levels.first() {
            Some(l0) => self.texture_create(ctx, width, height, l0, sampler),
            None => Err(DeviceError("a texture needs level 0")),
        }
    }
    /// [`Device::texture_create_cube`] with mip levels: `faces[f][l]` is level l of face f
    /// (every face the same count). The default makes a level-0 cube.
    fn texture_create_cube_levels(
        &mut self,
        ctx: DevId,
        size: u32,
        faces: [&[&[u32]]; 6],
        sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        let mut l0: [&[u32]; 6] = [&[]; 6];
        for (d, f) in l0.iter_mut().zip(faces.iter()) {
            *d = f
                .first()
                .copied()
                .ok_or(DeviceError("a cube face needs level 0"))?;
        }
        self.texture_create_cube(ctx, size, l0, sampler)
    }
    /// Whether [`Device::texture_create_array`] makes 2D array textures (an array texture at
    /// a draw on a device without them is `Error::ArrayUnsupported`).
    fn supports_array_textures(&self) -> bool {
        false
    }
    /// A 2D array texture of `layers.len()` layers of `width` x `height` texels:
    /// `layers[z][l]` is level l of layer z (texels as [`Device::texture_create_levels`],
    /// every layer the same count), destroyed with [`Device::texture_destroy`]. Devices
    /// without array textures keep this default.
    fn texture_create_array(
        &mut self,
        _ctx: DevId,
        _width: u32,
        _height: u32,
        _layers: &[&[&[u32]]],
        _sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        Err(DeviceError("this device has no array textures"))
    }
    /// Whether [`Device::texture_create_ints`] makes integer textures (an integer texture at
    /// a draw on a device without them is `Error::TextureFormatOp`).
    fn supports_integer_textures(&self) -> bool {
        false
    }
    /// An RGBA32I (`signed`) / RGBA32UI texture of `width` x `height` texels of four 32-bit
    /// words (r, g, b, a), row 0 first, level 0 only, destroyed with
    /// [`Device::texture_destroy`]. Devices without integer textures keep this default.
    fn texture_create_ints(
        &mut self,
        _ctx: DevId,
        _width: u32,
        _height: u32,
        _words: &[[u32; 4]],
        _signed: bool,
        _sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        Err(DeviceError("this device has no integer textures"))
    }
    /// An RGBA32I (`signed`) / RGBA32UI 2D array texture of `layers.len()` layers of `width`
    /// x `height` texels of four words (`layers[z]`: layer z's texels, row 0 first), level 0
    /// only, destroyed with [`Device::texture_destroy`]. Devices without integer array
    /// textures keep this default.
    fn texture_create_array_ints(
        &mut self,
        _ctx: DevId,
        _width: u32,
        _height: u32,
        _layers: &[&[[u32; 4]]],
        _signed: bool,
        _sampler: SamplerState,
    ) -> Result<DevId, DeviceError> {
        Err(DeviceError("this device has no integer array textures"))
    }
    fn texture_destroy(&mut self, ctx: DevId, texture: DevId);
    /// Creates and links the vertex and fragment shaders of one program.
    fn program_create(
        &mut self,
        ctx: DevId,
        vs: ShaderText<'_>,
        fs: ShaderText<'_>,
    ) -> Result<DevId, DeviceError>;
    fn program_destroy(&mut self, ctx: DevId, program: DevId);
    fn frame_begin(&mut self, ctx: DevId) -> Result<(), DeviceError>;
    /// Clears colour (and depth to 1.0 when asked) of the whole target.
    fn clear(
        &mut self,
        ctx: DevId,
        target: DevId,
        rgba: [f32; 4],
        depth: bool,
    ) -> Result<(), DeviceError>;
    /// `clear` with the depth cleared to `depth` when given (a value in [0, 1]). Devices that
    /// only clear to 1.0 keep this default.
    fn clear_to(
        &mut self,
        ctx: DevId,
        target: DevId,
        rgba: [f32; 4],
        depth: Option<f32>,
    ) -> Result<(), DeviceError> {
        self.clear(ctx, target, rgba, depth.is_some())
    }
    fn draw(&mut self, ctx: DevId, draw: &DevDraw<'_>) -> Result<(), DeviceError>;
    /// Submits the frame's work and waits for it.
    fn frame_end(&mut self, ctx: DevId) -> Result<(), DeviceError>;
    /// Transfers the colour back into `out` (row 0 = top, 0xAARRGGBB).
    fn read_target(
        &mut self,
        ctx: DevId,
        target: DevId,
        out: &mut [u32],
    ) -> Result<(), DeviceError>;
    /// Transfers an RGBA32F target's colour back into `out` as floats (r, g, b, a; row 0 =
    /// top).
    fn read_target_float(
        &mut self,
        _ctx: DevId,
        _target: DevId,
        _out: &mut [[f32; 4]],
    ) -> Result<(), DeviceError> {
        Err(DeviceError("this device has no RGBA32F targets"))
    }
    /// Makes the target's colour the scanout (upright) and flushes it.
    fn present(&mut self, ctx: DevId, target: DevId) -> Result<(), DeviceError>;
    /// Restores the 2D console scanout.
    fn scanout_primary(&mut self) -> Result<(), DeviceError>;
    fn counters(&self) -> DeviceCounters;
}
