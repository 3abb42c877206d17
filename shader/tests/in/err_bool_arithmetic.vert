#version 330 core
void main() {
    float a = true + 1.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
