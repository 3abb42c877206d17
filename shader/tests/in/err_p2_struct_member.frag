#pragma chrisos profile 2
struct L { vec3 color; float k; };
uniform L l;
out vec4 c;
void main() { c = vec4(l.colour, 1.0); }
