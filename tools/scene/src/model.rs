//! The scene JSON model: parsing and validation with errors that name the offending field.
//!
//! Owns: the typed [`Scene`] and every rule a scene file must satisfy before a renderer sees it
//! (counts, ranges, lengths, known keys). Must never: accept a file with an unknown key or a value
//! out of range silently, or apply a renderer-specific interpretation; defaults are GL's.

use std::fmt;

use crate::json::{Map, Value};

mod passes;
use passes::PassContext;
pub use passes::{Attachment, ColorFormat, Pass, PassSource, PASSES_MAX};

/// Largest picture or texture side accepted.
pub const SIZE_MAX: u32 = 4096;
/// Vertex attribute locations are `0..ATTRIBUTE_LOCATIONS` (the subset's limit of eight).
pub const ATTRIBUTE_LOCATIONS: u32 = 8;
/// Indices are u16, so a scene has at most this many vertices.
pub const VERTEX_MAX: usize = 65536;
/// A uniform value holds 1 to 16 floats (a float up to a column-major mat4).
pub const UNIFORM_FLOATS_MAX: usize = 16;
/// Most layers of an array texture (`"layers"`; the executor's `ARRAY_LAYERS_MAX`).
pub const ARRAY_LAYERS_MAX: usize = 256;
/// Texture units `0..TEXTURE_UNITS`.
pub const TEXTURE_UNITS: u32 = 4;
/// `"instances"` is `1..=INSTANCES_MAX` (Gfx3D's `draw_instanced` limit).
pub const INSTANCES_MAX: u32 = 4096;

/// A validated scene. Vectors keep file order where it matters (attributes, indices); uniforms and
/// textures are sorted by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: u32,
    pub height: u32,
    pub clear: [f32; 4],
    pub depth: bool,
    pub cull: bool,
    /// (x, y, w, h) in GL window coordinates (origin lower-left); the whole target when absent.
    pub viewport: [i32; 4],
    pub attributes: Vec<Attribute>,
    /// Vertices of one instance (the element count of every per-vertex attribute).
    pub vertex_count: usize,
    /// `"instances"`: copies of the geometry drawn, gl_InstanceID 0..instances (1: a plain draw).
    pub instances: u32,
    pub indices: Option<Vec<u16>>,
    pub uniforms: Vec<(String, Vec<f32>)>,
    pub textures: Vec<(String, Texture)>,
    /// Output state beyond `depth` and `cull` (blending, depth function and mask, colour mask,
    /// scissor, faces, polygon offset); GL's defaults when the file gives none.
    pub pipeline: Pipeline,
    /// `"passes"`: targets drawn before this scene, in order, which its textures (and later
    /// passes') may sample (see [`passes`]); empty for a one-pass scene.
    pub passes: Vec<Pass>,
}

/// GL enum values of the pipeline state, by the names a scene file uses (GL's without `GL_`).
pub const BLEND_FACTORS: &[(&str, u32)] = &[
    ("ZERO", 0),
    ("ONE", 1),
    ("SRC_COLOR", 0x300),
    ("ONE_MINUS_SRC_COLOR", 0x301),
    ("SRC_ALPHA", 0x302),
    ("ONE_MINUS_SRC_ALPHA", 0x303),
    ("DST_ALPHA", 0x304),
    ("ONE_MINUS_DST_ALPHA", 0x305),
    ("DST_COLOR", 0x306),
    ("ONE_MINUS_DST_COLOR", 0x307),
    ("SRC_ALPHA_SATURATE", 0x308),
    ("CONSTANT_COLOR", 0x8001),
    ("ONE_MINUS_CONSTANT_COLOR", 0x8002),
    ("CONSTANT_ALPHA", 0x8003),
    ("ONE_MINUS_CONSTANT_ALPHA", 0x8004),
];
pub const BLEND_EQUATIONS: &[(&str, u32)] = &[
    ("ADD", 0x8006),
    ("MIN", 0x8007),
    ("MAX", 0x8008),
    ("SUBTRACT", 0x800A),
    ("REVERSE_SUBTRACT", 0x800B),
];
pub const DEPTH_FUNCS: &[(&str, u32)] = &[
    ("NEVER", 0x200),
    ("LESS", 0x201),
    ("EQUAL", 0x202),
    ("LEQUAL", 0x203),
    ("GREATER", 0x204),
    ("NOTEQUAL", 0x205),
    ("GEQUAL", 0x206),
    ("ALWAYS", 0x207),
];
pub const CULL_FACES: &[(&str, u32)] = &[
    ("NONE", 0),
    ("FRONT", 0x404),
    ("BACK", 0x405),
    ("FRONT_AND_BACK", 0x408),
];
pub const FRONT_FACES: &[(&str, u32)] = &[("CW", 0x900), ("CCW", 0x901)];

/// Blending (GL's glBlendFuncSeparate, glBlendEquationSeparate, glBlendColor), GL enum values.
#[derive(Clone, Debug, PartialEq)]
pub struct Blend {
    pub src_rgb: u32,
    pub dst_rgb: u32,
    pub src_alpha: u32,
    pub dst_alpha: u32,
    pub eq_rgb: u32,
    pub eq_alpha: u32,
    pub color: [f32; 4],
}

/// A scene's output state, GL enum values (see the `*_FACES`, `DEPTH_FUNCS`, ... tables).
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub blend: Option<Blend>,
    /// Used while the scene's depth test is on.
    pub depth_func: u32,
    /// Depth writes (while the depth test is on).
    pub depth_mask: bool,
    /// r, g, b, a.
    pub color_mask: [bool; 4],
    /// x, y (lower-left corner, GL window coordinates), width, height.
    pub scissor: Option<[i32; 4]>,
    /// 0 (none), FRONT, BACK or FRONT_AND_BACK; `"cull": true` is BACK.
    pub cull_face: u32,
    pub front_face: u32,
    /// glPolygonOffset(factor, units), applied while the depth test is on.
    pub polygon_offset: [f32; 2],
}

impl Default for Pipeline {
    fn default() -> Pipeline {
        Pipeline {
            blend: None,
            depth_func: 0x201,
            depth_mask: true,
            color_mask: [true; 4],
            scissor: None,
            cull_face: 0,
            front_face: 0x901,
            polygon_offset: [0.0, 0.0],
        }
    }
}

