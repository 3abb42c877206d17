#version 450 core
// naga copy of tools/shc/tests/compat/fog_linear.frag (uniform block, separate sampler).
layout(location = 0) in vec3 v_world;
layout(location = 1) in vec3 v_normal;
layout(location = 2) in vec2 v_uv;

layout(set = 0, binding = 0) uniform U {
    vec3 u_view_pos;
    vec3 u_light_dir;
    vec3 u_light_color;
    vec3 u_ambient;
    vec3 u_fog_color;
    float u_fog_start;
    float u_fog_end;
};
layout(set = 0, binding = 1) uniform texture2D u_albedo;
layout(set = 0, binding = 2) uniform sampler u_albedo_s;

layout(location = 0) out vec4 frag_color;

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
    vec3 base = texture(sampler2D(u_albedo, u_albedo_s), v_uv).rgb * (u_ambient * 3.0 + u_light_color * diffuse);
    float d = length(v_world - u_view_pos);
    frag_color = vec4(mix(u_fog_color, base, fog_factor(d)), 1.0);
}
