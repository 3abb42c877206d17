#pragma chrisos profile 2
in vec2 v_uv;
out float o_height;
void main() {
    o_height = v_uv.x * v_uv.y;
}
