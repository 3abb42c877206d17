//! Every fixed capacity of the shader compiler, in one place. These numbers are part of the
//! contract (see the specification): keep them exact.
//!
//! Two language profiles exist ([`Profile`]); each has its own bounds ([`Limits`], queried with
//! [`limits`]). The unprefixed constants below are profile 1's (today's language; they do not
//! change); `P2_*` are profile 2's. Storage is sized by the `*_CAP` constants (the larger of the
//! two), and every bound is checked at run time against the compile's profile, with the
//! profile-1 diagnostics unchanged.

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
/// Profile 2's work budget: four times profile 1's, so that its 16384 IR instructions can be
/// reached by unrolling (a step or more per instruction) while a compile stays bounded.
pub const P2_WORK_MAX: u32 = 1 << 18;
pub const VERSION_MIN: u32 = 110;
pub const VERSION_MAX: u32 = 330;
/// Structured control-flow nesting (IF stack) in the verifier and executor.
pub const IF_DEPTH_MAX: usize = 32;
/// Profile 2: structured loops (LOOP/ENDLOOP) open at once, in the verifier and executor (they
/// count toward [`IF_DEPTH_MAX`]'s stack as well).
pub const LOOP_DEPTH_MAX: usize = 8;
/// Profile 2: the iteration bound of a loop whose trip count the compiler cannot prove; a
/// LOOP's bound is at most this. At the bound the loop ends as if by `break`.
pub const P2_LOOP_ITERATIONS_MAX: u32 = 65536;
/// Profile 2: loop iterations per shader invocation, shared by every loop whose trip count the
/// compiler cannot prove (and every loop nested in one): each iteration such a loop starts costs
/// one, nested loops count every inner trip, and once it is spent every such loop ends at once
/// for that invocation, as if by `break`. 65535, not 65536: Mesa's llvmpipe (the usual host
/// driver under virglrenderer) ends any loop after 65535 iterations, so with this budget the
/// software path and VirGL agree on every endless loop.
pub const P2_LOOP_BUDGET: u32 = 65535;
/// Profile 2: the vertex stage's `gl_ClipDistance` has this many elements (GLSL's
/// gl_MaxClipDistances); each one the shader writes is a user clip plane (distance >= 0 kept).
pub const CLIP_DISTANCE_MAX: usize = 8;
/// Profile 2: most layers of a sampler2DArray's texture (`TextureRef::layers`; GL 3.3's
/// minimum MAX_ARRAY_TEXTURE_LAYERS is 256).
pub const ARRAY_LAYERS_MAX: usize = 256;
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

// ---------------------------------------------------------------------------------------------
// Profiles

/// A language profile. Profile 1 is the original bounded language; profile 2 is GLSL 3.30 core
/// for the vertex and fragment stages within the bounds of [`P2_LIMITS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Profile {
    #[default]
    P1 = 1,
    P2 = 2,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::P1, Profile::P2];

    pub fn from_u32(v: u32) -> Option<Profile> {
        match v {
            1 => Some(Profile::P1),
            2 => Some(Profile::P2),
            _ => None,
        }
    }

    pub fn number(self) -> u32 {
        self as u32
    }
}

