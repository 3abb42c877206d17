#version 330 core
void main() {
    gl_Position = gl_FragCoord;
}
