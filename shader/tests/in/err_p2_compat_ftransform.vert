#version 330
#pragma chrisos profile 2
void main() {
    gl_Position = ftransform();
}
