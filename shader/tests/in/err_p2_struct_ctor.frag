#pragma chrisos profile 2
struct L { vec3 color; float k; };
out vec4 c;
void main() {
    L a = L(vec3(1.0));
    L b = L(1.0, vec3(1.0));
    c = vec4(a.color + b.color, 1.0);
}
