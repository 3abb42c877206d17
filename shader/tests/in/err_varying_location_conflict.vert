#version 330 core
layout(location = 2) out vec4 a;
layout(location = 2) out vec3 b;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
