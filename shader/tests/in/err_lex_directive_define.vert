#version 330 core
#define SCALE 2.0
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
