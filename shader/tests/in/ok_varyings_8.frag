#version 330 core
in float v0;
in float v1;
in float v2;
in float v3;
in float v4;
in float v5;
in float v6;
in float v7;
out vec4 fragColor;
void main() {
    fragColor = vec4(v0 + v1 + v2 + v3, v4 + v5, v6, v7);
}
