#version 330 core
uniform float t;
uniform vec2 t;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
