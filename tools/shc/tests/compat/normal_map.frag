#version 330 core
#pragma chrisos profile 2
// Normal mapping: the tangent-space normal from the map is turned into world space by the
// interpolated TBN frame, then lit by a point light (Blinn-Phong) over an albedo texture.
in vec3 v_world;
in vec2 v_uv;
in vec3 v_tangent;
in vec3 v_bitangent;
in vec3 v_normal;

uniform sampler2D u_albedo;
uniform sampler2D u_normal_map;
uniform vec3 u_light0_pos;
uniform vec3 u_light_color;
uniform vec3 u_view_pos;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    mat3 tbn = mat3(normalize(v_tangent), normalize(v_bitangent), normalize(v_normal));
    vec3 tangent_normal = texture(u_normal_map, v_uv * 2.0).xyz * 2.0 - 1.0;
    vec3 n = normalize(tbn * tangent_normal);
    vec3 l = normalize(u_light0_pos - v_world);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 h = normalize(l + v);
    vec3 albedo = texture(u_albedo, v_uv * 2.0).rgb;
    float diffuse = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.5;
    frag_color = vec4(albedo * (u_ambient * 2.0 + u_light_color * diffuse) + vec3(spec), 1.0);
}
