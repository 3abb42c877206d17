#version 330 core
layout(location = 0) in vec4 a0;
in vec4 a1;
layout(location = 2) in vec4 a2;
in vec4 a3;
layout(location = 4) in vec4 a4;
in vec4 a5;
layout(location = 6) in vec4 a6;
in vec4 a7;
in vec4 a8;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
