#version 330 core
#pragma chrisos profile 2
// A material id per latitude band of the sphere (from the texture coordinate), shaded through
// a switch: metal and painted metal share the specular path by fall-through, a default case.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 v = normalize(u_view_pos - v_world);
    float ndotl = max(dot(n, l), 0.0);
    float spec = pow(max(dot(normalize(l + v), n), 0.0), 40.0);
    int material = int(v_uv.y * 5.0);
    vec3 base = vec3(0.5);
    vec3 c = vec3(0.0);
    switch (material) {
    case 0:
        c = vec3(0.8, 0.2, 0.2) * (0.2 + 0.8 * ndotl); // matte clay
        break;
    case 1:
        base = vec3(0.2, 0.7, 0.3); // painted metal: a diffuse coat, then the metal's highlight
        c = base * ndotl * 0.6;
    case 2:
        c += u_light_color * spec * 0.9 + vec3(0.6, 0.6, 0.65) * ndotl * 0.3;
        break;
    case 3:
        c = mix(vec3(0.1, 0.1, 0.3), vec3(0.9, 0.8, 0.4), ndotl * ndotl); // ramp
        break;
    default:
        c = vec3(0.9, 0.9, 0.95) * (0.5 + 0.5 * ndotl); // emissive-ish caps
        break;
    }
    frag_color = vec4(c, 1.0);
}
