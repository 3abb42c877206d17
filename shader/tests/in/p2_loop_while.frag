#pragma chrisos profile 2
// A ray-march style loop: lanes leave at different iterations.
uniform int steps;
uniform float limit;
in vec2 uv;
out vec4 color;
void main() {
    float t = 0.0;
    int n = 0;
    while (n < steps) {
        t += uv.x + 0.01;
        if (t > limit) break;
        n++;
    }
    float acc = 0.0;
    for (int i = 0; i < steps; i++) {
        if (i == 2) continue;
        acc += 1.0;
    }
    int k = 0;
    do {
        k += 2;
    } while (k < n);
    color = vec4(t, float(n), acc, float(k));
}
