#pragma chrisos profile 2
uniform sampler2D tex[2];
uniform int k;
out vec4 c;
void main() { c = texture(tex[k], vec2(0.5)); }
