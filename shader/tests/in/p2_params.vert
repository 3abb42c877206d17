#pragma chrisos profile 2
in vec3 pos;
out vec4 v;
void split(in vec3 p, out float x, inout vec2 yz, const in float k) {
    x = p.x * k;
    yz += p.yz;
}
void place(const vec3 p, out vec4 o) {
    o = vec4(p, 1.0);
}
void bump(inout float f) { f *= 2.0; }
void main() {
    float x;
    vec4 w = vec4(1.0, 2.0, 3.0, 4.0);
    split(pos, x, w.zw, 3.0);
    bump(w[0]);
    v = vec4(x, w.xzw);
    place(pos, gl_Position);
}
