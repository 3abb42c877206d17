#version 330 core
#pragma chrisos profile 2
// Forward lighting with a light count from the application: a loop with a uniform bound,
// dynamic indexing of a uniform array of structs, continue for lights that contribute
// nothing, and a break at the array's capacity.
struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

const int MAX_LIGHTS = 4;

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[MAX_LIGHTS];
uniform int u_light_count;
uniform vec3 u_view_pos;
uniform vec3 u_diffuse_color;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 color = u_ambient;
    for (int i = 0; i < u_light_count; i++) {
        if (i == MAX_LIGHTS)
            break;
        vec3 l = normalize(u_lights[i].position - v_world);
        float ndotl = dot(n, l);
        if (ndotl <= 0.0)
            continue;
        vec3 h = normalize(l + v);
        color += u_lights[i].color * u_lights[i].intensity *
                 (u_diffuse_color * ndotl + vec3(pow(max(dot(n, h), 0.0), 48.0)));
    }
    frag_color = vec4(color, 1.0);
}
