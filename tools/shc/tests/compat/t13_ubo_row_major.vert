#version 330 core
#pragma chrisos profile 2
// A row_major uniform block: the matrices are stored row by row (as a CPU-side row-major math
// library uploads them) and used unchanged in the shader.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(std140, row_major) uniform Transform {
    mat4 mvp_rows;
    layout(row_major) mat3 normal_rows;
} xf;
uniform mat4 u_model;

out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;

void main() {
    v_world = (u_model * vec4(a_position, 1.0)).xyz;
    v_normal = xf.normal_rows * a_normal;
    v_uv = a_uv;
    gl_Position = xf.mvp_rows * vec4(a_position, 1.0);
}
