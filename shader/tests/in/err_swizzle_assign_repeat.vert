#version 330 core
void main() {
    vec4 a = vec4(1.0);
    a.xx = vec2(1.0);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
