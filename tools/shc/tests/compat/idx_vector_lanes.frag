#version 330 core
#pragma chrisos profile 2
// Dynamic vector lanes and matrix columns: v[i] and m[i] read and written in loops.
uniform vec2 u_resolution;
uniform int u_iterations;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec4 v = vec4(uv, 0.25, 0.75);
    mat3 m = mat3(1.0);
    int c = 0;
    for (int i = 0; i < u_iterations; i++) {
        v[c] = v[c] * 0.5 + v[c + 1] * 0.5;
        m[c] = m[c] * 0.8 + vec3(v[c], uv.yx) * 0.2;
        m[c][c] += 0.1 * v.w;
        c++;
        if (c == 3)
            c = 0;
    }
    vec3 col = m * vec3(v.xyz);
    frag_color = vec4(fract(col), 1.0);
}
