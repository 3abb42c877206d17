#version 330 core
void main() {
    int a = 16777217;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
