#pragma chrisos profile 2
layout(location = 0) out vec4 c;
layout(location = 8) out vec4 d;
void main() { c = vec4(1.0); d = c; }
