#pragma chrisos profile 2
// uint values, u literals and GLSL 3.30's conversions (int -> float, uint -> float).
uniform uint count;
uniform uvec3 ids;
flat out uint vid;
flat out ivec2 cell;
void main() {
    uint a = 3u + count * 2u;
    uvec2 v = uvec2(ids.xy) / uvec2(2u);
    uint h = 0x1Fu;
    float f = a;
    vid = a + h;
    cell = ivec2(int(v.x), -1);
    gl_Position = vec4(f, float(v.y), float(uint(2.5)), 1.0);
}
