#version 450 core
layout(location = 0) in vec4 position;
layout(location = 1) in vec3 vertexColor;
layout(location = 0) out vec3 color;

void main() {
    color = vertexColor;
    gl_Position = position;
}
