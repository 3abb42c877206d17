#version 330 core
#pragma chrisos profile 2
// Matcap ("lit sphere") shading: the view-space normal looks up a picture of a lit sphere.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform mat4 u_view;
uniform sampler2D u_matcap;

out vec4 frag_color;

void main() {
    vec3 n = normalize(mat3(u_view) * normalize(v_normal));
    vec2 uv = n.xy * 0.49 + 0.5;
    vec3 color = texture(u_matcap, uv).rgb;
    frag_color = vec4(color * 1.1, 1.0);
}
