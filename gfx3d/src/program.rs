//! What Gfx3D needs from a linked shader program, as a trait.
//!
//! Gfx3D never compiles or links: it receives a linked program from the shader subsystem and
//! uses it through this trait (reflection of the attributes it reads, uniforms by name, the
//! generation stamp used for hot refresh, TGSI for VirGL, software execution). The shader crate's
//! program implements it in `shader_program.rs`; tests may implement it with fakes.
//!
//! This module must never hold Gfx3D state or know about handles or backends.

use alloc::string::String;
use heapless::Vec as HVec;

use crate::layout::VertexLayout;
use crate::limits::{ATTRIBUTE_LOCATIONS, TEXTURE_UNITS};
use crate::state::Pipeline;
use crate::texture::SamplerState;
use shader::back::raster::parallel::Workers;

/// An attribute the vertex stage reads: location and component count (1..=4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeReq {
    pub location: u8,
    pub components: u8,
}

/// Attributes a program reads (at most one per location).
pub type Attributes = HVec<AttributeReq, { ATTRIBUTE_LOCATIONS as usize }>;

/// Why setting a uniform failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformError {
    /// The program declares no uniform of that name.
    NoSuchUniform,
    /// The number of floats does not fit the uniform's type.
    Size { found: usize },
}

/// Shader stage, for TGSI and constant buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Vertex,
    Fragment,
}

/// A texture as the software rasterizer samples it.
#[derive(Clone, Copy, Debug)]
pub struct SoftTexture<'a> {
    pub width: u32,
    pub height: u32,
    /// Row 0 first, 0xAARRGGBB.
    pub texels: &'a [u32],
    pub sampler: SamplerState,
    /// A render target's float depth instead of texels (reads (d, d, d, 1)).
    pub depth: Option<&'a [f32]>,
    /// A float render target's colour instead of texels (unclamped (r, g, b, a)).
    pub rgba: Option<&'a [[f32; 4]]>,
    /// An integer texture's words instead of texels (RGBA32I/RGBA32UI, level 0).
    pub ints: Option<&'a [[u32; 4]]>,
    /// Mip levels 1, 2, ... of a texture (empty for targets).
    pub mips: &'a [&'a [u32]],
    /// A cube texture's faces 1..=5 as (texels, levels 1, 2, ...); empty for a 2D texture.
    pub faces: &'a [(&'a [u32], &'a [&'a [u32]])],
    /// An array texture's layers as (texels, levels 1, 2, ...), layer 0 first (its are
    /// `texels` and `mips` again); empty for a texture that is not an array.
    pub layers: &'a [(&'a [u32], &'a [&'a [u32]])],
    /// An integer array texture's layers' words (RGBA32I/RGBA32UI, level 0), layer 0 first
    /// (its are `ints` again); empty for any other texture.
    pub int_layers: &'a [&'a [[u32; 4]]],
}

/// The viewport in GL convention: (x, y) is the lower-left corner in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// One software draw: everything the rasterizer needs besides the program and the target.
pub struct SoftDraw<'a> {
    /// Runs the bands the draw is split into (`shader::back::raster::parallel`).
    pub workers: &'a dyn Workers,
    pub layout: &'a VertexLayout,
    /// Vertex floats; vertex i starts at float `i * stride / 4`.
    pub vertices: &'a [f32],
    /// Indices (already range-checked against the vertex count), or sequential vertices.
    pub indices: Option<&'a [u16]>,
    pub textures: [Option<SoftTexture<'a>>; TEXTURE_UNITS],
    /// Instances to draw (1 for a plain draw); per-instance layout elements read row
    /// `instance / divisor`.
    pub instances: u32,
    pub viewport: Viewport,
    pub depth_test: bool,
    /// With the test on: write depth.
    pub depth_write: bool,
    /// Back faces culled (`pipeline.cull` is Back; informational, `pipeline` decides).
    pub cull_back: bool,
    /// Blend, depth function, colour mask, scissor, polygon offset, front face, cull.
    pub pipeline: Pipeline,
}

/// The CPU target a software draw writes: row 0 is the top of the picture, 0xAARRGGBB.
pub struct SoftTarget<'a> {
    pub width: u32,
    pub height: u32,
    pub color: &'a mut [u32],
    pub depth: &'a mut [f32],
    /// A float target's colour (then `color` is empty); empty for an RGBA8 target.
    pub colorf: &'a mut [[f32; 4]],
}

/// A linked program as Gfx3D uses it.
pub trait ShaderProgram {
    /// True once the program has linked successfully at least once.
    fn is_linked(&self) -> bool;
    /// Changes whenever a link succeeds (hot refresh compares it to the uploaded stamp).
    fn generation(&self) -> u32;
    /// The vertex attributes the program reads.
    fn attributes(&self) -> Attributes;
    /// The component kind the attribute at `location` needs (profile 2's `int`/`uint`
    /// attributes take I32/U32 elements); F32 unless a program says otherwise.
    fn attribute_kind(&self, location: u8) -> crate::layout::ElementKind {
        let _ = location;
        crate::layout::ElementKind::F32
    }
    fn has_uniform(&self, name: &str) -> bool;
    /// Writes a uniform by name: mat4 takes 16 floats, mat3 9 (both column-major), vecN N.
    fn set_uniform(&mut self, name: &str, values: &[f32]) -> Result<(), UniformError>;
    /// Runs the program over the triangles of `draw` into `target`; returns triangles drawn
    /// (after culling and clipping).
    fn draw_software(
        &mut self,
        draw: &SoftDraw<'_>,
        target: &mut SoftTarget<'_>,
    ) -> Result<u32, &'static str>;
    /// Appends this stage's TGSI text (for VirGL), the varying remap applied; returns an upper
    /// bound of its binary tokens (CREATE_OBJECT(SHADER) needs one).
    fn tgsi(&self, stage: Stage, out: &mut String) -> Result<u32, &'static str>;
    /// This stage's uniform storage as constant-buffer words (a multiple of 4 floats, only the
    /// slots in use).
    fn constants(&self, stage: Stage) -> &[f32];
    /// Texture units the fragment stage samples (bit n = unit n).
    fn sampler_units(&self) -> u16;
    /// Units whose sampler is an integer one (isampler2D/usampler2D; bit n = unit n): a draw
    /// needs an RGBA32I (isampler2D) / RGBA32UI (usampler2D) texture bound there.
    fn integer_sampler_units(&self) -> u16 {
        0
    }
    /// The subset of [`ShaderProgram::integer_sampler_units`] that are usampler2D or
    /// usampler2DArray.
    fn unsigned_sampler_units(&self) -> u16 {
        0
    }
    /// Units whose sampler is an array sampler (sampler2DArray, isampler2DArray,
    /// usampler2DArray; bit n = unit n): a draw needs an array texture bound there, and an
    /// array texture is sampled by nothing else.
    fn array_sampler_units(&self) -> u16 {
        0
    }
}
