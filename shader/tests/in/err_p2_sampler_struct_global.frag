#pragma chrisos profile 2
// Misuse of a struct with a sampler member (GLSL 3.30 4.1.7: only a uniform or an in parameter).
struct Mat { sampler2D albedo; vec3 tint; };
uniform Mat m;
uniform Mat ms[2];
uniform int k;
in vec2 uv;
out vec4 color;
Mat g;
void main() { color = vec4(1.0); }
