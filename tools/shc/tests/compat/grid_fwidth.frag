#version 330 core
#pragma chrisos profile 2
// An anti-aliased world-space grid on the floor (the "infinite grid" of editors): line width
// in pixels from fwidth, fading into the fog.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_fog_color;
uniform float u_fog_density;

out vec4 frag_color;

void main() {
    vec2 coord = v_world.xz;
    vec2 grid = abs(fract(coord - 0.5) - 0.5) / fwidth(coord);
    float line = 1.0 - min(min(grid.x, grid.y), 1.0);
    vec3 n = normalize(v_normal);
    vec3 base = mix(vec3(0.25, 0.27, 0.3), vec3(0.45, 0.5, 0.55), n.y * 0.5 + 0.5);
    vec3 color = mix(base, vec3(0.9, 0.9, 0.95), line * step(0.5, n.y));
    float fog = exp(-u_fog_density * distance(v_world, u_view_pos));
    frag_color = vec4(mix(u_fog_color, color, fog), 1.0);
}