// Profile 2's numbers (issue 12 item 3). The preprocessor's own are the `PP_*` above.
pub const P2_SRC_MAX: usize = PP_SRC_MAX;
pub const P2_NAME_MAX: usize = PP_NAME_MAX;
pub const P2_TOK_MAX: usize = PP_TOK_MAX;
pub const P2_AST_MAX: usize = 16384;
pub const P2_NEST_MAX: usize = 64;
pub const P2_SCOPE_MAX: usize = 1024;
pub const P2_SYM_MAX: usize = 1024;
pub const P2_ERR_MAX: usize = 16;
pub const P2_IR_MAX: usize = 16384;
pub const P2_IMM_MAX: usize = 4096;
pub const P2_TEMP_MAX: usize = 1024;
pub const P2_ATTR_MAX: usize = 16;
pub const P2_VARYING_MAX: usize = 16;
pub const P2_UNIFORM_VEC4_MAX: usize = 1024;
pub const P2_SAMPLER_MAX: usize = 16;
pub const P2_PARAM_MAX: usize = 16;
pub const P2_CALL_DEPTH_MAX: usize = 32;
/// Profile-2 TGSI text (the VirGL path uploads shaders this long).
pub const P2_TGSI_MAX: usize = 256 * 1024;
/// Profile-2 fragment outputs (`layout(location = 0..7)`; location 0 is the target's colour).
pub const P2_FRAG_OUTPUT_MAX: usize = 8;
/// Profile-2 struct types declared at once (global and in scope), and their members in all.
pub const P2_STRUCT_MAX: usize = 64;
pub const P2_MEMBER_MAX: usize = 512;
/// Profile-2 array length at most (the temps, varyings and uniform slots it takes are bounded
/// by their own limits too).
pub const P2_ARRAY_LEN_MAX: usize = 1024;
/// TGSI: indirectly addressed temp ranges declared as `DCL TEMP[a..b], ARRAY(n)` (more are
/// merged into one array spanning them all).
pub const TGSI_TEMP_ARRAYS_MAX: usize = 32;
/// Profile 2: dynamically indexed assignment targets pending their write-back at once (each
/// index level of one target, as in `a[i][j] = x`, is one).
pub const P2_INDEXED_TARGETS_MAX: usize = 32;
/// Profile 2: `case`/`default` labels of one switch.
pub const P2_SWITCH_LABELS_MAX: usize = 256;
/// Storage for the fragment outputs of a stage's interface.
pub const FRAG_OUTPUT_CAP: usize = P2_FRAG_OUTPUT_MAX;

/// Storage capacities: the larger bound of the two profiles.
pub const NAME_CAP: usize = max(NAME_MAX, P2_NAME_MAX);
pub const TOK_CAP: usize = max(TOK_MAX, P2_TOK_MAX);
pub const AST_CAP: usize = max(AST_MAX, P2_AST_MAX);
pub const SCOPE_CAP: usize = max(SCOPE_MAX, P2_SCOPE_MAX);
pub const SYM_CAP: usize = max(SYM_MAX, P2_SYM_MAX);
pub const ERR_CAP: usize = max(ERR_MAX, P2_ERR_MAX);
pub const IR_CAP: usize = max(IR_MAX, P2_IR_MAX);
pub const IMM_CAP: usize = max(IMM_MAX, P2_IMM_MAX);
pub const TEMP_CAP: usize = max(TEMP_MAX, P2_TEMP_MAX);
pub const ATTR_CAP: usize = max(ATTR_MAX, P2_ATTR_MAX);
pub const VARYING_CAP: usize = max(VARYING_MAX, P2_VARYING_MAX);
pub const UNIFORM_VEC4_CAP: usize = max(UNIFORM_VEC4_MAX, P2_UNIFORM_VEC4_MAX);
pub const SAMPLER_CAP: usize = max(SAMPLER_MAX, P2_SAMPLER_MAX);
pub const PARAM_CAP: usize = max(PARAM_MAX, P2_PARAM_MAX);
/// Capacity of the TGSI emitter's follow index (`FollowIndex::events` in `back/tgsi.rs`): three
/// accesses per instruction (more, as with wide matrix operands, and its forwarding scan walks
/// the instructions instead).
pub const FOLLOW_EVENTS_CAP: usize = 3 * IR_CAP;
pub const CALL_DEPTH_CAP: usize = max(CALL_DEPTH_MAX, P2_CALL_DEPTH_MAX);
pub const TGSI_CAP: usize = max(TGSI_MAX, P2_TGSI_MAX);
/// Floats of uniform storage per stage, either profile.
pub const UNIFORM_FLOATS_CAP: usize = UNIFORM_VEC4_CAP * 4;
/// Program-level reflected uniforms, either profile (both stages' uniforms may differ).
pub const PROGRAM_UNIFORM_CAP: usize = max(PROGRAM_UNIFORM_MAX, 2 * P2_UNIFORM_VEC4_MAX);
/// Profile-2 program-level reflected uniforms.
pub const P2_PROGRAM_UNIFORM_MAX: usize = 2 * P2_UNIFORM_VEC4_MAX;

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// Every bound of one profile. `*_max` fields are inclusive maxima (a source must be shorter
/// than `source_bytes_max + 1` bytes, ...), matching the names `shc limits` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub profile: Profile,
    pub source_bytes_max: usize,
    pub identifier_chars_max: usize,
    pub tokens_max: usize,
    pub ast_nodes_max: usize,
    pub nesting_max: usize,
    pub scopes_max: usize,
    pub symbols_max: usize,
    pub errors_reported_max: usize,
    pub warnings_reported_max: usize,
    pub ir_instructions_max: usize,
    pub immediates_max: usize,
    pub temporaries_max: usize,
    pub attributes_max: usize,
    pub varyings_max: usize,
    pub uniform_vec4_slots_max: usize,
    pub samplers_max: usize,
    pub fragment_outputs_max: usize,
    pub parameters_max: usize,
    pub call_depth_max: usize,
    pub unroll_iterations_max: usize,
    pub compile_work_steps_max: usize,
    pub if_depth_max: usize,
    pub tgsi_bytes_max: usize,
    /// Preprocessor bounds (0 in profile 1, which has no preprocessor).
    pub pp_macros_max: usize,
    pub pp_expansion_depth_max: usize,
    pub pp_expanded_tokens_max: usize,
    pub pp_if_nesting_max: usize,
    /// Dynamic loops (0 in profile 1, which unrolls every loop).
    pub loop_iterations_max: usize,
    pub loop_depth_max: usize,
    /// Loop iterations per invocation of unproven loops ([`P2_LOOP_BUDGET`]; 0 in profile 1).
    pub loop_budget_per_invocation: usize,
    /// Elements of gl_ClipDistance ([`CLIP_DISTANCE_MAX`]; 0 in profile 1, which has none).
    pub clip_distances_max: usize,
}

