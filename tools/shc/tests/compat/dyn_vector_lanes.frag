#version 330 core
#pragma chrisos profile 2
// Dynamic writes into vector components and matrix columns: a colour built channel by channel
// through v[i] = x with a computed index, and a 3x3 colour matrix whose columns and elements
// are written through variable indexes (m[i][j]) before it is applied.
uniform vec2 u_resolution;
uniform float u_time;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    int lane = int(uv.x * 3.0);
    vec3 base = vec3(0.2);
    for (int i = 0; i < 3; i++) {
        int k = (lane + i) % 3;
        base[k] = 0.2 + 0.3 * float(i) + 0.2 * uv.y;
    }
    mat3 m = mat3(1.0);
    int row = int(uv.y * 3.0);
    for (int j = 0; j < 3; j++) {
        m[j][row] = 0.5 + 0.25 * sin(u_time + float(j) * 2.0);
    }
    m[row] = normalize(m[row]) * 0.9;
    frag_color = vec4(clamp(m * base, 0.0, 1.0), 1.0);
}
