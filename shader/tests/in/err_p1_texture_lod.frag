// Profile 1 has no textureLod (profile 2's texture functions stay unknown here).
uniform sampler2D u_tex;
in vec2 v_uv;
out vec4 frag_color;
void main() {
    frag_color = textureLod(u_tex, v_uv, 0.0);
}
