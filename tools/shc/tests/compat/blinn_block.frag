#version 330 core
#pragma chrisos profile 2
// Blinn-Phong reading its inputs from an interface block matched by block name.
in VS_OUT {
    vec3 world;
    vec3 normal;
    vec2 uv;
} fs_in;

uniform vec3 u_view_pos;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_ambient;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(fs_in.normal);
    vec3 l = normalize(u_light0_pos - fs_in.world);
    vec3 v = normalize(u_view_pos - fs_in.world);
    vec3 h = normalize(l + v);
    float stripes = 0.85 + 0.15 * sin(fs_in.uv.y * 40.0);
    vec3 color = u_ambient + u_diffuse_color * stripes * u_light0_color * max(dot(n, l), 0.0);
    color += u_light0_color * pow(max(dot(n, h), 0.0), 40.0);
    frag_color = vec4(color, 1.0);
}
