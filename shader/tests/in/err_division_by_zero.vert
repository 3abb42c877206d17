#version 330 core
uniform float u;
void main() {
    float a = u / 0.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
