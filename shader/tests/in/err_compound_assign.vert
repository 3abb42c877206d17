#version 330 core
void main() {
    float a = 1.0;
    a += 2.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
