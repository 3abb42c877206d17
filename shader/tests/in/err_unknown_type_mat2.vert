#version 330 core
void main() {
    mat2 m;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
