#version 330 core
uniform float u;
void main() {
    float x = 1.0;
    if (u > 0.5) {
        x = 2.0;
    }
    gl_Position = vec4(x, x, x, 1.0);
}
