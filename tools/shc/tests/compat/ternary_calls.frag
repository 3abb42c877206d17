#version 330 core
#pragma chrisos profile 2
// GLSL expression rules: only the selected side of ?: runs (the calls count themselves in a
// global), assignment is an expression, ++/-- give the old or the new value, and a for
// header may use the comma operator.
uniform vec2 u_resolution;

out vec4 frag_color;

float g_calls = 0.0;

float counted(float value) {
    g_calls += 1.0;
    return value;
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float a = uv.x > 0.5 ? counted(uv.y) : counted(1.0 - uv.y);
    float b = uv.y > 0.5 ? counted(0.25) : 0.75;
    float s, t;
    s = t = a * 0.5;
    int k = 0;
    int j = k++;
    int m = ++k;
    int n = k--;
    float acc = 0.0;
    float weight = 0.5;
    for (int i = 0; i < 4; ++i, weight *= 0.5)
        acc += weight * (0.5 + 0.5 * sin(uv.x * float(i + 1) * 6.0));
    float ints = float(j + m * 2 + n + k * 4) / 12.0; // 0 + 4 + 2 + 4 = 10
    frag_color = vec4(s + t * 0.5, b * ints, acc + g_calls * 0.25, 1.0);
}
