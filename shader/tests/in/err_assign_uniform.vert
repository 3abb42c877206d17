#version 330 core
uniform vec4 u;
void main() {
    u = vec4(1.0);
    gl_Position = u;
}
