#version 330 core
#pragma chrisos profile 2
// Rim lighting on top of wrapped diffuse, written to a vec3 colour output.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_diffuse_color;
uniform vec3 u_rim_color;
uniform float u_rim_power;

out vec3 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0) * 0.8 + 0.1;
    float rim = pow(1.0 - clamp(dot(n, v), 0.0, 1.0), u_rim_power);
    rim *= clamp(n.y * 0.5 + 0.6, 0.0, 1.0);
    frag_color = u_diffuse_color * diffuse + u_rim_color * rim;
}
