#version 330 core
void main() {
    float s = 1.0;
    float a = s[0];
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
