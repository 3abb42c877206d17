#version 330 core
void main() {
    void v;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