fn gl_name(v: &Value, path: &str, table: &[(&str, u32)]) -> Result<u32, SceneError> {
    let names = || {
        table
            .iter()
            .map(|(n, _)| format!("\"{}\"", n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match v.as_str() {
        Some(s) => match table.iter().find(|(n, _)| *n == s) {
            Some((_, e)) => Ok(*e),
            None => err(
                path,
                format!("unknown value \"{}\"; expected one of {}", s, names()),
            ),
        },
        None => err(
            path,
            format!("expected one of {}, found {}", names(), kind(v)),
        ),
    }
}

fn parse_blend(v: &Value, path: &str) -> Result<Blend, SceneError> {
    let o = as_object(v, path)?;
    check_keys(
        o,
        path,
        &[
            "src",
            "dst",
            "src_alpha",
            "dst_alpha",
            "equation",
            "equation_alpha",
            "color",
        ],
    )?;
    let get = |key: &str, table: &[(&str, u32)], default: Option<u32>| -> Result<u32, SceneError> {
        match (o.get(key), default) {
            (Some(x), _) => gl_name(x, &format!("{}.{}", path, key), table),
            (None, Some(d)) => Ok(d),
            (None, None) => err(path, format!("missing {}", key)),
        }
    };
    let src_rgb = get("src", BLEND_FACTORS, None)?;
    let dst_rgb = get("dst", BLEND_FACTORS, None)?;
    let eq_rgb = get("equation", BLEND_EQUATIONS, Some(0x8006))?;
    Ok(Blend {
        src_rgb,
        dst_rgb,
        src_alpha: get("src_alpha", BLEND_FACTORS, Some(src_rgb))?,
        dst_alpha: get("dst_alpha", BLEND_FACTORS, Some(dst_rgb))?,
        eq_rgb,
        eq_alpha: get("equation_alpha", BLEND_EQUATIONS, Some(eq_rgb))?,
        color: match o.get("color") {
            Some(c) => {
                let c = fixed_floats::<4>(c, &format!("{}.color", path))?;
                if c.iter().any(|x| !(0.0..=1.0).contains(x)) {
                    return err(&format!("{}.color", path), "components must be in [0, 1]");
                }
                c
            }
            None => [0.0; 4],
        },
    })
}

fn parse_pipeline(obj: &Map<String, Value>, cull: bool) -> Result<Pipeline, SceneError> {
    let mut p = Pipeline::default();
    if let Some(v) = obj.get("blend") {
        p.blend = Some(parse_blend(v, "blend")?);
    }
    if let Some(v) = obj.get("depth_func") {
        p.depth_func = gl_name(v, "depth_func", DEPTH_FUNCS)?;
    }
    if let Some(v) = obj.get("depth_mask") {
        p.depth_mask = as_bool(v, "depth_mask")?;
    }
    if let Some(v) = obj.get("color_mask") {
        let a = as_array(v, "color_mask")?;
        if a.len() != 4 {
            return err(
                "color_mask",
                format!("expected [r, g, b, a] booleans, found {} values", a.len()),
            );
        }
        for (i, x) in a.iter().enumerate() {
            p.color_mask[i] = as_bool(x, &format!("color_mask[{}]", i))?;
        }
    }
    if let Some(v) = obj.get("scissor") {
        let a = as_array(v, "scissor")?;
        if a.len() != 4 {
            return err(
                "scissor",
                format!("expected [x, y, w, h], found {} numbers", a.len()),
            );
        }
        let mut r = [0i32; 4];
        for (i, x) in a.iter().enumerate() {
            let min = if i < 2 { -(SIZE_MAX as i64) } else { 0 };
            r[i] = match x.as_i64() {
                Some(n) if (min..=SIZE_MAX as i64).contains(&n) => n as i32,
                _ => {
                    return err(
                        &format!("scissor[{}]", i),
                        format!(
                            "expected a whole number {}..={}, found {}",
                            min, SIZE_MAX, x
                        ),
                    )
                }
            };
        }
        p.scissor = Some(r);
    }
    match obj.get("cull_face") {
        Some(_) if cull => {
            return err(
                "cull_face",
                "give either \"cull\": true (back faces) or cull_face",
            )
        }
        Some(v) => p.cull_face = gl_name(v, "cull_face", CULL_FACES)?,
        None if cull => p.cull_face = 0x405,
        None => {}
    }
    if let Some(v) = obj.get("front_face") {
        p.front_face = gl_name(v, "front_face", FRONT_FACES)?;
    }
    if let Some(v) = obj.get("polygon_offset") {
        p.polygon_offset = fixed_floats::<2>(v, "polygon_offset")?;
    }
    Ok(p)
}

/// What an attribute's values are: `"type": "float"` (the default), `"int"` or `"uint"`
/// (32-bit integers for an `int`/`ivecN` or `uint`/`uvecN` attribute, given to GL with
/// glVertexAttribIPointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AttrKind {
    #[default]
    Float,
    Int,
    Uint,
}

/// One vertex attribute: `components` values per vertex for every vertex. For integer kinds
/// `data` holds each value's 32-bit word (`f32::from_bits`), so every consumer copies the
/// words unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub location: u32,
    pub components: u32,
    pub data: Vec<f32>,
    pub kind: AttrKind,
    /// `"divisor"` (glVertexAttribDivisor): 0 for a per-vertex attribute; D > 0 makes it
    /// per-instance, instance i reading element i / D (the data then holds at least
    /// ceil(instances / D) elements instead of one per vertex).
    pub divisor: u32,
}

impl Attribute {
    /// The components of vertex `v` (empty when out of range).
    pub fn vertex(&self, v: usize) -> &[f32] {
        let n = self.components as usize;
        self.data.get(v * n..v * n + n).unwrap_or(&[])
    }

    /// The element instance `i` reads, padded with GL's defaults (0, 0, 0, 1) to 4 values;
    /// `None` for a per-vertex attribute.
    pub fn instance_value(&self, i: u32) -> Option<[f32; 4]> {
        if self.divisor == 0 {
            return None;
        }
        let mut v = [0.0, 0.0, 0.0, 1.0];
        for (d, s) in v.iter_mut().zip(self.vertex((i / self.divisor) as usize)) {
            *d = *s;
        }
        Some(v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Repeat,
    ClampToEdge,
    MirroredRepeat,
}

/// The mip-level part of a minification filter (`*_MIPMAP_NEAREST`, `*_MIPMAP_LINEAR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mip {
    None,
    Nearest,
    Linear,
}

/// A texture bound to a sampler uniform: RGBA8 rows, row 0 is v = 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub unit: u32,
    pub width: u32,
    pub height: u32,
    pub rgba8: Vec<u8>,
    /// The magnification filter (`"filter"` or `"mag_filter"`).
    pub filter: Filter,
    /// The wrap mode of s (`"wrap"` or `"wrap_s"`).
    pub wrap: Wrap,
    /// The minification filter within a level (`"filter"`, or `"min_filter"`'s first word).
    pub min_filter: Filter,
    /// The mip filter (`"min_filter": "linear_mipmap_nearest"` ...).
    pub mip: Mip,
    pub wrap_t: Wrap,
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    /// RGBA8 levels 1, 2, ...: `"levels"` given, or `"mipmaps": true` (the box-filtered chain
    /// down to 1x1, see [`box_chain`]). Level i is max(1, width >> i) x max(1, height >> i).
    pub levels: Vec<Vec<u8>>,
    /// A cube texture (`"cube": [6 faces]`, +X, -X, +Y, -Y, +Z, -Z, each `width` x `height`
    /// RGBA8, square; `rgba8` is then face 0): faces 1..=5. Empty: a 2D texture.
    pub faces: Vec<Vec<u8>>,
    /// With `"mipmaps": true` on a cube: the box-filtered levels of faces 1..=5 (face 0's are
    /// `levels`).
    pub face_levels: Vec<Vec<Vec<u8>>>,
    /// `"pass"`: the texels are an earlier pass's target (`rgba8` is then empty and the size
    /// is the pass's).
    pub source: Option<PassSource>,
    /// `"format"`: `"rgba8"` (the default) or an integer format.
    pub format: TexFormat,
    /// A 2D array texture (`"layers": [[rgba8 of layer 0], [layer 1], ...]`, each `width` x
    /// `height`): every layer, 0 first (`rgba8` is a copy of layer 0). Empty: not an array.
    /// With `"mipmaps": true` each layer gets its box chain (`layer_levels`).
    pub layers: Vec<Vec<u8>>,
    /// With `"mipmaps": true` on an array: the box-filtered levels 1, 2, ... of every layer
    pub layer_levels: Vec<Vec<Vec<u8>>>,
    /// An integer texture's texels (`"ints"`, 4 whole numbers a texel: r, g, b, a, row 0
    /// first), each the 32-bit word of the value (an RGBA32I value's i32 bits). Empty for RGBA8
    /// (`rgba8` is then empty for an integer texture).
    pub ints: Vec<[u32; 4]>,
    /// An integer 2D array texture (`"layers"` of an integer format, session 9: each layer a
    /// list of whole numbers as `"ints"` is): every layer's texels, 0 first (`ints` is a copy
    /// of layer 0). Empty: not an integer array.
    pub int_layers: Vec<Vec<[u32; 4]>>,
}

/// A scene texture's texel format (`"format"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TexFormat {
    /// 8-bit normalized RGBA (`"rgba8"`, texels in `"rgba8"`).
    #[default]
    Rgba8,
    /// Signed 32-bit integer RGBA (`"rgba32i"`, texels in `"ints"`, i32 range; for an isampler2D).
    Rgba32I,
    /// Unsigned 32-bit integer RGBA (`"rgba32ui"`, texels in `"ints"`, u32 range; for a
    /// usampler2D).
    Rgba32UI,
}

impl TexFormat {
    /// Whether the texels are integer words.
    pub fn is_integer(self) -> bool {
        self != TexFormat::Rgba8
    }
}

/// The mip chain of an RGBA8 picture below level 0, down to 1x1: each texel of level i + 1
/// the rounded mean of the (up to) 2x2 texels of level i it covers (a 1-texel edge averages
/// 2 or 1).
pub fn box_chain(width: u32, height: u32, rgba8: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let (mut w, mut h) = (width.max(1) as usize, height.max(1) as usize);
    let mut prev = rgba8.to_vec();
    while w > 1 || h > 1 {
        let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
        let mut next = vec![0u8; nw * nh * 4];
        for y in 0..nh {
            for x in 0..nw {
                for c in 0..4 {
                    let mut sum = 0u32;
                    let mut n = 0u32;
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let (sx, sy) = (2 * x + dx, 2 * y + dy);
                        if (w > 1 || dx == 0) && (h > 1 || dy == 0) && sx < w && sy < h {
                            sum += prev.get((sy * w + sx) * 4 + c).copied().unwrap_or(0) as u32;
                            n += 1;
                        }
                    }
                    next[(y * nw + x) * 4 + c] = ((sum + n / 2) / n.max(1)) as u8;
                }
            }
        }
        out.push(next.clone());
        prev = next;
        w = nw;
        h = nh;
    }
    out
}

impl Texture {
    /// Texel (x, y) as `0xAARRGGBB`, y = 0 being the first row (v = 0).
    pub fn texel_argb(&self, x: u32, y: u32) -> u32 {
        let i = ((y as usize) * (self.width as usize) + x as usize) * 4;
        match self.rgba8.get(i..i + 4) {
            Some(&[r, g, b, a]) => u32::from_be_bytes([a, r, g, b]),
            _ => 0,
        }
    }

    /// Whether this is a 2D array texture (`"layers"`, RGBA8 or integer).
    pub fn is_array(&self) -> bool {
        !self.layers.is_empty() || !self.int_layers.is_empty()
    }

    /// Whether this is a cube texture (6 faces).
    pub fn is_cube(&self) -> bool {
        self.faces.len() == 5
    }

