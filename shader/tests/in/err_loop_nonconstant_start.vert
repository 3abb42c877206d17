#version 330 core
uniform int u;
void main() {
    for (int i = u; i < 4; i++) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
