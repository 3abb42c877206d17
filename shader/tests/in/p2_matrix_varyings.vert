#pragma chrisos profile 2
// Matrix varyings (GLSL 3.30 section 4.3.6): a varying slot per column, reflected as m[c] with
// the matrix type; layout(location = N) puts column c at N + c.
in vec4 pos;
out mat3 tbn;
layout(location = 4) noperspective out mat2x4 m24;
out float f;
void main() {
    tbn = mat3(pos.xyz, pos.yzx, pos.zxy);
    m24 = mat2x4(pos, pos.wzyx);
    f = pos.w;
    gl_Position = pos;
}
