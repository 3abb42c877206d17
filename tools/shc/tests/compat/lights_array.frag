#version 330 core
#pragma chrisos profile 2
// Three point lights in a uniform array of structs, summed in a loop with a constant bound,
// over a material struct.
struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

struct Material {
    vec3 ambient;
    vec3 diffuse;
    vec3 specular;
    float shininess;
};

#define NUM_LIGHTS 3

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[NUM_LIGHTS];
uniform Material u_material;
uniform vec3 u_view_pos;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 color = u_material.ambient;
    for (int i = 0; i < NUM_LIGHTS; ++i) {
        vec3 to_light = u_lights[i].position - v_world;
        float falloff = u_lights[i].intensity / (1.0 + 0.1 * dot(to_light, to_light));
        vec3 l = normalize(to_light);
        vec3 h = normalize(l + v);
        color += u_lights[i].color * falloff *
                 (u_material.diffuse * max(dot(n, l), 0.0) +
                  u_material.specular * pow(max(dot(n, h), 0.0), u_material.shininess));
    }
    frag_color = vec4(color, 1.0);
}
