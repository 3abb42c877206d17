#pragma chrisos profile 2
in vec3 pos;
uniform float u;
void get(inout float x) { x = 1.0; }
void main() {
    get(u);
    gl_Position = vec4(pos, 1.0);
}
