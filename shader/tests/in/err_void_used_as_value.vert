#version 330 core
void f() {
}
void main() {
    gl_Position = vec4(f());
}
