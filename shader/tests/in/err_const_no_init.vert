#version 330 core
void main() {
    const float k;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
