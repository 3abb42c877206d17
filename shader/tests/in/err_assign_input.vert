#version 330 core
in vec4 p;
void main() {
    p = vec4(1.0);
    gl_Position = p;
}
