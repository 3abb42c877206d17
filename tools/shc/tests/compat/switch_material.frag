#version 330 core
#pragma chrisos profile 2
// A material id per band of the surface picks the shading in a switch (fall-through into a
// shared diffuse term, default for unknown ids), with the material colours in a local array
// indexed by the same id.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_view_pos;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 albedo[4] = vec3[4](vec3(0.8, 0.3, 0.2), vec3(0.2, 0.7, 0.3), vec3(0.3, 0.4, 0.9),
                             vec3(0.9, 0.8, 0.2));
    int id = int(floor(v_uv.x * 5.0));
    vec3 color = vec3(0.05);
    switch (id) {
    case 0:
        color += vec3(pow(max(dot(n, normalize(l + normalize(u_view_pos - v_world))), 0.0), 24.0));
    case 1:
    case 2:
        color += albedo[id] * max(dot(n, l), 0.0);
        break;
    case 3:
        color = albedo[3] * (0.5 + 0.5 * n.y);
        break;
    default:
        color = vec3(0.6) * max(dot(n, l), 0.0);
    }
    frag_color = vec4(color, 1.0);
}
