#version 330 core
#pragma chrisos profile 2
// Sphere tracing a small SDF scene (a sphere resting on a rounded box) with a step budget
// from a uniform, break on a hit, discard on a miss, and a normal from central differences.
uniform vec2 u_resolution;
uniform float u_time;
uniform int u_steps;

out vec4 frag_color;

float scene_sdf(vec3 p) {
    float sphere = length(p - vec3(0.0, 0.35, 0.0)) - 0.45;
    vec3 q = abs(p - vec3(0.0, -0.4, 0.0)) - vec3(0.8, 0.2, 0.6);
    float box = length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0) - 0.05;
    return min(sphere, box);
}

vec3 scene_normal(vec3 p) {
    const float e = 0.002;
    return normalize(vec3(scene_sdf(p + vec3(e, 0.0, 0.0)) - scene_sdf(p - vec3(e, 0.0, 0.0)),
                          scene_sdf(p + vec3(0.0, e, 0.0)) - scene_sdf(p - vec3(0.0, e, 0.0)),
                          scene_sdf(p + vec3(0.0, 0.0, e)) - scene_sdf(p - vec3(0.0, 0.0, e))));
}

void main() {
    vec2 uv = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    vec3 origin = vec3(2.2 * sin(u_time * 0.3), 0.9, 2.2 * cos(u_time * 0.3));
    vec3 forward = normalize(-origin);
    vec3 right = normalize(cross(forward, vec3(0.0, 1.0, 0.0)));
    vec3 up = cross(right, forward);
    vec3 dir = normalize(forward * 1.6 + right * uv.x + up * uv.y);
    float t = 0.0;
    bool hit = false;
    for (int i = 0; i < u_steps; ++i) {
        float d = scene_sdf(origin + dir * t);
        if (d < 0.001) {
            hit = true;
            break;
        }
        t += d;
        if (t > 8.0)
            break;
    }
    if (!hit)
        discard;
    vec3 p = origin + dir * t;
    vec3 n = scene_normal(p);
    float diffuse = max(dot(n, normalize(vec3(0.6, 0.8, 0.3))), 0.0);
    vec3 albedo = p.y > -0.05 ? vec3(0.9, 0.4, 0.3) : vec3(0.4, 0.6, 0.8);
    frag_color = vec4(albedo * (0.15 + 0.85 * diffuse), 1.0);
}
