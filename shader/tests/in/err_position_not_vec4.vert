#version 330 core
void main() {
    gl_Position = vec3(1.0);
}
