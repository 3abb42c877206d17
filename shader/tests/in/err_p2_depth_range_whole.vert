#version 330
#pragma chrisos profile 2
in vec4 position;
void main() {
    gl_Position = position * gl_DepthRange;
}
