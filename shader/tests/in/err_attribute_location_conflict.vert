#version 330 core
layout(location = 1) in vec4 a;
layout(location = 1) in vec4 b;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
