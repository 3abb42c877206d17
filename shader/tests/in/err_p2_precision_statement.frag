#pragma chrisos profile 2
precision highp vec4;
out vec4 c;
void main() { c = vec4(1.0); }
