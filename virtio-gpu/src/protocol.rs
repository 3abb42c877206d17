//! The VirGL command-stream protocol table: command ids, object types, payload sizes, enums.
//!
//! Owns: every number of the VirGL stream (facts from virglrenderer's `virgl_protocol.h` and
//! `virgl_hw.h`), shared by the encoder and the test-side decoder so both agree by construction.
//! Must never: encode or decode anything itself.

/// Builds a command header dword: `cmd | object_type << 8 | payload_len << 16`.
pub const fn cmd0(cmd: u32, obj: u32, len: u32) -> u32 {
    cmd | (obj << 8) | (len << 16)
}

/// Largest payload length a header can carry (16 bits).
pub const MAX_PAYLOAD_DWORDS: usize = 0xFFFF;

// Command ids (enum virgl_context_cmd).
pub const CCMD_NOP: u32 = 0;
pub const CCMD_CREATE_OBJECT: u32 = 1;
pub const CCMD_BIND_OBJECT: u32 = 2;
pub const CCMD_DESTROY_OBJECT: u32 = 3;
pub const CCMD_SET_VIEWPORT_STATE: u32 = 4;
pub const CCMD_SET_FRAMEBUFFER_STATE: u32 = 5;
pub const CCMD_SET_VERTEX_BUFFERS: u32 = 6;
pub const CCMD_CLEAR: u32 = 7;
pub const CCMD_DRAW_VBO: u32 = 8;
pub const CCMD_RESOURCE_INLINE_WRITE: u32 = 9;
pub const CCMD_SET_SAMPLER_VIEWS: u32 = 10;
pub const CCMD_SET_INDEX_BUFFER: u32 = 11;
pub const CCMD_SET_CONSTANT_BUFFER: u32 = 12;
pub const CCMD_SET_BLEND_COLOR: u32 = 14;
pub const CCMD_SET_SCISSOR_STATE: u32 = 15;
pub const CCMD_BLIT: u32 = 16;
pub const CCMD_RESOURCE_COPY_REGION: u32 = 17;
pub const CCMD_BIND_SAMPLER_STATES: u32 = 18;
pub const CCMD_BIND_SHADER: u32 = 31;
pub const CCMD_LINK_SHADER: u32 = 52;
/// One past the highest command id the decoder knows (virglrenderer 0.10 has LINK_SHADER = 52).
pub const CCMD_MAX: u32 = 53;

// Object types (enum virgl_object_type).
pub const OBJ_NULL: u32 = 0;
pub const OBJ_BLEND: u32 = 1;
pub const OBJ_RASTERIZER: u32 = 2;
pub const OBJ_DSA: u32 = 3;
pub const OBJ_SHADER: u32 = 4;
pub const OBJ_VERTEX_ELEMENTS: u32 = 5;
pub const OBJ_SAMPLER_VIEW: u32 = 6;
pub const OBJ_SAMPLER_STATE: u32 = 7;
pub const OBJ_SURFACE: u32 = 8;
pub const OBJ_MAX: u32 = 12;

