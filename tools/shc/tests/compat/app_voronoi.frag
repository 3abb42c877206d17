#version 330 core
#pragma chrisos profile 2
// Cellular (Worley) noise: feature points from an integer hash per cell, the nearest and
// second-nearest distances over the 3x3 neighbourhood (nested constant loops), cell colours
// blended by the distance gap.
uniform float u_time;
out vec4 frag_color;

vec2 feature(vec2 cell) {
    uvec2 q = uvec2(ivec2(cell) + 64);
    uint h = (q.x * 1597334677u) ^ (q.y * 3812015801u);
    h = h * 0x2c1b3c6du;
    h ^= h >> 12;
    return vec2(float(h & 0xFFFFu), float(h >> 16)) / 65535.0 * 0.8 + 0.1;
}

void main() {
    vec2 p = gl_FragCoord.xy / 12.0 + vec2(u_time * 0.1);
    vec2 base = floor(p);
    float d1 = 8.0, d2 = 8.0;
    for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; x++) {
            vec2 c = base + vec2(float(x), float(y));
            float d = distance(p, c + feature(c));
            d2 = min(d2, max(d, d1));
            d1 = min(d1, d);
        }
    }
    float border = smoothstep(0.0, 0.12, d2 - d1);
    vec3 c = mix(vec3(0.9, 0.9, 1.0), vec3(0.2, 0.4, 0.6) + 0.4 * vec3(d1), border);
    frag_color = vec4(c, 1.0);
}
