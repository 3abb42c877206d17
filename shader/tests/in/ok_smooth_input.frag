#version 330 core
smooth in vec4 col;
out vec4 fragColor;
void main() {
    fragColor = col;
}
