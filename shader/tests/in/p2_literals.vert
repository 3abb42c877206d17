#pragma chrisos profile 2
// Integer literals in every base, u/U suffixes (uint literals), floats in every GLSL form.
out vec4 v;
void main() {
    int h = 0x1F + 0XaB + 0x0;
    int o = 017 + 00 + 0;
    uint u = 7u + 0x10U + 010u + 16777216u;
    float f = 1. + .5 + 1e3 + 1.5E-2f + 2.0F + 3e+2 + 4E-1 + 010.5 + 1.0e0f;
    v = vec4(float(h), float(o), float(u), f);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
