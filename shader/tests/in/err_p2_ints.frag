#pragma chrisos profile 2
// Misuse of profile 2's integers: bit operators on floats, int with uint, constant division
// by zero, '~' on a float, int | uint.
out vec4 color;
void main() {
    float f = 1.5;
    int i = 3;
    uint u = 4u;
    int a = i & 1.0;
    float b = f << 1;
    uint c = u + i;
    int d = i / 0;
    int e = i % 0;
    float g = ~f;
    uint h = 1u;
    int j = i | u;
    color = vec4(float(a + d + e + j) + b + g + float(c + h));
}
