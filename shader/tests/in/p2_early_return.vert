#pragma chrisos profile 2
in vec3 pos;
uniform float k;
out vec4 v;
float band(float x) {
    if (x < 0.25) return 0.0;
    if (x < 0.5) {
        return 0.5;
    }
    return 1.0;
}
float first(float x) {
    for (int i = 0; i < 4; i++) {
        if (x < float(i)) return float(i);
    }
    return -1.0;
}
void clampv(inout vec4 c) {
    if (c.x > 1.0) {
        c = vec4(1.0);
        return;
    }
    c.y = 0.0;
}
void main() {
    v = vec4(band(k), first(k), 0.0, 1.0);
    clampv(v);
    gl_Position = vec4(pos, 1.0);
    if (k > 2.0) return;
    gl_Position.x += 1.0;
}
