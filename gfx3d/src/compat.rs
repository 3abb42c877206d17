//! The profile-2 compatibility suite (`tools/shc/tests/compat/`, see its README.md) on Gfx3D:
//! every pair of its `corpus.txt` that is not a known gap is compiled with profile 2, drawn with
//! its scene by two Gfx3D instances (the kernel: software and VirGL; host tests: software and
//! VirGL through vtest) and compared with [`crate::compare`] (at most 1% of the pixels differ by
//! more than 2/255, only along edges). The host's `shc` compat test compares the same pairs with
//! Mesa; this is the guest half.
//!
//! Owns: reading the suite's files (given as name/text pairs: the kernel includes them in its
//! image, host tests read the directory), a JSON reader for the scene format (the subset scene
//! files use: objects, arrays, numbers, strings, booleans), and the mapping of a scene onto
//! Gfx3D, which follows `shc render` (tools/shc/src/render_cmd.rs): interleaved vertex data by
//! location, uniforms by name (uniforms a program does not have are skipped, a mat3 given as 12
//! padded floats is unpadded), each sampler's texture by name on the unit the program gives it,
//! viewport, depth (test, function, mask, polygon offset) and cull state, and `"passes"` (the
//! scene crate's `model/passes.rs`): each pass drawn in order into its own target
//! (`target_create_format`) with its own shaders, a texture with `"pass"` bound to that
//! target's colour or depth (`bind_target_texture`, generated mips for `"mipmaps"`). Besides
//! the suite, [`PASS_PAIRS`] lists the differential corpus's multi-pass scenes
//! (`tools/shc/tests/diff`, [`Suite::passes`]). Scene keys it does not draw (blending, masks,
//! scissor, face state, instancing) are an error, never ignored.
//! Must never: panic on any file text (errors name the pair or the field), interpret a scene
//! differently from `shc render`/`mesa-ref` (a host test compares this reader with the `scene`
//! crate's on every suite file), or depend on a particular backend.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use shader::limits::Profile;
use shader::program::compile::CompileOptions;

use crate::compare;
use crate::layout::{Element, ElementKind, VertexLayout};
use crate::linked::Linked;
use crate::mesh::Usage;
use crate::state::DepthDesc;
use crate::target::{TargetFormat, TargetPlane};
use crate::texture::{Filter, MipFilter, SamplerState, TextureFormat, Wrap};
use crate::{ContextId, Gfx3d, TargetId, TextureId};
use shader::back::raster::state::CompareFunc;

/// Largest scene picture side drawn here (the suite's scenes are 64x64; this keeps a guest run
/// small).
pub const PICTURE_SIDE_MAX: u32 = 256;
/// JSON nesting accepted by the scene reader (scene files nest four deep).
pub const JSON_DEPTH_MAX: usize = 16;

/// A JSON value of the scene subset; numbers keep their text (rounded once where they are read).
#[derive(Clone, Debug, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Number(&'a str),
    Str(&'a str),
    Array(Vec<Json<'a>>),
    Object(Vec<(&'a str, Json<'a>)>),
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("invalid JSON at byte {}: {}", self.pos, what))
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str) -> bool {
        let end = self.pos.saturating_add(word.len());
        if self.text.get(self.pos..end) == Some(word) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    /// A string without escapes (scene keys and words never need them).
    fn string(&mut self) -> Result<&'a str, String> {
        if !self.eat(b'"') {
            return self.fail("expected a string");
        }
        let start = self.pos;
        loop {
            match self.peek() {
                None => return self.fail("unterminated string"),
                Some(b'\\') => return self.fail("escapes are not used by scene files"),
                Some(b'"') => break,
                Some(_) => self.pos += 1,
            }
        }
        let s = self.text.get(start..self.pos).unwrap_or("");
        self.pos += 1;
        Ok(s)
    }

    fn value(&mut self, depth: usize) -> Result<Json<'a>, String> {
        if depth > JSON_DEPTH_MAX {
            return self.fail("nested too deeply");
        }
        self.skip_ws();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let mut fields: Vec<(&'a str, Json<'a>)> = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(fields));
                }
                loop {
                    let key = self.string()?;
                    if fields.iter().any(|(k, _)| *k == key) {
                        return self.fail("duplicate key");
                    }
                    if !self.eat(b':') {
                        return self.fail("expected ':'");
                    }
                    let v = self.value(depth + 1)?;
                    fields.push((key, v));
                    if self.eat(b'}') {
                        return Ok(Json::Object(fields));
                    }
                    if !self.eat(b',') {
                        return self.fail("expected ',' or '}'");
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return self.fail("expected ',' or ']'");
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') if self.literal("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.literal("false") => Ok(Json::Bool(false)),
            Some(b'n') if self.literal("null") => Ok(Json::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    self.pos += 1;
                }
                Ok(Json::Number(self.text.get(start..self.pos).unwrap_or("")))
            }
            _ => self.fail("expected a value"),
        }
    }
}

/// Parses JSON text (the scene subset: no string escapes).
pub fn parse_json(text: &str) -> Result<Json<'_>, String> {
    let mut r = Reader { text, pos: 0 };
    let v = r.value(0)?;
    r.skip_ws();
    if r.pos != text.len() {
        return r.fail("text after the value");
    }
    Ok(v)
}