// Payload sizes (dwords after the header), exactly as the host checks them.
pub const BLEND_SIZE: u32 = 11; // handle, S0, S1, 8 x RT
pub const DSA_SIZE: u32 = 5; // handle, S0, S1 (front), S2 (back), alpha ref
pub const RS_SIZE: u32 = 9; // handle, S0, point size, sprite, S3, line width, 3 x offset
pub const SURFACE_SIZE: u32 = 5; // handle, res, format, level/first, layers/last
pub const SAMPLER_VIEW_SIZE: u32 = 6; // handle, res, format, layer, level, swizzle
pub const SAMPLER_STATE_SIZE: u32 = 9; // handle, S0, lod bias, min lod, max lod, 4 x border
/// CREATE_OBJECT(SHADER) header words: handle, type, offlen, num_tokens, so_outputs.
pub const SHADER_HDR_SIZE: u32 = 5;
pub const fn vertex_elements_size(n: u32) -> u32 {
    n * 4 + 1
}
pub const BIND_OBJECT_SIZE: u32 = 1;
pub const DESTROY_OBJECT_SIZE: u32 = 1;
pub const fn viewport_size(n: u32) -> u32 {
    6 * n + 1
}
pub const fn framebuffer_size(nr_cbufs: u32) -> u32 {
    nr_cbufs + 2
}
pub const fn vertex_buffers_size(n: u32) -> u32 {
    n * 3
}
/// SET_INDEX_BUFFER with a buffer: handle, index size, offset.
pub const INDEX_BUFFER_SIZE: u32 = 3;
/// SET_INDEX_BUFFER unbinding: handle only.
pub const INDEX_BUFFER_UNBIND_SIZE: u32 = 1;
pub const fn constant_buffer_size(nwords: u32) -> u32 {
    nwords + 2
}
pub const fn sampler_views_size(n: u32) -> u32 {
    n + 2
}
pub const fn bind_sampler_states_size(n: u32) -> u32 {
    n + 2
}
pub const CLEAR_SIZE: u32 = 8;
pub const DRAW_VBO_SIZE: u32 = 12;
pub const DRAW_VBO_SIZE_TESS: u32 = 14;
pub const DRAW_VBO_SIZE_INDIRECT: u32 = 20;
pub const BIND_SHADER_SIZE: u32 = 2;
pub const LINK_SHADER_SIZE: u32 = 6;
/// RESOURCE_INLINE_WRITE header words before the data: res, level, usage, stride, layer_stride,
/// x, y, z, w, h, d.
pub const INLINE_WRITE_HDR_SIZE: u32 = 11;
/// SET_SCISSOR_STATE of one scissor: start slot, min x | min y << 16, max x | max y << 16.
pub const SCISSOR_SIZE_ONE: u32 = 3;
/// SET_BLEND_COLOR: four floats.
pub const BLEND_COLOR_SIZE: u32 = 4;
/// BLIT: S0 (mask | filter << 8 | scissor << 10 | render condition << 11 | alpha blend << 12),
/// scissor min, scissor max, then dst (res, level, format, x, y, z, w, h, d) and src (res,
/// level, format, x, y, z, w, h, d) (VIRGL_CMD_BLIT_SIZE).
pub const BLIT_SIZE: u32 = 21;
/// RESOURCE_COPY_REGION: dst (res, level, x, y, z), src (res, level, x, y, z, w, h, d)
/// (VIRGL_CMD_RESOURCE_COPY_REGION_SIZE).
pub const COPY_REGION_SIZE: u32 = 13;
/// BLIT S0 mask bits (PIPE_MASK_RGBA: the colour channels).
pub const BLIT_MASK_RGBA: u32 = 0xF;
/// BLIT S0 filter (pipe_tex_filter): NEAREST 0, LINEAR 1, shifted by 8.
pub const BLIT_FILTER_NEAREST: u32 = 0;
pub const BLIT_FILTER_LINEAR: u32 = 1;
pub const BLIT_FILTER_SHIFT: u32 = 8;
/// Largest scissor coordinate (16 bits on the wire).
pub const SCISSOR_COORD_MAX: u32 = 0xFFFF;

/// Continuation flag of the shader `offlen` word.
pub const SHADER_OFFSET_CONT: u32 = 1 << 31;

// Shader stages (pipe_shader_type).
pub const SHADER_VERTEX: u32 = 0;
pub const SHADER_FRAGMENT: u32 = 1;
pub const SHADER_GEOMETRY: u32 = 2;
pub const SHADER_TYPES: u32 = 6;

// Formats (enum virgl_formats), the subset this project uses.
pub const FORMAT_B8G8R8A8_UNORM: u32 = 1;
pub const FORMAT_Z32_FLOAT: u32 = 18;
pub const FORMAT_Z24_UNORM_S8_UINT: u32 = 19;
pub const FORMAT_R32_FLOAT: u32 = 28;
pub const FORMAT_R32G32_FLOAT: u32 = 29;
pub const FORMAT_R32G32B32_FLOAT: u32 = 30;
pub const FORMAT_R32G32B32A32_FLOAT: u32 = 31;
pub const FORMAT_R8_UNORM: u32 = 64;
/// 32-bit integer vertex formats (integer vertex attributes, issue 14): R32..R32G32B32A32 UINT
/// and SINT, numbered consecutively by component count in enum virgl_formats.
pub const FORMAT_R32_UINT: u32 = 193;
pub const FORMAT_R32G32B32A32_UINT: u32 = 196;
pub const FORMAT_R32_SINT: u32 = 197;
pub const FORMAT_R32G32B32A32_SINT: u32 = 200;

// Bind flags.
pub const BIND_DEPTH_STENCIL: u32 = 1 << 0;
pub const BIND_RENDER_TARGET: u32 = 1 << 1;
pub const BIND_SAMPLER_VIEW: u32 = 1 << 3;
pub const BIND_VERTEX_BUFFER: u32 = 1 << 4;
pub const BIND_INDEX_BUFFER: u32 = 1 << 5;
pub const BIND_CONSTANT_BUFFER: u32 = 1 << 6;
pub const BIND_DISPLAY_TARGET: u32 = 1 << 7;
pub const BIND_SCANOUT: u32 = 1 << 18;

