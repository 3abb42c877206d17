#version 330 core
#pragma chrisos profile 2
// Structs as values: a Surface built by a function returning a struct (struct constructor),
// a Light struct passed as a parameter, struct assignment and member updates.
struct Surface {
    vec3 albedo;
    vec3 normal;
    float roughness;
};

struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[3];
uniform vec3 u_view_pos;

out vec4 frag_color;

Surface make_surface(vec3 n, vec2 uv) {
    float stripe = 0.5 + 0.5 * sin(uv.x * 60.0);
    return Surface(mix(vec3(0.8, 0.3, 0.2), vec3(0.9, 0.8, 0.6), stripe), normalize(n),
                   mix(0.2, 0.6, stripe));
}

vec3 shade(Surface s, Light light, vec3 v) {
    vec3 l = normalize(light.position - v_world);
    vec3 h = normalize(l + v);
    float shininess = 2.0 / (s.roughness * s.roughness);
    float spec = pow(max(dot(s.normal, h), 0.0), shininess) * (1.0 - s.roughness);
    return light.color * light.intensity * (s.albedo * max(dot(s.normal, l), 0.0) + vec3(spec));
}

void main() {
    Surface s = make_surface(v_normal, v_uv);
    Surface copy = s;
    copy.albedo *= 0.5;
    vec3 v = normalize(u_view_pos - v_world);
    Light key = u_lights[0];
    key.intensity *= 1.2;
    vec3 color = shade(s, key, v) + shade(copy, u_lights[1], v) + 0.03 * s.albedo;
    frag_color = vec4(color, 1.0);
}
