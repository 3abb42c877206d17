#version 330 core
in vec4 p;
uniform int k;
void main() {
    float a = p[k];
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
