#version 330 core
float f() {
    return 1.0;
}
void main() {
    gl_Position = vec4(f);
}
