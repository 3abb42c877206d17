#version 330 core
void f() {
    return 1.0;
}
void main() {
    f();
    gl_Position = vec4(1.0);
}
