#version 330 core
#pragma chrisos profile 2
// Truchet tiles: an integer hash of each 8x8-pixel cell picks one of two quarter-arc tiles
// (cell borders fall between pixel centres), arcs drawn with a soft distance edge.
out vec4 frag_color;

uint hash2(uvec2 c) {
    uint h = c.x * 73856093u ^ c.y * 19349663u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return h ^ (h >> 15);
}

void main() {
    vec2 p = gl_FragCoord.xy / 8.0;
    vec2 cell = floor(p);
    vec2 f = fract(p);
    if ((hash2(uvec2(cell)) & 1u) == 1u) {
        f.x = 1.0 - f.x;
    }
    float d = min(abs(length(f) - 0.5), abs(length(f - 1.0) - 0.5));
    float arc = 1.0 - smoothstep(0.08, 0.2, d);
    vec3 bg = mix(vec3(0.1, 0.12, 0.2), vec3(0.2, 0.1, 0.15), cell.y / 8.0);
    frag_color = vec4(mix(bg, vec3(0.95, 0.75, 0.3), arc), 1.0);
}
