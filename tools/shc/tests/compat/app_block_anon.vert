#version 330 core
#pragma chrisos profile 2
// A lit-mesh vertex shader whose outputs form an interface block without an instance name
// (members used as plain names), with a smooth qualifier on the block.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;

out Surface {
    vec3 world_pos;
    vec3 world_normal;
    vec2 tex_coord;
};

void main() {
    world_pos = (u_model * vec4(a_position, 1.0)).xyz;
    world_normal = u_normal_matrix * a_normal;
    tex_coord = a_uv;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
