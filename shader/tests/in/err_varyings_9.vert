#version 330 core
out float v0;
out float v1;
out float v2;
out float v3;
out float v4;
out float v5;
out float v6;
out float v7;
out float v8;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
