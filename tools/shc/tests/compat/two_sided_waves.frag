#version 330 core
#pragma chrisos profile 2
// Two-sided lighting of the wave grid: the normal is flipped on back faces (gl_FrontFacing),
// and back faces get their own tint.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal) * (gl_FrontFacing ? 1.0 : -1.0);
    vec3 l = normalize(u_light_dir);
    vec3 base = gl_FrontFacing ? vec3(0.1, 0.45, 0.5) : vec3(0.5, 0.2, 0.3);
    float diffuse = max(dot(n, l), 0.0);
    frag_color = vec4(base * (0.3 + 0.7 * diffuse), 1.0);
}
