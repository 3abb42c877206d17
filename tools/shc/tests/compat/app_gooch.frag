#version 330 core
#pragma chrisos profile 2
// Gooch cool-to-warm shading (technical illustration style) with a soft specular highlight.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_view_pos;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float t = (dot(n, l) + 1.0) * 0.5;
    vec3 cool = vec3(0.0, 0.0, 0.55) + 0.25 * u_diffuse_color;
    vec3 warm = vec3(0.3, 0.3, 0.0) + 0.5 * u_diffuse_color;
    vec3 r = reflect(-l, n);
    float s = smoothstep(0.7, 1.0, dot(r, v));
    frag_color = vec4(mix(mix(cool, warm, t), vec3(1.0), s * 0.8), 1.0);
}
