#pragma chrisos profile 2
// The matching input block (another instance name) with the same member qualifiers.
in VertexData {
    flat vec3 face;
    noperspective vec2 screen;
    smooth vec3 color;
    vec2 uv;
    float plain;
} vi;
out vec4 frag_color;
void main() {
    frag_color = vec4(vi.face + vi.color + vec3(vi.screen, vi.plain) + vec3(vi.uv, 0.0), 1.0);
}
