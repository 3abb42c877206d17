//! The ChrisOS shader IR: the one place where IR types live.
//!
//! A [`Module`] is a flat list of [`Inst`] records over 4-lane float temporaries, a pool of f32
//! immediates and the stage's [`Interface`] (attributes, varyings, uniforms, samplers). Control
//! flow is structured (IF/ELSE/ENDIF, and in profile 2 LOOP/BREAK/CONTINUE/ENDLOOP with an
//! iteration bound); there are no labels, jumps or calls (the frontend inlines, and unrolls
//! constant-trip loops). Matrices are 2, 3 or 4 consecutive temps (one column each), named by the first.
//!
//! Nothing here checks anything: `verify` is the safety boundary. After `verify` accepts a
//! module, `exec` and `tgsi` may rely on every invariant documented below and never fail on it.
//!
//! # Operand conventions (the contract between frontend, verifier, executor, TGSI and CSIR)
//!
//! `lanes` = number of lanes an op writes; where a row says "0 means N", a stored 0 is read as N
//! (old CSIR v1 writers relied on that). Operand fields an op does not use are ignored (old writers
//! left them 0; new writers write -1). `a`, `b` are temp indices; `dst` is a temp index.
//!
//! | op | operands | semantics |
//! |---|---|---|
//! | NOP | - | nothing |
//! | CONST | dst, aux = imm base, lanes 1..=4 | dst = (imm[aux..aux+lanes], then 0s) |
//! | MOV | dst, a, lanes (0 means 4) | dst[k] = a[k] for k < lanes; other lanes kept |
//! | SWZ | dst, a, aux = selectors (2 bits per output lane k at bits 2k..2k+1), lanes 1..=4 | dst = 0, then dst[k] = a[sel_k] for k < lanes |
//! | SETLANE | dst, a, aux = dst lane 0..=3, aux2 = src lane 0..=3 | dst[aux] = a[aux2]; other lanes kept |
//! | ADD SUB MUL MAX MIN DIV | dst, a, b, lanes (0 means 4) | lane-wise for k < lanes; other lanes kept. DIV is IEEE true division |
//! | ABS | dst, a, lanes (0 means 4) | lane-wise |
//! | DOT | dst, a, b, aux = n in 2..=4 (0 means 3) | dst[0] = sum_{k<n} a[k]*b[k]; other lanes kept |
//! | RSQ RCP SIN COS TRUNC SQRT | dst, a, lanes (0 means 1) | lane-wise for k < lanes (IEEE f32, libm); other lanes kept |
//! | POW | dst, a, b, lanes (0 means 1) | dst[k] = pow(a[k], b[k]) for k < lanes |
//! | CMP | dst, a, b, aux = [`CmpCode`] | dst[0] = 1.0 if a[0] OP b[0] else 0.0; other lanes kept |
//! | MULMV | dst, a = matrix base (aux columns), b = vector, aux = 3 or 4 (0 means 4) | dst = sum_{k<aux} col_k * b[k]; lanes >= aux become 0 |
//! | MULMM | dst = base of aux result columns, a, b = matrix bases, aux = 3 or 4 | column j = A * (column j of B); all columns computed before any is written |
//! | SAMPLE | dst, a = coordinate (lanes 0,1 = u,v), aux = sampler unit 0..=3 | dst = filtered texel (r,g,b,a) |
//! | LOAD_ATTR | dst, aux = attribute location | dst = attribute (missing components read as 0,0,0,1) |
//! | LOAD_VAR | dst, aux = this stage's varying slot (fragment input) | dst = interpolated varying |
//! | LOAD_UNI | dst = base, aux = first vec4 slot, aux2 = count (1, 3 or 4) | dst+k = uniform vec4 slot aux+k |
//! | LOAD_FCOORD | dst | dst = gl_FragCoord |
//! | LOAD_SYSVAL | dst, aux = [`SYSVAL_VERTEX_ID`] or [`SYSVAL_INSTANCE_ID`] (vertex stage) | dst = the value as a float in every lane |
//! | STORE_POS | a | gl_Position = a |
//! | STORE_VAR | a, aux = varying slot (vertex output) | varying[aux] = a |
//! | STORE_COLOR | a | fragment colour = a |
//! | IF | a | runs the block when a[0] != 0.0 |
//! | ELSE, ENDIF | - | structured control flow |
//! | DISCARD | - | ends the fragment, discarded |
//!
//! | FLOOR CEIL FRACT ROUND_EVEN EXP2 LOG2 SIGN | dst, a, lanes (0 means 1) | lane-wise for k < lanes (profile 2; FRACT = x - floor(x), ROUND_EVEN ties to even, SIGN gives 1, -1 or 0 and 0 for NaN) |
//! | CMPV | dst, a, b, aux = [`CmpCode`], lanes (0 means 1) | dst[k] = 1.0 if a[k] OP b[k] else 0.0 for k < lanes (profile 2) |
//! | LOOP | aux = low 16 bits, aux2 = high 16 bits of the iteration bound (1..=`P2_LOOP_ITERATIONS_MAX`), aux2 bit 14 ([`LOOP_BUDGETED`]): the loop spends the invocation's loop budget | opens a loop (profile 2); see [`loop_bound`] |
//! | BREAK | - | the lanes running here leave the innermost loop (profile 2) |
//! | CONTINUE | - | the lanes running here skip to the innermost loop's next iteration (profile 2) |
//! | DDX DDY | dst, a, lanes (0 means 1) | fragment stage, profile 2: dst[k] = the horizontal (DDX) or vertical (DDY, window y up) difference of a[k] inside the lane's 2x2 quad, fine as llvmpipe (see `back::exec::quad`) |
//! | LOAD_FACE | dst | fragment stage, profile 2: dst = (1, 1, 1, 1) when the primitive is front-facing (gl_FrontFacing), else 0 |
//! | STORE_CLIP | a, aux = k | vertex stage, profile 2: gl_ClipDistance[k] = a[0]; the rasterizer clips each triangle to where every written distance (interpolated linearly in clip space like the frustum planes) is >= 0 |
//! | STORE_DEPTH | a | fragment stage, profile 2: gl_FragDepth = a[0]; the rasterizer clamps it to [0, 1] (NaN -> 0) and tests and writes it instead of the interpolated depth |
//! | ENDLOOP | - | closes the innermost loop: its lanes that neither broke nor were discarded start the next iteration, unless the loop has run its bound of iterations, when the loop ends for every lane as if by BREAK; in a budgeted loop a lane whose invocation budget is spent leaves it as if by BREAK (profile 2) |
//! | LOAD_IDX | dst, a = index, b = range base, c = offset in an element, aux = len (elements), aux2 = stride (temps per element) | dst = temp b + clamp(index)*aux2 + c (all four lanes); the range is temps b..b+aux*aux2 (profile 2) |
//! | STORE_IDX | dst = range base, a = index, b = source, c, aux = len, aux2 = stride, lanes (0 means 4) | temp dst + clamp(index)*aux2 + c gets b's first `lanes` lanes; the rest of the range is kept (profile 2) |
//! | LOAD_UNI_IDX | dst, a = index, aux = uniform slot of element 0, aux2 = len, c = stride (slots per element) | dst = uniform slot aux + clamp(index)*c (profile 2) |
//! | LOAD_LANE | dst, a = index, b = vector, aux = n (2..=4 components) | dst[0] = b[clamp(index)]; other lanes kept (profile 2) |
//! | STORE_LANE | dst = vector, a = index, b = source, aux = n (2..=4) | dst[clamp(index)] = b[0]; other lanes kept (profile 2) |
//!
//! The index of the indirect ops is lane 0 of temp `a`, a float holding a whole number (sema
//! converts profile 2's integer index with CVT); `clamp(index)` = floor(index) clamped to 0..=len-1 (n-1 for the
//! lanes), NaN reads as 0: out-of-range indexes are defined and the same on every backend.
//!
//! Profile 2's 32-bit integers: an `int`/`uint` lane holds its bit pattern (`f32::from_bits`).
//! Every op below is lane-wise for k < lanes (0 means 1), other lanes kept; results wrap.
//!
//! | op | operands | semantics |
//! |---|---|---|
//! | IADD ISUB IMUL | dst, a, b, lanes | two's-complement wrapping (the same bits for int and uint) |
//! | IDIV | dst, a, b, lanes | signed, truncating; x / 0 = 0, INT_MIN / -1 = INT_MIN |
//! | UDIV | dst, a, b, lanes | unsigned; x / 0 = 0xffffffff |
//! | IMOD UMOD | dst, a, b, lanes | the remainder of the unsigned bit patterns (Mesa's `%` on int, measured); x % 0 = 0xffffffff |
//! | AND OR XOR | dst, a, b, lanes | bitwise |
//! | NOT INEG IABS ISIGN | dst, a, lanes | bitwise not; wrapping negation; abs(INT_MIN) = INT_MIN; sign gives 1, 0, -1 |
//! | SHL ISHR USHR | dst, a, b, lanes | shift a by b mod 32 (ISHR arithmetic, USHR logical) |
//! | IMIN IMAX UMIN UMAX | dst, a, b, lanes | signed / unsigned |
//! | ICMP UCMP | dst, a, b, aux = [`CmpCode`], lanes | dst[k] = 1.0 if a[k] OP b[k] (signed / unsigned) else 0.0: profile 2's bools stay 0.0/1.0 |
//! | CVT | dst, a, aux = [`CVT_I2F`], [`CVT_U2F`], [`CVT_F2I`] or [`CVT_F2U`], lanes | conversions; F2I of NaN, infinities and values outside the range is INT_MIN (0x80000000); F2U as Mesa on x86: see [`f2u`] |
//!
//! Opcodes 0..=32 are the historical set; 33 and up are additions of this implementation
//! (documented in docs/CSIR.md): DIV (33), SQRT (34); profile 2's LOAD_SYSVAL (35,
//! gl_VertexID and gl_InstanceID), FLOOR (36) CEIL (37) FRACT (38) ROUND_EVEN (39) EXP2 (40)
//! LOG2 (41) SIGN (42) CMPV (43); profile 2's structured loops LOOP (44) BREAK (45)
//! CONTINUE (46) ENDLOOP (47). LOOP/ENDLOOP nest with IF/ELSE/ENDIF as one stack, at most
//! [`LOOP_DEPTH_MAX`] loops deep; BREAK and CONTINUE appear only inside a loop. Profile 2's
//! integer ops are 48..=71: IADD ISUB IMUL IDIV UDIV IMOD UMOD AND OR XOR NOT SHL ISHR USHR IMIN
//! IMAX UMIN UMAX INEG IABS ISIGN ICMP UCMP CVT, in that order; profile 2's dynamic indexing
//! LOAD_IDX (72) STORE_IDX (73) LOAD_UNI_IDX (74) LOAD_LANE (75) STORE_LANE (76); profile 2's derivatives DDX (80) DDY
//! (81); gl_FrontFacing's LOAD_FACE (82); gl_FragDepth's STORE_DEPTH (104); gl_ClipDistance's STORE_CLIP (105).