pub const P1_LIMITS: Limits = Limits {
    profile: Profile::P1,
    source_bytes_max: SRC_MAX - 1,
    identifier_chars_max: NAME_MAX - 1,
    tokens_max: TOK_MAX,
    ast_nodes_max: AST_MAX,
    nesting_max: NEST_MAX,
    scopes_max: SCOPE_MAX,
    symbols_max: SYM_MAX,
    errors_reported_max: ERR_MAX,
    warnings_reported_max: WARN_MAX,
    ir_instructions_max: IR_MAX,
    immediates_max: IMM_MAX,
    temporaries_max: TEMP_MAX,
    attributes_max: ATTR_MAX,
    varyings_max: VARYING_MAX,
    uniform_vec4_slots_max: UNIFORM_VEC4_MAX,
    samplers_max: SAMPLER_MAX,
    fragment_outputs_max: 1,
    parameters_max: PARAM_MAX,
    call_depth_max: CALL_DEPTH_MAX,
    unroll_iterations_max: UNROLL_MAX,
    compile_work_steps_max: WORK_MAX as usize,
    if_depth_max: IF_DEPTH_MAX,
    tgsi_bytes_max: TGSI_MAX,
    pp_macros_max: 0,
    pp_expansion_depth_max: 0,
    pp_expanded_tokens_max: 0,
    pp_if_nesting_max: 0,
    loop_iterations_max: 0,
    loop_depth_max: 0,
    loop_budget_per_invocation: 0,
    clip_distances_max: 0,
};

pub const P2_LIMITS: Limits = Limits {
    profile: Profile::P2,
    source_bytes_max: P2_SRC_MAX - 1,
    identifier_chars_max: P2_NAME_MAX - 1,
    tokens_max: P2_TOK_MAX,
    ast_nodes_max: P2_AST_MAX,
    nesting_max: P2_NEST_MAX,
    scopes_max: P2_SCOPE_MAX,
    symbols_max: P2_SYM_MAX,
    errors_reported_max: P2_ERR_MAX,
    warnings_reported_max: WARN_MAX,
    ir_instructions_max: P2_IR_MAX,
    immediates_max: P2_IMM_MAX,
    temporaries_max: P2_TEMP_MAX,
    attributes_max: P2_ATTR_MAX,
    varyings_max: P2_VARYING_MAX,
    uniform_vec4_slots_max: P2_UNIFORM_VEC4_MAX,
    samplers_max: P2_SAMPLER_MAX,
    fragment_outputs_max: P2_FRAG_OUTPUT_MAX,
    parameters_max: P2_PARAM_MAX,
    call_depth_max: P2_CALL_DEPTH_MAX,
    unroll_iterations_max: UNROLL_MAX,
    compile_work_steps_max: P2_WORK_MAX as usize,
    if_depth_max: IF_DEPTH_MAX,
    tgsi_bytes_max: P2_TGSI_MAX,
    pp_macros_max: PP_MACRO_MAX,
    pp_expansion_depth_max: PP_DEPTH_MAX,
    pp_expanded_tokens_max: PP_EXPAND_MAX,
    pp_if_nesting_max: PP_IF_MAX,
    loop_iterations_max: P2_LOOP_ITERATIONS_MAX as usize,
    loop_depth_max: LOOP_DEPTH_MAX,
    loop_budget_per_invocation: P2_LOOP_BUDGET as usize,
    clip_distances_max: CLIP_DISTANCE_MAX,
};

