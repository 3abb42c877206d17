#version 330 core
uniform float u;
void main() {
    gl_Position = vec4(0.0);
    if (u) gl_Position = vec4(1.0);
}
