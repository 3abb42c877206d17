#version 330 core
void main() {
    for (float f = 0.0; f < 4.0; f++) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
