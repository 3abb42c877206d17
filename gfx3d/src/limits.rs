//! Every fixed capacity and range of the Gfx3D API, in one place. These numbers are part of the
//! contract (see the specification chapter): keep them exact. Nothing else belongs here.

/// Live contexts at once.
pub const CONTEXT_MAX: usize = 8;
/// Live render targets at once.
pub const TARGET_MAX: usize = 8;
/// Live meshes at once.
pub const MESH_MAX: usize = 48;
/// Live textures at once.
pub const TEXTURE_MAX: usize = 24;
/// Live program instances at once.
pub const PROGRAM_MAX: usize = 16;
/// Slots of every table above held back for the kernel owner (0): other owners together can fill
/// at most `capacity - KERNEL_RESERVED` slots while the kernel owns fewer than this many objects
/// of the kind, so the kernel can always create one of each object.
pub const KERNEL_RESERVED: usize = 1;

/// Render-target width range (inclusive).
pub const TARGET_WIDTH_MAX: u32 = 1920;
/// Render-target height range (inclusive).
pub const TARGET_HEIGHT_MAX: u32 = 1080;
/// Texture width and height range (inclusive, both axes).
pub const TEXTURE_SIZE_MAX: u32 = 1024;
/// Layers of a 2D array texture (`tex_create_array`, inclusive range 1..=256): GL 3.3's
/// guaranteed MAX_ARRAY_TEXTURE_LAYERS and the shader executor's `ARRAY_LAYERS_MAX`.
pub const TEXTURE_LAYERS_MAX: u32 = 256;
/// Bytes of level 0 of all the layers of one array texture (width x height x layers x 4): 32
/// MiB, so the whole mip chain (a third more) fits one VirGL resource's 64 MiB guest backing.
pub const TEXTURE_ARRAY_BYTES_MAX: u64 = 32 << 20;

/// Vertex-layout elements (and attribute locations are below this).
pub const LAYOUT_ELEMENTS_MAX: usize = 8;
/// Attribute locations are `0..ATTRIBUTE_LOCATIONS`.
pub const ATTRIBUTE_LOCATIONS: u8 = 8;
/// Smallest accepted vertex stride in bytes (one float).
pub const STRIDE_MIN: u32 = 4;
/// Largest accepted vertex stride in bytes (GL's minimum guaranteed MAX_VERTEX_ATTRIB_STRIDE,
/// so every stride we accept is also accepted by the device).
pub const STRIDE_MAX: u32 = 2048;

/// Vertices the incremental mesh builder accepts per mesh.
pub const BUILDER_VERTEX_MAX: usize = 8192;
/// Initial capacity of the builder's accumulator (it doubles up to the cap).
pub const BUILDER_INITIAL_CAPACITY: usize = 64;
/// Bytes per vertex of the builder's canonical finished layout.
pub const CANONICAL_STRIDE: u32 = 40;

/// Largest viewport edge and offset magnitude, in pixels (both backends accept this range).
pub const VIEWPORT_MAX: u32 = 8192;

/// Instances one `draw_instanced` may draw (`1..=INSTANCES_MAX`).
pub const INSTANCES_MAX: u32 = 4096;

/// Texture units a context can bind (`0..TEXTURE_UNITS`): 16, profile 2's sampler limit and
/// virglrenderer's per-stage sampler-state and sampler-view limit (PIPE_MAX_SAMPLERS).
pub const TEXTURE_UNITS: usize = 16;

/// Bytes the mock backend's log keeps; further entries are dropped and counted.
pub const MOCK_LOG_BYTES: usize = 1024;
