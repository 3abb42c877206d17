#version 330 core
uniform int u;
void main() {
    for (int i = 0; i < 4; i = i + u) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
