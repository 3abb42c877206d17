#pragma chrisos profile 2
// Loops that never end by themselves stop at the bound (P2_LOOP_ITERATIONS_MAX).
out vec4 color;
void main() {
    float n = 0.0;
    while (true) {
        n += 1.0;
    }
    float m = 0.0;
    for (int i = 0; i < 100; i++) {
        m += 1.0;
    }
    color = vec4(n, m, 0.0, 1.0);
}