// Texture targets (pipe_texture_target).
pub const TARGET_BUFFER: u32 = 0;
pub const TARGET_TEXTURE_2D: u32 = 2;
/// PIPE_TEXTURE_CUBE: six square faces as layers 0..6 (+x, -x, +y, -y, +z, -z); a transfer
/// box's z is the face.
pub const TARGET_TEXTURE_CUBE: u32 = 4;
/// Layers of a cube resource (its `array_size`).
pub const CUBE_FACES: u32 = 6;
/// PIPE_TEXTURE_2D_ARRAY: `array_size` layers of one size; a transfer box's z is the layer.
pub const TARGET_TEXTURE_2D_ARRAY: u32 = 7;

// Clear bits.
pub const CLEAR_DEPTH: u32 = 1 << 0;
pub const CLEAR_STENCIL: u32 = 1 << 1;
pub const CLEAR_COLOR0: u32 = 1 << 2;

// Primitive modes.
pub const PRIM_POINTS: u32 = 0;
pub const PRIM_LINES: u32 = 1;
pub const PRIM_TRIANGLES: u32 = 4;
pub const PRIM_TRIANGLE_STRIP: u32 = 5;
pub const PRIM_TRIANGLE_FAN: u32 = 6;

// Compare functions (pipe_compare_func).
pub const FUNC_NEVER: u32 = 0;
pub const FUNC_LESS: u32 = 1;
pub const FUNC_EQUAL: u32 = 2;
pub const FUNC_LEQUAL: u32 = 3;
pub const FUNC_GREATER: u32 = 4;
pub const FUNC_NOTEQUAL: u32 = 5;
pub const FUNC_GEQUAL: u32 = 6;
pub const FUNC_ALWAYS: u32 = 7;

// Blend factors (pipe_blendfactor).
pub const BLENDFACTOR_ONE: u32 = 0x01;
pub const BLENDFACTOR_SRC_COLOR: u32 = 0x02;
pub const BLENDFACTOR_SRC_ALPHA: u32 = 0x03;
pub const BLENDFACTOR_DST_ALPHA: u32 = 0x04;
pub const BLENDFACTOR_DST_COLOR: u32 = 0x05;
pub const BLENDFACTOR_SRC_ALPHA_SATURATE: u32 = 0x06;
pub const BLENDFACTOR_CONST_COLOR: u32 = 0x07;
pub const BLENDFACTOR_CONST_ALPHA: u32 = 0x08;
pub const BLENDFACTOR_ZERO: u32 = 0x11;
pub const BLENDFACTOR_INV_SRC_COLOR: u32 = 0x12;
pub const BLENDFACTOR_INV_SRC_ALPHA: u32 = 0x13;
pub const BLENDFACTOR_INV_DST_ALPHA: u32 = 0x14;
pub const BLENDFACTOR_INV_DST_COLOR: u32 = 0x15;
pub const BLENDFACTOR_INV_CONST_COLOR: u32 = 0x17;
pub const BLENDFACTOR_INV_CONST_ALPHA: u32 = 0x18;

// Blend functions (pipe_blend_func).
pub const BLEND_ADD: u32 = 0;
pub const BLEND_SUBTRACT: u32 = 1;
pub const BLEND_REVERSE_SUBTRACT: u32 = 2;
pub const BLEND_MIN: u32 = 3;
pub const BLEND_MAX: u32 = 4;

// Cull faces.
pub const CULL_NONE: u32 = 0;
pub const CULL_FRONT: u32 = 1;
pub const CULL_BACK: u32 = 2;

// Texture wrap modes (pipe_tex_wrap).
pub const WRAP_REPEAT: u32 = 0;
pub const WRAP_CLAMP_TO_EDGE: u32 = 2;
pub const WRAP_MIRROR_REPEAT: u32 = 4;
// Filters.
pub const FILTER_NEAREST: u32 = 0;
pub const FILTER_LINEAR: u32 = 1;
pub const MIPFILTER_NONE: u32 = 2;
pub const MIPFILTER_NEAREST: u32 = 0;
pub const MIPFILTER_LINEAR: u32 = 1;
/// Sampler state S0 fields (virgl_protocol.h VIRGL_OBJ_SAMPLE_STATE_S0_*): bit shifts.
pub const SAMPLER_S0_WRAP_S_SHIFT: u32 = 0;
pub const SAMPLER_S0_WRAP_T_SHIFT: u32 = 3;
pub const SAMPLER_S0_WRAP_R_SHIFT: u32 = 6;
pub const SAMPLER_S0_MIN_IMG_FILTER_SHIFT: u32 = 9;
pub const SAMPLER_S0_MIN_MIP_FILTER_SHIFT: u32 = 11;
pub const SAMPLER_S0_MAG_IMG_FILTER_SHIFT: u32 = 13;
/// COMPARE_MODE (1 bit: 1 = compare the reference with the texel, shadow samplers).
pub const SAMPLER_S0_COMPARE_MODE_SHIFT: u32 = 15;
/// COMPARE_FUNC (3 bits, a FUNC_* value).
pub const SAMPLER_S0_COMPARE_FUNC_SHIFT: u32 = 16;
/// Largest |LOD| a sampler state carries (GL clamps nothing; the project bounds it).
pub const SAMPLER_LOD_MAX: f32 = 1000.0;

