#version 330 core
#pragma chrisos profile 2
// Point lights as an array of structs handed to functions (a struct parameter, a struct
// return, .length(), a local copy of the uniform array) and a const array of tints.
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

struct Contribution {
    vec3 diffuse;
    vec3 specular;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[3];
uniform Material u_material;
uniform vec3 u_view_pos;

out vec4 frag_color;

const vec3 TINTS[3] = vec3[3](vec3(1.0, 0.9, 0.8), vec3(0.8, 0.9, 1.0), vec3(1.0));

Contribution light_one(Light light, vec3 n, vec3 v) {
    vec3 to_light = light.position - v_world;
    float falloff = light.intensity / (1.0 + 0.1 * dot(to_light, to_light));
    vec3 l = normalize(to_light);
    vec3 h = normalize(l + v);
    Contribution c;
    c.diffuse = light.color * falloff * max(dot(n, l), 0.0);
    c.specular = light.color * falloff * pow(max(dot(n, h), 0.0), u_material.shininess);
    return c;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    Light lights[3] = u_lights;
    lights[2].intensity *= 0.5;
    vec3 color = u_material.ambient;
    for (int i = 0; i < lights.length(); ++i) {
        Contribution c = light_one(lights[i], n, v);
        color += TINTS[i] * (u_material.diffuse * c.diffuse + u_material.specular * c.specular);
    }
    frag_color = vec4(color, 1.0);
}
