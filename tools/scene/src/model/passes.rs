//! Multi-pass scenes: the optional top-level `"passes"` list of earlier passes, each drawn into
//! its own target, and the texture source that samples an earlier pass's colour or depth.
//!
//! A pass is a one-pass scene object (every key a scene takes, with the same meaning) plus
//! `"name"`, `"vertex"` and `"fragment"` (its shader files, relative to the scene file) and
//! `"format"` (`"rgba8"`, the default, or `"rgba32f"`). Passes are drawn in list order; the
//! top-level scene is drawn last with the pair's shaders and is the picture. A texture
//! `{"unit": 0, "pass": "shadow", "attachment": "depth", "compare": "LEQUAL"}` samples what an
//! earlier pass left in its target (`"attachment"`: `"color"`, the default, or `"depth"`, which
//! needs `"depth": true` on that pass; `"compare"`: a depth function name, depth only), with the
//! filters, wrap modes and LOD fields of any texture; its size is the pass's.
//!
//! Orientation: a target's texture rows are GL's, row 0 = window row 0 = the bottom of the
//! pass's picture = t 0. Renderers whose targets store the top row first (the software path)
//! flip the rows when a target becomes a texture.
//!
//! Owns: those rules and their validation. Must never: accept a pass that samples itself, a
//! later pass or an unknown one, a nested `"passes"`, or two passes of one name.

use super::{
    as_array, as_bool, as_object, err, gl_name, Map, Scene, SceneError, Value, DEPTH_FUNCS,
};

/// At most this many passes before the picture.
pub const PASSES_MAX: usize = 8;

/// The keys a pass takes besides a scene's.
const PASS_KEYS: &[&str] = &["name", "vertex", "fragment", "format"];

/// A pass target's colour format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorFormat {
    Rgba8,
    Rgba32f,
}

/// Which of a pass target's buffers a texture samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attachment {
    Color,
    Depth,
}

/// One pass drawn before the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub name: String,
    /// Shader file paths (relative to the scene file as written; [`Scene::load`] joins them to
    /// the scene file's directory).
    pub vertex: String,
    pub fragment: String,
    pub format: ColorFormat,
    /// The pass's own target size, clear, state, draw and textures (its `passes` is empty).
    pub scene: Scene,
}

/// A texture whose texels are an earlier pass's target.
#[derive(Clone, Debug, PartialEq)]
pub struct PassSource {
    /// Index into the top-level scene's `passes`.
    pub pass: usize,
    pub attachment: Attachment,
    /// GL depth function of the compare mode (GL_COMPARE_REF_TO_TEXTURE); None: no compare.
    pub compare: Option<u32>,
    pub format: ColorFormat,
    /// `"mipmaps": true`: the level chain is generated from the pass's colour after it is
    /// drawn (GL's glGenerateMipmap; the software path's [`super::box_chain`]). RGBA8 colour
    /// only.
    pub mipmaps: bool,
}

/// What a scene object being parsed may refer to.
pub(super) struct PassContext<'a> {
    /// The passes drawn before this one (all of them for the picture).
    pub earlier: &'a [Pass],
    /// Every pass name of the file (for "not drawn before" errors).
    pub all: &'a [String],
    /// The pass being parsed (None: the top-level picture).
    pub current: Option<&'a str>,
}

