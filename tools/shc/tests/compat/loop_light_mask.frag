#version 330 core
#pragma chrisos profile 2
// Forward lighting over a struct array of lights, the count from the application and the
// enabled lights a bit mask: continue on a disabled light (a shift and an and on the index),
// break at the array's capacity.
struct PointLight {
    vec3 position;
    vec3 color;
    float intensity;
};

const int MAX_LIGHTS = 3;

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform PointLight u_lights[MAX_LIGHTS];
uniform int u_light_count;
uniform int u_light_mask;
uniform vec3 u_view_pos;
uniform vec3 u_ambient;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 color = u_ambient;
    int i = 0;
    while (true) {
        if (i >= u_light_count || i >= MAX_LIGHTS)
            break;
        int index = i++;
        if (((u_light_mask >> index) & 1) == 0)
            continue;
        vec3 to_light = u_lights[index].position - v_world;
        float dist = length(to_light);
        vec3 l = to_light / dist;
        float attenuation = u_lights[index].intensity / (1.0 + 0.15 * dist * dist);
        float ndotl = max(dot(n, l), 0.0);
        float spec = pow(max(dot(reflect(-l, n), v), 0.0), 24.0);
        color += u_lights[index].color * attenuation * (u_diffuse_color * ndotl + 0.5 * spec);
    }
    frag_color = vec4(color, 1.0);
}