impl<'a> Json<'a> {
    fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(f) => f.iter().find(|(k, _)| *k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// One vertex attribute of a scene: `components` values per vertex (`"type"` `"int"` or
/// `"uint"`: 32-bit integer words held as `f32::from_bits`, for an integer attribute).
#[derive(Clone, Debug, PartialEq)]
pub struct SceneAttribute {
    pub location: u8,
    pub components: u8,
    pub data: Vec<f32>,
    pub kind: ElementKind,
}

/// A scene texture: RGBA8 rows (row 0 is v = 0) as 0xAARRGGBB.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneTexture {
    pub width: u32,
    pub height: u32,
    pub texels: Vec<u32>,
    /// Mip levels 1, 2, ... (`"levels"`, or `"mipmaps": true`: the box chain).
    pub levels: Vec<Vec<u32>>,
    pub sampler: SamplerState,
    /// A cube texture (`"cube": [6 faces]`, +x, -x, +y, -y, +z, -z, square; `texels` and
    /// `levels` are face 0): faces 1..=5, each its texels (with `"mipmaps": true` the levels
    /// are built by `tex_generate_mipmaps`). Empty: a 2D texture.
    pub faces: Vec<Vec<u32>>,
    /// `"format"`: RGBA8 (the default) or RGBA32I/RGBA32UI.
    pub format: TextureFormat,
    /// An integer texture's words (`"ints"`, 4 a texel: r, g, b, a, row 0 first; an RGBA32I
    /// value as its i32 bits); `texels` is then empty.
    pub ints: Vec<u32>,
    /// A 2D array texture's layers (`"layers"`, layer 0 first; `texels` is layer 0), drawn as
    /// a `tex_create_array` texture (`"mipmaps"`: every layer's box chain).
    pub layers: Vec<Vec<u32>>,
    /// An integer 2D array texture's layers (`"layers"` of whole numbers with an integer
    /// `"format"`, layer 0 first; `ints` is layer 0), drawn as a `tex_create_array_format`
    /// texture. Empty otherwise.
    pub int_layers: Vec<Vec<u32>>,
    /// `"pass"`: the texels are an earlier pass's target (its size; `texels` and `levels` are
    /// empty; the depth compare mode is in `sampler.compare`).
    pub source: Option<PassSource>,
}

/// A texture that samples an earlier pass's target (the `scene` crate's `PassSource`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassSource {
    /// Index into the top-level scene's `passes`.
    pub pass: usize,
    /// `"attachment"`: `"color"` (the default) or `"depth"` (the pass needs `"depth": true`).
    pub plane: TargetPlane,
    /// `"compare"`: a depth function name (depth only; GL_COMPARE_REF_TO_TEXTURE).
    pub compare: Option<CompareFunc>,
    /// `"mipmaps": true`: the chain is generated from the pass's colour after it is drawn
    /// (`target_generate_mipmaps`; RGBA8 colour only).
    pub mipmaps: bool,
}

/// One pass drawn before the picture (`"passes"`): a one-pass scene object plus its name, its
/// shader files (names in the suite, as the scene file gives them) and its target's format.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub name: String,
    pub vertex: String,
    pub fragment: String,
    /// `"format"`: `"rgba8"` (the default) or `"rgba32f"`.
    pub format: TargetFormat,
    /// The pass's own size, clear, state, draw and textures (its `passes` is empty).
    pub scene: Scene,
}

/// A scene file as Gfx3D draws it (the `scene` crate's model; defaults are GL's).
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: u32,
    pub height: u32,
    pub clear: [f32; 4],
    pub depth: bool,
    pub cull: bool,
    /// `"depth_func"` (LESS by default) and `"depth_mask"` (true), used while `depth` is on.
    pub depth_func: CompareFunc,
    pub depth_mask: bool,
    /// `"polygon_offset"`: glPolygonOffset(factor, units), (0, 0) by default.
    pub polygon_offset: [f32; 2],
    /// (x, y, w, h), GL window coordinates (origin lower-left).
    pub viewport: [i32; 4],
    pub attributes: Vec<SceneAttribute>,
    pub vertex_count: usize,
    pub indices: Option<Vec<u16>>,
    pub uniforms: Vec<(String, Vec<f32>)>,
    pub textures: Vec<(String, SceneTexture)>,
    /// `"passes"` (top level only): drawn in order, each into its own target, before the
    /// picture; a texture with `"pass"` samples one of them.
    pub passes: Vec<Pass>,
}

fn num_f32(v: &Json, path: &str) -> Result<f32, String> {
    match v {
        Json::Number(t) => match t.parse::<f32>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!("{}: {} is not a finite f32", path, t)),
        },
        _ => Err(format!("{}: expected a number", path)),
    }
}

fn num_uint(v: &Json, path: &str, max: u32) -> Result<u32, String> {
    match v {
        Json::Number(t) => match t.parse::<u32>() {
            Ok(x) if x <= max => Ok(x),
            _ => Err(format!(
                "{}: expected a whole number 0..={}, found {}",
                path, max, t
            )),
        },
        _ => Err(format!("{}: expected a number", path)),
    }
}

fn array<'b, 'a>(v: &'b Json<'a>, path: &str) -> Result<&'b [Json<'a>], String> {
    match v {
        Json::Array(a) => Ok(a),
        _ => Err(format!("{}: expected an array", path)),
    }
}

fn floats(v: &Json, path: &str) -> Result<Vec<f32>, String> {
    array(v, path)?.iter().map(|x| num_f32(x, path)).collect()
}

fn boolean(v: Option<&Json>, path: &str) -> Result<bool, String> {
    match v {
        None => Ok(false),
        Some(Json::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("{}: expected true or false", path)),
    }
}

/// At most this many passes before the picture (the `scene` crate's limit).
pub const PASSES_MAX: usize = 8;

/// Scene keys the `scene` crate takes that this reader does not draw: a scene with one is an
/// error here, never drawn without it.
const UNREAD_KEYS: [&str; 6] = [
    "blend",
    "color_mask",
    "scissor",
    "cull_face",
    "front_face",
    "instances",
];

/// The depth function names of scene files (GL's, as `"LEQUAL"`).
const DEPTH_FUNCS: [(&str, CompareFunc); 8] = [
    ("NEVER", CompareFunc::Never),
    ("LESS", CompareFunc::Less),
    ("EQUAL", CompareFunc::Equal),
    ("LEQUAL", CompareFunc::LessEqual),
    ("GREATER", CompareFunc::Greater),
    ("NOTEQUAL", CompareFunc::NotEqual),
    ("GEQUAL", CompareFunc::GreaterEqual),
    ("ALWAYS", CompareFunc::Always),
];

fn depth_func(v: &Json, path: &str) -> Result<CompareFunc, String> {
    DEPTH_FUNCS
        .iter()
        .find(|(n, _)| *v == Json::Str(n))
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            format!(
                "{}: expected a depth function name such as \"LEQUAL\"",
                path
            )
        })
}

/// What a scene object being read may sample: the passes drawn before it.
struct PassContext<'b> {
    earlier: &'b [Pass],
    /// Every pass name of the file (for "drawn after this one" errors).
    all: &'b [&'b str],
    /// The pass being read (None: the picture).
    current: Option<&'b str>,
}

