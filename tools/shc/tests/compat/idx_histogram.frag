#version 330 core
#pragma chrisos profile 2
// A local int array of counters incremented at computed indexes (compound assignment and ++
// through a dynamic index), then normalised.
uniform vec2 u_resolution;
uniform int u_steps;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    int bins[4] = int[4](0, 0, 0, 0);
    float x = uv.x * 0.7 + uv.y * 0.3;
    for (int i = 0; i < u_steps; i++) {
        x = fract(x * 3.7 + 0.13);
        int b = int(x * 4.0);
        bins[b] += 1;
        if (b == 0)
            bins[3]++;
    }
    float total = float(u_steps);
    frag_color = vec4(float(bins[0]) / total, float(bins[1]) / total,
                      float(bins[2] + bins[3]) / total, 1.0);
}
