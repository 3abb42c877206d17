#version 330 core
#pragma chrisos profile 2
// Blinn-Phong with one directional light, feature switches by #ifdef and gamma encoding.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient, u_diffuse_color, u_specular_color;
uniform float u_shininess;

out vec4 frag_color;

#define USE_SPECULAR
#define GAMMA 2.2
#ifndef SPECULAR_SCALE
#define SPECULAR_SCALE 0.8
#endif

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float ndotl = max(dot(n, l), 0.0);
    vec3 color = u_ambient + u_diffuse_color * u_light_color * ndotl;
#ifdef USE_SPECULAR
    vec3 h = normalize(l + v);
    float spec = ndotl > 0.0 ? pow(max(dot(n, h), 0.0), u_shininess * 4.0) : 0.0;
    color += u_specular_color * u_light_color * (spec * SPECULAR_SCALE);
#else
    color *= 0.5;
#endif
    frag_color = vec4(pow(color, vec3(1.0 / GAMMA)), 1.0);
}