/// `"passes"`: every pass object read in order, each seeing the ones before it.
fn parse_passes(v: &Json) -> Result<Vec<Pass>, String> {
    let list = array(v, "passes")?;
    if list.len() > PASSES_MAX {
        return Err(format!(
            "passes: {} passes is above the limit {}",
            list.len(),
            PASSES_MAX
        ));
    }
    let mut all: Vec<&str> = Vec::new();
    for (i, p) in list.iter().enumerate() {
        match p.get("name") {
            Some(Json::Str(n)) if !n.is_empty() => {
                if all.contains(n) {
                    return Err(format!("passes[{}].name: \"{}\" is given twice", i, n));
                }
                all.push(n);
            }
            _ => return Err(format!("passes[{}]: missing name", i)),
        }
    }
    let mut passes: Vec<Pass> = Vec::new();
    for (i, (p, name)) in list.iter().zip(&all).enumerate() {
        let path = format!("passes[{}]", i);
        if p.get("passes").is_some() {
            return Err(format!("{}.passes: passes do not nest", path));
        }
        let file = |k: &str| match p.get(k) {
            Some(Json::Str(f)) if !f.is_empty() => Ok(f.to_string()),
            _ => Err(format!("{}: missing {} (the pass's shader file)", path, k)),
        };
        let (vertex, fragment) = (file("vertex")?, file("fragment")?);
        let format = match p.get("format") {
            None | Some(Json::Str("rgba8")) => TargetFormat::Rgba8,
            Some(Json::Str("rgba32f")) => TargetFormat::Rgba32F,
            Some(_) => {
                return Err(format!(
                    "{}.format: expected \"rgba8\" or \"rgba32f\"",
                    path
                ))
            }
        };
        let ctx = PassContext {
            earlier: &passes,
            all: &all,
            current: Some(name),
        };
        let scene = Scene::from_object(p, &ctx).map_err(|m| format!("{}.{}", path, m))?;
        passes.push(Pass {
            name: name.to_string(),
            vertex,
            fragment,
            format,
            scene,
        });
    }
    Ok(passes)
}

/// A texture object with `"pass"`: its source and the pass's size.
fn texture_source(
    t: &Json,
    p: &str,
    ctx: &PassContext,
) -> Result<Option<(PassSource, u32, u32)>, String> {
    let Some(v) = t.get("pass") else {
        for k in ["attachment", "compare"] {
            if t.get(k).is_some() {
                return Err(format!(
                    "{}.{}: only a texture with \"pass\" takes this",
                    p, k
                ));
            }
        }
        return Ok(None);
    };
    let Json::Str(name) = v else {
        return Err(format!("{}.pass: expected a pass name", p));
    };
    for k in [
        "width", "height", "rgba8", "cube", "levels", "layers", "ints", "format",
    ] {
        if t.get(k).is_some() {
            return Err(format!(
                "{}.{}: a texture from a pass takes its texels and size from that pass",
                p, k
            ));
        }
    }
    let Some((index, pass)) = ctx
        .earlier
        .iter()
        .enumerate()
        .find(|(_, x)| x.name == *name)
    else {
        let why = if ctx.current == Some(*name) {
            "a pass cannot sample its own target"
        } else if ctx.all.contains(name) {
            "that pass is drawn after this one; a pass samples only earlier passes"
        } else {
            "unknown pass"
        };
        return Err(format!("{}.pass: \"{}\": {}", p, name, why));
    };
    let plane = match t.get("attachment") {
        None | Some(Json::Str("color")) => TargetPlane::Color,
        Some(Json::Str("depth")) => TargetPlane::Depth,
        Some(_) => return Err(format!("{}.attachment: expected \"color\" or \"depth\"", p)),
    };
    if plane == TargetPlane::Depth && !pass.scene.depth {
        return Err(format!(
            "{}.attachment: pass \"{}\" has no depth buffer (\"depth\": true)",
            p, name
        ));
    }
    let compare = match t.get("compare") {
        None => None,
        Some(_) if plane != TargetPlane::Depth => {
            return Err(format!(
                "{}.compare: a compare mode needs \"attachment\": \"depth\"",
                p
            ))
        }
        Some(c) => Some(depth_func(c, &format!("{}.compare", p))?),
    };
    let mipmaps = boolean(t.get("mipmaps"), p)?;
    if mipmaps && (plane != TargetPlane::Color || pass.format != TargetFormat::Rgba8) {
        return Err(format!(
            "{}.mipmaps: mipmaps are generated for an RGBA8 pass's colour only",
            p
        ));
    }
    Ok(Some((
        PassSource {
            pass: index,
            plane,
            compare,
            mipmaps,
        },
        pass.scene.width,
        pass.scene.height,
    )))
}

impl Scene {
    /// Reads a scene file of the suite. Checks what drawing needs (sizes, counts, ranges); the
    /// `scene` crate validates the files fully on the host.
    pub fn parse(text: &str) -> Result<Scene, String> {
        let root = parse_json(text)?;
        if !matches!(root, Json::Object(_)) {
            return Err("the scene is not a JSON object".into());
        }
        let passes = match root.get("passes") {
            None => Vec::new(),
            Some(v) => parse_passes(v)?,
        };
        let names: Vec<&str> = passes.iter().map(|p| p.name.as_str()).collect();
        let ctx = PassContext {
            earlier: &passes,
            all: &names,
            current: None,
        };
        let mut scene = Scene::from_object(&root, &ctx)?;
        scene.passes = passes;
        Ok(scene)
    }

