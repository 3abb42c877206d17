#version 330
#pragma chrisos profile 2
// Profile-2 benchmark: a wavy textured mesh lit by 4 point lights (issue 13's benchmark).
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
uniform mat4 u_mvp;
uniform mat4 u_model;
out VS_OUT { vec3 world; vec3 normal; vec2 uv; } vs_out;

void main() {
    vec4 w = u_model * vec4(a_pos, 1.0);
    vs_out.world = w.xyz;
    vs_out.normal = transpose(inverse(mat3(u_model))) * a_normal;
    vs_out.uv = a_uv;
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