/// The bounds of `profile`.
pub fn limits(profile: Profile) -> &'static Limits {
    match profile {
        Profile::P1 => &P1_LIMITS,
        Profile::P2 => &P2_LIMITS,
    }
}

impl Limits {
    /// Every bound as (name, value), in `shc limits` order.
    pub fn entries(&self) -> [(&'static str, usize); 32] {
        [
            ("profile", self.profile.number() as usize),
            ("source_bytes_max", self.source_bytes_max),
            ("identifier_chars_max", self.identifier_chars_max),
            ("tokens_max", self.tokens_max),
            ("ast_nodes_max", self.ast_nodes_max),
            ("nesting_max", self.nesting_max),
            ("scopes_max", self.scopes_max),
            ("symbols_max", self.symbols_max),
            ("errors_reported_max", self.errors_reported_max),
            ("warnings_reported_max", self.warnings_reported_max),
            ("ir_instructions_max", self.ir_instructions_max),
            ("immediates_max", self.immediates_max),
            ("temporaries_max", self.temporaries_max),
            ("attributes_max", self.attributes_max),
            ("varyings_max", self.varyings_max),
            ("uniform_vec4_slots_max", self.uniform_vec4_slots_max),
            ("samplers_max", self.samplers_max),
            ("fragment_outputs", self.fragment_outputs_max),
            ("parameters_max", self.parameters_max),
            ("call_depth_max", self.call_depth_max),
            ("unroll_iterations_max", self.unroll_iterations_max),
            ("compile_work_steps_max", self.compile_work_steps_max),
            ("if_depth_max", self.if_depth_max),
            ("tgsi_bytes_max", self.tgsi_bytes_max),
            ("pp_macros_max", self.pp_macros_max),
            ("pp_expansion_depth_max", self.pp_expansion_depth_max),
            ("pp_expanded_tokens_max", self.pp_expanded_tokens_max),
            ("pp_if_nesting_max", self.pp_if_nesting_max),
            ("loop_iterations_max", self.loop_iterations_max),
            ("loop_depth_max", self.loop_depth_max),
            (
                "loop_budget_per_invocation",
                self.loop_budget_per_invocation,
            ),
            ("clip_distances_max", self.clip_distances_max),
        ]
    }
}

// The IR's i16 operands index temps, immediates, AST nodes and tokens of either profile.
const _: () = assert!(TEMP_CAP < i16::MAX as usize);
const _: () = assert!(IMM_CAP < i16::MAX as usize);
const _: () = assert!(AST_CAP < i16::MAX as usize);
const _: () = assert!(TOK_CAP < i16::MAX as usize);
const _: () = assert!(UNIFORM_VEC4_CAP < i16::MAX as usize);

// ---------------------------------------------------------------------------------------------
// Which limit a diagnostic reports

/// The preprocessor names its bound in the message (`... (PP_EXPAND_MAX)`): the `shc limits`
/// name of each, or the constant's own name where `Limits` has no entry for it.
const PP_LIMIT_NAMES: [(&str, &str); 15] = [
    ("(PP_SRC_MAX)", "source_bytes_max"),
    ("(PP_TOK_MAX)", "tokens_max"),
    ("(PP_NAME_MAX)", "identifier_chars_max"),
    ("(PP_MACRO_MAX)", "pp_macros_max"),
    ("(PP_DEPTH_MAX)", "pp_expansion_depth_max"),
    ("(PP_EXPAND_MAX)", "pp_expanded_tokens_max"),
    ("(PP_IF_MAX)", "pp_if_nesting_max"),
    ("(PP_BODY_MAX)", "pp_body_max"),
    ("(PP_BODY_POOL)", "pp_body_pool"),
    ("(PP_ARGS_MAX)", "pp_args_max"),
    ("(PP_EXPANSION_MAX)", "pp_expansion_max"),
    ("(PP_PENDING_MAX)", "pp_pending_max"),
    ("(PP_WORK_MAX)", "pp_work_max"),
    ("(PP_SYNTH_MAX)", "pp_synth_max"),
    ("(PP_EXPR_DEPTH_MAX)", "pp_expr_depth_max"),
];

/// Phrases of the compiler's limit diagnostics (one per message shape, checked in order) and the
/// `shc limits` name of the bound each reports.
const LIMIT_PHRASES: [(&str, &str); 26] = [
    ("shader source exceeds the size limit", "source_bytes_max"),
    ("shader source must be 1 to", "source_bytes_max"),
    ("too many tokens: the limit is", "tokens_max"),
    ("characters long; the limit is", "identifier_chars_max"),
    (
        "integer literal is too large: the limit is",
        "int_literal_max",
    ),
    ("syntax tree limit of", "ast_nodes_max"),
    ("nesting exceeds the limit of", "nesting_max"),
    ("too many nested scopes: the limit is", "scopes_max"),
    ("too many symbols: the limit is", "symbols_max"),
    ("instruction limit of", "ir_instructions_max"),
    ("too many instructions (", "ir_instructions_max"),
    ("temporary limit of", "temporaries_max"),
    ("too many temporaries (", "temporaries_max"),
    ("constant limit of", "immediates_max"),
    ("too many immediates (", "immediates_max"),
    ("too many parameters:", "parameters_max"),
    ("' takes at most", "parameters_max"),
    ("too many samplers:", "samplers_max"),
    ("too many uniforms:", "uniform_vec4_slots_max"),
    ("too many attributes:", "attributes_max"),
    ("too many varyings:", "varyings_max"),
    ("call depth exceeds the limit", "call_depth_max"),
    ("nested too deeply: the limit is", "if_depth_max"),
    ("unroll limit of", "unroll_iterations_max"),
    ("compile work budget exceeded", "compile_work_steps_max"),
    ("TGSI exceeds the VirGL command budget", "tgsi_bytes_max"),
];

/// The name (as `shc limits` prints it) of the bound a diagnostic message reports, or None when
/// the message is not about a limit. A mapping of the message shapes above: a new limit message
/// must be added here (the tests compile sources past each limit and check the name).
pub fn limit_named_in(message: &str) -> Option<&'static str> {
    if let Some((_, name)) = PP_LIMIT_NAMES.iter().find(|(c, _)| message.contains(c)) {
        return Some(name);
    }
    if message.starts_with("IF nesting exceeds the limit") {
        return Some("if_depth_max");
    }
    LIMIT_PHRASES
        .iter()
        .find(|(p, _)| message.contains(p))
        .map(|(_, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_messages_name_their_limit() {
        for (msg, name) in [
            (
                "too many tokens: the limit is 768 tokens per shader",
                Some("tokens_max"),
            ),
            (
                "macro expansion nested too deeply: the limit is 64 (PP_DEPTH_MAX)",
                Some("pp_expansion_depth_max"),
            ),
            (
                "too much macro output: the limit is 65536 (PP_EXPAND_MAX)",
                Some("pp_expanded_tokens_max"),
            ),
            (
                "#if expression nested too deeply: the limit is 64 (PP_EXPR_DEPTH_MAX)",
                Some("pp_expr_depth_max"),
            ),
            (
                "if statements are nested too deeply: the limit is 32",
                Some("if_depth_max"),
            ),
            ("IF nesting exceeds the limit of 32", Some("if_depth_max")),
            (
                "too many temporaries (the profile-2 limit is 1024)",
                Some("temporaries_max"),
            ),
            (
                "too many varyings: 'v' does not fit; the limit is 8",
                Some("varyings_max"),
            ),
            (
                "TGSI exceeds the VirGL command budget (3600 bytes)",
                Some("tgsi_bytes_max"),
            ),
            ("too many arguments: 5 given, at most 4 accepted", None),
            ("invalid swizzle 'z': vec2 has 2 component(s)", None),
        ] {
            assert_eq!(limit_named_in(msg), name, "{}", msg);
        }
        // Every name is a `shc limits` key or a preprocessor table's own.
        let keys = P2_LIMITS.entries().map(|(k, _)| k);
        for (_, name) in LIMIT_PHRASES.iter().chain(PP_LIMIT_NAMES.iter()) {
            assert!(
                keys.contains(name) || name.starts_with("pp_") || *name == "int_literal_max",
                "{}",
                name
            );
        }
    }
}

/// Most bands (threads) one software draw is split into (`back::raster::draw_parallel`); more
/// workers than this leave the rest idle.
pub const RASTER_BANDS_MAX: usize = 64;
