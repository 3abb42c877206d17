#version 330 core
struct Light { vec3 p; };
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