/// The pattern of every profile-2 integer op (48..=71), for exhaustive matches.
macro_rules! int_ops {
    () => {
        $crate::ir::Op::IAdd
            | $crate::ir::Op::ISub
            | $crate::ir::Op::IMul
            | $crate::ir::Op::IDiv
            | $crate::ir::Op::UDiv
            | $crate::ir::Op::IMod
            | $crate::ir::Op::UMod
            | $crate::ir::Op::And
            | $crate::ir::Op::Or
            | $crate::ir::Op::Xor
            | $crate::ir::Op::Not
            | $crate::ir::Op::Shl
            | $crate::ir::Op::IShr
            | $crate::ir::Op::UShr
            | $crate::ir::Op::IMin
            | $crate::ir::Op::IMax
            | $crate::ir::Op::UMin
            | $crate::ir::Op::UMax
            | $crate::ir::Op::INeg
            | $crate::ir::Op::IAbs
            | $crate::ir::Op::ISign
            | $crate::ir::Op::ICmp
            | $crate::ir::Op::UCmp
            | $crate::ir::Op::Cvt
    };
}
pub(crate) use int_ops;

pub mod dump;
pub mod loopopt;
pub mod opt;
pub mod regalloc;
pub mod verify;

use heapless::{String, Vec};

use crate::limits::*;