    /// Face `f` (0..6) of a cube as `0xAARRGGBB` texels, and its levels 1, 2, ...; face 0 of a
    /// 2D texture is the texture.
    pub fn face_argb(&self, f: usize) -> (Vec<u32>, Vec<Vec<u32>>) {
        let argb = |b: &[u8]| -> Vec<u32> {
            b.chunks_exact(4)
                .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
                .collect()
        };
        if f == 0 {
            return (
                argb(&self.rgba8),
                self.levels.iter().map(|l| argb(l)).collect(),
            );
        }
        let texels = self.faces.get(f - 1).map(|b| argb(b)).unwrap_or_default();
        let levels = self
            .face_levels
            .get(f - 1)
            .map(|ls| ls.iter().map(|l| argb(l)).collect())
            .unwrap_or_default();
        (texels, levels)
    }

    /// All texels as `0xAARRGGBB`, row 0 first.
    pub fn to_argb(&self) -> Vec<u32> {
        self.rgba8
            .chunks_exact(4)
            .map(|p| u32::from_be_bytes([p[3], p[0], p[1], p[2]]))
            .collect()
    }
}

/// A scene file error: the JSON path of the offending value and what was wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "scene: {}", self.message)
        } else {
            write!(f, "scene: {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SceneError {}

fn err<T>(path: &str, message: impl Into<String>) -> Result<T, SceneError> {
    Err(SceneError {
        path: path.to_string(),
        message: message.into(),
    })
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The number rounded once, correctly, from its decimal text to f32; beyond f32's range is an
/// error (f32::MAX as JSON writers print it, `3.4028234663852886e38`, is f32::MAX).
fn as_f32(v: &Value, path: &str) -> Result<f32, SceneError> {
    match v.as_number().map(|n| (n, crate::json::number_f32(n))) {
        Some((_, x)) if x.is_finite() => Ok(x),
        Some((n, _)) => err(path, format!("{} does not fit a finite f32", n)),
        None => err(path, format!("expected a number, found {}", kind(v))),
    }
}

fn as_uint(v: &Value, path: &str, max: u64) -> Result<u64, SceneError> {
    match v.as_u64() {
        Some(x) if x <= max => Ok(x),
        Some(x) => err(path, format!("{} is above the limit {}", x, max)),
        None => err(
            path,
            format!("expected a whole number 0..={}, found {}", max, v),
        ),
    }
}

fn as_bool(v: &Value, path: &str) -> Result<bool, SceneError> {
    v.as_bool().map_or_else(
        || err(path, format!("expected true or false, found {}", kind(v))),
        Ok,
    )
}

/// An array texture's `"layers"`: 1..=ARRAY_LAYERS_MAX of them.
fn layer_list<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, SceneError> {
    let list = as_array(v, path)?;
    if list.is_empty() || list.len() > ARRAY_LAYERS_MAX {
        return err(
            path,
            format!(
                "expected 1..={} layers, found {}",
                ARRAY_LAYERS_MAX,
                list.len()
            ),
        );
    }
    Ok(list)
}

fn as_array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, SceneError> {
    v.as_array().map_or_else(
        || err(path, format!("expected an array, found {}", kind(v))),
        Ok,
    )
}

/// One RGBA8 picture of `width` x `height` texels: an array of exactly that many bytes, each 0..=255.
fn rgba_bytes(v: &Value, path: &str, width: u32, height: u32) -> Result<Vec<u8>, SceneError> {
    let want = width as usize * height as usize * 4;
    let bytes = as_array(v, path)?;
    if bytes.len() != want {
        return err(
            path,
            format!(
                "expected {} bytes ({}x{} RGBA), found {}",
                want,
                width,
                height,
                bytes.len()
            ),
        );
    }
    let mut out = Vec::with_capacity(want);
    for (i, b) in bytes.iter().enumerate() {
        out.push(as_uint(b, &format!("{}[{}]", path, i), 255)? as u8);
    }
    Ok(out)
}

fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, SceneError> {
    v.as_object().map_or_else(
        || err(path, format!("expected an object, found {}", kind(v))),
        Ok,
    )
}

fn floats(v: &Value, path: &str) -> Result<Vec<f32>, SceneError> {
    as_array(v, path)?
        .iter()
        .enumerate()
        .map(|(i, x)| as_f32(x, &format!("{}[{}]", path, i)))
        .collect()
}

/// Whole numbers of i32's range (`signed`) or u32's as their 32-bit words.
fn int_words(v: &Value, path: &str, signed: bool) -> Result<Vec<f32>, SceneError> {
    as_array(v, path)?
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let word = if signed {
                x.as_i64()
                    .and_then(|n| i32::try_from(n).ok())
                    .map(|n| n as u32)
            } else {
                x.as_u64().and_then(|n| u32::try_from(n).ok())
            };
            word.map(f32::from_bits).map_or_else(
                || {
                    err(
                        &format!("{}[{}]", path, i),
                        format!(
                            "expected a whole number of {}'s range, found {}",
                            if signed { "int" } else { "uint" },
                            x
                        ),
                    )
                },
                Ok,
            )
        })
        .collect()
}

fn fixed_floats<const N: usize>(v: &Value, path: &str) -> Result<[f32; N], SceneError> {
    let f = floats(v, path)?;
    f.as_slice().try_into().map_or_else(
        |_| err(path, format!("expected {} numbers, found {}", N, f.len())),
        Ok,
    )
}

/// An RGBA32I/RGBA32UI texture (`"format"`): its texels in `"ints"` (4 whole numbers a texel,
/// i32's or u32's range), level 0 only, NEAREST filters (GL leaves an integer texture with a
/// linear filter incomplete), not a cube.
fn parse_int_texture(
    to: &Map<String, Value>,
    p: &str,
    unit: u32,
    width: u32,
    height: u32,
    format: TexFormat,
) -> Result<Texture, SceneError> {
    for key in ["rgba8", "cube", "levels", "mipmaps", "pass"] {
        if to.contains_key(key) {
            return err(
                &format!("{}.{}", p, key),
                "an integer texture gives its texels as \"ints\" (or an array's as \"layers\"), level 0 only, not a cube or a pass",
            );
        }
    }
    for key in ["filter", "mag_filter", "min_filter"] {
        if let Some(v) = to.get(key) {
            if v.as_str() != Some("nearest") {
                return err(
                    &format!("{}.{}", p, key),
                    format!(
                        "an integer texture takes \"nearest\" filters only, found {}",
                        v
                    ),
                );
            }
        }
    }
    // One picture of whole numbers (`"ints"`, or one layer of `"layers"`).
    let picture = |v: &Value, ip: &str| -> Result<Vec<[u32; 4]>, SceneError> {
        let words = int_words(v, ip, format == TexFormat::Rgba32I)?;
        let want = width as usize * height as usize * 4;
        if words.len() != want {
            return err(
                ip,
                format!(
                    "expected {} whole numbers ({}x{} RGBA), found {}",
                    want,
                    width,
                    height,
                    words.len()
                ),
            );
        }
        Ok(words
            .chunks_exact(4)
            .map(|c| {
                [
                    c[0].to_bits(),
                    c[1].to_bits(),
                    c[2].to_bits(),
                    c[3].to_bits(),
                ]
            })
            .collect())
    };
    let mut int_layers = Vec::new();
    let ints = match (to.get("ints"), to.get("layers")) {
        (Some(v), None) => picture(v, &format!("{}.ints", p))?,
        (None, Some(v)) => {
            let lp = format!("{}.layers", p);
            let list = layer_list(v, &lp)?;
            for (i, l) in list.iter().enumerate() {
                int_layers.push(picture(l, &format!("{}[{}]", lp, i))?);
            }
            int_layers.first().cloned().unwrap_or_default()
        }
        (Some(_), Some(_)) => {
            return err(
                &format!("{}.layers", p),
                "an integer texture has \"ints\" or \"layers\", not both",
            )
        }
        (None, None) => return err(p, "missing ints"),
    };
    let wrap_of = |key: &str, dflt: Wrap| {
        match to.get(key).map(|v| (v, v.as_str())) {
        None => Ok(dflt),
        Some((_, Some("repeat"))) => Ok(Wrap::Repeat),
        Some((_, Some("clamp"))) | Some((_, Some("clamp_to_edge"))) => Ok(Wrap::ClampToEdge),
        Some((_, Some("mirrored_repeat"))) => Ok(Wrap::MirroredRepeat),
        Some((v, _)) => err(
            &format!("{}.{}", p, key),
            format!(
                "expected \"repeat\", \"clamp\", \"clamp_to_edge\" or \"mirrored_repeat\", found {}",
                v
            ),
        ),
    }
    };
    let wrap = wrap_of("wrap", Wrap::Repeat)?;
    let wrap_t = wrap_of("wrap_t", wrap)?;
    let wrap = wrap_of("wrap_s", wrap)?;
    let lod = |key: &str, dflt: f32| match to.get(key) {
        None => Ok(dflt),
        Some(v) => as_f32(v, &format!("{}.{}", p, key)),
    };
    Ok(Texture {
        unit,
        width,
        height,
        rgba8: Vec::new(),
        filter: Filter::Nearest,
        wrap,
        min_filter: Filter::Nearest,
        mip: Mip::None,
        wrap_t,
        lod_bias: lod("lod_bias", 0.0)?,
        min_lod: lod("min_lod", -1000.0)?,
        max_lod: lod("max_lod", 1000.0)?,
        levels: Vec::new(),
        faces: Vec::new(),
        face_levels: Vec::new(),
        format,
        ints,
        layers: Vec::new(),
        layer_levels: Vec::new(),
        int_layers,
        source: None,
    })
}

fn check_keys(obj: &Map<String, Value>, path: &str, allowed: &[&str]) -> Result<(), SceneError> {
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{}.{}", path, key)
            };
            return err(
                &at,
                format!("unknown key; allowed keys are {}", allowed.join(", ")),
            );
        }
    }
    Ok(())
}

