#version 330 core
void main() {
    float a = 1e3 + 1.5e-2 + .5 + 5. + 2E+1 + 1.0f + 0.0;
    int b = 16777216;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
