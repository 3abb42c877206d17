#version 330
// The lit rotating cube: model, MVP and normal matrices; u_light_dir is shared with the
// fragment stage.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform vec3 u_light_dir;
out vec3 v_normal;
out vec3 v_world;
out float v_diffuse;

void main() {
    vec3 n = normalize(u_normal_matrix * a_normal);
    vec4 world = u_model * vec4(a_pos, 1.0);
    v_normal = n;
    v_world = world.xyz;
    v_diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
