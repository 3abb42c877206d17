#version 330 core
#pragma chrisos profile 2
// A nearest-filtered cube sampled at the centres of its texels: each face's 8x8 texels as
// flat squares (direction = face axis plus the texel centre's offsets).
in vec2 v_uv;
out vec4 frag;
uniform samplerCube u_env_near;

void main() {
    // 3 x 2 tiles, one per face; each tile shows its face's 8 x 8 texels.
    vec2 t = v_uv * vec2(3.0, 2.0);
    int face = int(t.x) + 3 * int(t.y);
    vec2 st = (floor(fract(t) * 8.0) + 0.5) / 8.0 * 2.0 - 1.0;
    vec3 d;
    if (face == 0) d = vec3(1.0, -st.y, -st.x);
    else if (face == 1) d = vec3(-1.0, -st.y, st.x);
    else if (face == 2) d = vec3(st.x, 1.0, st.y);
    else if (face == 3) d = vec3(st.x, -1.0, -st.y);
    else if (face == 4) d = vec3(st.x, -st.y, 1.0);
    else d = vec3(-st.x, -st.y, -1.0);
    frag = texture(u_env_near, d);
}
