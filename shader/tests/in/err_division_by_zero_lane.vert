#version 330 core
uniform vec2 u;
void main() {
    vec2 a = u / vec2(1.0, 0.0);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