/// Sets `v` to `n` copies of `x` (at most its capacity), the state `clear` then `resize`
/// leaves: the slots it already holds are overwritten by one `fill`, and only the ones past
/// them are pushed. (`heapless`'s `resize` pushes every slot, about ten instructions each;
/// the compiler's tables keep their length from one compile to the next.)
pub(crate) fn refill<T: Clone, const N: usize>(v: &mut Vec<T, N>, n: usize, x: T) {
    let n = n.min(N);
    v.truncate(n);
    v.fill(x.clone());
    while v.len() < n {
        if v.push(x.clone()).is_err() {
            break;
        }
    }
}

/// Sets `v` to the items of `it` (up to its capacity), as `clear` then `extend` did, by
/// overwriting the slots it holds before pushing.
pub(crate) fn refill_from<T, const N: usize>(v: &mut Vec<T, N>, it: impl Iterator<Item = T>) {
    let mut k = 0;
    for x in it {
        match v.get_mut(k) {
            Some(slot) => *slot = x,
            None => {
                if v.push(x).is_err() {
                    break;
                }
            }
        }
        k += 1;
    }
    v.truncate(k);
}

/// A name as kept in reflection tables (identifiers are at most 39 bytes).
pub type Name = String<NAME_CAP>;

/// Shader stages with their public numeric values. Only vertex and fragment compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Stage {
    Vertex = 0,
    Fragment = 1,
}

impl Stage {
    pub const GEOMETRY_VALUE: u32 = 2;
    pub const COMPUTE_VALUE: u32 = 3;

    pub fn from_u32(v: u32) -> Option<Stage> {
        match v {
            0 => Some(Stage::Vertex),
            1 => Some(Stage::Fragment),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Fragment => "fragment",
        }
    }
}

/// Type ids, in the serialized (CSIR) numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Type {
    None = 0,
    Void = 1,
    Bool = 2,
    Int = 3,
    Float = 4,
    Vec2 = 5,
    Vec3 = 6,
    Vec4 = 7,
    IVec2 = 8,
    IVec3 = 9,
    IVec4 = 10,
    Mat3 = 11,
    Mat4 = 12,
    Sampler2D = 13,
    // Profile 2 (issue 13): unsigned integers, boolean vectors, mat2 and the non-square
    // matrices (`MatCxR`: C columns of R rows). Integers and bools are float-backed like `int`.
    Uint = 14,
    UVec2 = 15,
    UVec3 = 16,
    UVec4 = 17,
    BVec2 = 18,
    BVec3 = 19,
    BVec4 = 20,
    Mat2 = 21,
    Mat2x3 = 22,
    Mat2x4 = 23,
    Mat3x2 = 24,
    Mat3x4 = 25,
    Mat4x2 = 26,
    Mat4x3 = 27,
    // Profile 2 (issue 15): the cube and depth-compare sampler types (uniforms only, like
    // sampler2D; see `is_sampler`).
    SamplerCube = 28,
    Sampler2DShadow = 29,
    SamplerCubeShadow = 30,
    // Profile 2 (issue 15): the integer samplers (results ivec4/uvec4, the texel words).
    ISampler2D = 32,
    USampler2D = 33,
    // Profile 2 (session 6, issue 15 item 3): the 2D array sampler (ids 34..=37 reserved).
    Sampler2DArray = 34,
    // Profile 2 (session 9): the integer 2D array samplers (results ivec4/uvec4, the texel
    // words of the selected layer).
    ISampler2DArray = 35,
    USampler2DArray = 36,
}

impl Type {
    /// The highest type id profile 1 has (sampler2D); the others are profile 2's.
    pub const P1_LAST: u8 = 13;

    pub const ALL: [Type; 36] = [
        Type::None,
        Type::Void,
        Type::Bool,
        Type::Int,
        Type::Float,
        Type::Vec2,
        Type::Vec3,
        Type::Vec4,
        Type::IVec2,
        Type::IVec3,
        Type::IVec4,
        Type::Mat3,
        Type::Mat4,
        Type::Sampler2D,
        Type::Uint,
        Type::UVec2,
        Type::UVec3,
        Type::UVec4,
        Type::BVec2,
        Type::BVec3,
        Type::BVec4,
        Type::Mat2,
        Type::Mat2x3,
        Type::Mat2x4,
        Type::Mat3x2,
        Type::Mat3x4,
        Type::Mat4x2,
        Type::Mat4x3,
        Type::SamplerCube,
        Type::Sampler2DShadow,
        Type::SamplerCubeShadow,
        Type::ISampler2D,
        Type::USampler2D,
        Type::Sampler2DArray,
        Type::ISampler2DArray,
        Type::USampler2DArray,
    ];

    /// Whether this is one of the sampler types (uniforms bound to a texture unit).
    pub fn is_sampler(self) -> bool {
        matches!(
            self,
            Type::Sampler2D
                | Type::SamplerCube
                | Type::Sampler2DShadow
                | Type::SamplerCubeShadow
                | Type::ISampler2D
                | Type::USampler2D
                | Type::Sampler2DArray
                | Type::ISampler2DArray
                | Type::USampler2DArray
        )
    }

    /// Whether this is one of the 2D array samplers (sampler2DArray, isampler2DArray,
    /// usampler2DArray), whose texture ops are ARR_LOD .. ARR_SIZE.
    pub fn is_array_sampler(self) -> bool {
        matches!(
            self,
            Type::Sampler2DArray | Type::ISampler2DArray | Type::USampler2DArray
        )
    }

    #[inline]
    pub fn from_u8(v: u8) -> Option<Type> {
        // 0..=30 are dense; later ids own ranges with gaps between them.
        match Type::ALL.get(v as usize).copied() {
            Some(t) if t as u8 == v => Some(t),
            _ => Type::ALL.iter().copied().find(|t| *t as u8 == v),
        }
    }

    /// Components of a scalar/vector (matrices: rows per column; others 0).
    pub fn components(self) -> u8 {
        match self {
            Type::Bool | Type::Int | Type::Float | Type::Uint => 1,
            Type::Vec2 | Type::IVec2 | Type::UVec2 | Type::BVec2 => 2,
            Type::Mat2 | Type::Mat3x2 | Type::Mat4x2 => 2,
            Type::Vec3 | Type::IVec3 | Type::UVec3 | Type::BVec3 => 3,
            Type::Mat3 | Type::Mat2x3 | Type::Mat4x3 => 3,
            Type::Vec4 | Type::IVec4 | Type::UVec4 | Type::BVec4 => 4,
            Type::Mat4 | Type::Mat2x4 | Type::Mat3x4 => 4,
            _ => 0,
        }
    }

