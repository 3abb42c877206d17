#version 330 core
#pragma chrisos profile 2
// Blinn-Phong with a material struct uniform (LearnOpenGL's "Materials" chapter) and one
// directional light.
struct Material {
    vec3 ambient;
    vec3 diffuse;
    vec3 specular;
    float shininess;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Material u_material;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_view_pos;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 h = normalize(l + v);
    vec3 ambient = u_material.ambient;
    vec3 diffuse = u_material.diffuse * max(dot(n, l), 0.0);
    vec3 specular = u_material.specular * pow(max(dot(n, h), 0.0), u_material.shininess * 2.0);
    frag_color = vec4(ambient + u_light_color * (diffuse + specular), 1.0);
}
