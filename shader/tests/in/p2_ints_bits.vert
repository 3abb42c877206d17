#pragma chrisos profile 2
// Literals up to 32 bits, int <-> uint conversions (the bits stay), int/uint from float and
// bool, integer vectors, gl_VertexID as an int, and flat integer varyings.
in vec3 pos;
flat out int vid;
flat out uvec2 bits;
void main() {
    int a = 0xFFFFFFFF;                     // -1
    uint b = 4294967295u;
    int c = -2147483647 - 1;
    uint d = uint(a) ^ b;                   // 0
    ivec3 iv = ivec3(pos * 10.0);
    uvec3 uv = uvec3(iv) + uvec3(1u, 2u, 3u);
    int t = int(true) + int(pos.x > 0.5);
    vid = gl_VertexID * 2 + t;
    bits = uvec2(uv.x | d, uint(c) >> 31u);
    gl_Position = vec4(vec3(iv) * 0.1, float(uv.y % 3u));
}
