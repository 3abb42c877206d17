#pragma chrisos profile 2
layout(location = 1) out vec4 c;
layout(location = 1) out vec4 d;
void main() { c = vec4(1.0); d = c; }
