#version 330 core
#pragma chrisos profile 2
// Terrain by ray marching a height field: fixed steps until the ray falls below the ground
// (break), then a do-while bisection refines the crossing point between the last two samples.
uniform vec2 u_resolution;
uniform int u_steps;
uniform int u_iterations;

out vec4 frag_color;

float terrain(vec2 xz) {
    return 0.25 * sin(xz.x * 1.7) * cos(xz.y * 1.3) + 0.12 * sin(xz.x * 3.1 + xz.y * 2.3) - 0.4;
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    vec3 origin = vec3(0.0, 0.45, 2.0);
    vec3 dir = normalize(vec3(uv.x, uv.y * 0.8 - 0.3, -1.2));
    float step_len = 6.0 / float(u_steps);
    float t_prev = 0.0;
    float t = 0.0;
    bool hit = false;
    for (int i = 0; i < u_steps; i++) {
        t += step_len;
        vec3 p = origin + dir * t;
        if (p.y < terrain(p.xz)) {
            hit = true;
            break;
        }
        t_prev = t;
    }
    vec3 sky = mix(vec3(0.9, 0.75, 0.6), vec3(0.35, 0.5, 0.8), clamp(uv.y + 0.3, 0.0, 1.0));
    if (!hit) {
        frag_color = vec4(sky, 1.0);
        return;
    }
    float lo = t_prev;
    float hi = t;
    int k = 0;
    do {
        float mid = 0.5 * (lo + hi);
        vec3 p = origin + dir * mid;
        if (p.y < terrain(p.xz))
            hi = mid;
        else
            lo = mid;
        k++;
    } while (k < u_iterations);
    vec3 p = origin + dir * hi;
    float h = terrain(p.xz);
    vec3 grass = vec3(0.25, 0.5, 0.2);
    vec3 rock = vec3(0.55, 0.5, 0.45);
    vec3 c = mix(grass, rock, smoothstep(-0.55, -0.2, h));
    float fog = 1.0 - exp(-0.25 * hi);
    frag_color = vec4(mix(c, sky, fog), 1.0);
}