    /// One pass's object (the picture's or one of `"passes"`), its textures resolved in `ctx`.
    fn from_object(root: &Json, ctx: &PassContext) -> Result<Scene, String> {
        for key in UNREAD_KEYS {
            if root.get(key).is_some() {
                return Err(format!(
                    "{}: not drawn by gfx3d::compat (scenes with it stay host-only)",
                    key
                ));
            }
        }
        let size = array(root.get("size").ok_or("size: missing")?, "size")?;
        let [w, h] = size else {
            return Err("size: expected [width, height]".into());
        };
        let width = num_uint(w, "size[0]", PICTURE_SIDE_MAX)?;
        let height = num_uint(h, "size[1]", PICTURE_SIDE_MAX)?;
        if width == 0 || height == 0 {
            return Err("size: width and height must be at least 1".into());
        }
        let clear = match root.get("clear") {
            None => [0.0, 0.0, 0.0, 1.0],
            Some(v) => <[f32; 4]>::try_from(floats(v, "clear")?)
                .map_err(|_| String::from("clear: expected 4 numbers"))?,
        };
        let depth = boolean(root.get("depth"), "depth")?;
        let cull = boolean(root.get("cull"), "cull")?;
        let depth_func = match root.get("depth_func") {
            None => CompareFunc::Less,
            Some(v) => depth_func(v, "depth_func")?,
        };
        let depth_mask = match root.get("depth_mask") {
            None => true,
            v => boolean(v, "depth_mask")?,
        };
        let polygon_offset = match root.get("polygon_offset") {
            None => [0.0, 0.0],
            Some(v) => <[f32; 2]>::try_from(floats(v, "polygon_offset")?)
                .map_err(|_| String::from("polygon_offset: expected [factor, units]"))?,
        };
        let viewport = match root.get("viewport") {
            None => [0, 0, width as i32, height as i32],
            Some(v) => {
                let mut vp = [0i32; 4];
                let a = array(v, "viewport")?;
                if a.len() != 4 {
                    return Err("viewport: expected [x, y, w, h]".into());
                }
                for (slot, x) in vp.iter_mut().zip(a) {
                    *slot = match x {
                        Json::Number(t) => t
                            .parse::<i32>()
                            .ok()
                            .filter(|n| n.unsigned_abs() <= 4096)
                            .ok_or("viewport: expected whole numbers within +-4096")?,
                        _ => return Err("viewport: expected numbers".into()),
                    };
                }
                if vp[2] <= 0 || vp[3] <= 0 {
                    return Err("viewport: width and height must be at least 1".into());
                }
                vp
            }
        };
        let mut attributes: Vec<SceneAttribute> = Vec::new();
        let mut vertex_count = None;
        for (i, a) in array(
            root.get("attributes").ok_or("attributes: missing")?,
            "attributes",
        )?
        .iter()
        .enumerate()
        {
            let p = format!("attributes[{}]", i);
            let location = num_uint(a.get("location").ok_or("location: missing")?, &p, 7)? as u8;
            let components =
                num_uint(a.get("components").ok_or("components: missing")?, &p, 4)? as u8;
            if let Some(d) = a.get("divisor") {
                if num_uint(d, &p, u32::MAX)? != 0 {
                    return Err(format!(
                        "{}: divisor: instanced attributes are not drawn by gfx3d::compat",
                        p
                    ));
                }
            }
            let kind = match a.get("type") {
                None | Some(Json::Str("float")) => ElementKind::F32,
                Some(Json::Str("int")) => ElementKind::I32,
                Some(Json::Str("uint")) => ElementKind::U32,
                Some(_) => return Err(format!("{}: type: expected float, int or uint", p)),
            };
            let dv = a.get("data").ok_or("data: missing")?;
            let data = match kind {
                ElementKind::F32 => floats(dv, &p)?,
                _ => array(dv, &p)?
                    .iter()
                    .map(|x| {
                        let w = match x {
                            Json::Number(t) if kind == ElementKind::I32 => {
                                t.parse::<i32>().ok().map(|n| n as u32)
                            }
                            Json::Number(t) => t.parse::<u32>().ok(),
                            _ => None,
                        };
                        w.map(f32::from_bits).ok_or_else(|| {
                            format!("{}: expected whole numbers of the {} range", p, kind.name())
                        })
                    })
                    .collect::<Result<Vec<f32>, String>>()?,
            };
            if components == 0 || data.is_empty() || data.len() % components as usize != 0 {
                return Err(format!("{}: not a whole number of vertices", p));
            }
            if attributes.iter().any(|x| x.location == location) {
                return Err(format!("{}: location {} is given twice", p, location));
            }
            let n = data.len() / components as usize;
            if *vertex_count.get_or_insert(n) != n || n > 65536 {
                return Err(format!("{}: {} vertices, unlike attributes[0]", p, n));
            }
            attributes.push(SceneAttribute {
                location,
                components,
                data,
                kind,
            });
        }
        let vertex_count = vertex_count.ok_or("attributes: at least one is needed")?;
        let indices = match root.get("indices") {
            None if vertex_count % 3 == 0 => None,
            None => return Err("attributes: not a whole number of triangles".into()),
            Some(v) => {
                let a = array(v, "indices")?;
                if a.is_empty() || a.len() % 3 != 0 {
                    return Err("indices: not a whole number of triangles".into());
                }
                let max = (vertex_count - 1) as u32;
                Some(
                    a.iter()
                        .map(|x| num_uint(x, "indices", max).map(|n| n as u16))
                        .collect::<Result<Vec<u16>, String>>()?,
                )
            }
        };
        let mut uniforms = Vec::new();
        if let Some(Json::Object(fields)) = root.get("uniforms") {
            for (name, v) in fields {
                let p = format!("uniforms.{}", name);
                let vals = match v {
                    Json::Number(_) => vec![num_f32(v, &p)?],
                    _ => floats(v, &p)?,
                };
                if vals.is_empty() || vals.len() > 16 {
                    return Err(format!("{}: expected 1 to 16 floats", p));
                }
                uniforms.push((name.to_string(), vals));
            }
        }
        // The `scene` crate keeps uniforms and textures sorted by name.
        uniforms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut textures = Vec::new();
        if let Some(Json::Object(fields)) = root.get("textures") {
            for (name, t) in fields {
                let p = format!("textures.{}", name);
                let field = |k: &str| t.get(k).ok_or_else(|| format!("{}: missing {}", p, k));
                let source = texture_source(t, &p, ctx)?;
                let (width, height) = match &source {
                    Some((_, w, h)) => (*w, *h),
                    None => (
                        num_uint(field("width")?, &p, PICTURE_SIDE_MAX)?,
                        num_uint(field("height")?, &p, PICTURE_SIDE_MAX)?,
                    ),
                };
                let picture = |v: &Json, what: &str| -> Result<Vec<u32>, String> {
                    let bytes = array(v, &p)?;
                    if width == 0 || height == 0 || bytes.len() != (width * height * 4) as usize {
                        return Err(format!("{}: size and {} disagree", p, what));
                    }
                    let mut texels = Vec::with_capacity(bytes.len() / 4);
                    for px in bytes.chunks_exact(4) {
                        let mut c = [0u8; 4];
                        for (slot, b) in c.iter_mut().zip(px) {
                            *slot = num_uint(b, &p, 255)? as u8;
                        }
                        texels.push(u32::from_be_bytes([c[3], c[0], c[1], c[2]]));
                    }
                    Ok(texels)
                };
                let format = match t.get("format") {
                    None | Some(Json::Str("rgba8")) => TextureFormat::Rgba8,
                    Some(Json::Str("rgba32i")) => TextureFormat::Rgba32I,
                    Some(Json::Str("rgba32ui")) => TextureFormat::Rgba32UI,
                    Some(_) => {
                        return Err(format!(
                            "{}: format: expected rgba8, rgba32i or rgba32ui",
                            p
                        ))
                    }
                };
                // One picture of an integer texture's words (`"ints"`, or a layer).
                let int_words = |v: &Json| -> Result<Vec<u32>, String> {
                    let signed = format == TextureFormat::Rgba32I;
                    let mut ints = Vec::new();
                    for x in array(v, &p)? {
                        let w = match x {
                            Json::Number(n) if signed => n.parse::<i32>().ok().map(|v| v as u32),
                            Json::Number(n) => n.parse::<u32>().ok(),
                            _ => None,
                        };
                        ints.push(w.ok_or_else(|| {
                            format!(
                                "{}: ints: expected whole numbers of the {} range",
                                p,
                                format.name()
                            )
                        })?);
                    }
                    if width == 0 || height == 0 || ints.len() != (width * height * 4) as usize {
                        return Err(format!("{}: size and ints disagree", p));
                    }
                    Ok(ints)
                };
                let mut ints = Vec::new();
                let mut int_layers = Vec::new();
                if format.is_integer() {
                    if let Some(list) = t.get("layers") {
                        for l in array(list, &p)? {
                            int_layers.push(int_words(l)?);
                        }
                        ints = int_layers.first().cloned().unwrap_or_default();
                    } else {
                        ints = int_words(field("ints")?)?;
                    }
                }
                let mut faces = Vec::new();
                let mut layers = Vec::new();
                if let (Some(list), false) = (t.get("layers"), format.is_integer()) {
                    for key in ["rgba8", "cube", "levels"] {
                        if t.get(key).is_some() {
                            return Err(format!(
                                "{}: an array gives its texels as \"layers\" (and \"mipmaps\"), not \"{}\"",
                                p, key
                            ));
                        }
                    }
                    for l in array(list, &p)? {
                        layers.push(picture(l, "layer")?);
                    }
                }
                let texels = match t.get("cube") {
                    _ if format.is_integer() || source.is_some() => Vec::new(),
                    _ if !layers.is_empty() => layers.first().cloned().unwrap_or_default(),
                    Some(cube) => {
                        if t.get("rgba8").is_some() || t.get("levels").is_some() {
                            return Err(format!(
                                "{}: a cube gives 6 faces (and \"mipmaps\"), not rgba8 or levels",
                                p
                            ));
                        }
                        if width != height {
                            return Err(format!("{}: cube faces must be square", p));
                        }
                        let list = array(cube, &p)?;
                        if list.len() != 6 {
                            return Err(format!("{}: a cube has 6 faces", p));
                        }
                        for f in list {
                            faces.push(picture(f, "cube face")?);
                        }
                        faces.remove(0)
                    }
                    None => picture(field("rgba8")?, "rgba8")?,
                };
                let filter_of = |k: &str, d: Filter| match t.get(k) {
                    None => Ok(d),
                    Some(Json::Str("nearest")) => Ok(Filter::Nearest),
                    Some(Json::Str("linear")) => Ok(Filter::Linear),
                    _ => Err(format!("{}: unknown {}", p, k)),
                };
                let filter = filter_of("filter", Filter::Nearest)?;
                let filter = filter_of("mag_filter", filter)?;
                let (min_filter, mip) = match t.get("min_filter") {
                    None => (filter, MipFilter::None),
                    Some(Json::Str(n)) => match *n {
                        "nearest" => (Filter::Nearest, MipFilter::None),
                        "linear" => (Filter::Linear, MipFilter::None),
                        "nearest_mipmap_nearest" => (Filter::Nearest, MipFilter::Nearest),
                        "linear_mipmap_nearest" => (Filter::Linear, MipFilter::Nearest),
                        "nearest_mipmap_linear" => (Filter::Nearest, MipFilter::Linear),
                        "linear_mipmap_linear" => (Filter::Linear, MipFilter::Linear),
                        _ => return Err(format!("{}: unknown min_filter", p)),
                    },
                    _ => return Err(format!("{}: unknown min_filter", p)),
                };
                let wrap_of = |k: &str, d: Wrap| match t.get(k) {
                    None => Ok(d),
                    Some(Json::Str("repeat")) => Ok(Wrap::Repeat),
                    Some(Json::Str("clamp" | "clamp_to_edge")) => Ok(Wrap::ClampToEdge),
                    Some(Json::Str("mirrored_repeat")) => Ok(Wrap::MirroredRepeat),
                    _ => Err(format!("{}: unknown {}", p, k)),
                };
                let wrap = wrap_of("wrap", Wrap::Repeat)?;
                let wrap_t = wrap_of("wrap_t", wrap)?;
                let wrap = wrap_of("wrap_s", wrap)?;
                let lod = |k: &str, d: f32| match t.get(k) {
                    None => Ok(d),
                    Some(v) => num_f32(v, &p),
                };
                let sampler = SamplerState {
                    min_filter: Some(min_filter),
                    mip,
                    wrap_t: Some(wrap_t),
                    lod_bias: lod("lod_bias", 0.0)?,
                    min_lod: lod("min_lod", -1000.0)?,
                    max_lod: lod("max_lod", 1000.0)?,
                    compare: source.as_ref().and_then(|(src, _, _)| src.compare),
                    ..SamplerState::new(filter, wrap)
                };
                let mut levels = Vec::new();
                let mipmaps = boolean(t.get("mipmaps"), &p)?;
                if mipmaps && source.is_none() {
                    levels = crate::texture::box_chain(width, height, &texels);
                }
                // A cube's chains are built by `tex_generate_mipmaps` (the same box filter).
                if let Some(v) = t.get("levels") {
                    for (i, l) in array(v, &p)?.iter().enumerate() {
                        let s = (i as u32 + 1).min(31);
                        let n = (width >> s).max(1) as usize * (height >> s).max(1) as usize;
                        let bytes = array(l, &p)?;
                        if bytes.len() != n * 4 {
                            return Err(format!("{}: level {} has the wrong size", p, i + 1));
                        }
                        let mut level = Vec::with_capacity(n);
                        for px in bytes.chunks_exact(4) {
                            let mut c = [0u8; 4];
                            for (slot, b) in c.iter_mut().zip(px) {
                                *slot = num_uint(b, &p, 255)? as u8;
                            }
                            level.push(u32::from_be_bytes([c[3], c[0], c[1], c[2]]));
                        }
                        levels.push(level);
                    }
                }
                textures.push((
                    name.to_string(),
                    SceneTexture {
                        width,
                        height,
                        texels,
                        levels,
                        sampler,
                        faces,
                        format,
                        ints,
                        layers,
                        source: source.map(|(src, _, _)| PassSource { mipmaps, ..src }),
                        int_layers,
                    },
                ));
            }
        }
        textures.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Scene {
            width,
            height,
            clear,
            depth,
            cull,
            depth_func,
            depth_mask,
            polygon_offset,
            viewport,
            attributes,
            vertex_count,
            indices,
            uniforms,
            textures,
            passes: Vec::new(),
        })
    }
}

