#version 330 core
void main() {
    int a = 1 + 0x10 + 2;
    float b = 1.0u * 2.0;
    gl_Position = vec4(b, float(a), 0.0, 1.0);
}
