#version 330 core
#pragma chrisos profile 2
// A debug-view switch as engines have it: the mode from a uniform picks normals, UVs, diffuse
// or full lighting; cases fall through and default catches the rest.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform int u_mode;
uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_diffuse_color;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light_dir);
    vec3 color = vec3(0.0);
    switch (u_mode) {
    case 0:
        color = n * 0.5 + 0.5;
        break;
    case 1:
        color = vec3(v_uv, 0.0);
        break;
    case 2:
        // Full lighting: specular, then falls through to add the diffuse term.
        color = vec3(pow(max(dot(n, normalize(l + normalize(u_view_pos - v_world))), 0.0), 32.0));
    case 3:
        color += u_diffuse_color * max(dot(n, l), 0.0);
        break;
    default:
        color = vec3(1.0, 0.0, 1.0);
        break;
    }
    frag_color = vec4(color, 1.0);
}
