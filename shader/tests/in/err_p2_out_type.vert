#pragma chrisos profile 2
in vec3 pos;
void get(out float x) { x = 1.5; }
void main() {
    int i;
    get(i);
    gl_Position = vec4(pos, 1.0);
}
