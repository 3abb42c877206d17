#pragma chrisos profile 2
in vec3 pos;
out vec4 v;
void main() {
    float a; float b; float c = pos.x;
    a = b = c;
    vec4 q = vec4(0.0);
    float e = (q.y = 2.0) + (q.x = c * 3.0);
    int i; int j;
    i = j = 5;
    v = vec4(a + b, e, q.x + q.y, float(i + j));
    gl_Position = vec4(pos, 1.0);
}
