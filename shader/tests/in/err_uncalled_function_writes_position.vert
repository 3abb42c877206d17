#version 330 core
void never() {
    gl_Position = vec4(1.0);
}
void main() {
    float a = 1.0;
}
