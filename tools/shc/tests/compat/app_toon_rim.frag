#version 330 core
#pragma chrisos profile 2
// Cel shading with three soft-edged bands, a rim light and a specular dot, as in stylised
// games; the bands use smoothstep over a narrow range, so they blend across a pixel or two.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_view_pos;
uniform vec3 u_diffuse_color;
uniform vec3 u_rim_color;

out vec4 frag_color;

float band(float x, float edge) {
    return smoothstep(edge - 0.04, edge + 0.04, x);
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float d = dot(n, l);
    float tone = 0.25 + 0.35 * band(d, 0.0) + 0.4 * band(d, 0.55);
    vec3 h = normalize(l + v);
    float spec = band(pow(max(dot(n, h), 0.0), 32.0), 0.5);
    float rim = smoothstep(0.55, 0.75, 1.0 - max(dot(n, v), 0.0)) * band(d, 0.1);
    vec3 c = u_diffuse_color * tone + vec3(spec) * 0.7 + u_rim_color * rim * 0.6;
    frag_color = vec4(c, 1.0);
}
