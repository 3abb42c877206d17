#pragma chrisos profile 2
in vec3 pos;
float g(const out float y) { return 1.0; }
void main() {
    gl_Position = vec4(pos, 1.0);
}
