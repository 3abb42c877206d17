//! The error type of every Gfx3D call: what was found, what is allowed, and the limit when one was
//! hit. Rendering errors to text happens only in `Display`; nothing here decides policy.

use core::fmt;

/// The kind of object a handle names (used in error messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    Context,
    Target,
    Mesh,
    Texture,
    Program,
}

impl ObjectKind {
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Context => "context",
            ObjectKind::Target => "target",
            ObjectKind::Mesh => "mesh",
            ObjectKind::Texture => "texture",
            ObjectKind::Program => "program",
        }
    }
}

/// Why a vertex layout was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// Stride outside `STRIDE_MIN..=STRIDE_MAX` or not a multiple of 4.
    Stride { stride: u32 },
    /// Element count outside `1..=LAYOUT_ELEMENTS_MAX`.
    ElementCount { count: usize },
    /// Location not below `ATTRIBUTE_LOCATIONS`.
    Location { element: usize, location: u8 },
    /// Two elements feed the same location.
    DuplicateLocation { location: u8 },
    /// Components outside 1..=4.
    Components { element: usize, components: u8 },
    /// Offset not 4-byte aligned (elements are floats).
    Unaligned { element: usize, offset: u32 },
    /// `offset + 4 * components` is beyond the stride.
    OutsideStride {
        element: usize,
        end: u32,
        stride: u32,
    },
    /// Vertex bytes are empty or not a multiple of the stride.
    VertexBytes { bytes: usize, stride: u32 },
    /// The program reads a location the layout does not supply.
    MissingAttribute { location: u8 },
    /// An instance divisor for a location the layout has no element at.
    DivisorWithoutElement { location: u8 },
    /// The layout supplies fewer components than the program's attribute has.
    TooFewComponents {
        location: u8,
        supplied: u8,
        required: u8,
    },
    /// A component kind for a location the layout has no element at.
    KindWithoutElement { location: u8 },
    /// The element's component kind does not fit the program's attribute (a float element for
    /// an `int`/`uint` attribute or an integer element for a float one).
    KindMismatch {
        location: u8,
        supplied: crate::layout::ElementKind,
        required: crate::layout::ElementKind,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::limits::*;
        match *self {
            LayoutError::Stride { stride } => write!(
                f,
                "vertex stride {} is invalid (allowed: a multiple of 4 in {}..={})",
                stride, STRIDE_MIN, STRIDE_MAX
            ),
            LayoutError::ElementCount { count } => write!(
                f,
                "layout has {} elements (allowed: 1..={})",
                count, LAYOUT_ELEMENTS_MAX
            ),
            LayoutError::Location { element, location } => write!(
                f,
                "layout element {} uses location {} (allowed: 0..{})",
                element, location, ATTRIBUTE_LOCATIONS
            ),
            LayoutError::DuplicateLocation { location } => {
                write!(f, "layout uses location {} twice", location)
            }
            LayoutError::Components { element, components } => write!(
                f,
                "layout element {} has {} components (allowed: 1..=4)",
                element, components
            ),
            LayoutError::Unaligned { element, offset } => write!(
                f,
                "layout element {} has offset {} (must be a multiple of 4)",
                element, offset
            ),
            LayoutError::OutsideStride { element, end, stride } => write!(
                f,
                "layout element {} ends at byte {}, beyond the stride {}",
                element, end, stride
            ),
            LayoutError::VertexBytes { bytes, stride } => write!(
                f,
                "{} vertex bytes is not a positive multiple of the stride {}",
                bytes, stride
            ),
            LayoutError::MissingAttribute { location } => write!(
                f,
                "vertex layout mismatch: the program reads location {} and the layout has no element there",
                location
            ),
            LayoutError::DivisorWithoutElement { location } => write!(
                f,
                "instance divisor for location {}, which has no layout element",
                location
            ),
            LayoutError::TooFewComponents { location, supplied, required } => write!(
                f,
                "vertex layout mismatch: location {} supplies {} components, the program needs {}",
                location, supplied, required
            ),
            LayoutError::KindWithoutElement { location } => write!(
                f,
                "component kind for location {}, which has no layout element",
                location
            ),
            LayoutError::KindMismatch { location, supplied, required } => {
                let what = match required {
                    crate::layout::ElementKind::F32 => "a float attribute",
                    crate::layout::ElementKind::I32 => "an int attribute",
                    crate::layout::ElementKind::U32 => "a uint attribute",
                };
                write!(
                    f,
                    "vertex layout mismatch: location {} is {} and needs {} elements, the layout supplies {} ({})",
                    location,
                    what,
                    required.name(),
                    supplied.name(),
                    if required == crate::layout::ElementKind::F32 {
                        "integer elements feed only int/uint attributes"
                    } else {
                        "an integer attribute takes integer elements, as glVertexAttribIPointer"
                    }
                )
            }
        }
    }
}

