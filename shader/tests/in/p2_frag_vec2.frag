#pragma chrisos profile 2
in vec2 v_uv;
layout(location = 0) out vec2 o_rg;
void main() {
    o_rg = v_uv.yx;
}
