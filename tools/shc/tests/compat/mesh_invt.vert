#version 330 core
#pragma chrisos profile 2
// The lit-mesh vertex shader that derives its normal matrix itself, as many tutorials do:
// transpose(inverse(mat3(model))), and the clip position from separate view and projection.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;
uniform mat4 u_view;
uniform mat4 u_proj;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

void main() {
    mat3 normal_matrix = transpose(inverse(mat3(u_model)));
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    v_normal = normal_matrix * a_normal;
    v_uv = a_uv;
    gl_Position = u_proj * u_view * world;
}
