#version 330 core
#pragma chrisos profile 2
// A do-while loop with continue: a Fourier-style sum of odd harmonics (a smoothed square
// wave), the number of terms from a uniform.
uniform vec2 u_resolution;
uniform float u_time;
uniform int u_iterations;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float sum = 0.0;
    int k = 0;
    do {
        k++;
        if (k % 2 == 0)
            continue;
        sum += sin(float(k) * (uv.x * 6.2831853 + u_time)) / float(k);
    } while (k < u_iterations * 2);
    float wave = 0.5 + 0.3 * (sum * 1.2732395);
    float line = 1.0 - clamp(abs(uv.y - wave) * 40.0, 0.0, 1.0);
    vec3 color = mix(vec3(0.08, 0.1, 0.2), vec3(0.2, 0.5, 0.8), uv.y < wave ? 0.6 : 0.0);
    frag_color = vec4(mix(color, vec3(1.0, 0.9, 0.4), line), 1.0);
}
