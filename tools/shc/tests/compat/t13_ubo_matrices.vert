#version 330 core
#pragma chrisos profile 2
// Camera and model matrices in an anonymous std140 uniform block (the LearnOpenGL "Advanced
// GLSL" layout): the members are plain names in the shader.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(std140) uniform Matrices {
    mat4 u_proj;
    mat4 u_view;
    mat4 u_model;
};
uniform mat3 u_normal_matrix;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

void main() {
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world = world.xyz;
    v_normal = u_normal_matrix * a_normal;
    v_uv = a_uv;
    gl_Position = u_proj * u_view * world;
}
