#pragma chrisos profile 2
in vec3 pos;
out vec4 v;
void main() {
    int i = 0;
    int a = i++;
    int b = ++i;
    int c = i--;
    int d = --i;
    float f = 1.5;
    float g = f++ + ++f;
    vec2 w = vec2(1.0, 2.0);
    w++;
    ++w.y;
    v = vec4(float(a + b * 10 + c * 100 + d * 1000), g, w);
    gl_Position = vec4(pos, 1.0);
}
