#version 330 core
uniform float u;
void main() {
    bool a = u && true;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
