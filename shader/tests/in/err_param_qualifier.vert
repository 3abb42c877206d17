#version 330 core
float f(inout float x) { return x; }
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
