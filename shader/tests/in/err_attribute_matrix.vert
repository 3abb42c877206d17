#version 330 core
in mat4 m;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
