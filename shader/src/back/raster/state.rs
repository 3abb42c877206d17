//! Fixed-function output state of a draw beyond [`super::RasterState`]: blending, the depth
//! compare function, the colour write mask, a scissor rectangle, polygon offset, the front-face
//! winding and which faces are culled. [`Pipeline::DEFAULT`] is exactly what [`super::draw`]
//! does without it (opaque writes, LESS, all channels, no scissor, CCW front faces, no culling).
//!
//! The GL enum values (`from_gl`) let callers decode raw numbers; an unknown number is `None`.
//! This module must never hold per-draw state or touch a target.

/// A blend factor (GL's full set without the dual-source ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    Zero,
    One,
    SrcColor,
    OneMinusSrcColor,
    DstColor,
    OneMinusDstColor,
    SrcAlpha,
    OneMinusSrcAlpha,
    DstAlpha,
    OneMinusDstAlpha,
    ConstantColor,
    OneMinusConstantColor,
    ConstantAlpha,
    OneMinusConstantAlpha,
    SrcAlphaSaturate,
}

impl BlendFactor {
    pub const ALL: [BlendFactor; 15] = [
        BlendFactor::Zero,
        BlendFactor::One,
        BlendFactor::SrcColor,
        BlendFactor::OneMinusSrcColor,
        BlendFactor::DstColor,
        BlendFactor::OneMinusDstColor,
        BlendFactor::SrcAlpha,
        BlendFactor::OneMinusSrcAlpha,
        BlendFactor::DstAlpha,
        BlendFactor::OneMinusDstAlpha,
        BlendFactor::ConstantColor,
        BlendFactor::OneMinusConstantColor,
        BlendFactor::ConstantAlpha,
        BlendFactor::OneMinusConstantAlpha,
        BlendFactor::SrcAlphaSaturate,
    ];

    /// GL's enum value (GL_ZERO = 0, GL_ONE = 1, GL_SRC_COLOR = 0x300, ...).
    pub const fn gl(self) -> u32 {
        match self {
            BlendFactor::Zero => 0,
            BlendFactor::One => 1,
            BlendFactor::SrcColor => 0x300,
            BlendFactor::OneMinusSrcColor => 0x301,
            BlendFactor::SrcAlpha => 0x302,
            BlendFactor::OneMinusSrcAlpha => 0x303,
            BlendFactor::DstAlpha => 0x304,
            BlendFactor::OneMinusDstAlpha => 0x305,
            BlendFactor::DstColor => 0x306,
            BlendFactor::OneMinusDstColor => 0x307,
            BlendFactor::SrcAlphaSaturate => 0x308,
            BlendFactor::ConstantColor => 0x8001,
            BlendFactor::OneMinusConstantColor => 0x8002,
            BlendFactor::ConstantAlpha => 0x8003,
            BlendFactor::OneMinusConstantAlpha => 0x8004,
        }
    }

    pub fn from_gl(v: u32) -> Option<BlendFactor> {
        BlendFactor::ALL.into_iter().find(|f| f.gl() == v)
    }
}

/// A blend equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlendOp {
    Add,
    Subtract,
    ReverseSubtract,
    Min,
    Max,
}

impl BlendOp {
    pub const ALL: [BlendOp; 5] = [
        BlendOp::Add,
        BlendOp::Subtract,
        BlendOp::ReverseSubtract,
        BlendOp::Min,
        BlendOp::Max,
    ];

    /// GL's enum value (GL_FUNC_ADD = 0x8006, ...).
    pub const fn gl(self) -> u32 {
        match self {
            BlendOp::Add => 0x8006,
            BlendOp::Subtract => 0x800A,
            BlendOp::ReverseSubtract => 0x800B,
            BlendOp::Min => 0x8007,
            BlendOp::Max => 0x8008,
        }
    }

    pub fn from_gl(v: u32) -> Option<BlendOp> {
        BlendOp::ALL.into_iter().find(|f| f.gl() == v)
    }
}

/// Factors and equation of the colour (rgb) or the alpha part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlendComponent {
    pub src: BlendFactor,
    pub dst: BlendFactor,
    pub op: BlendOp,
}

