#version 330 core
#pragma chrisos profile 2
// Hemisphere ambient plus a rim term and a latitude stripe, for the row_major block vertex
// shader (any mistake in the matrices' layout moves or flattens the sphere).
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform vec3 u_rim_color;
uniform vec3 u_view_pos;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 c = mix(u_ground_color, u_sky_color, 0.5 + 0.5 * n.y);
    c += u_rim_color * pow(1.0 - max(dot(n, v), 0.0), 3.0);
    c *= 0.8 + 0.2 * sin(v_uv.y * 31.4159);
    frag_color = vec4(c, 1.0);
}
