#version 330 core
layout(location = 0) uniform float u;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
