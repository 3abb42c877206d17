#version 330 core
uniform float u = 1.0;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
