#pragma chrisos profile 2
in vec3 pos;
out vec4 v;
void main() {
    float s = 0.0;
    float t = 0.0;
    for (int i = 0, j = 10; i < 4; i++, j -= 2) {
        s += float(j);
    }
    for (int i = 0; i < 8; i += 3, t += 1.0) {
        s += float(i);
    }
    v = vec4(s, t, 0.0, 1.0);
    gl_Position = vec4(pos, 1.0);
}
