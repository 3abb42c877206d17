#version 330 core
uniform float u;
void main() {
    int a = int(u);
    int q = a / 2;
    int r = -7 / 2;
    ivec2 iv = ivec2(a, 3) / ivec2(2);
    gl_Position = vec4(float(q), float(r), float(iv.x), 1.0);
}
