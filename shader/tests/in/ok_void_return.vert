#version 330 core
void main() {
    gl_Position = vec4(1.0);
    return;
}
