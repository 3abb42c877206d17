#version 330 core
#pragma chrisos profile 2
// Types: a flat uint varying selects a colour; integer varyings must be flat.
in vec2 v_uv;
flat in uint v_quadrant;
out vec4 frag_color;

void main() {
    vec3 c = vec3(float(v_quadrant) / 3.0, v_uv);
    if (v_quadrant == 3u)
        c = vec3(1.0, 0.5, 0.0);
    frag_color = vec4(c, 1.0);
}
