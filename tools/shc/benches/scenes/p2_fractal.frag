#version 330
#pragma chrisos profile 2
// Issue 14's benchmark: a Mandelbrot set of up to 64 steps per pixel (a dynamic loop with a
// uniform bound and a data-dependent break, so neighbouring pixels leave it at different
// iterations), coloured from a palette array indexed by the step count.
in vec2 v_pos;
uniform int u_steps;
uniform vec2 u_center;
uniform float u_zoom;
out vec4 frag_color;

void main() {
    vec3 palette[4] = vec3[4](vec3(0.1, 0.05, 0.3), vec3(0.9, 0.4, 0.1), vec3(1.0, 0.9, 0.4),
                              vec3(0.2, 0.6, 0.9));
    vec2 c = u_center + v_pos * vec2(1.333, 1.0) * u_zoom;
    vec2 z = vec2(0.0);
    int n = 0;
    for (int i = 0; i < u_steps; i++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        if (dot(z, z) > 4.0)
            break;
        n++;
    }
    if (n == u_steps) {
        frag_color = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    float t = float(n) / float(u_steps) * 3.0;
    int k = int(t);
    frag_color = vec4(mix(palette[k], palette[k + 1], fract(t)), 1.0);
}
