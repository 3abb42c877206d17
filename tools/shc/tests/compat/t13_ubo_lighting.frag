#version 330 core
#pragma chrisos profile 2
// Light parameters in an instance-named std140 uniform block (members reflected as
// Lighting.light_pos, ...), Blinn-Phong, drawn with the block-matrices vertex shader.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

layout(std140) uniform Lighting {
    vec3 light_pos;
    vec3 light_color;
    vec3 ambient;
    float shininess;
} lighting;
uniform vec3 u_view_pos;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(lighting.light_pos - v_world);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 h = normalize(l + v);
    vec3 c = lighting.ambient + lighting.light_color *
             (u_diffuse_color * max(dot(n, l), 0.0) + pow(max(dot(n, h), 0.0), lighting.shininess));
    frag_color = vec4(c, 1.0);
}
