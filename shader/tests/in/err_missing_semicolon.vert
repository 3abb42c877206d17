#version 330 core
void main() {
    float a = 1.0
    gl_Position = vec4(a);
}