    /// Matrix columns (0 for non-matrices).
    pub fn columns(self) -> u8 {
        match self {
            Type::Mat2 | Type::Mat2x3 | Type::Mat2x4 => 2,
            Type::Mat3 | Type::Mat3x2 | Type::Mat3x4 => 3,
            Type::Mat4 | Type::Mat4x2 | Type::Mat4x3 => 4,
            _ => 0,
        }
    }

    /// int, uint and their vectors (float-backed whole numbers; as varyings they must be flat).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Type::Int
                | Type::IVec2
                | Type::IVec3
                | Type::IVec4
                | Type::Uint
                | Type::UVec2
                | Type::UVec3
                | Type::UVec4
        )
    }

    /// The matrix of `cols` columns of `rows` rows (2..=4 each).
    pub fn matrix(cols: u8, rows: u8) -> Option<Type> {
        Some(match (cols, rows) {
            (2, 2) => Type::Mat2,
            (2, 3) => Type::Mat2x3,
            (2, 4) => Type::Mat2x4,
            (3, 2) => Type::Mat3x2,
            (3, 3) => Type::Mat3,
            (3, 4) => Type::Mat3x4,
            (4, 2) => Type::Mat4x2,
            (4, 3) => Type::Mat4x3,
            (4, 4) => Type::Mat4,
            _ => return None,
        })
    }

    /// vec4 uniform slots this type takes (samplers take none; a matrix one per column).
    pub fn uniform_slots(self) -> u8 {
        match self {
            t if t.is_sampler() => 0,
            Type::None | Type::Void => 0,
            t if t.columns() > 0 => t.columns(),
            _ => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Type::None => "none",
            Type::Void => "void",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Float => "float",
            Type::Vec2 => "vec2",
            Type::Vec3 => "vec3",
            Type::Vec4 => "vec4",
            Type::IVec2 => "ivec2",
            Type::IVec3 => "ivec3",
            Type::IVec4 => "ivec4",
            Type::Mat3 => "mat3",
            Type::Mat4 => "mat4",
            Type::Sampler2D => "sampler2D",
            Type::Uint => "uint",
            Type::UVec2 => "uvec2",
            Type::UVec3 => "uvec3",
            Type::UVec4 => "uvec4",
            Type::BVec2 => "bvec2",
            Type::BVec3 => "bvec3",
            Type::BVec4 => "bvec4",
            Type::Mat2 => "mat2",
            Type::Mat2x3 => "mat2x3",
            Type::Mat2x4 => "mat2x4",
            Type::Mat3x2 => "mat3x2",
            Type::Mat3x4 => "mat3x4",
            Type::Mat4x2 => "mat4x2",
            Type::Mat4x3 => "mat4x3",
            Type::SamplerCube => "samplerCube",
            Type::Sampler2DShadow => "sampler2DShadow",
            Type::SamplerCubeShadow => "samplerCubeShadow",
            Type::ISampler2D => "isampler2D",
            Type::USampler2D => "usampler2D",
            Type::Sampler2DArray => "sampler2DArray",
            Type::ISampler2DArray => "isampler2DArray",
            Type::USampler2DArray => "usampler2DArray",
        }
    }
}

