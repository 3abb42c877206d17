#version 330
// Per-pixel diffuse light (directional), specular highlight of a point light, and the
// per-vertex diffuse term.
in vec3 v_normal;
in vec3 v_world;
in float v_diffuse;
uniform vec3 u_light_dir;
uniform vec3 u_light_pos;
uniform vec3 u_eye;
uniform vec4 u_color;
out vec4 frag;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 pl = normalize(u_light_pos - v_world);
    vec3 v = normalize(u_eye - v_world);
    vec3 r = reflect(-pl, n);
    float diffuse = max(dot(n, l), 0.0);
    float spec = pow(max(dot(r, v), 0.0), 16.0);
    vec3 base = u_color.rgb * (0.15 + 0.6 * diffuse + 0.25 * v_diffuse);
    frag = vec4(base + vec3(spec), u_color.a);
}
