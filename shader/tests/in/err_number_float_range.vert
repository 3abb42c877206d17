#version 330 core
void main() {
    float a = 1e39;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
