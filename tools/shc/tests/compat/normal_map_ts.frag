#version 330 core
#pragma chrisos profile 2
// Tangent-space normal mapping: light and view vectors arrive in tangent space, the map's
// normal is used as it is.
in vec3 v_light_ts;
in vec3 v_view_ts;
in vec2 v_uv;

uniform sampler2D u_albedo;
uniform sampler2D u_normal_map;
uniform vec3 u_light0_color;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    vec3 n = normalize(texture(u_normal_map, v_uv * 2.0).rgb * 2.0 - 1.0);
    vec3 l = normalize(v_light_ts);
    vec3 v = normalize(v_view_ts);
    vec3 h = normalize(l + v);
    vec3 albedo = texture(u_albedo, v_uv * 2.0).rgb;
    vec3 color = albedo * (u_ambient * 2.0 + u_light0_color * max(dot(n, l), 0.0));
    color += vec3(0.4) * pow(max(dot(n, h), 0.0), 32.0);
    frag_color = vec4(color, 1.0);
}
