#version 330 core
#pragma chrisos profile 2
// A sorting visualisation: eight bar heights from an integer hash of the column group, bubble
// sorted with an early exit (break when a pass swaps nothing), the pass count from a uniform so
// the picture shows the array part-way sorted; dynamic reads and writes of a local array.
uniform vec2 u_resolution;
uniform int u_iterations;

out vec4 frag_color;

uint hash(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void main() {
    ivec2 pix = ivec2(gl_FragCoord.xy);
    int row = pix.y / 16;
    float bars[8];
    for (int i = 0; i < 8; i++) {
        bars[i] = float(hash(uint(i + 8 * row) + 17u) % 15u + 1u) / 16.0;
    }
    int passes = min(u_iterations, 7) - row;
    for (int pass = 0; pass < passes; pass++) {
        bool swapped = false;
        for (int i = 0; i < 7 - pass; i++) {
            if (bars[i] > bars[i + 1]) {
                float t = bars[i];
                bars[i] = bars[i + 1];
                bars[i + 1] = t;
                swapped = true;
            }
        }
        if (!swapped)
            break;
    }
    int column = pix.x / 8;
    float h = bars[column];
    float y = float(pix.y % 16) + 0.5;
    bool inside = y < h * 15.0 && pix.x % 8 != 7;
    vec3 bar = mix(vec3(0.2, 0.5, 0.9), vec3(0.95, 0.6, 0.2), h);
    frag_color = vec4(inside ? bar : vec3(0.08, 0.08, 0.1), 1.0);
}
