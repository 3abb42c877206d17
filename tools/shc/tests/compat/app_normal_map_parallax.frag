#version 330 core
#pragma chrisos profile 2
// Normal mapping with the light brought into tangent space (transpose of the TBN frame, as
// tutorials do to save work per light), a Blinn-Phong term and an albedo texture.
in vec3 v_world;
in vec2 v_uv;
in vec3 v_tangent;
in vec3 v_bitangent;
in vec3 v_normal;

uniform sampler2D u_albedo;
uniform sampler2D u_normal_map;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_view_pos;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    mat3 tbn = mat3(normalize(v_tangent), normalize(v_bitangent), normalize(v_normal));
    mat3 to_tangent = transpose(tbn);
    vec3 l = to_tangent * normalize(u_light0_pos - v_world);
    vec3 v = to_tangent * normalize(u_view_pos - v_world);
    vec3 n = normalize(texture(u_normal_map, v_uv * 2.0).rgb * 2.0 - 1.0);
    vec3 h = normalize(l + v);
    vec3 albedo = texture(u_albedo, v_uv * 2.0).rgb;
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, h), 0.0), 32.0);
    frag_color = vec4(albedo * (u_ambient * 2.5 + u_light0_color * diff) + 0.4 * spec * u_light0_color, 1.0);
}
