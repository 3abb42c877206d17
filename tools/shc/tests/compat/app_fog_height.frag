#version 330 core
#pragma chrisos profile 2
// Distance fog combined with height fog (denser near the ground, exp falloff with height),
// over Lambert lighting: the look of outdoor scenes in games.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_fog_color;
uniform float u_fog_density;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 base = vec3(0.55, 0.5, 0.42);
    vec3 lit = base * (u_ambient * 3.0 + u_light_color * max(dot(n, normalize(u_light_dir)), 0.0));
    float dist = distance(u_view_pos, v_world);
    float height = exp(-max(v_world.y + 1.0, 0.0) * 1.5);
    float fog = 1.0 - exp(-dist * u_fog_density * (0.4 + 1.6 * height));
    frag_color = vec4(mix(lit, u_fog_color, clamp(fog, 0.0, 1.0)), 1.0);
}