/// One pair of `corpus.txt`: file names inside the suite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair<'a> {
    pub scene: &'a str,
    pub vert: &'a str,
    pub frag: &'a str,
}

fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

impl Pair<'_> {
    /// `FRAG@SCENE` (file stems), the suite's name of the pair.
    pub fn name(&self) -> String {
        format!("{}@{}", stem(self.frag), stem(self.scene))
    }

    /// The batch the pair runs in: its scene's stem.
    pub fn batch(&self) -> &str {
        stem(self.scene)
    }
}

/// The multi-pass scenes of the differential corpus (`tools/shc/tests/diff/mp_*.json`, which
/// `shc render` matches with Mesa) with their pairs' shaders: one batch each.
pub const PASS_PAIRS: &[Pair<'static>] = &[
    Pair {
        scene: "mp_post.json",
        vert: "fullscreen.vert",
        frag: "mp_post.frag",
    },
    Pair {
        scene: "mp_hdr.json",
        vert: "fullscreen.vert",
        frag: "mp_hdr.frag",
    },
    Pair {
        scene: "mp_shadow.json",
        vert: "mp_shadow.vert",
        frag: "mp_shadow.frag",
    },
    Pair {
        scene: "mp_mips.json",
        vert: "textured.vert",
        frag: "mp_mips.frag",
    },
];

