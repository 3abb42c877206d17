#version 330 core
#pragma chrisos profile 2
// A const array of material structs blended along the sphere's latitude (mix between the two
// nearest entries, so there is no hard step), lit by the uniform material's light setup.
struct Material {
    vec3 diffuse;
    vec3 specular;
    float shininess;
};

const Material PALETTE[4] = Material[4](
    Material(vec3(0.8, 0.2, 0.2), vec3(1.0), 16.0),
    Material(vec3(0.2, 0.7, 0.3), vec3(0.5), 32.0),
    Material(vec3(0.2, 0.3, 0.9), vec3(0.9), 64.0),
    Material(vec3(0.9, 0.8, 0.3), vec3(0.3), 8.0));

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_view_pos;
uniform vec3 u_ambient;

out vec4 frag_color;

Material blend(Material a, Material b, float t) {
    return Material(mix(a.diffuse, b.diffuse, t), mix(a.specular, b.specular, t),
                    mix(a.shininess, b.shininess, t));
}

void main() {
    float x = clamp(v_uv.y, 0.0, 1.0) * 2.999;
    Material m = blend(PALETTE[0], PALETTE[1], smoothstep(0.0, 1.0, x));
    m = blend(m, PALETTE[2], smoothstep(1.0, 2.0, x));
    m = blend(m, PALETTE[3], smoothstep(2.0, 3.0, x));
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 h = normalize(l + v);
    vec3 c = u_ambient + u_light_color * (m.diffuse * max(dot(n, l), 0.0) +
                                          m.specular * pow(max(dot(n, h), 0.0), m.shininess));
    frag_color = vec4(c, 1.0);
}
