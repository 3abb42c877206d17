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
/// Warnings kept per compile (the rest are counted, like errors past `ERR_MAX`).
pub const WARN_MAX: usize = 8;

// Profile 2: the preprocessor (`pp`). The first three are profile-2 numbers of issue 12 item 3
// that the preprocessor enforces; the rest bound its own tables. Every one exceeded is a located
// diagnostic that names it.
/// Profile-2 source text must be shorter than this (64 KiB).
pub const PP_SRC_MAX: usize = 65536;
/// Profile-2 tokens after preprocessing.
pub const PP_TOK_MAX: usize = 16384;
/// Profile-2 identifiers must be shorter than this (at most 63 characters); the preprocessor
/// checks macro and parameter names.
pub const PP_NAME_MAX: usize = 64;
/// Macros defined at once, the predefined ones included.
pub const PP_MACRO_MAX: usize = 512;
/// Tokens in one macro's replacement list.
pub const PP_BODY_MAX: usize = 1024;
/// Parameter names and replacement tokens of every macro defined in one source (`#undef` does
/// not give the room back).
pub const PP_BODY_POOL: usize = 16384;
/// Parameters of one function-like macro, and arguments of one invocation.
pub const PP_ARGS_MAX: usize = 32;
/// Macro expansions (and argument pre-expansions) in progress at once.
pub const PP_DEPTH_MAX: usize = 64;
/// Tokens produced by all macro expansions of one source: the bound that stops exponential
/// macro definitions.
pub const PP_EXPAND_MAX: usize = 65536;
/// Macro invocations recorded per source (each output token from a macro points at one).
pub const PP_EXPANSION_MAX: usize = 16384;
/// Tokens waiting to be rescanned, and tokens of macro arguments being collected.
pub const PP_PENDING_MAX: usize = 8192;
pub const PP_WORK_MAX: usize = 8192;
/// Bytes of token text the preprocessor makes: `__LINE__` values, pasted (`##`) tokens, tokens
/// split by a line continuation.
pub const PP_SYNTH_MAX: usize = 16384;
/// `#if` nesting.
pub const PP_IF_MAX: usize = 64;
/// Parentheses and unary operators nested in one `#if` expression.
pub const PP_EXPR_DEPTH_MAX: usize = 64;