/// Parse `"passes"` (top level only).
pub(super) fn parse_passes(v: &Value) -> Result<Vec<Pass>, SceneError> {
    let list = as_array(v, "passes")?;
    if list.len() > PASSES_MAX {
        return err(
            "passes",
            format!("{} passes is above the limit {}", list.len(), PASSES_MAX),
        );
    }
    // Names first, so a reference to a later pass gets its own message.
    let mut all: Vec<String> = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let path = format!("passes[{}]", i);
        let o = as_object(p, &path)?;
        let name = match o.get("name").map(|n| (n, n.as_str())) {
            Some((_, Some(s))) if !s.is_empty() => s.to_string(),
            Some((n, _)) => {
                return err(
                    &format!("{}.name", path),
                    format!("expected a non-empty string, found {}", n),
                )
            }
            None => return err(&path, "missing name"),
        };
        if all.contains(&name) {
            return err(
                &format!("{}.name", path),
                format!("pass name \"{}\" is given twice", name),
            );
        }
        all.push(name);
    }
    let mut passes: Vec<Pass> = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let path = format!("passes[{}]", i);
        let o = as_object(p, &path)?;
        if o.contains_key("passes") {
            return err(
                &format!("{}.passes", path),
                "passes do not nest; list every pass at the top level",
            );
        }
        let string = |k: &str| match o.get(k).map(|n| (n, n.as_str())) {
            Some((_, Some(s))) if !s.is_empty() => Ok(s.to_string()),
            Some((n, _)) => err(
                &format!("{}.{}", path, k),
                format!("expected a file name, found {}", n),
            ),
            None => err(&path, format!("missing {} (the pass's shader file)", k)),
        };
        let (vertex, fragment) = (string("vertex")?, string("fragment")?);
        let format = match o.get("format").map(|n| (n, n.as_str())) {
            None | Some((_, Some("rgba8"))) => ColorFormat::Rgba8,
            Some((_, Some("rgba32f"))) => ColorFormat::Rgba32f,
            Some((n, _)) => {
                return err(
                    &format!("{}.format", path),
                    format!("expected \"rgba8\" or \"rgba32f\", found {}", n),
                )
            }
        };
        let mut rest: Map<String, Value> = Map::new();
        for (k, v) in o {
            if !PASS_KEYS.contains(&k.as_str()) {
                rest.insert(k.clone(), v.clone());
            }
        }
        let name = all.get(i).cloned().unwrap_or_default();
        let ctx = PassContext {
            earlier: &passes,
            all: &all,
            current: Some(&name),
        };
        let scene = Scene::from_object(&rest, &ctx).map_err(|e| SceneError {
            path: if e.path.is_empty() {
                path.clone()
            } else {
                format!("{}.{}", path, e.path)
            },
            message: e.message,
        })?;
        passes.push(Pass {
            name,
            vertex,
            fragment,
            format,
            scene,
        });
    }
    Ok(passes)
}

/// The keys of a texture that a pass source replaces.
const PIXEL_KEYS: &[&str] = &["width", "height", "rgba8", "cube", "levels"];