impl Scene {
    /// Parse and validate scene JSON text.
    pub fn parse(text: &str) -> Result<Scene, SceneError> {
        let root: Value = crate::json::parse(text).map_err(|e| SceneError {
            path: String::new(),
            message: format!("invalid JSON: {}", e),
        })?;
        Scene::from_value(&root)
    }

    /// Read and parse a scene file; I/O errors are reported with the path.
    pub fn load(path: &std::path::Path) -> Result<Scene, SceneError> {
        let text = std::fs::read_to_string(path).map_err(|e| SceneError {
            path: String::new(),
            message: format!("cannot read {}: {}", path.display(), e),
        })?;
        let mut scene = Scene::parse(&text).map_err(|e| SceneError {
            path: e.path,
            message: format!("{} (in {})", e.message, path.display()),
        })?;
        // Pass shader files are named relative to the scene file.
        if let Some(dir) = path.parent() {
            for p in &mut scene.passes {
                for f in [&mut p.vertex, &mut p.fragment] {
                    *f = dir.join(&*f).display().to_string();
                }
            }
        }
        Ok(scene)
    }

    /// Validate an already parsed JSON value.
    pub fn from_value(root: &Value) -> Result<Scene, SceneError> {
        let obj = as_object(root, "")?;
        let passes = match obj.get("passes") {
            Some(v) => passes::parse_passes(v)?,
            None => Vec::new(),
        };
        let names: Vec<String> = passes.iter().map(|p| p.name.clone()).collect();
        let ctx = PassContext {
            earlier: &passes,
            all: &names,
            current: None,
        };
        let mut scene = Scene::from_object(obj, &ctx)?;
        scene.passes = passes;
        Ok(scene)
    }

