#version 330 core
void main() {
    const float k = 1.0;
    k = 2.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
