#version 330 core
#pragma chrisos profile 2
// A cluster of spheres with ambient occlusion: sphere tracing with break on a hit, then a
// uniform number of samples along the normal, weighted by distance, in a while loop.
uniform vec2 u_resolution;
uniform int u_steps;
uniform int u_octaves;

out vec4 frag_color;

const vec4 SPHERES[4] = vec4[](vec4(-0.45, -0.1, 0.0, 0.4), vec4(0.4, -0.2, 0.2, 0.3),
                               vec4(0.05, 0.35, -0.2, 0.32), vec4(0.0, -1.5, 0.0, 1.0));

float sd_scene(vec3 p) {
    float d = 1e9;
    for (int i = 0; i < 4; i++) {
        d = min(d, length(p - SPHERES[i].xyz) - SPHERES[i].w);
    }
    return d;
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    vec3 origin = vec3(0.0, 0.2, 2.2);
    vec3 dir = normalize(vec3(uv, -1.5));
    float t = 0.0;
    bool hit = false;
    for (int i = 0; i < u_steps; i++) {
        float d = sd_scene(origin + dir * t);
        if (d < 0.001) {
            hit = true;
            break;
        }
        t += d;
        if (t > 6.0)
            break;
    }
    if (!hit) {
        frag_color = vec4(0.12, 0.1, 0.16, 1.0);
        return;
    }
    vec3 p = origin + dir * t;
    const vec2 e = vec2(0.002, 0.0);
    vec3 n = normalize(vec3(sd_scene(p + e.xyy) - sd_scene(p - e.xyy),
                            sd_scene(p + e.yxy) - sd_scene(p - e.yxy),
                            sd_scene(p + e.yyx) - sd_scene(p - e.yyx)));
    float occlusion = 0.0;
    float weight = 1.0;
    int k = 1;
    while (k <= u_octaves) {
        float h = 0.06 * float(k);
        occlusion += weight * (h - sd_scene(p + n * h));
        weight *= 0.6;
        k++;
    }
    float ao = clamp(1.0 - 4.0 * occlusion, 0.0, 1.0);
    float diffuse = max(dot(n, normalize(vec3(0.5, 0.8, 0.6))), 0.0);
    vec3 albedo = p.y < -0.45 ? vec3(0.7, 0.7, 0.65) : vec3(0.3, 0.6, 0.9);
    frag_color = vec4(albedo * (0.35 * ao + 0.65 * diffuse * ao), 1.0);
}