// Swizzles.
/// R from red (0, bits 0..2), G from green (1), B from blue (2), A from alpha (3).
pub const SWIZZLE_IDENTITY: u32 = (1 << 3) | (2 << 6) | (3 << 9);
/// R, G and B from red, A one (PIPE_SWIZZLE_ONE = 5): a depth texture reads (d, d, d, 1).
pub const SWIZZLE_RRR1: u32 = 5 << 9;
/// Every channel selector is a pipe_swizzle value, 0..=5 (X, Y, Z, W, ZERO, ONE).
pub const SWIZZLE_SELECTOR_MAX: u32 = 5;

// Capability bits (virgl_caps_v2).
pub const CAP_V2_SSO: u32 = 1 << 9;
/// `host_feature_check_version` from which the host accepts LINK_SHADER (the guest driver of Mesa
/// uses the same threshold).
pub const LINK_SHADER_MIN_FEATURE_VERSION: u32 = 7;

// Capset ids.
pub const CAPSET_VIRGL: u32 = 1;
pub const CAPSET_VIRGL2: u32 = 2;

/// Every format the encoder names (the subset above): anything else is refused, never sent.
pub const KNOWN_FORMATS: [u32; 8] = [
    FORMAT_B8G8R8A8_UNORM,
    FORMAT_Z32_FLOAT,
    FORMAT_Z24_UNORM_S8_UINT,
    FORMAT_R32_FLOAT,
    FORMAT_R32G32_FLOAT,
    FORMAT_R32G32B32_FLOAT,
    FORMAT_R32G32B32A32_FLOAT,
    FORMAT_R8_UNORM,
];
/// Formats a surface (render target or depth buffer) may have.
/// (R32G32B32A32_FLOAT: a float colour target for HDR rendering.)
pub const SURFACE_FORMATS: [u32; 4] = [
    FORMAT_B8G8R8A8_UNORM,
    FORMAT_Z32_FLOAT,
    FORMAT_Z24_UNORM_S8_UINT,
    FORMAT_R32G32B32A32_FLOAT,
];
/// Formats a sampler view may have (Z32_FLOAT: a depth target sampled as a texture;
/// R32G32B32A32_FLOAT: a float colour target sampled as a texture; R32G32B32A32_SINT/_UINT:
/// an integer texture read by isampler2D/usampler2D).
pub const SAMPLER_VIEW_FORMATS: [u32; 6] = [
    FORMAT_B8G8R8A8_UNORM,
    FORMAT_R8_UNORM,
    FORMAT_Z32_FLOAT,
    FORMAT_R32G32B32A32_FLOAT,
    FORMAT_R32G32B32A32_SINT,
    FORMAT_R32G32B32A32_UINT,
];

/// Highest pipe_blend_func (ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX).
pub const BLEND_FUNC_MAX: u32 = 4;
/// Valid pipe_blendfactor values: ONE..=SRC1_ALPHA (0x01..=0x0A, SRC_ALPHA_SATURATE = 0x06
/// included) and ZERO..=INV_SRC1_ALPHA (0x11..=0x1A, no 0x16: there is no inverse of
/// SRC_ALPHA_SATURATE).
pub const fn is_blend_factor(f: u32) -> bool {
    matches!(f, 0x01..=0x0A | 0x11..=0x15 | 0x17..=0x1A)
}
/// Highest primitive mode the encoder sends (POINTS..=TRIANGLE_FAN; no adjacency, no patches).
pub const PRIM_MAX: u32 = PRIM_TRIANGLE_FAN;

// Host context error strings that harnesses scan for. "failed to convert" is virglrenderer's
// word for a TGSI instruction it cannot translate (it then draws a wrong picture instead of
// refusing the shader).
pub const HOST_ERROR_MARKERS: [&str; 4] = [
    "context error",
    "failed to dispatch",
    "Illegal command",
    "failed to convert",
];
