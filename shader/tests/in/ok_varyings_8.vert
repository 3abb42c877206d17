#version 330 core
out float v0;
out float v1;
out float v2;
out float v3;
out float v4;
out float v5;
out float v6;
out float v7;
void main() {
    v0 = 1.0;
    v7 = 2.0;
    gl_Position = vec4(1.0);
}
