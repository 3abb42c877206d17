#version 330 core
float f() {
    return secret;
}
void main() {
    float secret = 1.0;
    gl_Position = vec4(f());
}
