#version 330 core
#pragma chrisos profile 2
// Reads an anonymous vertex output block through an instance-named input block (GLSL matches
// blocks by block name), two point lights and a striped albedo from the texture coordinates.
in Surface {
    vec3 world_pos;
    vec3 world_normal;
    vec2 tex_coord;
} surf;

uniform vec3 u_view_pos;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_light1_pos;
uniform vec3 u_light1_color;
uniform vec3 u_ambient;

out vec4 frag_color;

vec3 point(vec3 lp, vec3 lc, vec3 n, vec3 v) {
    vec3 l = normalize(lp - surf.world_pos);
    vec3 h = normalize(l + v);
    return lc * (max(dot(n, l), 0.0) * 0.8 + pow(max(dot(n, h), 0.0), 24.0) * 0.5);
}

void main() {
    vec3 n = normalize(surf.world_normal);
    vec3 v = normalize(u_view_pos - surf.world_pos);
    float stripe = 0.75 + 0.25 * cos(surf.tex_coord.x * 37.699112);
    vec3 c = u_ambient + stripe * (point(u_light0_pos, u_light0_color, n, v) +
                                   point(u_light1_pos, u_light1_color, n, v));
    frag_color = vec4(c, 1.0);
}
