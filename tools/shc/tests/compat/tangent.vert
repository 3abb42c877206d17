#version 330 core
#pragma chrisos profile 2
// Normal-mapping vertex shader: a world-space tangent frame (T, B, N) per vertex, the
// bitangent's sign taken from the tangent's w.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_tangent;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;

out vec3 v_world;
out vec2 v_uv;
out vec3 v_tangent;
out vec3 v_bitangent;
out vec3 v_normal;

void main() {
    vec3 n = normalize(u_normal_matrix * a_normal);
    vec3 t = normalize(mat3(u_model) * a_tangent.xyz);
    // Gram-Schmidt: make the tangent perpendicular to the normal again.
    t = normalize(t - n * dot(n, t));
    v_normal = n;
    v_tangent = t;
    v_bitangent = cross(n, t) * a_tangent.w;
    v_world = (u_model * vec4(a_position, 1.0)).xyz;
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
