#version 330 core
#pragma chrisos profile 2
// A vertex shader writing an array varying (two light vectors) and a float array of weights.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform vec3 u_light0_pos;
uniform vec3 u_light1_pos;

out vec3 v_to_light[2];
out float v_weight[2];
out vec3 v_normal;

void main() {
    vec3 world = (u_model * vec4(a_position, 1.0)).xyz;
    v_to_light[0] = u_light0_pos - world;
    v_to_light[1] = u_light1_pos - world;
    v_weight[0] = 0.5 + 0.5 * a_uv.x;
    v_weight[1] = 1.0 - 0.5 * a_uv.y;
    v_normal = u_normal_matrix * a_normal;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
