#version 330 core
in vec4 vcolor;
out vec4 fragColor;

void main() {
    fragColor = vcolor;
}
