#version 330 core
void main() {
    int a = 4;
    int b = a << 2;
    gl_Position = vec4(float(b));
}
