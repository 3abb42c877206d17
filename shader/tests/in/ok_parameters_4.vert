#version 330 core
float f(float a, float b, float c, float d) {
    return a * b + c * d;
}
void main() {
    gl_Position = vec4(f(1.0, 2.0, 3.0, 4.0));
}
