#version 330 core
out int i;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
