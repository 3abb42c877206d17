//! Profile 2's answer to a name GLSL has but profile 2 does not provide (issue 12 item 4):
//! the compatibility profile's built-ins (fixed-function state, attributes and varyings,
//! `ftransform`), GLSL 3.30's deprecated texture functions and fragment outputs (`texture2D`,
//! `gl_FragColor`: profile 2 is `gl_FragColor`-free GLSL 3.30 core), and the point-sprite
//! built-ins (Gfx3D draws triangles only). Instead of "unknown identifier", the diagnostic says
//! what the name is and names the core replacement. Profile 1 keeps its own messages.

use super::{Sema, R};
use crate::limits::Profile;

impl<'a> Sema<'a> {
    /// The error for a name node `i` that resolves to nothing: `what` is "identifier" or
    /// "function". In profile 2 a name of [`core_replacement`]'s table says what it is and
    /// what to write instead; any other name (and every name in profile 1) is
    /// "unknown {what} '{name}'".
    pub(super) fn unknown_name<T>(&mut self, i: i16, name: &str, what: &str) -> R<T> {
        match core_replacement(name) {
            Some((kind, instead)) if self.toks.profile == Profile::P2 => {
                bail!(self, i, "'{}' is {}: {}", name, kind, instead)
            }
            _ => bail!(self, i, "unknown {} '{}'", what, name),
        }
    }
}

/// What `name` is and what to write instead, when it is one of those names; `None` for any
/// other name (an ordinary unknown identifier or function).
pub(super) fn core_replacement(name: &str) -> Option<(&'static str, &'static str)> {
    const COMPAT: &str = "a compatibility-profile built-in, not in GLSL 3.30 core";
    const DEPRECATED: &str = "deprecated in GLSL 3.30 and not provided by profile 2";
    const NO_POINTS: &str = "not supported, as Gfx3D draws triangles only (no point primitives)";
    const UNIFORM_STATE: &str =
        "declare your own uniforms (a struct or a uniform block) and set them from the application";
    const VARYING: &str =
        "declare your own 'out' variable in the vertex shader and the matching 'in' in the fragment shader";
    let name_b = name.as_bytes();
    let matrix = [
        "gl_ModelViewMatrix",
        "gl_ProjectionMatrix",
        "gl_ModelViewProjectionMatrix",
        "gl_TextureMatrix",
    ]
    .iter()
    .any(|m| {
        name_b.starts_with(m.as_bytes())
            && matches!(
                &name[m.len()..],
                "" | "Inverse" | "Transpose" | "InverseTranspose"
            )
    });
    if matrix {
        return Some((
            COMPAT,
            "declare a 'uniform mat4' (an array of them for texture matrices) and set it from the application",
        ));
    }
    if let Some(unit) = name.strip_prefix("gl_MultiTexCoord") {
        if unit.len() == 1 && unit.as_bytes()[0].is_ascii_digit() {
            return Some((
                COMPAT,
                "declare a vertex input such as 'layout(location = 2) in vec4 texcoord;'",
            ));
        }
    }
    Some(match name {
        "gl_NormalMatrix" => (
            COMPAT,
            "declare a 'uniform mat3' (the inverse transpose of the model-view matrix's upper 3x3)",
        ),
        "gl_Vertex" => (
            COMPAT,
            "declare a vertex input such as 'layout(location = 0) in vec4 position;'",
        ),
        "gl_Normal" => (
            COMPAT,
            "declare a vertex input such as 'layout(location = 1) in vec3 normal;'",
        ),
        "gl_Color" | "gl_SecondaryColor" => (
            COMPAT,
            "declare an 'in vec4' (a vertex input, or in a fragment shader a varying the vertex shader writes)",
        ),
        "gl_FogCoord" => (COMPAT, "declare a vertex input such as 'in float fogCoord;'"),
        "gl_FrontColor" | "gl_BackColor" | "gl_FrontSecondaryColor" | "gl_BackSecondaryColor"
        | "gl_TexCoord" | "gl_FogFragCoord" => (COMPAT, VARYING),
        "gl_ClipVertex" => (
            COMPAT,
            "write gl_ClipDistance[i] = dot(position, plane) with your own plane uniforms",
        ),
        "gl_LightSource" | "gl_LightModel" | "gl_FrontLightModelProduct"
        | "gl_BackLightModelProduct" | "gl_FrontLightProduct" | "gl_BackLightProduct"
        | "gl_FrontMaterial" | "gl_BackMaterial" | "gl_Fog" | "gl_TextureEnvColor"
        | "gl_EyePlaneS" | "gl_EyePlaneT" | "gl_EyePlaneR" | "gl_EyePlaneQ" | "gl_ObjectPlaneS"
        | "gl_ObjectPlaneT" | "gl_ObjectPlaneR" | "gl_ObjectPlaneQ" | "gl_ClipPlane"
        | "gl_Point" => (COMPAT, UNIFORM_STATE),
        "gl_MaxLights" | "gl_MaxClipPlanes" | "gl_MaxTextureUnits" | "gl_MaxTextureCoords" => {
            (COMPAT, "use a constant of your own")
        }
        "ftransform" => (
            COMPAT,
            "write 'gl_Position = mvp * position;' with a 'uniform mat4 mvp' and a vertex input",
        ),
        "gl_FragColor" | "gl_FragData" => (
            DEPRECATED,
            "declare a fragment output such as 'layout(location = 0) out vec4 color;'",
        ),
        "texture1D" | "texture2D" | "texture3D" | "textureCube" | "shadow1D" | "shadow2D" => {
            (DEPRECATED, "use the overloaded texture()")
        }
        "texture1DProj" | "texture2DProj" | "texture3DProj" | "shadow1DProj" | "shadow2DProj" => {
            (DEPRECATED, "use the overloaded textureProj()")
        }
        "texture1DLod" | "texture2DLod" | "texture3DLod" | "textureCubeLod" | "shadow1DLod"
        | "shadow2DLod" => (DEPRECATED, "use the overloaded textureLod()"),
        "texture1DProjLod" | "texture2DProjLod" | "texture3DProjLod" | "shadow1DProjLod"
        | "shadow2DProjLod" => (DEPRECATED, "use the overloaded textureProjLod()"),
        "gl_PointCoord" | "gl_PointSize" => (
            NO_POINTS,
            "draw small quads (two triangles) and interpolate your own coordinate",
        ),
        "gl_DepthRange" => (
            "a built-in uniform struct that profile 2 provides only through its members",
            "read gl_DepthRange.near, .far or .diff (0.0, 1.0 and 1.0: Gfx3D's depth range is fixed)",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::core_replacement;

    #[test]
    fn names_and_non_names() {
        for n in [
            "gl_ModelViewMatrix",
            "gl_ModelViewProjectionMatrixInverseTranspose",
            "gl_TextureMatrixInverse",
            "gl_NormalMatrix",
            "gl_MultiTexCoord0",
            "gl_MultiTexCoord7",
            "gl_Color",
            "gl_FragColor",
            "gl_FragData",
            "ftransform",
            "texture2D",
            "shadow2DProjLod",
            "gl_PointCoord",
            "gl_LightSource",
        ] {
            assert!(core_replacement(n).is_some(), "{}", n);
        }
        for n in [
            "gl_ModelViewMatrixX",
            "gl_MultiTexCoord",
            "gl_MultiTexCoord10",
            "gl_Position",
            "texture",
            "foo",
            "",
        ] {
            assert!(core_replacement(n).is_none(), "{}", n);
        }
    }
}
