#pragma chrisos profile 2
// GLSL 3.30 4.3.7: uniform blocks cannot hold samplers.
uniform B { sampler2D s; vec4 k; };
uniform C { sampler2D t; vec4 j; } c;
out vec4 color;
void main() { color = k + c.j; }