    /// One pass's object (the picture's, or one of `"passes"`), its textures resolved in `ctx`.
    fn from_object(obj: &Map<String, Value>, ctx: &PassContext) -> Result<Scene, SceneError> {
        check_keys(
            obj,
            "",
            &[
                "passes",
                "size",
                "clear",
                "depth",
                "cull",
                "viewport",
                "attributes",
                "instances",
                "indices",
                "uniforms",
                "textures",
                "blend",
                "depth_func",
                "depth_mask",
                "color_mask",
                "scissor",
                "cull_face",
                "front_face",
                "polygon_offset",
            ],
        )?;

        let size = obj
            .get("size")
            .map_or_else(|| err("size", "missing; expected [width, height]"), Ok)?;
        let size_arr = as_array(size, "size")?;
        if size_arr.len() != 2 {
            return err(
                "size",
                format!("expected [width, height], found {} numbers", size_arr.len()),
            );
        }
        let width = as_uint(&size_arr[0], "size[0]", SIZE_MAX as u64)? as u32;
        let height = as_uint(&size_arr[1], "size[1]", SIZE_MAX as u64)? as u32;
        if width == 0 || height == 0 {
            return err("size", "width and height must be at least 1");
        }

        let clear = match obj.get("clear") {
            Some(v) => fixed_floats::<4>(v, "clear")?,
            None => [0.0, 0.0, 0.0, 1.0],
        };
        let depth = obj
            .get("depth")
            .map_or(Ok(false), |v| as_bool(v, "depth"))?;
        let cull = obj.get("cull").map_or(Ok(false), |v| as_bool(v, "cull"))?;

        let viewport = match obj.get("viewport") {
            None => [0, 0, width as i32, height as i32],
            Some(v) => {
                let arr = as_array(v, "viewport")?;
                if arr.len() != 4 {
                    return err(
                        "viewport",
                        format!("expected [x, y, w, h], found {} numbers", arr.len()),
                    );
                }
                let mut vp = [0i32; 4];
                for (i, x) in arr.iter().enumerate() {
                    let p = format!("viewport[{}]", i);
                    vp[i] = match x.as_i64() {
                        Some(n) if n.unsigned_abs() <= SIZE_MAX as u64 => n as i32,
                        _ => {
                            return err(
                                &p,
                                format!(
                                    "expected a whole number within +-{}, found {}",
                                    SIZE_MAX, x
                                ),
                            )
                        }
                    };
                }
                if vp[2] <= 0 || vp[3] <= 0 {
                    return err("viewport", "width and height must be at least 1");
                }
                vp
            }
        };

        let instances = match obj.get("instances") {
            None => 1,
            Some(v) => {
                let n = as_uint(v, "instances", INSTANCES_MAX as u64)? as u32;
                if n == 0 {
                    return err("instances", "expected 1 to 4096 instances, found 0");
                }
                n
            }
        };

        let attributes_v = obj.get("attributes").map_or_else(
            || err("attributes", "missing; at least one attribute is needed"),
            Ok,
        )?;
        let attrs = as_array(attributes_v, "attributes")?;
        if attrs.is_empty() {
            return err("attributes", "at least one attribute is needed");
        }
        let mut attributes: Vec<Attribute> = Vec::new();
        let mut vertex_count: Option<usize> = None;
        // The first per-vertex attribute's index, named when another's count differs.
        let mut first_vertex_attr = 0usize;
        for (i, a) in attrs.iter().enumerate() {
            let p = format!("attributes[{}]", i);
            let ao = as_object(a, &p)?;
            check_keys(
                ao,
                &p,
                &["location", "components", "data", "type", "divisor"],
            )?;
            let divisor = match ao.get("divisor") {
                None => 0,
                Some(v) => as_uint(v, &format!("{}.divisor", p), u32::MAX as u64)? as u32,
            };
            let kind = match ao.get("type") {
                None => AttrKind::Float,
                Some(t) => match t.as_str() {
                    Some("float") => AttrKind::Float,
                    Some("int") => AttrKind::Int,
                    Some("uint") => AttrKind::Uint,
                    _ => {
                        return err(
                            &format!("{}.type", p),
                            format!("expected \"float\", \"int\" or \"uint\", found {}", t),
                        )
                    }
                },
            };
            let location = as_uint(
                ao.get("location")
                    .map_or_else(|| err(&p, "missing location"), Ok)?,
                &format!("{}.location", p),
                (ATTRIBUTE_LOCATIONS - 1) as u64,
            )? as u32;
            if attributes.iter().any(|x| x.location == location) {
                return err(
                    &format!("{}.location", p),
                    format!("location {} is given twice", location),
                );
            }
            let components = as_uint(
                ao.get("components")
                    .map_or_else(|| err(&p, "missing components"), Ok)?,
                &format!("{}.components", p),
                4,
            )? as u32;
            if components == 0 {
                return err(
                    &format!("{}.components", p),
                    "expected 1 to 4 components, found 0",
                );
            }
            let dp = format!("{}.data", p);
            let dv = ao.get("data").map_or_else(|| err(&p, "missing data"), Ok)?;
            let data = match kind {
                AttrKind::Float => floats(dv, &dp)?,
                AttrKind::Int | AttrKind::Uint => int_words(dv, &dp, kind == AttrKind::Int)?,
            };
            if data.len() % components as usize != 0 {
                return err(
                    &dp,
                    format!(
                        "{} floats is not a whole number of {}-component vertices",
                        data.len(),
                        components
                    ),
                );
            }
            let n = data.len() / components as usize;
            if n == 0 {
                return err(&dp, "no vertices");
            }
            if n > VERTEX_MAX {
                return err(
                    &dp,
                    format!("{} vertices is above the limit {}", n, VERTEX_MAX),
                );
            }
            if divisor > 0 {
                let need = instances.div_ceil(divisor) as usize;
                if n < need {
                    return err(
                        &dp,
                        format!(
                            "{} elements, but {} instances with divisor {} read {}",
                            n, instances, divisor, need
                        ),
                    );
                }
                attributes.push(Attribute {
                    location,
                    components,
                    data,
                    kind,
                    divisor,
                });
                continue;
            }
            match vertex_count {
                None => {
                    vertex_count = Some(n);
                    first_vertex_attr = i;
                }
                Some(m) if m != n => {
                    return err(
                        &dp,
                        format!(
                        "{} vertices, but attributes[{}] has {}; all attributes need the same count",
                        n, first_vertex_attr, m
                    ),
                    )
                }
                Some(_) => {}
            }
            attributes.push(Attribute {
                location,
                components,
                data,
                kind,
                divisor: 0,
            });
        }
        let Some(vertex_count) = vertex_count else {
            return err(
                "attributes",
                "every attribute has a divisor; at least one per-vertex attribute is needed",
            );
        };

        let indices = match obj.get("indices") {
            None => {
                if !vertex_count.is_multiple_of(3) {
                    return err(
                        "attributes",
                        format!(
                            "{} vertices without indices is not a whole number of triangles",
                            vertex_count
                        ),
                    );
                }
                None
            }
            Some(v) => {
                let arr = as_array(v, "indices")?;
                if arr.is_empty() || arr.len() % 3 != 0 {
                    return err(
                        "indices",
                        format!(
                            "{} indices is not a whole, non-zero number of triangles",
                            arr.len()
                        ),
                    );
                }
                let mut out = Vec::with_capacity(arr.len());
                for (i, x) in arr.iter().enumerate() {
                    let p = format!("indices[{}]", i);
                    let n = as_uint(x, &p, u16::MAX as u64)? as usize;
                    if n >= vertex_count {
                        return err(
                            &p,
                            format!("index {} is not below the vertex count {}", n, vertex_count),
                        );
                    }
                    out.push(n as u16);
                }
                Some(out)
            }
        };

        let mut uniforms = Vec::new();
        if let Some(v) = obj.get("uniforms") {
            for (name, value) in as_object(v, "uniforms")? {
                let p = format!("uniforms.{}", name);
                let vals = match value {
                    Value::Number(_) => vec![as_f32(value, &p)?],
                    _ => floats(value, &p)?,
                };
                if vals.is_empty() || vals.len() > UNIFORM_FLOATS_MAX {
                    return err(
                        &p,
                        format!(
                            "expected 1 to {} floats, found {}",
                            UNIFORM_FLOATS_MAX,
                            vals.len()
                        ),
                    );
                }
                uniforms.push((name.clone(), vals));
            }
        }

        let mut textures: Vec<(String, Texture)> = Vec::new();
        if let Some(v) = obj.get("textures") {
            for (name, t) in as_object(v, "textures")? {
                let p = format!("textures.{}", name);
                let to = as_object(t, &p)?;
                check_keys(
                    to,
                    &p,
                    &[
                        "unit",
                        "width",
                        "height",
                        "rgba8",
                        "filter",
                        "wrap",
                        "mag_filter",
                        "min_filter",
                        "wrap_s",
                        "wrap_t",
                        "mipmaps",
                        "levels",
                        "cube",
                        "lod_bias",
                        "min_lod",
                        "max_lod",
                        "pass",
                        "attachment",
                        "compare",
                        "format",
                        "ints",
                        "layers",
                    ],
                )?;
                let source = passes::texture_source(to, &p, ctx)?;
                let field = |k: &str| {
                    to.get(k)
                        .map_or_else(|| err(&p, format!("missing {}", k)), Ok)
                };
                let unit = as_uint(
                    field("unit")?,
                    &format!("{}.unit", p),
                    (TEXTURE_UNITS - 1) as u64,
                )? as u32;
                if let Some((other, _)) = textures.iter().find(|(_, x)| x.unit == unit) {
                    return err(
                        &format!("{}.unit", p),
                        format!("unit {} is already used by textures.{}", unit, other),
                    );
                }
                let (width, height) = match &source {
                    Some((_, w, h)) => (*w, *h),
                    None => (
                        as_uint(field("width")?, &format!("{}.width", p), SIZE_MAX as u64)? as u32,
                        as_uint(field("height")?, &format!("{}.height", p), SIZE_MAX as u64)?
                            as u32,
                    ),
                };
                if width == 0 || height == 0 {
                    return err(&p, "width and height must be at least 1");
                }
                let format = match to.get("format").map(|v| (v, v.as_str())) {
                    None | Some((_, Some("rgba8"))) => TexFormat::Rgba8,
                    Some((_, Some("rgba32i"))) => TexFormat::Rgba32I,
                    Some((_, Some("rgba32ui"))) => TexFormat::Rgba32UI,
                    Some((v, _)) => {
                        return err(
                            &format!("{}.format", p),
                            format!(
                                "expected \"rgba8\", \"rgba32i\" or \"rgba32ui\", found {}",
                                v
                            ),
                        )
                    }
                };
                if format.is_integer() {
                    let t = parse_int_texture(to, &p, unit, width, height, format)?;
                    textures.push((name.clone(), t));
                    continue;
                }
                if to.contains_key("ints") {
                    return err(
                        &format!("{}.ints", p),
                        "\"ints\" are the texels of an integer format (\"format\": \"rgba32i\" or \"rgba32ui\")",
                    );
                }
                let mut faces: Vec<Vec<u8>> = Vec::new();
                let mut layers: Vec<Vec<u8>> = Vec::new();
                if let Some(v) = to.get("layers") {
                    let lp = format!("{}.layers", p);
                    for key in ["rgba8", "cube", "levels", "pass"] {
                        if to.contains_key(key) {
                            return err(
                                &lp,
                                format!("an array gives its texels as \"layers\" (and \"mipmaps\"), not \"{}\"", key),
                            );
                        }
                    }
                    let list = layer_list(v, &lp)?;
                    for (k, l) in list.iter().enumerate() {
                        layers.push(rgba_bytes(l, &format!("{}[{}]", lp, k), width, height)?);
                    }
                }
                let layer0 = layers.first().cloned();
                if let Some(v) = to.get("cube") {
                    let cp = format!("{}.cube", p);
                    if to.contains_key("rgba8") {
                        return err(&cp, "a cube gives its texels as 6 faces, not \"rgba8\"");
                    }
                    if width != height {
                        return err(
                            &cp,
                            format!("cube faces must be square, found {}x{}", width, height),
                        );
                    }
                    let list = as_array(v, &cp)?;
                    if list.len() != 6 {
                        return err(
                            &cp,
                            format!(
                                "expected 6 faces (+x, -x, +y, -y, +z, -z), found {}",
                                list.len()
                            ),
                        );
                    }
                    for (f, l) in list.iter().enumerate() {
                        faces.push(rgba_bytes(l, &format!("{}[{}]", cp, f), width, height)?);
                    }
                }
                let cube0 = if faces.is_empty() {
                    None
                } else {
                    Some(faces.remove(0))
                };
                let mut rgba8 = match (&cube0, &layer0, &source) {
                    (None, None, None) => {
                        rgba_bytes(field("rgba8")?, &format!("{}.rgba8", p), width, height)?
                    }
                    _ => Vec::new(),
                };
                if let Some(f0) = cube0.or(layer0) {
                    rgba8 = f0;
                }
                let filter_of = |key: &str, dflt: Filter| match to.get(key).map(|v| (v, v.as_str()))
                {
                    None => Ok(dflt),
                    Some((_, Some("nearest"))) => Ok(Filter::Nearest),
                    Some((_, Some("linear"))) => Ok(Filter::Linear),
                    Some((v, _)) => err(
                        &format!("{}.{}", p, key),
                        format!("expected \"nearest\" or \"linear\", found {}", v),
                    ),
                };
                let filter = filter_of("filter", Filter::Nearest)?;
                let filter = filter_of("mag_filter", filter)?;
                let (min_filter, mip) = match to.get("min_filter").map(|v| (v, v.as_str())) {
                    None => (filter, Mip::None),
                    Some((v, Some(name))) => {
                        let table = [
                            ("nearest", Filter::Nearest, Mip::None),
                            ("linear", Filter::Linear, Mip::None),
                            ("nearest_mipmap_nearest", Filter::Nearest, Mip::Nearest),
                            ("linear_mipmap_nearest", Filter::Linear, Mip::Nearest),
                            ("nearest_mipmap_linear", Filter::Nearest, Mip::Linear),
                            ("linear_mipmap_linear", Filter::Linear, Mip::Linear),
                        ];
                        match table.iter().find(|t| t.0 == name) {
                            Some(t) => (t.1, t.2),
                            None => {
                                return err(
                                    &format!("{}.min_filter", p),
                                    format!("expected nearest, linear or NEAREST|LINEAR_MIPMAP_NEAREST|LINEAR in lower case, found {}", v),
                                )
                            }
                        }
                    }
                    Some((v, None)) => {
                        return err(
                            &format!("{}.min_filter", p),
                            format!("expected a filter name, found {}", v),
                        )
                    }
                };
                let wrap_of = |key: &str, dflt: Wrap| {
                    match to.get(key).map(|v| (v, v.as_str())) {
                    None => Ok(dflt),
                    Some((_, Some("repeat"))) => Ok(Wrap::Repeat),
                    Some((_, Some("clamp"))) | Some((_, Some("clamp_to_edge"))) => {
                        Ok(Wrap::ClampToEdge)
                    }
                    Some((_, Some("mirrored_repeat"))) => Ok(Wrap::MirroredRepeat),
                    Some((v, _)) => err(
                        &format!("{}.{}", p, key),
                        format!(
                            "expected \"repeat\", \"clamp\", \"clamp_to_edge\" or \"mirrored_repeat\", found {}",
                            v
                        ),
                    ),
                }
                };
                let wrap = wrap_of("wrap", Wrap::Repeat)?;
                let wrap_t = wrap_of("wrap_t", wrap)?;
                let wrap = wrap_of("wrap_s", wrap)?;
                let lod = |key: &str, dflt: f32| match to.get(key) {
                    None => Ok(dflt),
                    Some(v) => {
                        let x = as_f32(v, &format!("{}.{}", p, key))?;
                        if x.is_finite() && x.abs() <= 1000.0 {
                            Ok(x)
                        } else {
                            err(
                                &format!("{}.{}", p, key),
                                "expected a number in -1000..=1000",
                            )
                        }
                    }
                };
                let (lod_bias, min_lod, max_lod) = (
                    lod("lod_bias", 0.0)?,
                    lod("min_lod", -1000.0)?,
                    lod("max_lod", 1000.0)?,
                );
                let mut levels = Vec::new();
                // A pass's chain is generated after the pass is drawn (`PassSource::mipmaps`).
                if let (Some(v), None) = (to.get("mipmaps"), &source) {
                    if as_bool(v, &format!("{}.mipmaps", p))? {
                        levels = box_chain(width, height, &rgba8);
                    }
                }
                let face_levels: Vec<Vec<Vec<u8>>> = if levels.is_empty() {
                    Vec::new()
                } else {
                    faces.iter().map(|f| box_chain(width, height, f)).collect()
                };
                let layer_levels: Vec<Vec<Vec<u8>>> = if levels.is_empty() {
                    Vec::new()
                } else {
                    layers.iter().map(|f| box_chain(width, height, f)).collect()
                };
                if !faces.is_empty() && to.contains_key("levels") {
                    return err(
                        &format!("{}.levels", p),
                        "a cube takes \"mipmaps\", not \"levels\"",
                    );
                }
                if let Some(v) = to.get("levels") {
                    if !levels.is_empty() {
                        return err(
                            &format!("{}.levels", p),
                            "give \"levels\" or \"mipmaps\", not both",
                        );
                    }
                    for (i, l) in as_array(v, &format!("{}.levels", p))?.iter().enumerate() {
                        let lp = format!("{}.levels[{}]", p, i);
                        let s = i as u32 + 1;
                        let (lw, lh) = ((width >> s.min(31)).max(1), (height >> s.min(31)).max(1));
                        if lw == 1
                            && lh == 1
                            && i > 0
                            && (width >> i.min(31)).max(1) == 1
                            && (height >> i.min(31)).max(1) == 1
                        {
                            return err(&lp, "more levels than the chain down to 1x1 has");
                        }
                        levels.push(rgba_bytes(l, &lp, lw, lh)?);
                    }
                }
                textures.push((
                    name.clone(),
                    Texture {
                        unit,
                        width,
                        height,
                        rgba8,
                        filter,
                        wrap,
                        min_filter,
                        mip,
                        wrap_t,
                        lod_bias,
                        min_lod,
                        max_lod,
                        levels,
                        faces,
                        face_levels,
                        source: source.map(|s| s.0),
                        format,
                        ints: Vec::new(),
                        layers,
                        layer_levels,
                        int_layers: Vec::new(),
                    },
                ));
            }
        }

        let pipeline = parse_pipeline(obj, cull)?;
        Ok(Scene {
            width,
            height,
            clear,
            depth,
            cull,
            viewport,
            attributes,
            vertex_count,
            instances,
            indices,
            uniforms,
            textures,
            pipeline,
            passes: Vec::new(),
        })
    }

