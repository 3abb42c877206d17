#version 330 core
float f(float x) {
    if (x > 0.0) {
        return 1.0;
    }
    return 0.0;
}
void main() {
    gl_Position = vec4(f(1.0));
}