/// The suite: its files by name, its pairs and the names of its known gaps.
pub struct Suite<'a> {
    files: &'a [(&'a str, &'a str)],
    pub pairs: Vec<Pair<'a>>,
    pub gaps: Vec<&'a str>,
}

impl<'a> Suite<'a> {
    /// Reads `corpus.txt` and `known-gaps.txt` from `files` (name, text).
    pub fn new(files: &'a [(&'a str, &'a str)]) -> Result<Suite<'a>, String> {
        let mut s = Suite {
            files,
            pairs: Vec::new(),
            gaps: Vec::new(),
        };
        for line in s.file("corpus.txt")?.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut w = line.split_whitespace();
            match (w.next(), w.next(), w.next(), w.next()) {
                (Some(scene), Some(vert), Some(frag), None) => {
                    s.pairs.push(Pair { scene, vert, frag })
                }
                _ => return Err(format!("corpus.txt: expected 'SCENE VERT FRAG': {}", line)),
            }
        }
        for line in s.file("known-gaps.txt")?.lines() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                if let Some(name) = line.split_whitespace().next() {
                    s.gaps.push(name);
                }
            }
        }
        Ok(s)
    }

    /// The multi-pass scenes of the differential corpus ([`PASS_PAIRS`]; `files`: the files
    /// of `tools/shc/tests/diff`, as for [`Suite::new`]), without known gaps.
    pub fn passes(files: &'a [(&'a str, &'a str)]) -> Suite<'a> {
        Suite {
            files,
            pairs: PASS_PAIRS.to_vec(),
            gaps: Vec::new(),
        }
    }

    /// A file of the suite by name.
    pub fn file(&self, name: &str) -> Result<&'a str, String> {
        self.files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("the suite has no file {}", name))
    }

    /// The batches (scene stems) in corpus order, each once.
    pub fn batches(&self) -> Vec<&'a str> {
        let mut b: Vec<&'a str> = Vec::new();
        for p in &self.pairs {
            let s = stem(p.scene);
            if !b.contains(&s) {
                b.push(s);
            }
        }
        b
    }

    pub fn is_gap(&self, pair: &Pair) -> bool {
        let name = pair.name();
        self.gaps.iter().any(|g| *g == name)
    }
}

/// The outcome of one batch: pair names that agreed, pairs that failed (name, why), and the
/// number of known gaps skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BatchReport {
    pub passed: Vec<String>,
    pub failed: Vec<(String, String)>,
    pub gaps: usize,
}

/// Draws `pair` with `scene` on `g` for `owner` (profile 2); the owner's objects are dropped
/// afterwards. Returns the picture (`scene.width` x `scene.height`, 0xAARRGGBB). A scene with
/// `"passes"` needs [`render_scene`] (its passes' shader files).
pub fn render_pair(
    g: &mut Gfx3d<Linked>,
    owner: u32,
    name: &str,
    vs: &str,
    fs: &str,
    scene: &Scene,
) -> Result<Vec<u32>, String> {
    render_scene(g, owner, name, (vs, fs), scene, &[])
}

/// [`render_pair`] for any scene: its passes first, in order, each into its own target
/// (`target_create_format`) with its shaders from `files` (name, text), then the picture with
/// `vs`/`fs` into an RGBA8 target; a texture with `"pass"` is that pass's target
/// (`bind_target_texture`, colour or depth, its mips generated when asked).
pub fn render_scene(
    g: &mut Gfx3d<Linked>,
    owner: u32,
    name: &str,
    (vs, fs): (&str, &str),
    scene: &Scene,
    files: &[(&str, &str)],
) -> Result<Vec<u32>, String> {
    let r = render_inner(g, owner, name, (vs, fs), scene, files);
    g.drop_owner(owner);
    r
}

