#version 330 core
#pragma chrisos profile 2
// Cel shading: the diffuse term snapped to four bands by a ?: ladder, a hard specular spot and
// a dark outline where the surface turns away from the viewer.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

const vec3 OUTLINE = vec3(0.05, 0.03, 0.08);

float band(float x) {
    return x > 0.9 ? 1.0 : x > 0.55 ? 0.75 : x > 0.2 ? 0.45 : 0.2;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float level = band(dot(n, l));
    float spec = dot(n, normalize(l + v)) > 0.97 ? 1.0 : 0.0;
    vec3 color = u_diffuse_color * u_light_color * level + vec3(spec * 0.6);
    frag_color = vec4(dot(n, v) < 0.25 ? OUTLINE : color, 1.0);
}
