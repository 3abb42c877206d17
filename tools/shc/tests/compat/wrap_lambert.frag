#version 330 core
#pragma chrisos profile 2
// Wrap lighting (a cheap subsurface look) with a tinted terminator, for the vertex shader
// that computes its own normal matrix.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

const float WRAP = 0.4;
const vec3 SCATTER = vec3(0.6, 0.15, 0.1);

void main() {
    vec3 n = normalize(v_normal);
    float ndotl = dot(n, normalize(u_light_dir));
    float wrapped = max((ndotl + WRAP) / (1.0 + WRAP), 0.0);
    float terminator = max(wrapped - max(ndotl, 0.0), 0.0);
    vec3 color = u_diffuse_color * u_light_color * wrapped + SCATTER * terminator;
    frag_color = vec4(color, 1.0);
}
