#version 330 core
in vec4 used;
in vec4 unused;
uniform mat4 unusedMatrix;
void main() {
    gl_Position = used;
}
