#version 330 core
#pragma chrisos profile 2
// A reflective sphere: the environment cube looked up along the reflected view ray, with a
// little diffuse light mixed in.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
out vec4 frag;
uniform samplerCube u_env;
uniform vec3 u_view_pos;
uniform vec3 u_light_dir;

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(v_world - u_view_pos);
    vec3 r = reflect(v, n);
    vec3 env = texture(u_env, r).rgb;
    float diff = max(dot(n, normalize(u_light_dir)), 0.0);
    frag = vec4(env * 0.85 + vec3(0.15) * diff, 1.0);
}
