//! Every fixed capacity of the shader compiler, in one place. These numbers are part of the
//! contract (see the specification): keep them exact.

/// Source text must satisfy `0 < len < SRC_MAX`.
pub const SRC_MAX: usize = 4096;
/// Identifiers must be shorter than this (at most 39 characters).
pub const NAME_MAX: usize = 40;
pub const TOK_MAX: usize = 768;
pub const AST_MAX: usize = 512;
pub const NEST_MAX: usize = 32;
pub const SCOPE_MAX: usize = 48;
pub const SYM_MAX: usize = 64;
pub const ERR_MAX: usize = 8;
pub const IR_MAX: usize = 384;
pub const IMM_MAX: usize = 160;
pub const TEMP_MAX: usize = 96;
pub const TGSI_MAX: usize = 3600;
pub const LOG_MAX: usize = 1536;
pub const ATTR_MAX: usize = 8;
pub const VARYING_MAX: usize = 8;
pub const SAMPLER_MAX: usize = 4;
/// Uniform vec4 slots per stage (mat3 takes 3, mat4 takes 4).
pub const UNIFORM_VEC4_MAX: usize = 32;
/// Floats of uniform storage per stage.
pub const UNIFORM_FLOATS: usize = UNIFORM_VEC4_MAX * 4;
/// Program-level reflected uniforms.
pub const PROGRAM_UNIFORM_MAX: usize = 32;
pub const PARAM_MAX: usize = 4;
pub const CALL_DEPTH_MAX: usize = 8;
pub const UNROLL_MAX: usize = 8;
/// Work budget of one compile, in steps of semantic lowering: one per statement and expression
/// node lowered, per unrolled loop iteration and per inlined call. Unrolling and inlining
/// multiply work, so without it nested loops and calls take exponential time even when they
/// emit nothing. Every corpus shader needs well under a tenth of it.
pub const WORK_MAX: u32 = 1 << 16;
pub const VERSION_MIN: u32 = 110;
pub const VERSION_MAX: u32 = 330;
/// Structured control-flow nesting (IF stack) in the verifier and executor.
pub const IF_DEPTH_MAX: usize = 32;
pub const COMPILER_VERSION: u32 = 1;
/// Compile-cache entries.
pub const CACHE_ENTRIES: usize = 8;
/// Guest handle tables for the whole system.
pub const GUEST_SHADERS: usize = 16;
pub const GUEST_PROGRAMS: usize = 8;
/// The reference `soft_triangle` call accepts targets up to this size.
pub const SOFT_TRIANGLE_MAX: u32 = 128;
