#pragma chrisos profile 2
layout(location = 1) out vec4 c;
void main() { c = vec4(1.0); }