/// IR opcodes in their serialized numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    Nop = 0,
    Const = 1,
    Mov = 2,
    Swz = 3,
    SetLane = 4,
    Add = 5,
    Sub = 6,
    Mul = 7,
    Max = 8,
    Min = 9,
    Abs = 10,
    Dot = 11,
    Rsq = 12,
    Rcp = 13,
    Sin = 14,
    Cos = 15,
    Pow = 16,
    Trunc = 17,
    Cmp = 18,
    MulMV = 19,
    MulMM = 20,
    Sample = 21,
    LoadAttr = 22,
    LoadVar = 23,
    LoadUni = 24,
    LoadFcoord = 25,
    StorePos = 26,
    StoreVar = 27,
    StoreColor = 28,
    If = 29,
    Else = 30,
    Endif = 31,
    Discard = 32,
    Div = 33,
    Sqrt = 34,
    LoadSysval = 35,
    // Profile 2's built-in library (issue 13): lane-wise ops, `lanes` (0 means 1).
    Floor = 36,
    Ceil = 37,
    Fract = 38,
    RoundEven = 39,
    Exp2 = 40,
    Log2 = 41,
    Sign = 42,
    /// Lane-wise compare: dst[k] = 1.0 if a[k] OP b[k] else 0.0 for k < lanes; aux = CmpCode.
    CmpV = 43,
    // Profile 2's structured loops (issue 14).
    Loop = 44,
    Break = 45,
    Continue = 46,
    EndLoop = 47,
    // Profile 2's 32-bit integers (issue 14 item 4): lane-wise ops on the bit patterns the
    // lanes hold, `lanes` (0 means 1); see `ints` and docs/LANGUAGE.md ("Integers").
    IAdd = 48,
    ISub = 49,
    IMul = 50,
    IDiv = 51,
    UDiv = 52,
    IMod = 53,
    UMod = 54,
    And = 55,
    Or = 56,
    Xor = 57,
    Not = 58,
    Shl = 59,
    IShr = 60,
    UShr = 61,
    IMin = 62,
    IMax = 63,
    UMin = 64,
    UMax = 65,
    INeg = 66,
    IAbs = 67,
    ISign = 68,
    ICmp = 69,
    UCmp = 70,
    Cvt = 71,
    // Profile 2's dynamic indexing (issue 14; the range 72..=79 is this feature's): indirect
    // reads and writes of a temp range, an indirect uniform read, a dynamic vector lane.
    LoadIdx = 72,
    StoreIdx = 73,
    LoadUniIdx = 74,
    LoadLane = 75,
    StoreLane = 76,
    // Profile 2's derivatives (issue 15), fragment stage only: lane-wise over `lanes` (0 means
    // 1), each lane taking the difference inside its 2x2 quad (see `back::exec::quad`).
    Ddx = 80,
    Ddy = 81,
    /// Profile 2's gl_FrontFacing (fragment stage): dst = 1.0 in every component when the
    /// primitive faces front, else 0.0.
    LoadFace = 82,
    // Profile 2's texture functions (issue 15; numbers 88..=103). Each samples unit `aux`;
    // `aux2` is a constant texel offset (`mip::offset_code`, 0: none). Results are vec4, except
    // TEXSIZE's ivec2.
    /// dst = textureLod(unit, a.xy, b.x).
    SampleLod = 88,
    /// dst = texture(unit, a.xy) with the implicit level of detail (fragment stage; 0 in the
    /// vertex stage), plus the bias b.x when b >= 0.
    SampleBias = 89,
    /// dst = textureGrad(unit, a.xy, dPdx = b.xy, dPdy = (b + 1).xy).
    SampleGrad = 90,
    /// dst = texelFetch(unit, ivec2(a.xy), int(b.x)).
    TexFetch = 91,
    /// dst = textureSize(unit, int(a.x)) (ivec2).
    TexSize = 92,
    // Profile 2's remaining built-in outputs (issue 15; numbers 104..=107).
    /// Fragment stage: gl_FragDepth = a[0] (replaces the interpolated depth for the depth test
    /// and the depth buffer; clamped to [0, 1], NaN -> 0, by the rasterizer).
    StoreDepth = 104,
    /// Vertex stage: gl_ClipDistance[aux] = a[0] (user clip plane `aux`, 0..CLIP_DISTANCE_MAX;
    /// the rasterizer keeps the part of a triangle where every written distance is >= 0).
    StoreClip = 105,
    // samplerCube (issue 15): a = the direction (x, y, z); the face and its (s, t) as GL 3.3
    // §3.8.10 (see `back::exec::cube`). No offsets.
    /// dst = textureLod(samplerCube unit, a.xyz, b.x).
    CubeLod = 96,
    /// dst = texture(samplerCube unit, a.xyz) with the implicit level of detail, plus the bias
    /// b.x when b >= 0.
    CubeBias = 97,
    /// dst = textureGrad(samplerCube unit, a.xyz, dPdx = b.xyz, dPdy = (b + 1).xyz).
    CubeGrad = 98,
    // Depth comparison (sampler2DShadow, samplerCubeShadow): the result is (r, 0, 0, 1) where r
    // is the compare result 0/1 (PCF-weighted with linear filtering) of the reference against
    // the depth texels, by the bound sampler's compare function.
    /// dst = textureLod(sampler2DShadow unit, a.xyz = (s, t, ref), b.x), offset aux2.
    ShadowLod = 99,
    /// dst = texture(sampler2DShadow unit, a.xyz = (s, t, ref)) with the implicit level of
    /// detail (+ bias b.x when b >= 0), offset aux2.
    ShadowBias = 100,
    /// dst = texture(samplerCubeShadow unit, a = (x, y, z, ref)) (+ bias b.x when b >= 0).
    ShadowCube = 101,
    // Shadow leftovers and integer samplers (issue 15; numbers 108..=115).
    /// dst = textureGrad(sampler2DShadow unit, a.xyz = (s, t, ref), dPdx = b.xy,
    /// dPdy = (b + 1).xy), offset aux2.
    ShadowGrad = 108,
    // sampler2DArray (session 6; numbers 112..=117): a = (s, t, layer) (ArrFetch: ivec3 as
    // floats), the layer clamp(roundEven(layer), 0, layers - 1) as GL 3.3 §3.8.10 says (the
    // fetch's layer is not rounded), then a 2D sample of that layer; aux2 a constant offset.
    /// dst = textureLod(sampler2DArray unit, a.xyz, b.x).
    ArrLod = 112,
    /// dst = texture(sampler2DArray unit, a.xyz) with the implicit level of detail of a.xy
    /// (+ bias b.x when b >= 0).
    ArrBias = 113,
    /// dst = textureGrad(sampler2DArray unit, a.xyz, dPdx = b.xy, dPdy = (b + 1).xy).
    ArrGrad = 114,
    /// dst = texelFetch(sampler2DArray unit, ivec3(a.xyz), int(b.x)).
    ArrFetch = 115,
    /// dst = textureSize(sampler2DArray unit, int(a.x)): (width, height, layers) (ivec3).
    ArrSize = 116,
}

/// The texture opcodes (numbers 88..=103; `Op::ALL` holds them too).
pub const TEX_OPS: [Op; 17] = [
    Op::SampleLod,
    Op::SampleBias,
    Op::SampleGrad,
    Op::TexFetch,
    Op::TexSize,
    Op::CubeLod,
    Op::CubeBias,
    Op::CubeGrad,
    Op::ShadowLod,
    Op::ShadowBias,
    Op::ShadowCube,
    Op::ShadowGrad,
    Op::ArrLod,
    Op::ArrBias,
    Op::ArrGrad,
    Op::ArrFetch,
    Op::ArrSize,
];

/// LOOP's aux2 bit saying the loop spends the invocation's loop budget
/// ([`P2_LOOP_BUDGET`](crate::limits::P2_LOOP_BUDGET)): every iteration it starts (the first
/// included) costs one, per lane, and a lane whose budget is spent leaves the loop as if by BREAK.
/// Loops without it have a proven trip count as their bound.
pub const LOOP_BUDGETED: u16 = 0x4000;

/// The iteration bound a LOOP carries (aux = low 16 bits, aux2 = high 16 bits without
/// [`LOOP_BUDGETED`]); the verifier accepts 1..=[`P2_LOOP_ITERATIONS_MAX`].
pub fn loop_bound(i: &Inst) -> u32 {
    (i.aux as u16 as u32) | (((i.aux2 as u16) & !LOOP_BUDGETED) as u32) << 16
}

/// Whether a LOOP spends the invocation's loop budget (see [`LOOP_BUDGETED`]).
pub fn loop_budgeted(i: &Inst) -> bool {
    i.aux2 as u16 & LOOP_BUDGETED != 0
}

/// The LOOP instruction for `bound` iterations (a proven trip count: no budget spent).
pub fn loop_inst(bound: u32) -> Inst {
    let mut i = Inst::new(Op::Loop);
    i.aux = (bound & 0xffff) as u16 as i16;
    i.aux2 = (bound >> 16) as u16 as i16;
    i
}