fn render_inner(
    g: &mut Gfx3d<Linked>,
    o: u32,
    name: &str,
    (vs, fs): (&str, &str),
    scene: &Scene,
    files: &[(&str, &str)],
) -> Result<Vec<u32>, String> {
    let c = g.context_create(o).map_err(|e| format!("context: {}", e))?;
    let file = |f: &str| {
        files
            .iter()
            .find(|(n, _)| *n == f)
            .map(|(_, t)| *t)
            .ok_or_else(|| format!("the suite has no file {}", f))
    };
    let mut targets = Vec::new();
    for pass in &scene.passes {
        let r = (|| {
            let t = g
                .target_create_format(o, c, pass.scene.width, pass.scene.height, pass.format)
                .map_err(|e| format!("target: {}", e))?;
            let shaders = (file(&pass.vertex)?, file(&pass.fragment)?);
            let pname = format!("{}/{}", name, pass.name);
            draw_into(g, o, c, t, &pname, shaders, &pass.scene, &targets)?;
            Ok::<TargetId, String>(t)
        })();
        targets.push(r.map_err(|m| format!("pass {}: {}", pass.name, m))?);
    }
    let t = g
        .target_create(o, c, scene.width, scene.height)
        .map_err(|e| format!("target: {}", e))?;
    draw_into(g, o, c, t, name, (vs, fs), scene, &targets)?;
    let mut px = vec![0u32; (scene.width * scene.height) as usize];
    g.target_read(o, t, &mut px)
        .map_err(|e| format!("read: {}", e))?;
    Ok(px)
}

/// What a sampler unit is bound to.
enum Bound {
    Texture(TextureId),
    Target(TargetId, TargetPlane, SamplerState),
}

/// Draws one scene object (the picture or a pass) into `t`; `targets` are the earlier passes'.
#[allow(clippy::too_many_arguments)]
fn draw_into(
    g: &mut Gfx3d<Linked>,
    o: u32,
    c: ContextId,
    t: TargetId,
    name: &str,
    (vs, fs): (&str, &str),
    scene: &Scene,
    targets: &[TargetId],
) -> Result<(), String> {
    let e = |what: &str| {
        let what = String::from(what);
        move |err: crate::Error| format!("{}: {}", what, err)
    };
    let opts = CompileOptions::profile(Profile::P2);
    let prog =
        Linked::from_glsl_with(g.compiler(), vs, fs, name, &opts).map_err(|b| b.to_string())?;
    // Reflection before the program moves into Gfx3D: sampler units, mat3 uniforms.
    let samplers: Vec<(String, u32)> = prog
        .program()
        .samplers()
        .iter()
        .map(|s| (String::from(s.name.as_str()), s.unit as u32))
        .collect();
    let mut uniforms: Vec<(&str, Vec<f32>)> = Vec::new();
    for (uname, vals) in &scene.uniforms {
        let p = prog.program();
        // A whole uniform array is given by its name (reflected per element as `name[0]`...).
        let whole = format!("{}[0]", uname);
        let Some(i) = p.uniform_find(uname).or_else(|| p.uniform_find(&whole)) else {
            if samplers.iter().any(|(s, _)| s == uname) {
                return Err(format!(
                    "uniform {} is a sampler2D: give it under \"textures\"",
                    uname
                ));
            }
            continue;
        };
        let mat3 = p.uniforms().get(i).map(|u| u.ty) == Some(shader::Type::Mat3);
        let v = if mat3 && vals.len() == 12 {
            vals.chunks_exact(4)
                .flat_map(|c| c.iter().take(3).copied())
                .collect()
        } else {
            vals.clone()
        };
        uniforms.push((uname, v));
    }
    let p = g.prog_prepare(o, c, prog).map_err(e("prog_prepare"))?;

    let stride: u32 = scene.attributes.iter().map(|a| a.components as u32).sum();
    let mut els = Vec::new();
    let mut offset = 0u32;
    for a in &scene.attributes {
        els.push(Element {
            location: a.location,
            components: a.components,
            offset: offset * 4,
        });
        offset += a.components as u32;
    }
    let mut layout = VertexLayout::new(stride * 4, &els).map_err(|l| format!("layout: {:?}", l))?;
    for a in &scene.attributes {
        layout = layout
            .with_kind(a.location, a.kind)
            .map_err(|l| format!("layout: {:?}", l))?;
    }
    let mut data = Vec::with_capacity(stride as usize * scene.vertex_count);
    for v in 0..scene.vertex_count {
        for a in &scene.attributes {
            let n = a.components as usize;
            data.extend_from_slice(a.data.get(v * n..v * n + n).unwrap_or(&[]));
        }
    }
    let m = g.mesh_create(o, Usage::Static).map_err(e("mesh"))?;
    g.mesh_upload_f32(o, m, &layout, &data, scene.indices.as_deref())
        .map_err(e("mesh upload"))?;

    let mut bound = Vec::new();
    for (sname, unit) in &samplers {
        let Some((_, tex)) = scene.textures.iter().find(|(n, _)| n == sname) else {
            return Err(format!(
                "the shaders sample {} but the scene has no texture of that name",
                sname
            ));
        };
        if bound.iter().any(|(u, _)| u == unit) {
            continue;
        }
        if let Some(src) = &tex.source {
            let tid = *targets
                .get(src.pass)
                .ok_or_else(|| format!("texture {}: no pass {}", sname, src.pass))?;
            if src.mipmaps {
                g.target_generate_mipmaps(o, tid)
                    .map_err(e("pass mipmaps"))?;
            }
            bound.push((*unit, Bound::Target(tid, src.plane, tex.sampler)));
            continue;
        }
        let id = if !tex.int_layers.is_empty() {
            let id = g
                .tex_create_array_format(
                    o,
                    tex.width,
                    tex.height,
                    tex.int_layers.len() as u32,
                    tex.format,
                )
                .map_err(e("integer array texture"))?;
            for (z, words) in tex.int_layers.iter().enumerate() {
                g.tex_upload_layer_ints(o, id, z as u32, words)
                    .map_err(e("integer array layer upload"))?;
            }
            id
        } else if tex.format.is_integer() {
            let id = g
                .tex_create_format(o, tex.width, tex.height, tex.format)
                .map_err(e("integer texture"))?;
            g.tex_upload_ints(o, id, &tex.ints)
                .map_err(e("integer texture upload"))?;
            id
        } else if !tex.layers.is_empty() {
            let id = g
                .tex_create_array(o, tex.width, tex.height, tex.layers.len() as u32)
                .map_err(e("array texture"))?;
            for (z, texels) in tex.layers.iter().enumerate() {
                g.tex_upload_layer(o, id, z as u32, texels)
                    .map_err(e("array layer upload"))?;
            }
            // `"mipmaps"`: every layer's box chain.
            if !tex.levels.is_empty() {
                g.tex_generate_mipmaps(o, id).map_err(e("array mipmaps"))?;
            }
            id
        } else if tex.faces.is_empty() {
            let id = g
                .tex_create(o, tex.width, tex.height)
                .map_err(e("texture"))?;
            g.tex_upload(o, id, &tex.texels)
                .map_err(e("texture upload"))?;
            id
        } else {
            let id = g
                .tex_create_cube(o, tex.width, tex.height)
                .map_err(e("cube texture"))?;
            let all = core::iter::once(&tex.texels).chain(tex.faces.iter());
            for (f, texels) in all.enumerate() {
                g.tex_upload_face(o, id, f as u32, texels)
                    .map_err(e("cube face upload"))?;
            }
            if !tex.levels.is_empty() {
                g.tex_generate_mipmaps(o, id).map_err(e("cube mipmaps"))?;
            }
            id
        };
        g.tex_sampler(o, id, tex.sampler).map_err(e("sampler"))?;
        if !tex.levels.is_empty() && tex.faces.is_empty() && tex.layers.is_empty() {
            let refs: Vec<&[u32]> = tex.levels.iter().map(|l| l.as_slice()).collect();
            g.tex_levels(o, id, &refs).map_err(e("texture levels"))?;
        }
        bound.push((*unit, Bound::Texture(id)));
    }

    g.begin(o, c, t).map_err(e("begin"))?;
    g.clear(o, c, scene.clear, true).map_err(e("clear"))?;
    let [x, y, w, h] = scene.viewport;
    g.viewport(o, c, x, y, w as u32, h as u32)
        .map_err(e("viewport"))?;
    let depth = DepthDesc {
        test: scene.depth,
        func: scene.depth_func,
        write: scene.depth_mask,
        clear: 1.0,
    };
    g.set_depth(o, c, depth).map_err(e("depth"))?;
    g.cull_back(o, c, scene.cull).map_err(e("cull"))?;
    let [factor, units] = scene.polygon_offset;
    let offset = factor != 0.0 || units != 0.0;
    if offset {
        g.set_polygon_offset(o, c, factor, units)
            .map_err(e("polygon offset"))?;
    }
    g.use_program(o, c, p).map_err(e("use_program"))?;
    for (uname, v) in &uniforms {
        g.uniform_f(o, c, uname, v)
            .map_err(|err| format!("uniform {}: {}", uname, err))?;
    }
    for (unit, b) in &bound {
        match b {
            Bound::Texture(id) => g.bind_texture(o, c, *unit, Some(*id)),
            Bound::Target(tid, plane, smp) => {
                g.bind_target_texture(o, c, *unit, *tid, *plane, *smp)
            }
        }
        .map_err(e("bind_texture"))?;
    }
    g.draw(o, c, m).map_err(e("draw"))?;
    g.end(o, c).map_err(e("end"))?;
    // The context draws the later passes: this draw's units and offset do not carry over.
    for (unit, _) in &bound {
        g.bind_texture(o, c, *unit, None).map_err(e("unbind"))?;
    }
    if offset {
        g.set_polygon_offset(o, c, 0.0, 0.0)
            .map_err(e("polygon offset"))?;
    }
    Ok(())
}

