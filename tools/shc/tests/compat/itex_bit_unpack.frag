#version 330 core
#pragma chrisos profile 2
// A usampler2D of packed words: an RGBA8 colour unpacked with shifts, a stripe bit mask.
uniform usampler2D u_bits;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    // Nearest at the 8x8 texels: pixel centres never fall on a texel edge.
    uvec4 w = texture(u_bits, v_uv);
    uint word = w.r;
    vec4 c = vec4(float(word & 0xFFu), float((word >> 8) & 0xFFu),
                  float((word >> 16) & 0xFFu), float(word >> 24)) / 255.0;
    uint bit = (w.g >> uint(int(gl_FragCoord.x) % 32)) & 1u;
    uint top = (w.b ^ 0xFFFFFFFFu) + (w.a >> 28u);   // k plus the hash's top nibble
    float band = float(top % 16u) / 15.0;
    frag_color = vec4(c.rgb * (bit == 1u ? 1.0 : 0.45), c.a * 0.5 + band * 0.5);
}
