#version 330 core
#pragma chrisos profile 2
// A Mandelbrot view with an escape-time loop: the iteration limit from a uniform, break once
// the orbit leaves the radius-4 disc, and a smooth colour from the escape radius (the view is
// a gentle zoom where neighbouring pixels escape in similar times).
uniform vec2 u_resolution;
uniform int u_steps;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    vec2 c = vec2(-2.1, -1.2) + uv * vec2(2.8, 2.4);
    vec2 z = vec2(0.0);
    int n = 0;
    for (; n < u_steps; n++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 16.0)
            break;
    }
    if (n >= u_steps) {
        frag_color = vec4(0.05, 0.02, 0.1, 1.0);
        return;
    }
    float smooth_n = float(n) + 1.0 - log2(log2(dot(z, z)) * 0.5);
    float s = smooth_n / float(u_steps);
    vec3 col = 0.5 + 0.5 * cos(6.2831 * (vec3(0.0, 0.1, 0.2) + s * 2.0));
    frag_color = vec4(col, 1.0);
}
