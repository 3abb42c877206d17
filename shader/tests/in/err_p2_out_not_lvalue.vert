#pragma chrisos profile 2
in vec3 pos;
void get(out float x) { x = 1.0; }
void main() {
    float a;
    get(a + 1.0);
    gl_Position = vec4(pos, a);
}
