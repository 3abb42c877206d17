#version 330 core
void main() {
    int i = 0;
    int j = i++;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
