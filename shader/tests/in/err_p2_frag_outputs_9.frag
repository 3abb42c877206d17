#pragma chrisos profile 2
out vec4 c0;
out vec4 c1;
out vec4 c2;
out vec4 c3;
out vec4 c4;
out vec4 c5;
out vec4 c6;
out vec4 c7;
out vec4 c8;
void main() { c0 = vec4(1.0); }
