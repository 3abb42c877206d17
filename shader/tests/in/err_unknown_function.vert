#version 330 core
void main() {
    float a = fract(1.5);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
