#pragma chrisos profile 2
in vec4 pos;
uniform mat4 m;
uniform float k;
out vec4 v;
void main() {
    float a = k;
    a += 1.0;
    a -= 0.25;
    a *= 3.0;
    a /= 2.0;
    vec4 p = pos;
    p *= 2.0;
    p.xy += vec2(k, 1.0);
    p.z -= 1;
    p[3] /= 4.0;
    mat4 n = m;
    n *= m;
    int i = 7;
    i /= 2;
    i *= 3;
    a += float(i);
    v = p + vec4(a);
    gl_Position = n * pos;
}
