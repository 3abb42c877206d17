#version 330 core
sampler2D s;
out vec4 c;
void main() { c = vec4(1.0); }