/// Runs batch `batch` (a scene stem): every pair of that scene that is not a known gap is drawn
/// by `reference` (software) and `other` (VirGL) and compared. A pair fails when either side
/// fails to build or draw, when the reference picture is one flat colour, or when the pictures
/// differ by more than the rule allows.
pub fn run_batch(
    suite: &Suite,
    batch: &str,
    reference: &mut Gfx3d<Linked>,
    other: &mut Gfx3d<Linked>,
    owner: u32,
) -> Result<BatchReport, String> {
    let mut report = BatchReport::default();
    let mut scene: Option<Scene> = None;
    for pair in suite.pairs.iter().filter(|p| p.batch() == batch) {
        if suite.is_gap(pair) {
            report.gaps += 1;
            continue;
        }
        if scene.is_none() {
            let text = suite.file(pair.scene)?;
            scene = Some(Scene::parse(text).map_err(|m| format!("{}: {}", pair.scene, m))?);
        }
        let Some(sc) = scene.as_ref() else { continue };
        let name = pair.name();
        let r = (|| -> Result<(), String> {
            let vs = suite.file(pair.vert)?;
            let fs = suite.file(pair.frag)?;
            let a = render_scene(reference, owner, &name, (vs, fs), sc, suite.files)
                .map_err(|m| format!("{}: {}", reference.backend_name(), m))?;
            let b = render_scene(other, owner, &name, (vs, fs), sc, suite.files)
                .map_err(|m| format!("{}: {}", other.backend_name(), m))?;
            let first = a.first().copied().unwrap_or(0);
            if a.iter().all(|&p| p == first) {
                return Err(format!(
                    "the software picture is one flat colour {:08x}",
                    first
                ));
            }
            let c = compare::compare(&a, &b, sc.width, sc.height);
            if !c.agrees() {
                let mut m = format!(
                    "{} and {} differ: {} of {} pixels ({} off edges)",
                    reference.backend_name(),
                    other.backend_name(),
                    c.differing,
                    c.pixels,
                    c.off_edge
                );
                if let Some((x, y, r, o)) = c.first_off_edge {
                    m.push_str(&format!(
                        "; first off-edge at ({}, {}): {:08x} vs {:08x}",
                        x, y, r, o
                    ));
                }
                return Err(m);
            }
            Ok(())
        })();
        match r {
            Ok(()) => report.passed.push(name),
            Err(m) => report.failed.push((name, m)),
        }
    }
    Ok(report)
}
