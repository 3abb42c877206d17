#version 330 core
#pragma chrisos profile 2
// Volumetric cloud: front-to-back accumulation of a density field through a slab, a uniform
// sample count, skipping empty samples with continue and stopping early (break) once the
// accumulated opacity is nearly one.
uniform vec2 u_resolution;
uniform float u_time;
uniform int u_steps;

out vec4 frag_color;

float density(vec3 p) {
    float blob = 1.0 - length(p * vec3(1.0, 1.6, 1.0)) / 0.9;
    float detail = 0.25 * sin(p.x * 5.0 + u_time) * sin(p.y * 4.0) * sin(p.z * 6.0 - u_time);
    return clamp(blob + detail, 0.0, 1.0);
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    vec3 origin = vec3(0.0, 0.0, 2.0);
    vec3 dir = normalize(vec3(uv, -1.6));
    vec3 color = vec3(0.0);
    float alpha = 0.0;
    float dt = 2.4 / float(u_steps);
    for (int i = 0; i < u_steps; ++i) {
        vec3 p = origin + dir * (0.8 + dt * (float(i) + 0.5));
        float d = density(p);
        if (d <= 0.0)
            continue;
        float a = 1.0 - exp(-d * dt * 4.0);
        vec3 lit = mix(vec3(0.35, 0.3, 0.45), vec3(1.0, 0.9, 0.75), clamp(p.y + 0.6, 0.0, 1.0));
        color += (1.0 - alpha) * a * lit;
        alpha += (1.0 - alpha) * a;
        if (alpha > 0.97)
            break;
    }
    vec3 sky = vec3(0.25, 0.45, 0.75) + 0.2 * uv.y;
    frag_color = vec4(color + (1.0 - alpha) * sky, 1.0);
}