impl BlendComponent {
    /// src * 1 + dst * 0: what an opaque write gives.
    pub const REPLACE: BlendComponent = BlendComponent {
        src: BlendFactor::One,
        dst: BlendFactor::Zero,
        op: BlendOp::Add,
    };
    /// src * src_alpha + dst * (1 - src_alpha).
    pub const OVER: BlendComponent = BlendComponent {
        src: BlendFactor::SrcAlpha,
        dst: BlendFactor::OneMinusSrcAlpha,
        op: BlendOp::Add,
    };
}

/// Blending on: colour and alpha parts and the constant colour (r, g, b, a; clamped to [0, 1]
/// when used, as for a UNORM target).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    pub color: BlendComponent,
    pub alpha: BlendComponent,
    pub constant: [f32; 4],
}

impl Blend {
    /// Classic transparency: both parts `OVER`, constant 0.
    pub const ALPHA: Blend = Blend {
        color: BlendComponent::OVER,
        alpha: BlendComponent::OVER,
        constant: [0.0; 4],
    };
}

/// A depth compare function: the fragment passes when `fragment OP stored` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl CompareFunc {
    pub const ALL: [CompareFunc; 8] = [
        CompareFunc::Never,
        CompareFunc::Less,
        CompareFunc::Equal,
        CompareFunc::LessEqual,
        CompareFunc::Greater,
        CompareFunc::NotEqual,
        CompareFunc::GreaterEqual,
        CompareFunc::Always,
    ];

    /// GL's enum value (GL_NEVER = 0x200 .. GL_ALWAYS = 0x207); the order is also Gallium's
    /// (value - 0x200).
    pub const fn gl(self) -> u32 {
        0x200 + self as u32
    }

    pub fn from_gl(v: u32) -> Option<CompareFunc> {
        CompareFunc::ALL.into_iter().find(|f| f.gl() == v)
    }

    /// `a OP b` (a NaN operand fails every function but NOTEQUAL and ALWAYS, as IEEE compares).
    #[inline(always)]
    pub fn test(self, a: f32, b: f32) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterEqual => a >= b,
            CompareFunc::Always => true,
        }
    }
}

/// Which channels a draw writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColorMask {
    pub r: bool,
    pub g: bool,
    pub b: bool,
    pub a: bool,
}

impl ColorMask {
    pub const ALL: ColorMask = ColorMask {
        r: true,
        g: true,
        b: true,
        a: true,
    };

    /// The written bits of a 0xAARRGGBB pixel.
    pub const fn bits(self) -> u32 {
        (self.a as u32 * 0xFF00_0000)
            | (self.r as u32 * 0x00FF_0000)
            | (self.g as u32 * 0x0000_FF00)
            | (self.b as u32 * 0x0000_00FF)
    }
}

/// Winding of front faces in GL window space (y up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrontFace {
    Ccw,
    Cw,
}

/// Faces a draw drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CullFace {
    None,
    Front,
    Back,
    FrontAndBack,
}

impl CullFace {
    pub const fn culls(self, front: bool) -> bool {
        match self {
            CullFace::None => false,
            CullFace::Front => front,
            CullFace::Back => !front,
            CullFace::FrontAndBack => true,
        }
    }
}

/// A scissor rectangle in GL convention: (x, y) is the lower-left corner in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scissor {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// State of a draw beyond [`super::RasterState`] (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pipeline {
    /// `None`: opaque writes.
    pub blend: Option<Blend>,
    /// Used while [`super::RasterState::depth_test`] is on.
    pub depth_func: CompareFunc,
    pub color_mask: ColorMask,
    pub scissor: Option<Scissor>,
    /// GL's glPolygonOffset(factor, units), applied to filled triangles while the depth test
    /// is on.
    pub offset_factor: f32,
    pub offset_units: f32,
    pub front_face: FrontFace,
    /// Added to [`super::RasterState::cull_back`] (which culls back faces).
    pub cull: CullFace,
}

impl Pipeline {
    pub const DEFAULT: Pipeline = Pipeline {
        blend: None,
        depth_func: CompareFunc::Less,
        color_mask: ColorMask::ALL,
        scissor: None,
        offset_factor: 0.0,
        offset_units: 0.0,
        front_face: FrontFace::Ccw,
        cull: CullFace::None,
    };

    /// True when the write path is the plain opaque store (no blending, every channel).
    pub fn opaque(&self) -> bool {
        self.blend.is_none() && self.color_mask == ColorMask::ALL
    }
}

impl Default for Pipeline {
    fn default() -> Self {
        Pipeline::DEFAULT
    }
}

