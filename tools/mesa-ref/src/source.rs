//! Source adaptation for Mesa: the version line and the subset's automatic attribute locations.
//!
//! Owns: rewriting `#version N` into the `#version 330 core` the GL 3.3 core context compiles,
//! and finding vertex inputs declared without `layout(location = N)` so that Mesa binds them where
//! the subset's frontend puts them (explicit locations first, then each remaining input in
//! declaration order takes the lowest free location).
//! Must never: change anything else in a shader; the point is to run the same program text.

/// The version line every shader gets in the GL 3.3 core context.
pub const GL_VERSION_LINE: &str = "#version 330 core";

/// Replace the first `#version` directive with [`GL_VERSION_LINE`] (or prepend it when absent).
pub fn adapt_version(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 32);
    let mut replaced = false;
    for line in source.split_inclusive('\n') {
        if !replaced && line.trim_start().starts_with("#version") {
            out.push_str(GL_VERSION_LINE);
            out.push('\n');
            replaced = true;
        } else {
            out.push_str(line);
        }
    }
    if replaced {
        out
    } else {
        format!("{}\n{}", GL_VERSION_LINE, source)
    }
}

/// Source with comments replaced by spaces (line structure kept).
fn strip_comments(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn tokens(statement: &str) -> Vec<String> {
    let mut toks = Vec::new();
    let mut cur = String::new();
    for c in statement.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                toks.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                toks.push(c.to_string());
            }
        }
    }
    if !cur.is_empty() {
        toks.push(cur);
    }
    toks
}

/// A global `in` declaration of a vertex shader: its name and explicit location, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputDecl {
    pub name: String,
    pub location: Option<u32>,
    /// Locations it takes: a matCxR input one per column (C), anything else 1.
    pub locations: u32,
}

/// The columns of a matrix type name (`mat4`, `mat3x2`: 4, 3), else 1.
fn matrix_columns(ty: &str) -> u32 {
    ty.strip_prefix("mat")
        .and_then(|d| d.chars().next())
        .and_then(|c| c.to_digit(10))
        .filter(|c| (2..=4).contains(c))
        .unwrap_or(1)
}

/// Global `in` declarations, in source order (statements at brace depth 0 only).
pub fn vertex_inputs(source: &str) -> Vec<InputDecl> {
    let text = strip_comments(source);
    let mut decls = Vec::new();
    let mut depth = 0usize;
    let mut statement = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for c in line.chars().chain(std::iter::once('\n')) {
            match c {
                '{' => {
                    depth += 1;
                    statement.clear();
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    statement.clear();
                }
                ';' if depth == 0 => {
                    if let Some(d) = parse_input(&tokens(&statement)) {
                        decls.push(d);
                    }
                    statement.clear();
                }
                _ if depth == 0 => statement.push(c),
                _ => {}
            }
        }
    }
    decls
}

fn parse_input(toks: &[String]) -> Option<InputDecl> {
    let mut i = 0;
    let mut location = None;
    if toks.first().map(String::as_str) == Some("layout") {
        // layout ( location = N )
        let close = toks.iter().position(|t| t == ")")?;
        location = toks[..close].iter().find_map(|t| t.parse::<u32>().ok());
        i = close + 1;
    }
    while toks.get(i).map(String::as_str) == Some("smooth") {
        i += 1;
    }
    if toks.get(i).map(String::as_str) != Some("in") {
        return None;
    }
    // in [const] TYPE NAME
    let rest: Vec<&String> = toks[i + 1..]
        .iter()
        .filter(|t| t.as_str() != "const")
        .collect();
    match rest.as_slice() {
        [ty, name] => Some(InputDecl {
            name: (*name).clone(),
            location,
            locations: matrix_columns(ty),
        }),
        _ => None,
    }
}

