#pragma chrisos profile 2
in vec3 pos;
void main() {
    gl_Position = vec4(pos, pos.x ? 1.0 : 2.0);
}
