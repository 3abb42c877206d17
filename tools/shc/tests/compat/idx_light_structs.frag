#version 330 core
#pragma chrisos profile 2
// A uniform light count over a local copy of a uniform struct array, with the light index
// chosen at run time and a struct element written through it.
struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[4];
uniform int u_light_count;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    Light ls[4];
    for (int i = 0; i < u_light_count; i++) {
        ls[i] = u_lights[i];
        ls[i].intensity *= 0.9;
    }
    vec3 n = normalize(v_normal);
    vec3 c = u_ambient;
    for (int i = 0; i < u_light_count; i++) {
        Light l = ls[i];
        float d = max(dot(n, normalize(l.position - v_world)), 0.0);
        c += l.color * l.intensity * d;
    }
    frag_color = vec4(c, 1.0);
}
