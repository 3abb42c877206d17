#version 330 core
#pragma chrisos profile 2
// Cellular noise with the two nearest feature points: the nine candidate distances go into a
// local array (written at a running index), a partial selection sort puts the two smallest
// first, and F2 - F1 draws the cell borders. Feature points from a PCG-style integer hash.
uniform vec2 u_resolution;
uniform float u_scale;

out vec4 frag_color;

uvec2 pcg2(uvec2 v) {
    v = v * 1664525u + 1013904223u;
    v.x += v.y * 1664525u;
    v.y += v.x * 1664525u;
    v ^= v >> 16u;
    v.x += v.y * 1664525u;
    v.y += v.x * 1664525u;
    v ^= v >> 16u;
    return v;
}

void main() {
    vec2 p = gl_FragCoord.xy / u_resolution * u_scale * 0.8 + 0.37;
    vec2 cell = floor(p);
    float d[9];
    int count = 0;
    for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; x++) {
            vec2 c = cell + vec2(x, y);
            uvec2 h = pcg2(uvec2(ivec2(c) + 64));
            vec2 feature = c + 0.15 + 0.7 * vec2(h & 0xffffu) / 65535.0;
            d[count++] = length(feature - p);
        }
    }
    for (int i = 0; i < 2; i++) {
        int best = i;
        for (int j = i + 1; j < count; j++) {
            if (d[j] < d[best])
                best = j;
        }
        float t = d[i];
        d[i] = d[best];
        d[best] = t;
    }
    float border = smoothstep(0.0, 0.12, d[1] - d[0]);
    vec3 col = mix(vec3(0.95, 0.9, 0.7), vec3(0.2, 0.45, 0.55) * (1.0 - 0.6 * d[0]), border);
    frag_color = vec4(col, 1.0);
}
