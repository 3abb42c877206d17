#version 330 core
float f(float x) {
    return g(x);
}
float g(float x) {
    return f(x);
}
void main() {
    gl_Position = vec4(f(1.0));
}
