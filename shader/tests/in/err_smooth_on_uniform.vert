#version 330 core
smooth uniform vec4 u;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
