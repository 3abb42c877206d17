#version 450 core
// naga copy of tools/shc/tests/compat/matcap.frag (uniform block, separate sampler).
layout(location = 0) in vec3 v_world;
layout(location = 1) in vec3 v_normal;
layout(location = 2) in vec2 v_uv;

layout(set = 0, binding = 0) uniform U {
    mat4 u_view;
};
layout(set = 0, binding = 1) uniform texture2D u_matcap;
layout(set = 0, binding = 2) uniform sampler u_matcap_s;

layout(location = 0) out vec4 frag_color;

void main() {
    vec3 n = normalize(mat3(u_view) * normalize(v_normal));
    vec2 uv = n.xy * 0.49 + 0.5;
    vec3 color = texture(sampler2D(u_matcap, u_matcap_s), uv).rgb;
    frag_color = vec4(color * 1.1, 1.0);
}
