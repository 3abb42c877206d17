#version 330 core
layout(location = 0) in vec4 a0;
in vec4 a1;
layout(location = 2) in vec4 a2;
in vec4 a3;
layout(location = 4) in vec4 a4;
in vec4 a5;
layout(location = 6) in vec4 a6;
in vec4 a7;
void main() {
    gl_Position = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}
