#version 330 core
#extension GL_ARB_foo : enable
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
