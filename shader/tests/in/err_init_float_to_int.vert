#version 330 core
void main() {
    int a = 1.5;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
