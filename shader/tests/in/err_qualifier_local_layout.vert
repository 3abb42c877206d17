#version 330 core
void main() {
    layout(location = 0) out vec4 a;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
