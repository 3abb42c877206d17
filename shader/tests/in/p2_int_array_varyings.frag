#pragma chrisos profile 2
// Reads the flat integer array varyings of p2_int_array_varyings.vert.
flat in int ids[2];
flat in uvec2 seeds[2];
out vec4 color;
void main() {
    bool ok = ids[0] == 16777217 && ids[1] == -5 && seeds[0] == uvec2(4294967295u, 7u);
    color = ok ? vec4(float(seeds[1].y)) : vec4(1.0, 0.0, 0.0, 1.0);
}
