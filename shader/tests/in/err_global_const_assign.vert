#version 330 core
const float k = 1.0;
void main() {
    k = 2.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