/// The location of every vertex input, with implicit ones assigned like the subset's frontend.
pub fn attribute_locations(source: &str, locations: u32) -> Vec<(String, u32)> {
    let inputs = vertex_inputs(source);
    // A matrix takes a run of consecutive locations, one per column (the subset's rule too).
    let mut taken: Vec<u32> = inputs
        .iter()
        .filter_map(|d| d.location.map(|l| (l, d.locations)))
        .flat_map(|(l, n)| l..l + n)
        .collect();
    let mut out = Vec::new();
    for d in inputs {
        let n = d.locations;
        let loc = match d.location {
            Some(l) => l,
            None => match (0..locations.saturating_sub(n - 1))
                .find(|l| (*l..*l + n).all(|k| !taken.contains(&k)))
            {
                Some(l) => {
                    taken.extend(l..l + n);
                    l
                }
                None => continue,
            },
        };
        out.push((d.name, loc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_line_is_replaced_or_added() {
        assert_eq!(
            adapt_version("#version 110\nvoid main() {}\n"),
            "#version 330 core\nvoid main() {}\n"
        );
        assert_eq!(adapt_version("  #version 330\nx"), "#version 330 core\nx");
        assert_eq!(
            adapt_version("void main() {}"),
            "#version 330 core\nvoid main() {}"
        );
    }

    #[test]
    fn inputs_get_explicit_then_free_locations() {
        let src = "#version 330\n// in vec4 commented;\nin vec3 a_normal; /* in vec2 x; */\n\
                   layout(location = 0) in vec4 a_pos;\nuniform mat4 u_mvp;\nout vec3 v_n;\n\
                   smooth in vec2 a_uv;\nfloat f(in float x) { return x; }\n\
                   void main() { vec4 in_local = a_pos; gl_Position = in_local; }\n";
        assert_eq!(
            vertex_inputs(src),
            vec![
                InputDecl {
                    name: "a_normal".into(),
                    location: None,
                    locations: 1
                },
                InputDecl {
                    name: "a_pos".into(),
                    location: Some(0),
                    locations: 1
                },
                InputDecl {
                    name: "a_uv".into(),
                    location: None,
                    locations: 1
                },
            ]
        );
        assert_eq!(
            attribute_locations(src, 8),
            vec![
                ("a_normal".to_string(), 1),
                ("a_pos".to_string(), 0),
                ("a_uv".to_string(), 2)
            ]
        );
    }

    #[test]
    fn matrix_inputs_take_a_run_of_locations() {
        // As the subset assigns them: an explicit mat2 at 3 takes 3..4; an implicit mat3 takes
        // the lowest run of three free locations (5..7, as 0 and 1..2 are short or taken).
        let src = "#version 330
layout(location = 1) in vec4 a;
in vec2 b;
                   layout(location = 3) in mat2 m;
in mat3 n;
in float f;
                   void main() { gl_Position = a; }
";
        assert_eq!(
            attribute_locations(src, 16),
            vec![
                ("a".to_string(), 1),
                ("b".to_string(), 0),
                ("m".to_string(), 3),
                ("n".to_string(), 5),
                ("f".to_string(), 2)
            ]
        );
        assert_eq!(matrix_columns("mat3x2"), 3);
        assert_eq!(matrix_columns("vec4"), 1);
    }
}

/// How many user clip planes a vertex shader needs enabled (`glEnable(GL_CLIP_DISTANCEi)` for
/// i below it): one past the highest constant `gl_ClipDistance[N]` index it mentions (comments
/// ignored), or 8 (GL_MAX_CLIP_DISTANCES' minimum) when an index is not a literal; 0 without
/// gl_ClipDistance. Elements below the highest one that the shader does not write are what GL
/// leaves undefined, so the suite's shaders write 0..=N.
pub fn clip_planes(vertex_source: &str) -> u32 {
    const NAME: &str = "gl_ClipDistance";
    let text = strip_comments(vertex_source);
    let mut n = 0u32;
    let mut rest = text.as_str();
    while let Some(at) = rest.find(NAME) {
        rest = &rest[at + NAME.len()..];
        let Some(index) = rest.trim_start().strip_prefix('[') else {
            continue;
        };
        let inner = index.split(']').next().unwrap_or("").trim();
        match inner.parse::<u32>() {
            Ok(k) if k < 8 => n = n.max(k + 1),
            _ => n = 8,
        }
    }
    n
}

#[cfg(test)]
mod clip_tests {
    use super::clip_planes;

    #[test]
    fn clip_planes_count_from_the_highest_index() {
        assert_eq!(clip_planes("void main() { gl_Position = p; }"), 0);
        assert_eq!(
            clip_planes("gl_ClipDistance[0] = a; gl_ClipDistance [ 2 ] = b;"),
            3
        );
        assert_eq!(
            clip_planes("// gl_ClipDistance[7]\ngl_ClipDistance[1] = a;"),
            2
        );
        assert_eq!(clip_planes("gl_ClipDistance[i] = a;"), 8);
    }
}