/// The LOOP instruction for at most `bound` iterations that also spends the invocation's loop
/// budget (a loop whose trip count the compiler could not prove, or one nested in such a loop).
pub fn loop_inst_budgeted(bound: u32) -> Inst {
    let mut i = loop_inst(bound);
    i.aux2 = (i.aux2 as u16 | LOOP_BUDGETED) as i16;
    i
}

/// CVT `aux`: int bits to float.
pub const CVT_I2F: i16 = 0;
/// CVT `aux`: uint bits to float.
pub const CVT_U2F: i16 = 1;
/// CVT `aux`: float to int bits (truncating).
pub const CVT_F2I: i16 = 2;
/// CVT `aux`: float to uint bits (truncating).
pub const CVT_F2U: i16 = 3;

/// Profile 2's float-to-int conversion (CVT F2I): truncation toward zero; NaN, infinities and
/// values outside -2^31..2^31 give INT_MIN, as x86's CVTTPS2DQ (and so Mesa's llvmpipe) does.
#[inline]
pub fn f2i(x: f32) -> i32 {
    if x >= -2147483648.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// Profile 2's float-to-uint conversion (CVT F2U), bit-exact with what llvmpipe computes (measured
/// through Mesa and VirGL): `r1 = f2i(x)`, `r2 = f2i(x - 2^31)`, result `r1 | (r2 & (r1 >> 31))`
/// (arithmetic shift). So 0..2^32 convert exactly, negative values above -2^31 give f2i(x)'s
/// bits (`uint(-3.7)` = 0xfffffffd) and NaN, infinities and the rest give 0x80000000.
#[inline]
pub fn f2u(x: f32) -> u32 {
    let r1 = f2i(x);
    let r2 = f2i(x - 2147483648.0);
    (r1 | (r2 & (r1 >> 31))) as u32
}

/// LOAD_SYSVAL `aux`: gl_VertexID (the vertex's index: the index value of an indexed draw).
pub const SYSVAL_VERTEX_ID: i16 = 0;

/// The clamped index of an indirect op (see the operand table): floor(v) clamped to
/// 0..=max_index; NaN gives 0. Every backend computes this value.
pub fn clamp_index(v: f32, max_index: u32) -> u32 {
    if v >= 1.0 {
        let f = libm::floorf(v);
        if f >= max_index as f32 {
            max_index
        } else {
            f as u32
        }
    } else {
        0
    }
}
/// LOAD_SYSVAL `aux`: gl_InstanceID (0 for a draw that is not instanced).
pub const SYSVAL_INSTANCE_ID: i16 = 1;

impl Op {
    pub const ALL: [Op; 99] = [
        Op::Nop,
        Op::Const,
        Op::Mov,
        Op::Swz,
        Op::SetLane,
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Max,
        Op::Min,
        Op::Abs,
        Op::Dot,
        Op::Rsq,
        Op::Rcp,
        Op::Sin,
        Op::Cos,
        Op::Pow,
        Op::Trunc,
        Op::Cmp,
        Op::MulMV,
        Op::MulMM,
        Op::Sample,
        Op::LoadAttr,
        Op::LoadVar,
        Op::LoadUni,
        Op::LoadFcoord,
        Op::StorePos,
        Op::StoreVar,
        Op::StoreColor,
        Op::If,
        Op::Else,
        Op::Endif,
        Op::Discard,
        Op::Div,
        Op::Sqrt,
        Op::LoadSysval,
        Op::Floor,
        Op::Ceil,
        Op::Fract,
        Op::RoundEven,
        Op::Exp2,
        Op::Log2,
        Op::Sign,
        Op::CmpV,
        Op::Loop,
        Op::Break,
        Op::Continue,
        Op::EndLoop,
        Op::IAdd,
        Op::ISub,
        Op::IMul,
        Op::IDiv,
        Op::UDiv,
        Op::IMod,
        Op::UMod,
        Op::And,
        Op::Or,
        Op::Xor,
        Op::Not,
        Op::Shl,
        Op::IShr,
        Op::UShr,
        Op::IMin,
        Op::IMax,
        Op::UMin,
        Op::UMax,
        Op::INeg,
        Op::IAbs,
        Op::ISign,
        Op::ICmp,
        Op::UCmp,
        Op::Cvt,
        Op::LoadIdx,
        Op::StoreIdx,
        Op::LoadUniIdx,
        Op::LoadLane,
        Op::StoreLane,
        Op::Ddx,
        Op::Ddy,
        Op::LoadFace,
        Op::SampleLod,
        Op::SampleBias,
        Op::SampleGrad,
        Op::TexFetch,
        Op::TexSize,
        Op::StoreDepth,
        Op::StoreClip,
        Op::CubeLod,
        Op::CubeBias,
        Op::CubeGrad,
        Op::ShadowLod,
        Op::ShadowBias,
        Op::ShadowCube,
        Op::ShadowGrad,
        Op::ArrLod,
        Op::ArrBias,
        Op::ArrGrad,
        Op::ArrFetch,
        Op::ArrSize,
    ];

    pub fn from_u8(v: u8) -> Option<Op> {
        // 0..=47 are dense; later additions own number ranges with gaps between them.
        match Op::ALL.get(v as usize).copied() {
            Some(op) if op as u8 == v => Some(op),
            _ => Op::ALL.iter().copied().find(|o| *o as u8 == v),
        }
    }

    /// Profile 2's indirect ops (dynamic indexing, 72..=76): they address a temp or uniform
    /// range through an index operand (see the operand table).
    pub fn is_indirect(self) -> bool {
        matches!(
            self,
            Op::LoadIdx | Op::StoreIdx | Op::LoadUniIdx | Op::LoadLane | Op::StoreLane
        )
    }

    /// The texture opcodes of profile 2 (numbers 88..=103 and 108..=115).
    pub fn is_texture(self) -> bool {
        (88..=103).contains(&(self as u8)) || (108..=117).contains(&(self as u8))
    }

    /// Name used in IR dumps.
    pub fn name(self) -> &'static str {
        match self {
            Op::Nop => "nop",
            Op::Const => "const",
            Op::Mov => "mov",
            Op::Swz => "swz",
            Op::SetLane => "lane",
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Max => "max",
            Op::Min => "min",
            Op::Abs => "abs",
            Op::Dot => "dot",
            Op::Rsq => "rsq",
            Op::Rcp => "rcp",
            Op::Sin => "sin",
            Op::Cos => "cos",
            Op::Pow => "pow",
            Op::Trunc => "trunc",
            Op::Cmp => "cmp",
            Op::MulMV => "mul_mv",
            Op::MulMM => "mul_mm",
            Op::Sample => "sample2d",
            Op::LoadAttr => "load_attr",
            Op::LoadVar => "load_var",
            Op::LoadUni => "load_uni",
            Op::LoadFcoord => "load_fragcoord",
            Op::StorePos => "store_pos",
            Op::StoreVar => "store_var",
            Op::StoreColor => "store_color",
            Op::If => "if",
            Op::Else => "else",
            Op::Endif => "endif",
            Op::Discard => "discard",
            Op::Div => "div",
            Op::Sqrt => "sqrt",
            Op::LoadSysval => "load_sysval",
            Op::Floor => "floor",
            Op::Ceil => "ceil",
            Op::Fract => "fract",
            Op::RoundEven => "round_even",
            Op::Exp2 => "exp2",
            Op::Log2 => "log2",
            Op::Sign => "sign",
            Op::CmpV => "cmpv",
            Op::Loop => "loop",
            Op::Break => "break",
            Op::Continue => "continue",
            Op::EndLoop => "endloop",
            Op::IAdd => "iadd",
            Op::ISub => "isub",
            Op::IMul => "imul",
            Op::IDiv => "idiv",
            Op::UDiv => "udiv",
            Op::IMod => "imod",
            Op::UMod => "umod",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Not => "not",
            Op::Shl => "shl",
            Op::IShr => "ishr",
            Op::UShr => "ushr",
            Op::IMin => "imin",
            Op::IMax => "imax",
            Op::UMin => "umin",
            Op::UMax => "umax",
            Op::INeg => "ineg",
            Op::IAbs => "iabs",
            Op::ISign => "isign",
            Op::ICmp => "icmp",
            Op::UCmp => "ucmp",
            Op::Cvt => "cvt",
            Op::LoadIdx => "load_idx",
            Op::StoreIdx => "store_idx",
            Op::LoadUniIdx => "load_uni_idx",
            Op::LoadLane => "load_lane",
            Op::StoreLane => "store_lane",
            Op::Ddx => "ddx",
            Op::Ddy => "ddy",
            Op::LoadFace => "load_face",
            Op::SampleLod => "sample_lod",
            Op::SampleBias => "sample_bias",
            Op::SampleGrad => "sample_grad",
            Op::TexFetch => "texel_fetch",
            Op::TexSize => "texture_size",
            Op::StoreDepth => "store_depth",
            Op::StoreClip => "store_clip",
            Op::CubeLod => "sample_cube_lod",
            Op::CubeBias => "sample_cube",
            Op::CubeGrad => "sample_cube_grad",
            Op::ShadowLod => "sample_shadow_lod",
            Op::ShadowBias => "sample_shadow",
            Op::ShadowCube => "sample_cube_shadow",
            Op::ShadowGrad => "sample_shadow_grad",
            Op::ArrLod => "sample_array_lod",
            Op::ArrBias => "sample_array",
            Op::ArrGrad => "sample_array_grad",
            Op::ArrFetch => "texel_fetch_array",
            Op::ArrSize => "texture_size_array",
        }
    }

    /// Pure ops only write `dst` (and for MULMM its columns) and have no other effect: the
    /// optimiser may delete them when nothing reads their result.
    #[inline]
    pub fn is_pure(self) -> bool {
        matches!(
            self,
            Op::Const
                | Op::Mov
                | Op::Swz
                | Op::SetLane
                | Op::Add
                | Op::Sub
                | Op::Mul
                | Op::Max
                | Op::Min
                | Op::Abs
                | Op::Dot
                | Op::Rsq
                | Op::Rcp
                | Op::Sin
                | Op::Cos
                | Op::Pow
                | Op::Trunc
                | Op::Cmp
                | Op::MulMV
                | Op::MulMM
                | Op::Sample
                | Op::LoadAttr
                | Op::LoadVar
                | Op::LoadUni
                | Op::LoadFcoord
                | Op::LoadSysval
                | Op::Div
                | Op::Sqrt
                | Op::Floor
                | Op::Ceil
                | Op::Fract
                | Op::RoundEven
                | Op::Exp2
                | Op::Log2
                | Op::Sign
                | Op::CmpV
                | Op::LoadIdx
                | Op::LoadUniIdx
                | Op::LoadLane
                | Op::Ddx
                | Op::Ddy
                | Op::LoadFace
                | Op::SampleLod
                | Op::SampleBias
                | Op::SampleGrad
                | Op::TexFetch
                | Op::TexSize
                | Op::CubeLod
                | Op::CubeBias
                | Op::CubeGrad
                | Op::ShadowLod
                | Op::ShadowBias
                | Op::ShadowCube
                | Op::ShadowGrad
                | Op::ArrLod
                | Op::ArrBias
                | Op::ArrGrad
                | Op::ArrFetch
                | Op::ArrSize
        ) || self.is_int()
    }

    /// Profile 2's integer ops (48..=71), all pure and lane-wise.
    pub fn is_int(self) -> bool {
        (Op::IAdd as u8..=Op::Cvt as u8).contains(&(self as u8))
    }

    /// Integer ops with one operand (`a`); the others read `a` and `b`.
    pub fn is_int_unary(self) -> bool {
        matches!(self, Op::Not | Op::INeg | Op::IAbs | Op::ISign | Op::Cvt)
    }
}

