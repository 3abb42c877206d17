#version 330 core
void main() {
    int j = 0;
    for (int i = 0; i < 4; j++) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
