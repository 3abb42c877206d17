//! GLSL sources of the example programs used by the differential scenes and the demo (the
//! interfaces of the old example shaders: tri, vary, mvp, tex, light, world), plus a two-unit
//! texture shader. Text only: this module compiles nothing.

/// loc 0 vec4 position, loc 1 vec4 color -> vcolor.
pub const TRI_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
out vec4 vcolor;
void main() {
    vcolor = color;
    gl_Position = position;
}
";

pub const TRI_FRAG: &str = "#version 330
in vec4 vcolor;
out vec4 fragColor;
void main() {
    fragColor = vcolor;
}
";

/// loc 0 vec4 position, loc 1 vec3 vertexColor -> color.
pub const VARY_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec3 vertexColor;
out vec3 color;
void main() {
    color = vertexColor;
    gl_Position = position;
}
";

pub const VARY_FRAG: &str = "#version 330
in vec3 color;
out vec4 fragColor;
void main() {
    fragColor = vec4(color, 1.0);
}
";

/// mvp.vert: tri.vert with projection * view * model.
pub const MVP_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec4 vcolor;
void main() {
    vcolor = color;
    gl_Position = projection * view * model * position;
}
";

/// loc 0 vec4 position, loc 1 vec2 uv.
pub const TEX_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec2 fragUV;
void main() {
    fragUV = uv;
    gl_Position = projection * view * model * position;
}
";

pub const TEX_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D diffuseTexture;
out vec4 color;
void main() {
    color = texture(diffuseTexture, fragUV);
}
";

/// Two units: red from unit 0, green from unit 1.
pub const TWO_TEX_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D first;
uniform sampler2D second;
out vec4 color;
void main() {
    vec4 a = texture(first, fragUV);
    vec4 b = texture(second, fragUV);
    color = vec4(a.x, b.y, 0.0, 1.0);
}
";

/// loc 0 vec3 position, loc 1 vec3 normal (untransformed normal).
pub const LIGHT_VERT: &str = "#version 330
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
out vec3 vN;
out vec3 vP;
void main() {
    vec4 world = model * vec4(position, 1.0);
    vP = world.xyz;
    vN = normal;
    gl_Position = projection * view * world;
}
";

pub const LIGHT_FRAG: &str = "#version 330
in vec3 vN;
in vec3 vP;
uniform vec3 lightPosition;
uniform vec3 lightColor;
uniform vec3 ambientColor;
out vec4 color;
void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float d = max(dot(N, L), 0.0);
    color = vec4(ambientColor + lightColor * d, 1.0);
}
";

/// The canonical 40-byte layout: loc 0 position, loc 1 normal, loc 2 uv; normalMatrix applied.
pub const WORLD_VERT: &str = "#version 330
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
uniform mat4 model;
uniform mat4 view;
uniform mat4 projection;
uniform mat3 normalMatrix;
out vec3 vN;
out vec3 vP;
out vec2 vUV;
void main() {
    vec4 world = model * vec4(position, 1.0);
    vP = world.xyz;
    vN = normalize(normalMatrix * normal);
    vUV = uv;
    gl_Position = projection * view * world;
}
";

pub const WORLD_FRAG: &str = "#version 330
in vec3 vN;
in vec3 vP;
in vec2 vUV;
uniform sampler2D diffuseTexture;
uniform vec3 lightPosition;
uniform vec3 lightColor;
uniform vec3 ambientColor;
out vec4 color;
void main() {
    vec3 N = normalize(vN);
    vec3 L = normalize(lightPosition - vP);
    float d = max(dot(N, L), 0.0);
    vec4 t = texture(diffuseTexture, vUV);
    color = vec4(t.xyz * (ambientColor + lightColor * d), t.w);
}
";

/// Colour from gl_FragCoord: red where y (from the bottom) is below 24, green right of x = 40,
/// blue elsewhere; checks that both backends agree on gl_FragCoord's origin.
pub const FRAGCOORD_FRAG: &str = "#version 330
in vec4 vcolor;
out vec4 fragColor;
void main() {
    vec4 c = vec4(0.0, 0.0, 1.0, 1.0);
    if (gl_FragCoord.y < 24.0) {
        c = vec4(1.0, 0.0, 0.0, 1.0);
    }
    if (gl_FragCoord.x > 40.0) {
        c = vec4(0.0, 1.0, 0.0, 1.0);
    }
    fragColor = c;
}
";

/// loc 0 vec4 position (already in clip space), loc 1 vec2 uv: a full-screen pass.
pub const PASS_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
out vec2 fragUV;
void main() {
    fragUV = uv;
    gl_Position = position;
}
";

/// A post-processing pass over the render target on unit 0: channels rotated, green halved.
pub const POST_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D scene;
out vec4 color;
void main() {
    vec4 c = texture(scene, fragUV);
    color = vec4(c.b, c.r, c.g * 0.5 + 0.25, 1.0);
}
";

/// A depth target on unit 0 compared with the receiver depth (the shader language has no
/// shadow samplers yet: a plain read of the depth and a comparison); blue shows the depth.
pub const SHADOW_FRAG: &str = "#version 330
in vec2 fragUV;
uniform sampler2D shadowMap;
uniform float receiverDepth;
out vec4 color;
void main() {
    float d = texture(shadowMap, fragUV).r;
    float lit = 1.0;
    if (d < receiverDepth - 0.01) {
        lit = 0.25;
    }
    color = vec4(lit, lit * 0.5, d, 1.0);
}
";

/// loc 0 vec4 position, loc 1 vec4 colour (per vertex), loc 2 vec4 offset (per instance),
/// loc 3 vec4 tint (per instance, divisor 2).
pub const INSTANCE_VERT: &str = "#version 330
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 2) in vec4 offset;
layout(location = 3) in vec4 tint;
out vec4 vcolor;
void main() {
    vcolor = color * tint;
    gl_Position = vec4(position.xyz + offset.xyz, 1.0);
}
";

/// Profile 2: loc 0 vec4 position; the colour comes from gl_VertexID (the index value of an
/// indexed draw) and the placement from gl_InstanceID.
pub const SYSVAL_VERT: &str = "#version 330
#pragma chrisos profile 2
layout(location = 0) in vec4 position;
out vec4 vcolor;
void main() {
    float v = float(gl_VertexID);
    float n = float(gl_InstanceID);
    vcolor = vec4(v / 5.0, 1.0 - v / 5.0, n / 5.0, 1.0);
    float col = n < 3.0 ? n : n - 3.0;
    float row = n < 3.0 ? 0.0 : 1.0;
    gl_Position = vec4(position.x - 0.6 + col * 0.6, position.y + 0.45 - row * 0.9, position.z, 1.0);
}
";
