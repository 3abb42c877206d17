#version 330 core
#pragma chrisos profile 2
// True integer arithmetic on pixel coordinates: the XOR texture, bit masks, shifts, integer
// modulus and division that truncates toward zero for negative values.
out vec4 frag_color;

void main() {
    int x = int(gl_FragCoord.x);
    int y = int(gl_FragCoord.y);
    int v = (x ^ y) & 31;
    v |= ((x >> 4) & 1) << 5;
    int ring = (x - 32) / 5 + (y - 32) / 7;   // truncation toward zero
    int band = (x * 3 + y) % 7;
    float r = float(v) / 63.0;
    float g = float(band) / 6.0;
    float b = float(ring + 12) / 24.0;
    frag_color = vec4(r, g * 0.8, b, 1.0);
}
