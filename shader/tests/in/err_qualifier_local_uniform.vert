#version 330 core
void main() {
    uniform float a;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
