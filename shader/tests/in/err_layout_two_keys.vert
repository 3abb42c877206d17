#version 330 core
layout(location = 0, component = 1) in vec4 p;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
