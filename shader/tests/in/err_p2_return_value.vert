#pragma chrisos profile 2
in vec3 pos;
float f(float x) {
    if (x > 0.0) return;
    return vec2(x);
}
void main() {
    gl_Position = vec4(pos, f(1.0));
}
