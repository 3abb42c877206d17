#pragma chrisos profile 2
struct A { float x; };
struct B { float x; };
uniform A ua;
void set(out A a) { a.x = 1.0; }
void arr(inout float f[2]) { f[0] = 2.0; }
void main() {
    B b;
    set(b);
    float g[3];
    arr(g);
    set(ua);
    set(A(1.0));
    gl_Position = vec4(0.0);
}
