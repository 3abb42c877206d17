#version 330 core
varying vec4 p;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
