#version 330 core
#pragma chrisos profile 2
// Dynamic indexing: a bubble sort of a local array (reads and writes through loop indexes
// the compiler cannot unroll, since the bound is a uniform), then a rank lookup per pixel.
uniform vec2 u_resolution;
uniform int u_octaves;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float v[6];
    for (int i = 0; i < 6; i++)
        v[i] = fract(sin(float(i) * 12.9898 + uv.x * 3.1 + uv.y * 1.7) * 43758.5453);
    int n = u_octaves + 2;
    for (int i = 0; i < n - 1; i++) {
        for (int j = 0; j < n - 1 - i; j++) {
            if (v[j] > v[j + 1]) {
                float t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
        }
    }
    int k = int(uv.x * 5.99);
    frag_color = vec4(v[k], v[0], v[5], 1.0);
}