#[inline(always)]
fn unorm(v: f32) -> f32 {
    if v >= 0.0 {
        v.min(1.0)
    } else {
        0.0
    }
}

/// The factor for one channel `c` (0..3 = r, g, b; 3 = alpha).
#[inline(always)]
fn factor(f: BlendFactor, c: usize, s: &[f32; 4], d: &[f32; 4], k: &[f32; 4]) -> f32 {
    let at = |v: &[f32; 4]| v.get(c).copied().unwrap_or(0.0);
    match f {
        BlendFactor::Zero => 0.0,
        BlendFactor::One => 1.0,
        BlendFactor::SrcColor => at(s),
        BlendFactor::OneMinusSrcColor => 1.0 - at(s),
        BlendFactor::DstColor => at(d),
        BlendFactor::OneMinusDstColor => 1.0 - at(d),
        BlendFactor::SrcAlpha => s[3],
        BlendFactor::OneMinusSrcAlpha => 1.0 - s[3],
        BlendFactor::DstAlpha => d[3],
        BlendFactor::OneMinusDstAlpha => 1.0 - d[3],
        BlendFactor::ConstantColor => at(k),
        BlendFactor::OneMinusConstantColor => 1.0 - at(k),
        BlendFactor::ConstantAlpha => k[3],
        BlendFactor::OneMinusConstantAlpha => 1.0 - k[3],
        BlendFactor::SrcAlphaSaturate => {
            if c == 3 {
                1.0
            } else {
                s[3].min(1.0 - d[3])
            }
        }
    }
}

/// (r, g, b, a) in [0, 1] of a 0xAARRGGBB pixel.
pub fn unpack(p: u32) -> [f32; 4] {
    // A true division: GL converts a UNORM8 value c to c / 255 (correctly rounded).
    let byte = |shift: u32| ((p >> shift) & 0xFF) as f32 / 255.0;
    [byte(16), byte(8), byte(0), byte(24)]
}

/// GL's blend of a fragment colour `src` (r, g, b, a) over the stored pixel `dst`
/// (0xAARRGGBB) of a UNORM8 target: source, destination and constant clamped to [0, 1], the
/// equation evaluated in f32, the result clamped and rounded to nearest into 0xAARRGGBB.
pub fn blend_pixel(b: &Blend, src: [f32; 4], dst: u32) -> u32 {
    let s = src.map(unorm);
    let k = b.constant.map(unorm);
    let d = unpack(dst);
    crate::back::exec::texel::pack_one(blend_eval(b, &s, &d, &k))
}

/// GL's blend on a float target: source, destination, constant and result are not clamped
/// (the equation is evaluated in f32 and stored as is).
pub fn blend_float(b: &Blend, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
    blend_eval(b, &src, &dst, &b.constant)
}

fn blend_eval(b: &Blend, s: &[f32; 4], d: &[f32; 4], k: &[f32; 4]) -> [f32; 4] {
    let mut out = [0.0f32; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let part = if c == 3 { &b.alpha } else { &b.color };
        let (sc, dc) = (s[c], d[c]);
        *o = match part.op {
            BlendOp::Min => sc.min(dc),
            BlendOp::Max => sc.max(dc),
            op => {
                let x = sc * factor(part.src, c, s, d, k);
                let y = dc * factor(part.dst, c, s, d, k);
                match op {
                    BlendOp::Subtract => x - y,
                    BlendOp::ReverseSubtract => y - x,
                    _ => x + y,
                }
            }
        };
    }
    out
}

/// The window-space depth offset GL defines for a triangle with window depth slopes
/// `dzdx`, `dzdy` and largest |window depth| `max_z`, on a 32-bit float depth buffer:
/// `factor * max(|dzdx|, |dzdy|) + units * r`, where r = 2^(e - 23) and e is the exponent of
/// `max_z` (r = 0 below the smallest normal, as llvmpipe computes it).
pub fn polygon_offset(factor: f32, units: f32, dzdx: f32, dzdy: f32, max_z: f32) -> f32 {
    let e = max_z.abs().to_bits() & 0x7F80_0000;
    let r = f32::from_bits(e.saturating_sub(23 << 23));
    let slope = dzdx.abs().max(dzdy.abs());
    let o = factor * slope + units * r;
    if o.is_finite() {
        o
    } else {
        0.0
    }
}
