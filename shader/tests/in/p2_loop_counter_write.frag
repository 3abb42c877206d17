#pragma chrisos profile 2
// A loop short enough to unroll whose body writes its counter: GLSL allows it, so profile 2
// runs it at run time (budgeted) instead of unrolling it.
in vec2 uv;
out vec4 color;
void main() {
    float s = 0.0;
    for (int i = 0; i < 100; i++) {
        i += 1;
        s += uv.x;
    }
    color = vec4(s, 0.0, 0.0, 1.0);
}
