#pragma chrisos profile 2
in Attribs { vec3 p; } a;
out Bad { bool m; } bad;
layout(std140) uniform U { float x; } u;
void main() { u.x = 1.0; gl_Position = vec4(0.0); }
