#version 330 core
#pragma chrisos profile 2
// A cube map read in the vertex stage (level 0): each vertex takes the environment's colour
// along its normal.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat3 u_normal_matrix;
uniform samplerCube u_env;

out vec3 v_color;

void main() {
    v_color = texture(u_env, u_normal_matrix * a_normal).rgb;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
