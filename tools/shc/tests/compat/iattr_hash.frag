#version 330 core
#pragma chrisos profile 2
// An integer hash of the flat seed and the pixel: exact at every pixel centre.
flat in uvec2 v_seed;

out vec4 frag_color;

uint hash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15u;
    x *= 0x846ca68bu;
    x ^= x >> 16u;
    return x;
}

void main() {
    uvec2 p = uvec2(gl_FragCoord.xy) / 4u;
    uint h = hash(v_seed.x + hash(v_seed.y ^ (p.x * 73856093u) ^ (p.y * 19349663u)));
    frag_color = vec4(float(h & 255u) / 255.0, float((h >> 8u) & 255u) / 255.0,
                      float(h >> 24u) / 255.0, 1.0);
}
