#version 330 core
float f(float a, float b) {
    return a + b;
}
void main() {
    gl_Position = vec4(f(1.0));
}
