#pragma chrisos profile 2
uniform mat3x2 m;
uniform uint u;
void main() {
    int i = 2;
    uint a = u + i;
    mat2 b = m * m;
    vec3 c = m * vec2(1.0);
    bool d = vec2(1.0) < vec2(2.0);
    bool e = u == i;
    uint f = 1;
    gl_Position = vec4(0.0);
}
