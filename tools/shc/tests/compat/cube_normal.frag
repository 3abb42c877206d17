#version 330 core
#pragma chrisos profile 2
// Image-based ambient light: the environment cube looked up along the surface normal, times a
// wrapped diffuse term.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 frag;
uniform samplerCube u_env;
uniform vec3 u_light_dir;

void main() {
    vec3 n = normalize(v_normal);
    float wrap = dot(n, normalize(u_light_dir)) * 0.5 + 0.5;
    frag = vec4(texture(u_env, n).rgb * (0.4 + 0.6 * wrap), 1.0);
}
