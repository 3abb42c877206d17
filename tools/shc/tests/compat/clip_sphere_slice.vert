#version 330 core
#pragma chrisos profile 2
// The lit-mesh vertex shader with two world-space user clip planes (gl_ClipDistance 0 and
// 1): the sphere is sliced by a tilted plane and capped from one side.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;

out vec3 v_world;
out vec3 v_normal;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    v_normal = u_normal_matrix * a_normal;
    gl_Position = u_mvp * vec4(a_position, 1.0);
    gl_ClipDistance[0] = dot(world.xyz, vec3(0.3, 0.9, 0.3)) + 0.25;
    gl_ClipDistance[1] = 0.55 - world.x;
}
