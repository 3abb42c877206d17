#version 330 core
uniform sampler2D s;
in float u;
out vec4 fragColor;
void main() {
    fragColor = texture(s, u);
}
