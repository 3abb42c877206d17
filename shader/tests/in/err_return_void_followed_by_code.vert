#version 330 core
void f() {
    gl_Position = vec4(1.0);
    return;
    gl_Position = vec4(2.0);
}
void main() {
    f();
}
