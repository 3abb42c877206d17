#version 330 core
#pragma chrisos profile 2
// Integer edge arithmetic made visible: a linear congruential step per row (int multiply that
// wraps past 2^31, signed right shift of negatives, abs of wrapped values) and uint bands from
// the high bits; each of the four quadrants shows one effect.
uniform vec2 u_resolution;

out vec4 frag_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int quadrant = (p.x >> 5) + 2 * (p.y >> 5);
    ivec2 q = p & 31;
    vec3 col;
    if (quadrant == 0) {
        int x = 0x7ffffff0 + q.x * 3;          // crosses INT_MAX: wraps to negative
        col = x < 0 ? vec3(0.9, 0.3, 0.2) : vec3(0.2, 0.6, 0.9);
        col *= 0.6 + 0.4 * float(q.y & 7) / 7.0;
    } else if (quadrant == 1) {
        int seed = q.y * 1103515245 + 12345;    // wraps for most rows
        int v = (seed * (q.x + 1)) >> 24;       // arithmetic shift keeps the sign
        col = vec3(float(v + 128) / 255.0, 0.4, float(abs(v)) / 128.0);
    } else if (quadrant == 2) {
        uint u = uint(q.x) - 16u;               // uint wrap below zero
        col = vec3(float(u >> 28) / 15.0, float(u & 15u) / 15.0, 0.5);
    } else {
        uint h = uint(q.x * 32 + q.y) * 2654435769u;
        col = vec3(float(h >> 24) / 255.0, float((h >> 16) & 255u) / 255.0, 0.3);
    }
    frag_color = vec4(col, 1.0);
}
