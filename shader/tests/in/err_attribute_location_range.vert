#version 330 core
layout(location = 8) in vec4 a;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
