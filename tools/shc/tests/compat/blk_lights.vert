#version 330 core
#pragma chrisos profile 2
// A lit-mesh vertex shader whose matrices come from a std140 uniform block with mat4 and mat3
// members, and a row_major block array of two projector matrices (read by constant index).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(std140) uniform Xform {
    mat4 mvp;
    mat4 model;
    mat3 normal_matrix;
} xf;

layout(std140, row_major) uniform Projector {
    mat4 proj;
    vec4 tint;
} projectors[2];

out Surface {
    vec3 world;
    vec3 normal;
    vec2 uv;
    vec2 proj_uv[2];
} vs_out;

void main() {
    vec4 world = xf.model * vec4(a_position, 1.0);
    vs_out.world = world.xyz;
    vs_out.normal = xf.normal_matrix * a_normal;
    vs_out.uv = a_uv;
    vec4 p0 = projectors[0].proj * world;
    vec4 p1 = projectors[1].proj * world;
    vs_out.proj_uv[0] = p0.xy / p0.w;
    vs_out.proj_uv[1] = p1.xy / p1.w;
    gl_Position = xf.mvp * vec4(a_position, 1.0);
}
