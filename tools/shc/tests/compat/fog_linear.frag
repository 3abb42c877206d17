#version 330 core
#pragma chrisos profile 2
// A textured, lit floor and boxes under linear distance fog (GL's old fog mode LINEAR).
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_fog_color;
uniform float u_fog_start;
uniform float u_fog_end;
uniform sampler2D u_albedo;

out vec4 frag_color;

#define FOG_LINEAR 1

float fog_factor(float d) {
#if defined(FOG_LINEAR) && FOG_LINEAR
    return clamp((u_fog_end - d) / (u_fog_end - u_fog_start), 0.0, 1.0);
#else
    return 1.0;
#endif
}

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    vec3 base = texture(u_albedo, v_uv).rgb * (u_ambient * 3.0 + u_light_color * diffuse);
    float d = length(v_world - u_view_pos);
    frag_color = vec4(mix(u_fog_color, base, fog_factor(d)), 1.0);
}
