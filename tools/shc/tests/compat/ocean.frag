#version 330 core
#pragma chrisos profile 2
// Ocean colour for the summed-wave grid: subsurface tint by height, Fresnel sky reflection
// and foam on the crests.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_sky_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 l = normalize(u_light_dir);
    float height = clamp(v_world.y * 2.5 + 0.5, 0.0, 1.0);
    vec3 water = mix(vec3(0.0, 0.08, 0.2), vec3(0.0, 0.4, 0.45), height);
    float fresnel = pow(1.0 - max(dot(n, v), 0.0), 4.0);
    vec3 color = mix(water * (0.5 + 0.5 * max(dot(n, l), 0.0)), u_sky_color, fresnel * 0.8);
    float foam = clamp((v_world.y - 0.2) * 6.0, 0.0, 1.0);
    frag_color = vec4(mix(color, vec3(0.95), foam), 1.0);
}
