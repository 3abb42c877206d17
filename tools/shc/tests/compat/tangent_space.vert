#version 330 core
#pragma chrisos profile 2
// Normal mapping done in tangent space: the light and view vectors are moved into the
// tangent frame with the transpose of the TBN matrix, so the fragment stage needs no matrix.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 a_tangent;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform vec3 u_light0_pos;
uniform vec3 u_view_pos;

out vec3 v_light_ts;
out vec3 v_view_ts;
out vec2 v_uv;

void main() {
    vec3 n = normalize(u_normal_matrix * a_normal);
    vec3 t = normalize(mat3(u_model) * a_tangent.xyz);
    vec3 b = cross(n, t) * a_tangent.w;
    mat3 to_tangent = transpose(mat3(t, b, n));
    vec3 world = vec3(u_model * vec4(a_position, 1.0));
    v_light_ts = to_tangent * (u_light0_pos - world);
    v_view_ts = to_tangent * (u_view_pos - world);
    v_uv = a_uv;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
