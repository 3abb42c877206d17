#version 330 core
#pragma chrisos profile 2
// Three lights as an array of structs with quadratic attenuation and a soft spot cone per light,
// a helper function taking one Light by value.
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
uniform vec3 u_ambient;

out vec4 frag_color;

vec3 shade(Light light, vec3 p, vec3 n, vec3 v) {
    vec3 to_light = light.position - p;
    float d = length(to_light);
    vec3 l = to_light / d;
    float atten = light.intensity / (1.0 + 0.09 * d + 0.032 * d * d);
    vec3 spot_dir = normalize(-light.position);
    float cone = smoothstep(0.55, 0.85, dot(-l, spot_dir));
    vec3 h = normalize(l + v);
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, h), 0.0), 40.0);
    return light.color * atten * (0.35 + 0.65 * cone) * (diff + 0.6 * spec);
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 color = u_ambient;
    for (int i = 0; i < 3; i++) {
        color += shade(u_lights[i], v_world, n, v);
    }
    frag_color = vec4(color, 1.0);
}
