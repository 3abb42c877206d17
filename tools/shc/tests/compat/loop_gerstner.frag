#version 330 core
#pragma chrisos profile 2
// Lit water for the Gerstner vertex shader: sky reflection by the Fresnel term, foam on crests.
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
    float fresnel = 0.04 + 0.96 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
    vec3 deep = vec3(0.02, 0.15, 0.25);
    vec3 c = mix(deep, u_sky_color, fresnel);
    c += vec3(1.0) * pow(max(dot(reflect(-normalize(u_light_dir), n), v), 0.0), 40.0);
    c = mix(c, vec3(0.9), smoothstep(0.1, 0.3, v_world.y) * 0.6);
    frag_color = vec4(c, 1.0);
}
