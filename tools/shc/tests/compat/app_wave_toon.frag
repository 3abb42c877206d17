#version 330 core
#pragma chrisos profile 2
// Stylised water on the animated wave grid: wrapped diffuse in soft bands, foam on the crests
// from the world height, and linear fog toward the horizon.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_fog_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(vec3(0.4, 0.9, 0.3));
    float wrap = (dot(n, l) + 0.3) / 1.3;
    float tone = 0.4 + 0.3 * smoothstep(0.45, 0.55, wrap) + 0.3 * smoothstep(0.8, 0.9, wrap);
    vec3 water = mix(vec3(0.05, 0.25, 0.45), vec3(0.2, 0.6, 0.75), tone);
    float foam = smoothstep(0.12, 0.2, v_world.y);
    vec3 c = mix(water, vec3(0.95), foam * 0.8);
    float fog = clamp((length(v_world.xz) - 1.0) / 6.0, 0.0, 1.0);
    frag_color = vec4(mix(c, vec3(0.6, 0.7, 0.8), fog * 0.5), 1.0);
}
