#version 330 core
#pragma chrisos profile 2
// Profile 2's integer edge cases, one per 4x16 block of the picture, each 32-bit result written
// as its four bytes (r = bits 0..7, ..., a = bits 24..31): INT_MIN / -1, INT_MAX + 1, division
// and remainder by zero, shifts by 0/31/32, uint wrap, NaN/inf/huge floats to int and uint.
// Every operand comes from a uniform (z is 0 at run time), so nothing folds at compile time.
uniform float u_time;
uniform int u_steps;

out vec4 frag_color;

vec4 bytes(uint v) {
    return vec4(float(v & 255u), float((v >> 8) & 255u), float((v >> 16) & 255u), float(v >> 24)) / 255.0;
}

void main() {
    int c = int(gl_FragCoord.x) / 4 + 16 * (int(gl_FragCoord.y) / 16);
    int z = u_steps - 40;                 // 0
    uint uz = uint(z);
    int imin = int(0x80000000u + uz);
    int imax = 0x7fffffff + z;
    float nan = uintBitsToFloat(0x7fc00000u + uz);
    float inf = uintBitsToFloat(0x7f800000u + uz);
    float big = 3.0e9 + float(z);
    uint r = 0x5a5a5a5au;
    if (c == 0) r = uint(imin / (z - 1));
    if (c == 1) r = uint(imax + 1);
    if (c == 2) r = uint(7 / z);
    if (c == 3) r = uint(-7 / z);
    if (c == 4) r = 7u / uz;
    if (c == 5) r = uint(7 % z);
    if (c == 6) r = 7u % uz;
    if (c == 7) r = uint(-7 % (z + 2));
    if (c == 8) r = uint(7 % (z - 2));
    if (c == 9) r = uint(-7 / (z + 2));
    if (c == 10) r = 1u << (uz + 0u);
    if (c == 11) r = 1u << (uz + 31u);
    if (c == 12) r = uint(-8 >> (z + 33));
    if (c == 13) r = 0x80000000u >> (uz + 31u);
    if (c == 14) r = uz - 1u;
    if (c == 15) r = 0xffffffffu + uz + 2u;
    if (c == 16) r = (0x10000u + uz) * 0x10000u;
    if (c == 17) r = uint(int(nan));
    if (c == 18) r = uint(int(inf));
    if (c == 19) r = uint(int(-inf));
    if (c == 20) r = uint(int(big));
    if (c == 21) r = uint(big);
    if (c == 22) r = uint(nan);
    if (c == 23) r = uint(inf);
    if (c == 24) r = uint(-big);
    if (c == 25) r = uint(-3.7 + float(z));
    if (c == 26) r = uint(int(-3.7 + float(z)));
    if (c == 27) r = uint(-0.5 + float(z));
    if (c == 28) r = uint(abs(imin));
    if (c == 29) r = uint(-imin);
    if (c == 30) r = uint(sign(imin));
    if (c == 31) r = uint(imin * (z - 1));
    if (c == 32) r = floatBitsToUint(float(0xffffffffu + uz));
    if (c == 33) r = floatBitsToUint(float(imin));
    if (c == 34) r = uint(imin < imax) + 2u * uint(0xffffffffu + uz < 1u);
    if (c == 35) r = uint(max(imin, z - 1)) ^ uint(min(0xfffffff0u + uz, 7u));
    if (c == 36) r = uint(~z);
    if (c == 37) r = uint(u_time * 1000.0) % (uz + 7u);
    if (c == 38) r = floatBitsToUint(-0.0 - float(z));
    if (c == 39) r = uint(clamp(imin, -3, 3)) + uint(clamp(imax, -3, 3)) * 16u;
    // uint(f) of NaN, infinities and negative values is undefined in GLSL, and llvmpipe's answer
    // depends on the host CPU: its SSE/AVX2 sequence gives 0x80000000 (and int(f)'s bits above
    // -2^31), AVX-512's VCVTTPS2UDQ gives 0xFFFFFFFF. Fold the AVX-512 answer into the other one,
    // so this picture is the same on every host while any third answer still shows.
    if (c == 22 || c == 23 || c == 24) r = r == 0xffffffffu ? 0x80000000u : r;
    if (c == 25) r = r == 0xffffffffu ? 0xfffffffdu : r;
    frag_color = bytes(r);
}
