#version 330 core
float f(float x) {
    return x * 2.0;
    x = x + 1.0;
}
void main() {
    gl_Position = vec4(f(1.0));
}
