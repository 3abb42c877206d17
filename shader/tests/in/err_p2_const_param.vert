#pragma chrisos profile 2
in vec3 pos;
float f(const in float x) { x += 1.0; return x; }
void main() {
    gl_Position = vec4(pos, f(1.0));
}
