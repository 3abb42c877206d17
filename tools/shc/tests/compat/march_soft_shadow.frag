#version 330 core
#pragma chrisos profile 2
// Sphere-traced pillars on a floor with soft shadows: the primary ray breaks on a hit or when
// it leaves the scene, its step budget a uniform; the shadow ray marches towards the light,
// keeping the narrowest penumbra ratio, and breaks once fully occluded.
uniform vec2 u_resolution;
uniform int u_steps;

out vec4 frag_color;

float sd_scene(vec3 p) {
    float floor_d = p.y + 0.5;
    vec3 q = p;
    q.x = abs(q.x) - 0.55;
    float pillar = length(vec2(q.x, q.z)) - 0.22;
    pillar = max(pillar, p.y - 0.6);
    float ball = length(p - vec3(0.0, 0.05, -0.35)) - 0.3;
    return min(floor_d, min(pillar, ball));
}

float soft_shadow(vec3 p, vec3 l) {
    float shade = 1.0;
    float t = 0.02;
    for (int i = 0; i < u_steps; i++) {
        float d = sd_scene(p + l * t);
        shade = min(shade, 8.0 * d / t);
        if (shade < 0.01)
            break;
        t += clamp(d, 0.02, 0.25);
        if (t > 4.0)
            break;
    }
    return clamp(shade, 0.0, 1.0);
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    vec3 origin = vec3(0.0, 0.7, 2.4);
    vec3 dir = normalize(vec3(uv.x, uv.y - 0.35, -1.5));
    float t = 0.0;
    int steps = 0;
    bool hit = false;
    while (steps < u_steps) {
        float d = sd_scene(origin + dir * t);
        if (d < 0.0015) {
            hit = true;
            break;
        }
        t += d;
        if (t > 10.0)
            break;
        steps++;
    }
    vec3 sky = mix(vec3(0.55, 0.65, 0.8), vec3(0.2, 0.3, 0.5), uv.y * 0.5 + 0.5);
    if (!hit) {
        frag_color = vec4(sky, 1.0);
        return;
    }
    vec3 p = origin + dir * t;
    const vec2 e = vec2(0.002, 0.0);
    vec3 n = normalize(vec3(sd_scene(p + e.xyy) - sd_scene(p - e.xyy),
                            sd_scene(p + e.yxy) - sd_scene(p - e.yxy),
                            sd_scene(p + e.yyx) - sd_scene(p - e.yyx)));
    vec3 l = normalize(vec3(-0.6, 0.9, 0.4));
    float diffuse = max(dot(n, l), 0.0) * soft_shadow(p + n * 0.01, l);
    vec3 albedo = p.y < -0.49 ? vec3(0.75, 0.7, 0.6) : vec3(0.85, 0.35, 0.25);
    frag_color = vec4(albedo * (0.2 + 0.8 * diffuse), 1.0);
}
