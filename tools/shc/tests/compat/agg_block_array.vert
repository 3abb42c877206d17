#version 330 core
#pragma chrisos profile 2
// A lit-mesh vertex shader that hands the fragment stage one block per light: an array of
// output interface blocks (each element x member its own varying, VS_OUT[k].member).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_mvp;
uniform mat4 u_model;
uniform mat3 u_normal_matrix;
uniform vec3 u_view_pos;
uniform vec3 u_light0_pos;
uniform vec3 u_light1_pos;

out LightVec {
    vec3 to_light;
    vec3 half_vec;
} lv[2];

out Surface {
    vec3 normal;
    vec2 uv;
} surf;

void main() {
    vec3 wp = (u_model * vec4(a_position, 1.0)).xyz;
    vec3 v = normalize(u_view_pos - wp);
    lv[0].to_light = u_light0_pos - wp;
    lv[0].half_vec = normalize(normalize(lv[0].to_light) + v);
    lv[1].to_light = u_light1_pos - wp;
    lv[1].half_vec = normalize(normalize(lv[1].to_light) + v);
    surf.normal = u_normal_matrix * a_normal;
    surf.uv = a_uv;
    gl_Position = u_mvp * vec4(a_position, 1.0);
}
