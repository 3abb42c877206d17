#version 330 core
out vec4 o = vec4(1.0);
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