/// Every failure of the Gfx3D API.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// Boot with forced VirGL and no usable device.
    VirglUnavailable,
    /// Forced VirGL was selected but the device is lost: frames are refused.
    ForcedVirglUnavailable,
    /// A device call failed under forced VirGL (AUTO would have degraded instead).
    Device {
        what: &'static str,
    },
    /// A handle is zero-free but names no live object of that kind of this owner (destroyed,
    /// stale, a foreign slot index, or an object of another owner: the same answer for all).
    StaleHandle {
        kind: ObjectKind,
    },
    /// The table of that kind is full for this owner: `reserved` slots of it are held back for
    /// the kernel owner (0 when the kernel itself asked).
    TableFull {
        kind: ObjectKind,
        capacity: usize,
        reserved: usize,
    },
    /// An object belongs to a different context than the one given.
    WrongContext {
        kind: ObjectKind,
    },
    BadTargetSize {
        width: u32,
        height: u32,
    },
    BadTextureSize {
        width: u32,
        height: u32,
    },
    /// A sampler state with a LOD bias, min or max that is not finite, beyond +-1000, or
    /// min > max.
    BadSampler,
    /// More mip levels than the chain of the texture's size has (`max` below level 0).
    BadMipLevel {
        level: u32,
        max: u32,
    },
    /// Pixel count given does not match the object's size.
    PixelCount {
        found: usize,
        expected: usize,
    },
    /// Destination too small for a readback.
    ReadbackCapacity {
        found: usize,
        expected: usize,
    },
    Layout(LayoutError),
    /// An index refers past the last vertex.
    IndexOutOfRange {
        index: u16,
        vertices: usize,
    },
    /// Index count is not a positive multiple of 3.
    IndexCount {
        count: usize,
    },
    /// Fewer than 3 vertices or indices: nothing to draw.
    NoTriangles,
    MeshNotUploaded,
    /// The builder already holds `BUILDER_VERTEX_MAX` vertices.
    BuilderFull,
    /// `finish` with fewer than 3 accumulated vertices.
    BuilderTooFew {
        vertices: usize,
    },
    ProgramNotLinked,
    /// The program cannot be prepared for the device (its TGSI cannot be emitted, e.g. it is
    /// over the VirGL budget, or the encoder refused its shaders). A program error, never a
    /// device loss: the device and every other program keep working.
    ProgramUnsupported {
        what: &'static str,
    },
    /// A frame call without `begin`.
    NoFrame,
    /// `begin` while a frame is already open on that context.
    FrameOpen,
    /// `draw` with no program bound.
    NoProgram,
    /// A uniform call (`call` names it) with no program bound in the context.
    NoBoundProgram {
        call: &'static str,
    },
    /// The bound program has no uniform of that name.
    NoSuchUniform,
    /// A uniform value with the wrong number of floats for its type.
    UniformSize {
        found: usize,
    },
    TextureUnit {
        unit: u32,
    },
    BadViewport {
        x: i32,
        y: i32,
        width: u32,
        height: u32,
    },
    /// The rasterizer refused the draw.
    Raster {
        reason: &'static str,
    },
    /// A pipeline-state value that cannot be used (the text says which and why).
    BadState {
        what: &'static str,
    },
    /// A raw number that is not a value of the enum.
    BadEnum {
        what: &'static str,
        value: u32,
    },
    /// The active backend cannot create a render target of this colour format.
    TargetFormatUnsupported {
        format: &'static str,
        backend: &'static str,
    },
    /// A draw samples the target it draws into, or a target is bound as a texture while its
    /// frame is open (render to texture needs the frame that rendered it to have ended).
    SampleTargetInFrame,
    /// A cube texture's faces must be square (`tex_create_cube`).
    CubeNotSquare {
        width: u32,
        height: u32,
    },
    /// A face index outside 0..6, or a face other than 0 of a 2D texture.
    BadCubeFace {
        face: u32,
        cube: bool,
    },
    /// A cube texture where the call takes 2D textures only (`tex_levels`), or a cube
    /// bound on a device backend without cube textures (`Device::supports_cube_textures`).
    CubeUnsupported {
        what: &'static str,
    },
    /// A draw whose program has an isampler2D/usampler2D on `unit` with no integer texture
    /// bound there (nothing, or a render target: Gfx3D has no integer targets), so the draw
    /// is refused.
    IntegerSamplerUnsupported {
        unit: u32,
    },
    /// A draw whose program's sampler on `unit` does not match the bound texture's format:
    /// an isampler2D needs RGBA32I, a usampler2D RGBA32UI, a float sampler RGBA8 (GL's
    /// undefined format mismatch, refused).
    TextureFormatMismatch {
        unit: u32,
        sampler: &'static str,
        format: &'static str,
    },
    /// A draw sampling an integer texture on `unit` whose sampler state is not NEAREST
    /// (min and mag filter NEAREST, no mip filter): GL makes it incomplete, Gfx3D refuses.
    IntegerTextureFilter {
        unit: u32,
    },
    /// An operation the texture's format does not have (8-bit upload or mip levels on an
    /// integer texture, integer upload on an RGBA8 one, integer textures on a device without
    /// them).
    TextureFormatOp {
        what: &'static str,
    },
    /// An array texture's layer count outside `1..=TEXTURE_LAYERS_MAX`, or more layers of
    /// `width` x `height` than `TEXTURE_ARRAY_BYTES_MAX` holds (`tex_create_array`).
    BadLayerCount {
        layers: u32,
        width: u32,
        height: u32,
    },
    /// A layer index at or past the array's `layers` (0: the texture is not an array).
    BadArrayLayer {
        layer: u32,
        layers: u32,
    },
    /// A draw whose program's sampler on `unit` and the texture bound there disagree on being
    /// an array: a sampler2DArray needs an array texture (`array_sampler`), any other sampler
    /// a texture that is not one. GL leaves it undefined; Gfx3D refuses it.
    ArraySamplerMismatch {
        unit: u32,
        array_sampler: bool,
    },
    /// A draw sampling an array texture whose layer `layer` has `levels` mip levels where
    /// layer 0 has `expected` (every layer of an array has the same levels).
    ArrayLevelMismatch {
        layer: u32,
        levels: u32,
        expected: u32,
    },
    /// An array texture where the call or the device backend has none.
    ArrayUnsupported {
        what: &'static str,
    },
    /// An instance count outside `1..=INSTANCES_MAX`.
    InstanceCount {
        instances: u32,
    },
    /// A per-instance element needs more vertex rows than the mesh has.
    InstanceRows {
        location: u8,
        needed: u64,
        rows: usize,
    },
    /// Lines and points are not drawn by either backend (triangles only).
    PrimitiveUnsupported {
        what: &'static str,
    },
    /// Presentation needs the VirGL backend.
    NotVirgl,
    OutOfMemory {
        bytes: usize,
    },
}

