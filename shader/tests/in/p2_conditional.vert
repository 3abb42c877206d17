#pragma chrisos profile 2
in vec3 pos;
uniform float k;
out vec4 v;
float calls = 0.0;
float count(float x) { calls = calls + 1.0; return x; }
void main() {
    float a = true ? 1.0 : 2.0;
    vec3 b = pos.x > k ? pos : vec3(0.0);
    float c = pos.y > 0.0 ? count(3.0) : count(4.0);
    float d = k < 0.0 ? 1 : (k > 1.0 ? 2.0 : 3);
    int e = k > 0.5 ? 7 : -7;
    v = vec4(a + c + d + float(e), b.x, b.y, calls);
    gl_Position = vec4(pos, 1.0);
}
