#version 330 core
#pragma chrisos profile 2
// The lit-mesh vertex shader written with an output interface block, as LearnOpenGL-style
// code does.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;

out VS_OUT {
    vec3 world;
    vec3 normal;
    vec2 uv;
} vs_out;

void main() {
    vs_out.world = vec3(u_model * vec4(a_position, 1.0));
    vs_out.normal = u_normal_matrix * a_normal;
    vs_out.uv = a_uv;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
