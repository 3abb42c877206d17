#pragma chrisos profile 2
in vec3 pos;
void main() {
    int i = 1;
    i += 1.5;
    float f = 2.0;
    f %= 2.0;
    vec3 v = pos;
    v += vec2(1.0);
    gl_Position = vec4(pos, 1.0);
}
