#version 330 core
#pragma chrisos profile 2
// Ray marching three spheres kept in a local array (dynamic reads in the distance loop) with a
// break at the surface and a step count from a uniform.
uniform vec2 u_resolution;
uniform int u_steps;
uniform float u_time;

out vec4 frag_color;

void main() {
    vec2 p = (gl_FragCoord.xy - 0.5 * u_resolution) / u_resolution.y;
    vec4 spheres[3] = vec4[3](vec4(-0.6, 0.0, 3.0, 0.45), vec4(0.5, 0.2, 3.5, 0.6),
                              vec4(0.0, -0.5, 2.5, 0.3));
    vec3 ro = vec3(0.0), rd = normalize(vec3(p, 1.2));
    float t = 0.0;
    int hit = -1;
    for (int s = 0; s < u_steps; s++) {
        vec3 q = ro + rd * t;
        float d = 100.0;
        int best = 0;
        for (int k = 0; k < 3; k++) {
            float dk = length(q - spheres[k].xyz) - spheres[k].w;
            if (dk < d) {
                d = dk;
                best = k;
            }
        }
        if (d < 0.002) {
            hit = best;
            break;
        }
        t += d;
        if (t > 8.0)
            break;
    }
    vec3 col = vec3(0.1, 0.12, 0.2);
    if (hit >= 0) {
        vec3 q = ro + rd * t;
        vec3 n = normalize(q - spheres[hit].xyz);
        float dif = max(dot(n, normalize(vec3(0.6, 0.7, -0.4))), 0.0);
        vec3 base = vec3(0.3);
        base[hit] = 0.9;
        col = base * (0.2 + 0.8 * dif);
    }
    frag_color = vec4(col, 1.0);
}
