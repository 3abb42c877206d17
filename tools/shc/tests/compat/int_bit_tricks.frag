#version 330 core
#pragma chrisos profile 2
// Bit tricks: a bit count, a bit reversal, a lowest set bit and a Morton (Z-order) interleave
// of the pixel's coordinates, each shown in one channel; compound &=, |=, ^=, <<=, >>=.
uniform float u_time;

out vec4 frag_color;

uint bit_count(uint v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

uint reverse_bits(uint v) {
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
    v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
    return (v >> 16) | (v << 16);
}

uint spread(uint x) {
    x &= 0x0000ffffu;
    x = (x | (x << 8)) & 0x00FF00FFu;
    x = (x | (x << 4)) & 0x0F0F0F0Fu;
    x = (x | (x << 2)) & 0x33333333u;
    x = (x | (x << 1)) & 0x55555555u;
    return x;
}

void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint morton = spread(p.x) | (spread(p.y) << 1);
    int low = int(morton) & -int(morton);
    uint t = uint(u_time * 10.0);
    uint m = morton;
    m ^= t;
    m <<= 1;
    m |= 1u;
    m >>= 1;
    float r = float(bit_count(morton)) / 12.0;
    float g = float(reverse_bits(m) >> 24) / 255.0;
    float b = float(uint(low) & 63u) / 63.0;
    frag_color = vec4(r, g, b, 1.0);
}
