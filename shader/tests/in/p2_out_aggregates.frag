#pragma chrisos profile 2
struct Light { vec3 color; float power; };
struct Scene { Light key; float w[2]; };
uniform vec4 u;
out vec4 frag;

void make(out Light l, float p) {
    l.color = u.rgb;
    l.power = p;
}

void dim(inout Light l) { l.power = l.power * 0.5; }

void fill(out float a[3]) {
    a[0] = u.x; a[1] = u.y; a[2] = u.z;
}

void bump(inout Scene s) {
    dim(s.key);
    s.w[1] = s.w[0] + 1.0;
}

void main() {
    Light l;
    make(l, 4.0);
    dim(l);
    float a[3];
    fill(a);
    Light ls[2];
    make(ls[1], 2.0);
    Scene s = Scene(l, float[2](0.25, 0.0));
    bump(s);
    frag = vec4(l.color * l.power + vec3(a[0], a[1], a[2]), ls[1].power + s.key.power + s.w[1]);
}
