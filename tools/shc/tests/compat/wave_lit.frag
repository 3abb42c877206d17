#version 330 core
#pragma chrisos profile 2
// Water shading for the wave grid: deep/shallow colour by height, a Schlick-style Fresnel
// mix towards the sky colour and a sun glint.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_sky_color;

out vec4 frag_color;

const vec3 DEEP = vec3(0.02, 0.12, 0.25);
const vec3 SHALLOW = vec3(0.1, 0.45, 0.5);

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 l = normalize(u_light_dir);
    vec3 water = mix(DEEP, SHALLOW, clamp(v_world.y * 2.0 + 0.5, 0.0, 1.0));
    float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
    vec3 color = mix(water * (0.4 + 0.6 * max(dot(n, l), 0.0)), u_sky_color, fresnel);
    color += vec3(pow(max(dot(reflect(-l, n), v), 0.0), 60.0));
    frag_color = vec4(color, 1.0);
}
