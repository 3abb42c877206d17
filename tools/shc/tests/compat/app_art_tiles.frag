#version 330 core
#pragma chrisos profile 2
// Shader art: a tiled pattern from gl_FragCoord with floor/fract per cell (cell borders fall
// between pixel centres), concentric rings per tile from mod and smoothstep, colours from mix.
uniform vec2 u_resolution;
uniform float u_time;
uniform vec3 u_color_a;
uniform vec3 u_color_b;
out vec4 frag_color;

void main() {
    vec2 p = gl_FragCoord.xy / 8.0;
    vec2 cell = floor(p);
    vec2 f = fract(p) - 0.5;
    float checker = mod(cell.x + cell.y, 2.0);
    float d = length(f);
    float ring = smoothstep(0.0, 0.15, abs(mod(d * 6.0 + u_time, 1.0) - 0.5) * 0.5);
    vec3 tile = mix(u_color_a, u_color_b, checker);
    vec3 c = mix(tile * 0.4, tile, ring) + 0.1 * (cell.y / 8.0);
    frag_color = vec4(c, 1.0);
}
