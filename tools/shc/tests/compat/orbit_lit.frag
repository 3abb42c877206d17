#version 330 core
#pragma chrisos profile 2
// Textured box lit by two lights through an overloaded helper: lambert(n, l) and the
// wrapped variant lambert(n, l, wrap).
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform sampler2D u_albedo;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_light1_pos;
uniform vec3 u_light1_color;
uniform vec3 u_ambient;

out vec4 frag_color;

float lambert(vec3 n, vec3 l) {
    return max(dot(n, l), 0.0);
}

float lambert(vec3 n, vec3 l, float wrap) {
    return max((dot(n, l) + wrap) / (1.0 + wrap), 0.0);
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 albedo = texture(u_albedo, v_uv).rgb;
    vec3 light = u_ambient;
    light += u_light0_color * lambert(n, normalize(u_light0_pos - v_world));
    light += u_light1_color * lambert(n, normalize(u_light1_pos - v_world), 0.5);
    frag_color = vec4(albedo * light, 1.0);
}