/// Comparison codes of CMP (`aux`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i16)]
pub enum CmpCode {
    Lt = 1,
    Gt = 2,
    Le = 3,
    Ge = 4,
    Eq = 5,
    Ne = 6,
}

impl CmpCode {
    pub fn from_i16(v: i16) -> Option<CmpCode> {
        match v {
            1 => Some(CmpCode::Lt),
            2 => Some(CmpCode::Gt),
            3 => Some(CmpCode::Le),
            4 => Some(CmpCode::Ge),
            5 => Some(CmpCode::Eq),
            6 => Some(CmpCode::Ne),
            _ => None,
        }
    }
}

/// One IR instruction; exactly the fields of a 16-byte CSIR record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inst {
    pub op: Op,
    /// Type id of the result (a [`Type`] value; kept raw because CSIR stores it raw).
    pub ty: u8,
    pub lanes: u8,
    pub dst: i16,
    pub a: i16,
    pub b: i16,
    pub c: i16,
    pub aux: i16,
    pub aux2: i16,
}

impl Inst {
    /// An instruction with every operand unused (-1) and no lanes.
    pub const fn new(op: Op) -> Inst {
        Inst {
            op,
            ty: 0,
            lanes: 0,
            dst: -1,
            a: -1,
            b: -1,
            c: -1,
            aux: 0,
            aux2: 0,
        }
    }
}

