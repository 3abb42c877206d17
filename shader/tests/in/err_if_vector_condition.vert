#version 330 core
in vec2 p;
void main() {
    if (p) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
