#version 330 core
void main() {
    int x = 010;
    gl_Position = vec4(float(x));
}
