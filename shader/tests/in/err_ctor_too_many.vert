#version 330 core
void main() {
    vec2 a = vec2(1.0, 2.0, 3.0);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
