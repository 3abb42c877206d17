//! Every fixed capacity of the virtio-gpu crate, in one place.
//!
//! Owns: the numeric limits the encoder, the pools and the device driver enforce.
//! Must never: hold state or depend on another module of this crate.

/// Largest VirGL batch (one SUBMIT_3D payload) in dwords. 16 KiB, so the command DMA of the
/// device driver stays a handful of pages.
pub const MAX_BATCH_DWORDS: usize = 4096;
/// Smallest batch a `CommandBuffer` accepts: the biggest fixed-size command (CREATE_OBJECT BLEND,
/// 12 dwords) plus the shader/inline-write headers must always fit.
pub const MIN_BATCH_DWORDS: usize = 64;
/// Default batch capacity used by the scenes and the kernel.
pub const DEFAULT_BATCH_DWORDS: usize = 4096;

/// Live VirGL object handles per context (shaders, pipe states, surfaces, views, ...).
pub const MAX_OBJECT_HANDLES: u32 = 1024;
/// Live virtio-gpu contexts per device.
pub const MAX_CONTEXTS: u32 = 64;
/// Live resources per device.
pub const MAX_RESOURCES: u32 = 512;

/// Constant-buffer size per shader stage, in vec4 (the shader contract).
pub const MAX_CONSTANT_VEC4: usize = 32;
/// Texture units the encoder binds (sampler views and sampler states): virglrenderer's
/// PIPE_MAX_SAMPLERS (16) per stage; it takes up to 32 views, but a view needs its state.
pub const MAX_SAMPLER_UNITS: usize = 16;
/// Vertex elements per vertex-elements object (the attribute limit of the shader contract).
pub const MAX_VERTEX_ELEMENTS: usize = 8;
/// Vertex buffers bound at once.
pub const MAX_VERTEX_BUFFERS: usize = 8;
/// Largest vertex-buffer stride and vertex-element offset in bytes (GL's minimum guaranteed
/// MAX_VERTEX_ATTRIB_STRIDE and MAX_VERTEX_ATTRIB_RELATIVE_OFFSET + 1: the host takes every one).
pub const MAX_VERTEX_STRIDE: u32 = 2048;
/// Largest viewport edge in pixels (as large as a resource may be).
pub const MAX_VIEWPORT_DIM: f32 = 16384.0;
/// Largest |x|, |y| of a viewport corner in pixels (GL's minimum VIEWPORT_BOUNDS_RANGE is twice
/// the largest viewport edge).
pub const MAX_VIEWPORT_BOUND: f32 = 32768.0;
/// Most vertices one DRAW_VBO may process (count x instances): a bound on the host's work.
pub const MAX_DRAW_VERTICES: u32 = 1 << 24;
/// Longest TGSI text accepted (bytes, without the terminating NUL): the shader compiler's
/// profile-2 bound (`shader::limits::P2_TGSI_MAX`, 256 KiB; gfx3d's tests check that the two
/// agree). Longer text is refused; text longer than one packet is sent as a first packet carrying
/// the total length and continuation packets carrying their byte offset, over as many batches
/// (SUBMIT_3D) as it takes. 256 KiB + NUL is 65537 dwords: more than one command can carry
/// (`protocol::MAX_PAYLOAD_DWORDS`), so the longest shaders always take continuations.
pub const MAX_SHADER_TEXT_BYTES: usize = 256 * 1024;

/// Largest capset blob kept (bytes).
pub const MAX_CAPSET_BYTES: usize = 8192;
/// Capsets examined at most (the device reports `num_capsets`; more is treated as malformed).
pub const MAX_CAPSETS: u32 = 16;
/// Largest width/height/depth of a resource the driver creates.
pub const MAX_RESOURCE_DIM: u32 = 16384;
/// Most mip levels of a texture resource (`last_level` + 1): a full chain of a
/// `MAX_RESOURCE_DIM` texture (16384 = 2^14: 15 levels).
pub const MAX_MIP_LEVELS: u32 = 15;
/// Most layers of a 2D array texture resource (`array_size`): GL 3.3's guaranteed
/// MAX_ARRAY_TEXTURE_LAYERS, so every host takes it.
pub const MAX_ARRAY_LAYERS: u32 = 256;
/// Largest guest backing of one resource, in bytes (64 MiB).
pub const MAX_BACKING_BYTES: usize = 64 << 20;

/// Polling budget of one control command when no clock is supplied (loop iterations).
pub const DEFAULT_SPIN_BUDGET: u64 = 400_000_000;
/// Timeout of one control command when a clock is supplied (nanoseconds).
pub const DEFAULT_TIMEOUT_NS: u64 = 10_000_000_000;
/// Control-queue size (descriptors); one command is in flight at a time, two descriptors each.
pub const CONTROL_QUEUE_SIZE: usize = 16;
/// Response buffer size of the control queue (bytes): enough for the largest capset.
pub const RESPONSE_BYTES: usize = 24 + MAX_CAPSET_BYTES;
