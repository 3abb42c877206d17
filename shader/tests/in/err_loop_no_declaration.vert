#version 330 core
void main() {
    int i;
    for (i = 0; i < 4; i++) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
