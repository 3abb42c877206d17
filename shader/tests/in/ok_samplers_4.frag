#version 330 core
uniform sampler2D s0;
uniform sampler2D s1;
uniform sampler2D s2;
uniform sampler2D s3;
in vec2 uv;
out vec4 fragColor;
void main() {
    fragColor = texture(s0, uv) + texture(s1, uv) + texture(s2, uv) + texture(s3, uv);
}
