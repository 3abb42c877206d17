#pragma chrisos profile 2
precision float;
out vec4 c;
void main() { c = vec4(1.0); }
