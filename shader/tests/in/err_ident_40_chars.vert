#version 330 core
void main() {
    float aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = 1.0;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
