#pragma chrisos profile 2
uniform float u;
out vec4 c;
void main() {
    float a[3] = float[3](1.0, 2.0, 3.0);
    float b[2] = float[2](1.0, 2.0);
    a = b;
    float x = a[3];
    float y = float[2](1.0, 2.0, 3.0)[0];
    int n = u.length();
    float s[int(u)];
    bool lt = a < a;
    vec3 v[2] = vec3[2](vec3(1.0), 2.0);
    c = vec4(a[0] + x + y + float(n));
}
