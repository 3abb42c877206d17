#version 330 core
in vec2 uv;
out vec4 fragColor;
void main() {
    fragColor = texture(uv, uv);
}