impl From<LayoutError> for Error {
    fn from(e: LayoutError) -> Error {
        Error::Layout(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::limits::*;
        match self {
            Error::VirglUnavailable => f.write_str("virgl unavailable"),
            Error::ForcedVirglUnavailable => f.write_str("forced virgl unavailable"),
            Error::Device { what } => write!(f, "virgl device failure: {}", what),
            Error::StaleHandle { kind } => write!(
                f,
                "{} handle is not live (destroyed or invalid)",
                kind.name()
            ),
            Error::TableFull {
                kind,
                capacity,
                reserved: 0,
            } => write!(f, "{} table full (capacity {})", kind.name(), capacity),
            Error::TableFull {
                kind,
                capacity,
                reserved,
            } => write!(
                f,
                "{} table full (capacity {}, {} reserved for the kernel)",
                kind.name(),
                capacity,
                reserved
            ),
            Error::WrongContext { kind } => {
                write!(f, "{} belongs to a different context", kind.name())
            }
            Error::BadTargetSize { width, height } => write!(
                f,
                "bad target size {}x{} (allowed: 1x1..{}x{})",
                width, height, TARGET_WIDTH_MAX, TARGET_HEIGHT_MAX
            ),
            Error::BadTextureSize { width, height } => write!(
                f,
                "bad texture size {}x{} (allowed: 1..={} in both axes)",
                width, height, TEXTURE_SIZE_MAX
            ),
            Error::PixelCount { found, expected } => {
                write!(f, "{} pixels given, the object has {}", found, expected)
            }
            Error::BadSampler => f.write_str(
                "bad sampler state: LOD bias, min and max must be finite, within -1000..=1000, min <= max",
            ),
            Error::BadMipLevel { level, max } => write!(
                f,
                "mip level {} does not exist: this texture's chain has levels 1..={} below level 0",
                level, max
            ),
            Error::ReadbackCapacity { found, expected } => write!(
                f,
                "readback destination holds {} pixels, the target has {}",
                found, expected
            ),
            Error::Layout(e) => write!(f, "{}", e),
            Error::IndexOutOfRange { index, vertices } => write!(
                f,
                "index {} is out of range (the mesh has {} vertices)",
                index, vertices
            ),
            Error::IndexCount { count } => {
                write!(f, "{} indices is not a positive multiple of 3", count)
            }
            Error::NoTriangles => f.write_str("mesh has no triangle"),
            Error::MeshNotUploaded => f.write_str("mesh has not been uploaded"),
            Error::BuilderFull => write!(
                f,
                "mesh vertex cap ({} vertices) reached",
                BUILDER_VERTEX_MAX
            ),
            Error::BuilderTooFew { vertices } => write!(
                f,
                "mesh builder holds {} vertices (at least 3 needed)",
                vertices
            ),
            Error::ProgramNotLinked => f.write_str("program not linked"),
            Error::ProgramUnsupported { what } => {
                write!(f, "program cannot be prepared for the device: {}", what)
            }
            Error::NoFrame => f.write_str("no frame is open on this context (call begin first)"),
            Error::FrameOpen => f.write_str("a frame is already open on this context"),
            Error::NoProgram => f.write_str("draw missing bind: no program is in use"),
            Error::NoBoundProgram { call } => {
                write!(f, "{}: no program bound in this context", call)
            }
            Error::NoSuchUniform => f.write_str("the bound program has no uniform of that name"),
            Error::UniformSize { found } => {
                write!(f, "uniform value of {} floats does not fit its type", found)
            }
            Error::TextureUnit { unit } => {
                write!(f, "texture unit {} (allowed: 0..{})", unit, TEXTURE_UNITS)
            }
            Error::BadViewport {
                x,
                y,
                width,
                height,
            } => write!(
                f,
                "bad viewport {},{} {}x{} (width and height 1..={}, |x| and |y| at most {})",
                x, y, width, height, VIEWPORT_MAX, VIEWPORT_MAX
            ),
            Error::Raster { reason } => write!(f, "software draw failed: {}", reason),
            Error::BadState { what } => write!(f, "bad pipeline state: {}", what),
            Error::BadEnum { what, value } => {
                write!(f, "unknown {} value {:#x}", what, value)
            }
            Error::TargetFormatUnsupported { format, backend } => write!(
                f,
                "render target format {} is not supported on the {} backend",
                format, backend
            ),
            Error::CubeNotSquare { width, height } => write!(
                f,
                "cube texture faces must be square; found {}x{}",
                width, height
            ),
            Error::BadCubeFace { face, cube } => {
                if *cube {
                    write!(f, "cube face {} out of range (faces are 0..=5: +x, -x, +y, -y, +z, -z)", face)
                } else {
                    write!(f, "face {} of a 2D texture (only cube textures have faces 1..=5)", face)
                }
            }
            Error::CubeUnsupported { what } => write!(f, "cube textures are not supported {}", what),
            Error::IntegerSamplerUnsupported { unit } => write!(
                f,
                "the program's integer sampler (isampler2D, usampler2D, isampler2DArray, usampler2DArray) on texture unit {} needs an integer texture (RGBA32I/RGBA32UI) bound there (none is, or a render target is)",
                unit
            ),
            Error::TextureFormatMismatch {
                unit,
                sampler,
                format,
            } => write!(
                f,
                "texture unit {}: the program's {} cannot sample a {} texture (isampler2D and isampler2DArray need RGBA32I, usampler2D and usampler2DArray RGBA32UI, float samplers RGBA8)",
                unit, sampler, format
            ),
            Error::IntegerTextureFilter { unit } => write!(
                f,
                "texture unit {}: an integer texture is sampled with NEAREST filters only (min and mag NEAREST, no mip filter)",
                unit
            ),
            Error::TextureFormatOp { what } => f.write_str(what),
            Error::SampleTargetInFrame => f.write_str(
                "render target sampled while its frame is open (a draw cannot sample the target it draws into; end its frame first)",
            ),
            Error::BadLayerCount {
                layers,
                width,
                height,
            } => write!(
                f,
                "bad array texture layer count {} of {}x{} (allowed: 1..={} layers, at most {} bytes of level-0 texels)",
                layers, width, height, TEXTURE_LAYERS_MAX, TEXTURE_ARRAY_BYTES_MAX
            ),
            Error::BadArrayLayer { layer, layers } => {
                if *layers == 0 {
                    write!(f, "layer {} of a texture that is not an array (only array textures have layers)", layer)
                } else {
                    write!(f, "array layer {} out of range (the array has layers 0..={})", layer, layers - 1)
                }
            }
            Error::ArraySamplerMismatch { unit, array_sampler } => {
                if *array_sampler {
                    write!(f, "texture unit {}: the program's array sampler (sampler2DArray, isampler2DArray or usampler2DArray) needs an array texture (tex_create_array, tex_create_array_format) bound there", unit)
                } else {
                    write!(f, "texture unit {}: an array texture is bound there, but the program's sampler there is not an array sampler (sampler2DArray, isampler2DArray, usampler2DArray)", unit)
                }
            }
            Error::ArrayLevelMismatch { layer, levels, expected } => write!(
                f,
                "array texture layer {} has {} mip levels, layer 0 has {} (every layer needs the same levels)",
                layer, levels, expected
            ),
            Error::ArrayUnsupported { what } => write!(f, "array textures are not supported {}", what),
            Error::InstanceCount { instances } => write!(
                f,
                "instance count {} (allowed: 1..={})",
                instances, INSTANCES_MAX
            ),
            Error::InstanceRows {
                location,
                needed,
                rows,
            } => write!(
                f,
                "per-instance attribute at location {} needs {} vertex rows, the mesh has {}",
                location, needed, rows
            ),
            Error::PrimitiveUnsupported { what } => {
                write!(f, "{} are not supported (triangles only)", what)
            }
            Error::NotVirgl => f.write_str("presentation needs the virgl backend"),
            Error::OutOfMemory { bytes } => write!(f, "allocation of {} bytes failed", bytes),
        }
    }
}

pub type Result<T> = core::result::Result<T, Error>;
