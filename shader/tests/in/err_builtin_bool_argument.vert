#version 330 core
void main() {
    float c = sin(true);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
