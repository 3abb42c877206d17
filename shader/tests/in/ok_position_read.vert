#version 330 core
void main() {
    gl_Position = vec4(1.0, 2.0, 3.0, 1.0);
    gl_Position = gl_Position * 0.5;
}
