#version 330 core
#pragma chrisos profile 2
// floatBitsToUint/uintBitsToFloat and friends: the exponent and mantissa of a float read as
// bits, a float built from bits (the "1.0 | random mantissa" trick), a sign flip by xor and
// int division and remainder laying out tiles.
in vec2 v_uv;
uniform float u_time;

out vec4 frag_color;

void main() {
    float x = v_uv.x * 8.0 + 0.25 + u_time;
    uint b = floatBitsToUint(x);
    int e = int((b >> 23) & 0xffu) - 127;
    uint mant = b & 0x7fffffu;
    ivec2 t = ivec2(gl_FragCoord.xy);
    int tile = t.x / 8 + (t.y / 8) * 8;
    uint h = uint(tile) * 2654435761u;
    float rnd = uintBitsToFloat(0x3f800000u | (h >> 9)) - 1.0;   // [0, 1)
    float flipped = intBitsToFloat(floatBitsToInt(-rnd) ^ int(0x80000000u));
    float r = float(e + 2) / 6.0;
    float g = float(mant >> 15) / 255.0;
    float c = float(t.x % 8 + t.y % 8) / 14.0;
    frag_color = vec4(r, g * 0.5 + flipped * 0.5, c, 1.0);
}
