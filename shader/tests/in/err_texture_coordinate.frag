#version 330 core
uniform sampler2D s;
in vec3 uv;
out vec4 fragColor;
void main() {
    fragColor = texture(s, uv);
}
