#pragma chrisos profile 2
struct A { float x; };
struct B { float x; };
out vec4 c;
float f(A a) { return a.x; }
void main() {
    A a = A(1.0);
    B b = B(2.0);
    a = b;
    bool lt = a < a;
    float y = f(b);
    float z = a + 1.0;
    vec3 w = a.x.rgz;
    Unknown u;
    c = vec4(a.x);
}
