#version 330 core
#pragma chrisos profile 2
// Mixes a flat (provoking-vertex) colour with the interpolated one, read from an input block
// with a different instance name.
in VertexData {
    flat vec3 face_color;
    vec3 color;
    vec2 pos;
} vi;

out vec4 frag_color;

void main() {
    float w = 0.5 + 0.5 * sin(length(vi.pos) * 9.0);
    frag_color = vec4(mix(vi.face_color, vi.color, w), 1.0);
}
