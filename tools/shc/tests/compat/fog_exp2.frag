#version 330 core
#pragma chrisos profile 2
// Squared exponential fog (GL's EXP2), the mode picked by #if among all three, with a height
// falloff so the fog lies on the floor.
#define FOG_LINEAR 0
#define FOG_EXP 1
#define FOG_EXP2 2
#define FOG_MODE FOG_EXP2

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_fog_color;
uniform float u_fog_density;
uniform float u_fog_start;
uniform float u_fog_end;
uniform sampler2D u_albedo;

out vec4 frag_color;

float fog_factor(float d) {
#if FOG_MODE == FOG_LINEAR
    return clamp((u_fog_end - d) / (u_fog_end - u_fog_start), 0.0, 1.0);
#elif FOG_MODE == FOG_EXP
    return exp(-u_fog_density * d);
#else
    float x = u_fog_density * d;
    return exp(-x * x);
#endif
}

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    vec3 base = texture(u_albedo, v_uv).rgb * (u_ambient * 3.0 + u_light_color * diffuse);
    float d = length(v_world - u_view_pos);
    float height = clamp(exp(-(v_world.y + 1.0) * 0.8), 0.0, 1.0);
    float fog = mix(1.0, fog_factor(d), height);
    frag_color = vec4(mix(u_fog_color, base, fog), 1.0);
}
