#version 330 core
in vec3 p;
void main() {
    float a = p[1.0];
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
