#version 330 core
uniform vec4 colors[4];
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
