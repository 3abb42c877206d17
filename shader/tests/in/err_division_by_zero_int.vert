#version 330 core
uniform int u;
void main() {
    int a = u / 0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
