#version 330 core
void main() {
    for (int i = 0; ; i++) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