    /// The attribute at `location`, if the scene gives one.
    pub fn attribute(&self, location: u32) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.location == location)
    }

    /// Vertex indices of every triangle, in draw order.
    pub fn triangles(&self) -> Vec<[usize; 3]> {
        match &self.indices {
            Some(ix) => ix
                .chunks_exact(3)
                .map(|t| [t[0] as usize, t[1] as usize, t[2] as usize])
                .collect(),
            None => (0..self.vertex_count / 3)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect(),
        }
    }

    /// The clear colour as `0xAARRGGBB` (clamped and rounded like a fragment colour).
    pub fn clear_argb(&self) -> u32 {
        let c = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        u32::from_be_bytes([
            c(self.clear[3]),
            c(self.clear[0]),
            c(self.clear[1]),
            c(self.clear[2]),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRI: &str = r#"{"size": [4, 2], "attributes": [{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}]}"#;

    #[test]
    fn minimal_scene_gets_gl_defaults() {
        let s = Scene::parse(TRI).unwrap();
        assert_eq!((s.width, s.height), (4, 2));
        assert_eq!(s.clear, [0.0, 0.0, 0.0, 1.0]);
        assert!(!s.depth && !s.cull);
        assert_eq!(s.viewport, [0, 0, 4, 2]);
        assert_eq!(s.vertex_count, 3);
        assert_eq!(s.triangles(), vec![[0, 1, 2]]);
        assert_eq!(s.attribute(0).unwrap().vertex(1), &[1.0, 0.0]);
    }

    #[test]
    fn full_scene_parses_every_field() {
        let text = r#"{"size": [8, 8], "clear": [0.5, 0, 1, 1], "depth": true, "cull": true,
            "viewport": [1, 2, 3, 4],
            "attributes": [{"location": 0, "components": 4, "data": [0,0,0,1, 1,0,0,1, 0,1,0,1, 1,1,0,1]},
                           {"location": 3, "components": 1, "data": [1, 2, 3, 4]}],
            "indices": [0, 1, 2, 2, 1, 3],
            "uniforms": {"u_scale": 2.5, "u_mvp": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
            "textures": {"tex": {"unit": 2, "width": 2, "height": 1, "rgba8": [255,0,0,255, 0,0,255,128],
                                 "filter": "linear", "wrap": "clamp_to_edge"}}}"#;
        let s = Scene::parse(text).unwrap();
        assert_eq!(s.viewport, [1, 2, 3, 4]);
        assert_eq!(s.triangles(), vec![[0, 1, 2], [2, 1, 3]]);
        assert_eq!(
            s.uniforms[0],
            ("u_mvp".to_string(), {
                let mut m = vec![0.0; 16];
                m[0] = 1.0;
                m[5] = 1.0;
                m[10] = 1.0;
                m[15] = 1.0;
                m
            })
        );
        assert_eq!(s.uniforms[1], ("u_scale".to_string(), vec![2.5]));
        let (name, t) = &s.textures[0];
        assert_eq!(name, "tex");
        assert_eq!(
            (t.unit, t.filter, t.wrap),
            (2, Filter::Linear, Wrap::ClampToEdge)
        );
        assert_eq!(t.texel_argb(0, 0), 0xFFFF0000);
        assert_eq!(t.texel_argb(1, 0), 0x800000FF);
        assert_eq!(s.clear_argb(), 0xFF8000FF);
    }

    fn error_of(text: &str) -> String {
        Scene::parse(text).unwrap_err().to_string()
    }

    fn with(keys: &str) -> String {
        format!(
            r#"{{"size": [4, 4], {}, "attributes": [{{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}}]}}"#,
            keys
        )
    }

    #[test]
    fn pipeline_state_parses_with_gl_defaults() {
        let s = Scene::parse(TRI).unwrap();
        assert_eq!(s.pipeline, Pipeline::default());
        assert_eq!(s.pipeline.depth_func, 0x201);
        assert_eq!(s.pipeline.cull_face, 0);
        let s = Scene::parse(&with(r#""cull": true"#)).unwrap();
        assert_eq!(s.pipeline.cull_face, 0x405);
        let s = Scene::parse(&with(
            r#""blend": {"src": "SRC_ALPHA", "dst": "ONE_MINUS_SRC_ALPHA", "dst_alpha": "ZERO",
                "equation": "REVERSE_SUBTRACT", "color": [0.5, 0.25, 0, 1]},
              "depth_func": "GEQUAL", "depth_mask": false, "color_mask": [true, false, true, false],
              "scissor": [-2, 1, 3, 5], "cull_face": "FRONT_AND_BACK", "front_face": "CW",
              "polygon_offset": [1.5, -2]"#,
        ))
        .unwrap();
        let p = &s.pipeline;
        assert_eq!(
            p.blend,
            Some(Blend {
                src_rgb: 0x302,
                dst_rgb: 0x303,
                src_alpha: 0x302,
                dst_alpha: 0,
                eq_rgb: 0x800B,
                eq_alpha: 0x800B,
                color: [0.5, 0.25, 0.0, 1.0],
            })
        );
        assert_eq!((p.depth_func, p.depth_mask), (0x206, false));
        assert_eq!(p.color_mask, [true, false, true, false]);
        assert_eq!(p.scissor, Some([-2, 1, 3, 5]));
        assert_eq!((p.cull_face, p.front_face), (0x408, 0x900));
        assert_eq!(p.polygon_offset, [1.5, -2.0]);
    }

    #[test]
    fn bad_pipeline_state_is_an_error_naming_the_field() {
        for (keys, want) in [
            (
                r#""depth_func": "SOMETIMES""#,
                "depth_func: unknown value \"SOMETIMES\"",
            ),
            (
                r#""depth_func": 513"#,
                "depth_func: expected one of \"NEVER\"",
            ),
            (r#""depth_mask": 1"#, "depth_mask: expected true or false"),
            (r#""blend": {"src": "ONE"}"#, "blend: missing dst"),
            (
                r#""blend": {"src": "ONE", "dst": "TWO"}"#,
                "blend.dst: unknown value \"TWO\"",
            ),
            (
                r#""blend": {"src": "ONE", "dst": "ONE", "equation": "MUL"}"#,
                "blend.equation: unknown value",
            ),
            (
                r#""blend": {"src": "ONE", "dst": "ONE", "mode": 1}"#,
                "blend.mode: unknown key",
            ),
            (
                r#""blend": {"src": "ONE", "dst": "ONE", "color": [2, 0, 0, 0]}"#,
                "blend.color: components must be in [0, 1]",
            ),
            (
                r#""color_mask": [true, true, true]"#,
                "color_mask: expected [r, g, b, a] booleans",
            ),
            (
                r#""color_mask": [true, true, true, 0]"#,
                "color_mask[3]: expected true or false",
            ),
            (
                r#""scissor": [0, 0, -1, 4]"#,
                "scissor[2]: expected a whole number 0..=4096",
            ),
            (r#""scissor": [0, 0, 4]"#, "scissor: expected [x, y, w, h]"),
            (
                r#""cull": true, "cull_face": "BACK""#,
                "cull_face: give either",
            ),
            (r#""cull_face": "SIDE""#, "cull_face: unknown value"),
            (r#""front_face": "CLOCKWISE""#, "front_face: unknown value"),
            (
                r#""polygon_offset": [1]"#,
                "polygon_offset: expected 2 numbers",
            ),
        ] {
            let e = error_of(&with(keys));
            assert!(e.contains(want), "{}: {}", keys, e);
        }
    }

    #[test]
    fn f32_max_as_json_writers_print_it_is_accepted() {
        let text = r#"{"size": [1, 1], "clear": [3.4028234663852886e38, -3.4028235e38, 0, 1],
            "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}]}"#;
        let s = Scene::parse(text).unwrap();
        assert_eq!(s.clear, [f32::MAX, -f32::MAX, 0.0, 1.0]);
        let big = r#"{"size": [1, 1], "clear": [3.5e38, 0, 0, 1]}"#;
        assert_eq!(
            error_of(big),
            "scene: clear[0]: 3.5e+38 does not fit a finite f32"
        );
    }

    #[test]
    fn duplicate_keys_are_rejected() {
        let dup = r#"{"size": [1, 1], "size": [2, 2],
            "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}]}"#;
        assert_eq!(
            error_of(dup),
            "scene: invalid JSON: duplicate key \"size\" at line 1 column 23"
        );
        let inner = r#"{"size": [1, 1], "uniforms": {"u": 1, "u": 2},
            "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}]}"#;
        assert!(error_of(inner).contains("duplicate key \"u\""));
    }

    #[test]
    fn integer_textures_parse_and_are_checked() {
        let scene = |tex: &str| {
            format!(
                r#"{{"size": [1, 1], "attributes": [{{"location": 0, "components": 1, "data": [0, 1, 2]}}],
                "textures": {{"t": {}}}}}"#,
                tex
            )
        };
        let good = scene(
            r#"{"unit": 1, "width": 2, "height": 1, "format": "rgba32i", "wrap": "clamp_to_edge",
                "ints": [-1, 16777217, -2147483648, 2147483647, 0, 1, 2, 3]}"#,
        );
        let s = Scene::parse(&good).unwrap();
        let t = &s.textures[0].1;
        assert_eq!(t.format, TexFormat::Rgba32I);
        assert!(t.rgba8.is_empty() && t.levels.is_empty());
        assert_eq!(
            t.ints,
            vec![
                [0xFFFF_FFFF, 0x0100_0001, 0x8000_0000, 0x7FFF_FFFF],
                [0, 1, 2, 3]
            ]
        );
        assert_eq!(t.wrap, Wrap::ClampToEdge);
        let u = scene(
            r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32ui", "ints": [4294967295, 0, 7, 16777217]}"#,
        );
        assert_eq!(
            Scene::parse(&u).unwrap().textures[0].1.ints,
            vec![[0xFFFF_FFFF, 0, 7, 0x0100_0001]]
        );
        let cases = [
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32ui", "ints": [-1, 0, 0, 0]}"#,
                "textures.t.ints[0]: expected a whole number of uint's range, found -1",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i", "ints": [2147483648, 0, 0, 0]}"#,
                "textures.t.ints[0]: expected a whole number of int's range",
            ),
            (
                r#"{"unit": 0, "width": 2, "height": 1, "format": "rgba32i", "ints": [1, 2, 3, 4]}"#,
                "textures.t.ints: expected 8 whole numbers (2x1 RGBA), found 4",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i", "filter": "linear", "ints": [1, 2, 3, 4]}"#,
                "textures.t.filter: an integer texture takes \"nearest\" filters only",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i", "mipmaps": true, "ints": [1, 2, 3, 4]}"#,
                "textures.t.mipmaps: an integer texture gives its texels as \"ints\"",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i"}"#,
                "textures.t: missing ints",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgb9", "ints": [1, 2, 3, 4]}"#,
                "textures.t.format: expected \"rgba8\", \"rgba32i\" or \"rgba32ui\"",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "rgba8": [1, 2, 3, 4], "ints": [1, 2, 3, 4]}"#,
                "textures.t.ints: \"ints\" are the texels of an integer format",
            ),
        ];
        for (tex, want) in cases {
            let e = error_of(&scene(tex));
            assert!(e.contains(want), "{}: {}", tex, e);
        }
    }

    #[test]
    fn integer_array_textures_parse_and_are_checked() {
        let scene = |tex: &str| {
            format!(
                r#"{{"size": [1, 1], "attributes": [{{"location": 0, "components": 1, "data": [0, 1, 2]}}], "textures": {{"a": {}}}}}"#,
                tex
            )
        };
        let s = Scene::parse(&scene(
            r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32ui", "layers": [[1, 2, 3, 4], [4294967295, 0, 7, 8]]}"#,
        ))
        .unwrap();
        let t = &s.textures[0].1;
        assert!(t.is_array());
        assert_eq!(
            t.int_layers,
            vec![vec![[1, 2, 3, 4]], vec![[u32::MAX, 0, 7, 8]]]
        );
        assert_eq!(t.ints, t.int_layers[0]);
        let e = Scene::parse(&scene(
            r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i", "layers": [[1, 2, 3, 4], [1, 2]]}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("textures.a.layers[1]"), "{}", e);
    }

    #[test]
    fn array_textures_parse_and_are_checked() {
        let scene = |tex: &str| {
            format!(
                r#"{{"size": [1, 1], "attributes": [{{"location": 0, "components": 1, "data": [0, 1, 2]}}],
                "textures": {{"a": {}}}}}"#,
                tex
            )
        };
        let good = scene(
            r#"{"unit": 0, "width": 2, "height": 1, "mipmaps": true,
                "layers": [[1, 2, 3, 4, 5, 6, 7, 8], [9, 9, 9, 9, 1, 1, 1, 1]]}"#,
        );
        let s = Scene::parse(&good).unwrap();
        let t = &s.textures[0].1;
        assert!(t.is_array() && !t.is_cube());
        assert_eq!(t.layers.len(), 2);
        assert_eq!(t.rgba8, t.layers[0]);
        assert_eq!(t.layer_levels[1], vec![vec![5, 5, 5, 5]]);
        let one = scene(r#"{"unit": 0, "width": 1, "height": 1, "layers": [[1, 2, 3, 4]]}"#);
        assert!(Scene::parse(&one).unwrap().textures[0].1.is_array());
        let cases = [
            (
                r#"{"unit": 0, "width": 1, "height": 1, "layers": []}"#,
                "textures.a.layers: expected 1..=256 layers, found 0",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "layers": [[1, 2, 3, 4], [1]]}"#,
                "textures.a.layers[1]: expected 4 bytes (1x1 RGBA), found 1",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "rgba8": [1, 2, 3, 4], "layers": [[1, 2, 3, 4]]}"#,
                "not \"rgba8\"",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "format": "rgba32i", "ints": [1, 2, 3, 4], "layers": [[1, 2, 3, 4]]}"#,
                "textures.a.layers: an integer texture",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "layers": [[1, 2, 3, 256]]}"#,
                "textures.a.layers[0][3]",
            ),
            (
                r#"{"unit": 0, "width": 1, "height": 1, "cube": [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]}"#,
                "textures.a.cube[2]: expected 4 bytes (1x1 RGBA), found 2",
            ),
            (
                r#"{"unit": 0, "width": 4, "height": 2, "rgba8": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "levels": [[1, 2, 3, 4]]}"#,
                "textures.a.levels[0]: expected 8 bytes (2x1 RGBA), found 4",
            ),
        ];
        for (tex, want) in cases {
            let e = error_of(&scene(tex));
            assert!(e.contains(want), "{}: {}", tex, e);
        }
    }

    #[test]
    fn cube_textures_parse_and_are_checked() {
        let scene = |tex: &str| {
            format!(
                r#"{{"size": [1, 1], "attributes": [{{"location": 0, "components": 1, "data": [0, 1, 2]}}],
                "textures": {{"c": {}}}}}"#,
                tex
            )
        };
        let face = |v: u8| format!("[{v}, 0, 0, 255]");
        let faces: Vec<String> = (0..6).map(|f| face(f * 10)).collect();
        let good = scene(&format!(
            r#"{{"unit": 0, "width": 1, "height": 1, "cube": [{}], "mipmaps": true}}"#,
            faces.join(", ")
        ));
        let s = Scene::parse(&good).unwrap();
        let t = &s.textures[0].1;
        assert!(t.is_cube());
        assert_eq!(t.face_argb(0).0, vec![0xFF00_0000]);
        assert_eq!(t.face_argb(5).0, vec![0xFF32_0000]);
        let five = scene(&format!(
            r#"{{"unit": 0, "width": 1, "height": 1, "cube": [{}]}}"#,
            faces[..5].join(", ")
        ));
        assert!(error_of(&five).contains("textures.c.cube: expected 6 faces"));
        let wide = scene(&format!(
            r#"{{"unit": 0, "width": 2, "height": 1, "cube": [{}]}}"#,
            faces.join(", ")
        ));
        assert!(error_of(&wide).contains("cube faces must be square, found 2x1"));
        let both = scene(&format!(
            r#"{{"unit": 0, "width": 1, "height": 1, "rgba8": [1, 2, 3, 4], "cube": [{}]}}"#,
            faces.join(", ")
        ));
        assert!(error_of(&both).contains("not \"rgba8\""));
        let short = scene(&format!(
            r#"{{"unit": 0, "width": 1, "height": 1, "cube": [{}, [1]]}}"#,
            faces[..5].join(", ")
        ));
        assert!(error_of(&short).contains("textures.c.cube[5]: expected 4 bytes"));
    }

    #[test]
    fn errors_name_the_field_and_the_rule() {
        assert_eq!(
            error_of("{"),
            "scene: invalid JSON: EOF while parsing an object at line 1 column 1"
        );
        assert!(error_of(r#"{"attributes": []}"#).contains("size: missing"));
        assert!(error_of(r#"{"size": [0, 1], "attributes": []}"#)
            .contains("size: width and height must be at least 1"));
        assert!(
            error_of(r#"{"size": [5000, 1]}"#).contains("size[0]: 5000 is above the limit 4096")
        );
        assert!(error_of(r#"{"size": [1, 1], "colour": 1}"#).contains("colour: unknown key"));
        let mismatch = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]},
            {"location": 1, "components": 1, "data": [1, 2]}]}"#;
        assert!(
            error_of(mismatch).contains("attributes[1].data: 2 vertices, but attributes[0] has 3")
        );
        let ragged = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 2, "data": [0,0,1]}]}"#;
        assert!(error_of(ragged).contains("3 floats is not a whole number of 2-component vertices"));
        let bad_loc =
            r#"{"size": [1, 1], "attributes": [{"location": 8, "components": 2, "data": [0,0]}]}"#;
        assert!(error_of(bad_loc).contains("attributes[0].location: 8 is above the limit 7"));
        let bad_index = r#"{"size": [1, 1], "indices": [0, 1, 3],
            "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}]}"#;
        assert!(error_of(bad_index).contains("indices[2]: index 3 is not below the vertex count 3"));
        let not_tris =
            r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1]}]}"#;
        assert!(error_of(not_tris).contains("2 vertices without indices"));
        let short_tex = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}],
            "textures": {"t": {"unit": 0, "width": 2, "height": 2, "rgba8": [1, 2, 3, 4]}}}"#;
        assert!(
            error_of(short_tex).contains("textures.t.rgba8: expected 16 bytes (2x2 RGBA), found 4")
        );
        let bad_filter = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}],
            "textures": {"t": {"unit": 0, "width": 1, "height": 1, "rgba8": [1, 2, 3, 4], "filter": "cubic"}}}"#;
        assert!(
            error_of(bad_filter).contains("textures.t.filter: expected \"nearest\" or \"linear\"")
        );
        let big_uniform = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}],
            "uniforms": {"m": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}"#;
        assert!(error_of(big_uniform).contains("uniforms.m: expected 1 to 16 floats, found 17"));
        let byte = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]}],
            "textures": {"t": {"unit": 0, "width": 1, "height": 1, "rgba8": [1, 2, 300, 4]}}}"#;
        assert!(error_of(byte).contains("textures.t.rgba8[2]: 300 is above the limit 255"));
    }

    #[test]
    fn instances_and_divisors_parse_and_are_checked() {
        let s = Scene::parse(TRI).unwrap();
        assert_eq!(s.instances, 1);
        assert_eq!(s.attribute(0).unwrap().divisor, 0);
        assert_eq!(s.attribute(0).unwrap().instance_value(0), None);
        let scene = |keys: &str, inst: &str| {
            format!(
                r#"{{"size": [4, 4], {} "attributes": [{{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}}{}]}}"#,
                keys, inst
            )
        };
        let text = scene(
            r#""instances": 5,"#,
            r#", {"location": 2, "components": 3, "divisor": 2, "data": [1,2,3, 4,5,6, 7,8,9]}"#,
        );
        let s = Scene::parse(&text).unwrap();
        assert_eq!((s.instances, s.vertex_count), (5, 3));
        let a = s.attribute(2).unwrap();
        assert_eq!(a.divisor, 2);
        assert_eq!(a.instance_value(0), Some([1.0, 2.0, 3.0, 1.0]));
        assert_eq!(a.instance_value(3), Some([4.0, 5.0, 6.0, 1.0]));
        assert_eq!(a.instance_value(4), Some([7.0, 8.0, 9.0, 1.0]));
        for (keys, inst, want) in [
            (
                r#""instances": 0,"#,
                "",
                "instances: expected 1 to 4096 instances, found 0",
            ),
            (
                r#""instances": 4097,"#,
                "",
                "instances: 4097 is above the limit 4096",
            ),
            (
                r#""instances": 1e12,"#,
                "",
                "instances: expected a whole number 0..=4096",
            ),
            (
                r#""instances": -1,"#,
                "",
                "instances: expected a whole number",
            ),
            (
                r#""instances": 3,"#,
                r#", {"location": 1, "components": 1, "divisor": 1, "data": [1, 2]}"#,
                "attributes[1].data: 2 elements, but 3 instances with divisor 1 read 3",
            ),
            (
                "",
                r#", {"location": 1, "components": 1, "divisor": -1, "data": [1]}"#,
                "attributes[1].divisor: expected a whole number 0..=4294967295",
            ),
            (
                "",
                r#", {"location": 1, "components": 1, "divisor": 4294967296, "data": [1]}"#,
                "attributes[1].divisor: 4294967296 is above the limit 4294967295",
            ),
            (
                "",
                r#", {"location": 0, "components": 1, "divisor": 1, "data": [1]}"#,
                "attributes[1].location: location 0 is given twice",
            ),
        ] {
            let e = error_of(&scene(keys, inst));
            assert!(e.contains(want), "{} {}: {}", keys, inst, e);
        }
        // Every attribute per-instance: no vertex count to draw.
        let all = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "divisor": 1, "data": [0]}]}"#;
        assert!(error_of(all).contains("attributes: every attribute has a divisor"));
        // A per-instance attribute does not count vertices: the per-vertex ones still agree.
        let mixed = r#"{"size": [1, 1], "attributes": [{"location": 1, "components": 1, "divisor": 1, "data": [0, 1, 2, 3]},
            {"location": 0, "components": 1, "data": [0, 1, 2]}, {"location": 2, "components": 1, "data": [0, 1]}]}"#;
        assert!(error_of(mixed).contains("attributes[2].data: 2 vertices, but attributes[1] has 3"));
    }

    #[test]
    fn integer_attributes_hold_their_words() {
        let text = r#"{"size": [1, 1], "attributes": [{"location": 0, "components": 1, "data": [0, 1, 2]},
            {"location": 1, "components": 1, "type": "int", "data": [16777217, -2147483648, -1]},
            {"location": 2, "components": 1, "type": "uint", "data": [4294967295, 0, 3221225473]}]}"#;
        let s = Scene::parse(text).unwrap();
        assert_eq!(s.attribute(0).unwrap().kind, AttrKind::Float);
        let i = s.attribute(1).unwrap();
        assert_eq!(i.kind, AttrKind::Int);
        let words: Vec<u32> = i.data.iter().map(|f| f.to_bits()).collect();
        assert_eq!(words, [16777217, 0x8000_0000, 0xFFFF_FFFF]);
        let u = s.attribute(2).unwrap();
        assert_eq!(u.kind, AttrKind::Uint);
        assert_eq!(u.data[0].to_bits(), u32::MAX);
        assert_eq!(u.data[2].to_bits(), 3221225473);
        let bad = |ty: &str, v: &str| {
            error_of(&format!(
                r#"{{"size": [1, 1], "attributes": [{{"location": 0, "components": 1, "type": "{}", "data": [0, {}, 2]}}]}}"#,
                ty, v
            ))
        };
        assert!(bad("int", "2147483648")
            .contains("attributes[0].data[1]: expected a whole number of int's range"));
        assert!(bad("uint", "-1")
            .contains("attributes[0].data[1]: expected a whole number of uint's range"));
        assert!(bad("int", "1.5").contains("attributes[0].data[1]"));
        assert!(bad("double", "1")
            .contains("attributes[0].type: expected \"float\", \"int\" or \"uint\""));
    }
}