/// A texture object with `"pass"`: its source and size.
pub(super) fn texture_source(
    to: &Map<String, Value>,
    p: &str,
    ctx: &PassContext,
) -> Result<Option<(PassSource, u32, u32)>, SceneError> {
    let Some(v) = to.get("pass") else {
        for k in ["attachment", "compare"] {
            if to.contains_key(k) {
                return err(
                    &format!("{}.{}", p, k),
                    "only a texture with \"pass\" takes this",
                );
            }
        }
        return Ok(None);
    };
    let pp = format!("{}.pass", p);
    let Some(name) = v.as_str() else {
        return err(&pp, format!("expected a pass name, found {}", v));
    };
    if let Some(k) = PIXEL_KEYS.iter().find(|k| to.contains_key(**k)) {
        return err(
            &format!("{}.{}", p, k),
            "a texture from a pass takes its texels and size from that pass",
        );
    }
    let Some(index) = ctx.earlier.iter().position(|x| x.name == name) else {
        let message = if ctx.current == Some(name) {
            format!("pass \"{}\" cannot sample its own target", name)
        } else if ctx.all.iter().any(|x| x == name) {
            format!(
                "pass \"{}\" is drawn after this one; a pass samples only earlier passes",
                name
            )
        } else {
            let known: Vec<String> = ctx
                .earlier
                .iter()
                .map(|x| format!("\"{}\"", x.name))
                .collect();
            format!(
                "unknown pass \"{}\"; passes drawn before this one: {}",
                name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        };
        return err(&pp, message);
    };
    let pass = &ctx.earlier[index.min(ctx.earlier.len().saturating_sub(1))];
    let attachment = match to.get("attachment").map(|a| (a, a.as_str())) {
        None | Some((_, Some("color"))) => Attachment::Color,
        Some((_, Some("depth"))) => Attachment::Depth,
        Some((a, _)) => {
            return err(
                &format!("{}.attachment", p),
                format!("expected \"color\" or \"depth\", found {}", a),
            )
        }
    };
    if attachment == Attachment::Depth && !pass.scene.depth {
        return err(
            &format!("{}.attachment", p),
            format!("pass \"{}\" has no depth buffer (\"depth\": true)", name),
        );
    }
    let compare = match to.get("compare") {
        None => None,
        Some(_) if attachment != Attachment::Depth => {
            return err(
                &format!("{}.compare", p),
                "a compare mode needs \"attachment\": \"depth\"",
            )
        }
        Some(c) => Some(gl_name(c, &format!("{}.compare", p), DEPTH_FUNCS)?),
    };
    let mp = format!("{}.mipmaps", p);
    let mipmaps = match to.get("mipmaps") {
        None => false,
        Some(m) => as_bool(m, &mp)?,
    };
    if mipmaps && (attachment != Attachment::Color || pass.format != ColorFormat::Rgba8) {
        return err(&mp, "mipmaps are generated for an RGBA8 pass's colour only");
    }
    Ok(Some((
        PassSource {
            pass: index,
            attachment,
            compare,
            format: pass.format,
            mipmaps,
        },
        pass.scene.width,
        pass.scene.height,
    )))
}

#[cfg(test)]
mod tests {
    use super::super::*;

    const TRI: &str =
        r#""attributes": [{"location": 0, "components": 2, "data": [0,0, 1,0, 0,1]}]"#;

    fn scene(passes: &str, textures: &str) -> Result<Scene, SceneError> {
        Scene::parse(&format!(
            r#"{{"size": [4, 4], {}, "passes": [{}], "textures": {{{}}}}}"#,
            TRI, passes, textures
        ))
    }

    fn pass(name: &str, extra: &str) -> String {
        format!(
            r#"{{"name": "{}", "vertex": "a.vert", "fragment": "a.frag", "size": [8, 2], {} {}}}"#,
            name, TRI, extra
        )
    }

    #[test]
    fn one_pass_scene_has_no_passes() {
        let s = Scene::parse(&format!(r#"{{"size": [4, 4], {}}}"#, TRI)).unwrap();
        assert!(s.passes.is_empty());
    }

    #[test]
    fn passes_and_sources_parse() {
        let s = scene(
            &format!(
                "{}, {}",
                pass("shadow", r#", "depth": true, "polygon_offset": [1, 1]"#),
                pass(
                    "hdr",
                    r#", "format": "rgba32f", "textures": {"sm": {"unit": 1, "pass": "shadow", "attachment": "depth", "compare": "LEQUAL", "filter": "linear"}}"#
                )
            ),
            r#""img": {"unit": 0, "pass": "hdr", "filter": "linear", "wrap": "clamp"}"#,
        )
        .unwrap();
        assert_eq!(s.passes.len(), 2);
        assert_eq!(s.passes[0].name, "shadow");
        assert_eq!(s.passes[0].scene.pipeline.polygon_offset, [1.0, 1.0]);
        assert_eq!(s.passes[1].format, ColorFormat::Rgba32f);
        let (_, sm) = &s.passes[1].scene.textures[0];
        let src = sm.source.as_ref().unwrap();
        assert_eq!(
            (src.pass, src.attachment, src.compare),
            (0, Attachment::Depth, Some(0x203))
        );
        assert_eq!((sm.width, sm.height), (8, 2));
        let (_, img) = &s.textures[0];
        let src = img.source.as_ref().unwrap();
        assert_eq!(
            (src.pass, src.attachment, src.format),
            (1, Attachment::Color, ColorFormat::Rgba32f)
        );
        assert!(img.rgba8.is_empty());
    }

    fn error(passes: &str, textures: &str) -> String {
        let e = scene(passes, textures).unwrap_err();
        format!("{}: {}", e.path, e.message)
    }

    #[test]
    fn bad_references_are_clear_errors() {
        let e = error(&pass("a", ""), r#""t": {"unit": 0, "pass": "b"}"#);
        assert!(
            e.contains("textures.t.pass")
                && e.contains("unknown pass \"b\"")
                && e.contains("\"a\""),
            "{}",
            e
        );
        let e = error(
            &pass("a", r#", "textures": {"t": {"unit": 0, "pass": "a"}}"#),
            "",
        );
        assert!(
            e.contains("passes[0].textures.t.pass") && e.contains("its own target"),
            "{}",
            e
        );
        let e = error(
            &format!(
                "{}, {}",
                pass("a", r#", "textures": {"t": {"unit": 0, "pass": "b"}}"#),
                pass("b", "")
            ),
            "",
        );
        assert!(e.contains("drawn after this one"), "{}", e);
        let e = error(
            &pass("a", ""),
            r#""t": {"unit": 0, "pass": "a", "attachment": "depth"}"#,
        );
        assert!(e.contains("no depth buffer"), "{}", e);
        let e = error(
            &pass("a", ""),
            r#""t": {"unit": 0, "pass": "a", "compare": "LESS"}"#,
        );
        assert!(e.contains("needs \"attachment\": \"depth\""), "{}", e);
        let e = error(
            &pass("a", ""),
            r#""t": {"unit": 0, "pass": "a", "width": 8}"#,
        );
        assert!(
            e.contains("textures.t.width") && e.contains("from that pass"),
            "{}",
            e
        );
        let e = error(
            &pass("a", ""),
            r#""t": {"unit": 0, "compare": "LESS", "width": 1, "height": 1, "rgba8": [0,0,0,0]}"#,
        );
        assert!(e.contains("only a texture with \"pass\""), "{}", e);
        let e = error(&format!("{}, {}", pass("a", ""), pass("a", "")), "");
        assert!(e.contains("passes[1].name") && e.contains("twice"), "{}", e);
        let e = error(&pass("a", r#", "format": "rgba16f""#), "");
        assert!(e.contains("passes[0].format"), "{}", e);
        let e = error(&pass("a", r#", "passes": []"#), "");
        assert!(e.contains("do not nest"), "{}", e);
        let e = error(
            &pass("a", r#", "size": [5000, 1]"#).replacen(r#""size": [8, 2], "#, "", 1),
            "",
        );
        assert!(e.contains("passes[0].size[0]"), "{}", e);
        let e = error(r#"{"vertex": "a.vert", "fragment": "a.frag"}"#, "");
        assert!(e.contains("missing name"), "{}", e);
        let e = error(r#"{"name": "x", "fragment": "a.frag"}"#, "");
        assert!(e.contains("missing vertex"), "{}", e);
        let many: Vec<String> = (0..9).map(|i| pass(&format!("p{}", i), "")).collect();
        let e = error(&many.join(", "), "");
        assert!(e.contains("above the limit 8"), "{}", e);
    }

    #[test]
    fn generated_mipmaps_need_rgba8_colour() {
        let e = error(
            &pass("a", r#", "depth": true"#),
            r#""t": {"unit": 0, "pass": "a", "attachment": "depth", "mipmaps": true}"#,
        );
        assert!(
            e.contains("textures.t.mipmaps") && e.contains("RGBA8"),
            "{}",
            e
        );
        let e = error(
            &pass("a", r#", "format": "rgba32f""#),
            r#""t": {"unit": 0, "pass": "a", "mipmaps": true}"#,
        );
        assert!(
            e.contains("textures.t.mipmaps") && e.contains("RGBA8"),
            "{}",
            e
        );
        let s = scene(&pass("a", ""), r#""t": {"unit": 0, "pass": "a", "mipmaps": true, "min_filter": "linear_mipmap_linear"}"#).unwrap();
        let t = &s.textures[0].1;
        assert!(t.source.as_ref().unwrap().mipmaps);
        assert!(t.levels.is_empty() && t.mip == Mip::Linear);
    }
}