/// A vertex attribute (vertex-stage `in`).
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: Name,
    pub ty: Type,
    pub location: u8,
    pub components: u8,
}

/// How a varying is interpolated across a triangle (GLSL's interpolation qualifiers; CSIR v2
/// keeps it in the varying entry's third byte). Profile 1 has only `Smooth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Interp {
    /// Perspective-correct (GLSL `smooth`, the default; TGSI PERSPECTIVE).
    #[default]
    Smooth = 0,
    /// No interpolation: the provoking (last) vertex's value (GLSL `flat`; TGSI CONSTANT).
    Flat = 1,
    /// Linear in screen space (GLSL `noperspective`; TGSI LINEAR).
    NoPerspective = 2,
}

impl Interp {
    pub fn from_u8(v: u8) -> Option<Interp> {
        match v {
            0 => Some(Interp::Smooth),
            1 => Some(Interp::Flat),
            2 => Some(Interp::NoPerspective),
            _ => None,
        }
    }

    /// The GLSL qualifier.
    pub fn name(self) -> &'static str {
        match self {
            Interp::Smooth => "smooth",
            Interp::Flat => "flat",
            Interp::NoPerspective => "noperspective",
        }
    }
}

/// A varying: a vertex-stage `out` or a fragment-stage `in`, in this stage's slot numbering.
#[derive(Clone, Debug, PartialEq)]
pub struct Varying {
    pub name: Name,
    pub ty: Type,
    pub slot: u8,
    /// Its interpolation (both stages of a program must agree).
    pub interp: Interp,
}

/// A fragment-stage output (profile 2 may have up to 8, `layout(location = 0..7)`): location 0
/// is the target's colour (`Interface::color_output`); the others are reflected, not stored.
#[derive(Clone, Debug, PartialEq)]
pub struct FragOutput {
    pub name: Name,
    /// float, vec2, vec3 or vec4 (profile 1: vec4).
    pub ty: Type,
    pub location: u8,
}

/// A non-sampler uniform: `slots` vec4 slots starting at `slot`.
#[derive(Clone, Debug, PartialEq)]
pub struct Uniform {
    pub name: Name,
    pub ty: Type,
    pub slot: u16,
    pub slots: u8,
}

/// A sampler uniform bound to texture unit `unit` (0..=3).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampler {
    pub name: Name,
    pub unit: u8,
    /// Its sampler type (`Type::Sampler2D` in profile 1 and after a CSIR v1 load).
    pub ty: Type,
}

/// What a stage reads and writes: reflection, verifier bounds, TGSI declarations and link input.
// Field order and repr(C): building an empty value zero-fills everything between its first and
// last initialised byte, so the scalars come first and the largest table last (its storage is
// then never touched).
#[derive(Clone, Debug, PartialEq, Default)]
#[repr(C)]
pub struct Interface {
    /// Vertex stage: gl_Position is written.
    pub writes_position: bool,
    /// Fragment stage: gl_FragCoord is read.
    pub reads_fragcoord: bool,
    /// Fragment stage (profile 2): gl_FragDepth is written (STORE_DEPTH): the depth test
    /// must run after the shader.
    pub writes_depth: bool,
    /// Vertex stage (profile 2): bit k set when gl_ClipDistance[k] is written (STORE_CLIP
    /// aux k): the enabled user clip planes.
    pub clip_distances: u8,
    /// Vertex stage (profile 2): gl_VertexID is read.
    pub reads_vertex_id: bool,
    /// Vertex stage (profile 2): gl_InstanceID is read.
    pub reads_instance_id: bool,
    /// Profile 2: bit `s` set when this stage's varying in slot `s` is declared `invariant`
    /// (GLSL 3.30 §4.6.1: a vertex output and the fragment input it feeds must agree; checked
    /// at link).
    pub invariant_slots: u32,
    /// The tables were derived from the instructions (a CSIR v1 load): the names are synthetic
    /// (`varN`, ...), not the shader's own, so varyings cannot be matched by name at link.
    pub derived_names: bool,
    /// Fragment stage: the output stored as the colour (location 0; name kept for reflection).
    pub color_output: Option<Name>,
    /// Fragment stage, profile 2: every output with its type and location (empty in profile 1
    /// and after a CSIR load, which keeps only `color_output`).
    pub frag_outputs: Vec<FragOutput, FRAG_OUTPUT_CAP>,
    pub samplers: Vec<Sampler, SAMPLER_CAP>,
    pub attributes: Vec<Attribute, ATTR_CAP>,
    pub varyings: Vec<Varying, VARYING_CAP>,
    pub uniforms: Vec<Uniform, UNIFORM_VEC4_CAP>,
}

impl Interface {
    /// Number of vec4 uniform slots in use (highest slot + 1), 0 when none.
    pub fn uniform_vec4s(&self) -> usize {
        self.uniforms
            .iter()
            .map(|u| u.slot as usize + u.slots as usize)
            .max()
            .unwrap_or(0)
    }
}

/// A compiled (or loaded) stage: the verified unit handed to the executor, TGSI and CSIR.
// Ordered like `Interface` (see there): the 6 KB instruction table last, so that building an
// empty module does not zero-fill its storage on every compile.
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub struct Module {
    pub stage: Stage,
    /// The language profile it was compiled in: the verifier holds it to that profile's bounds.
    pub profile: Profile,
    /// Temporaries in use: every temp index is < `temps` (<= TEMP_MAX).
    pub temps: u16,
    pub iface: Interface,
    pub imms: Vec<f32, IMM_CAP>,
    pub insts: Vec<Inst, IR_CAP>,
}

impl Module {
    pub fn new(stage: Stage) -> Module {
        Module {
            stage,
            profile: Profile::P1,
            insts: Vec::new(),
            imms: Vec::new(),
            temps: 0,
            iface: Interface::default(),
        }
    }
}
