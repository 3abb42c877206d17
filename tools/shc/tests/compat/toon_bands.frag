#version 330 core
#pragma chrisos profile 2
// Toon shading with band counts by floor, a smoothstep specular blob and a step outline.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

const float BANDS = 4.0;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float ndotl = max(dot(n, l), 0.0);
    float level = (floor(ndotl * BANDS) + 1.0) / (BANDS + 1.0);
    float spec = smoothstep(0.93, 0.95, dot(n, normalize(l + v)));
    float outline = step(0.3, dot(n, v));
    vec3 color = (u_diffuse_color * level + vec3(spec * 0.5)) * outline;
    frag_color = vec4(color, 1.0);
}
