#version 330 core
precision mediump float;
out vec4 c;
void main() { c = vec4(1.0); }
