#pragma chrisos profile 2
float f() {
    struct Inner { float v; };
    Inner i = Inner(1.0);
    return i.v;
}
void main() {
    Inner j = Inner(2.0);
    gl_Position = vec4(f());
}
