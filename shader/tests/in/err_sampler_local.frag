#version 330 core
out vec4 fragColor;
void main() {
    sampler2D s;
    fragColor = vec4(1.0);
}
