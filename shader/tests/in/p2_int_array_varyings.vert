#pragma chrisos profile 2
// Flat integer array varyings (GLSL 3.30 section 4.3.6: arrays of integers as vertex
// outputs): a varying slot per element, carried bit for bit.
in vec4 pos;
flat out int ids[2];
flat out uvec2 seeds[2];
void main() {
    ids[0] = 16777217;
    ids[1] = -5;
    seeds[0] = uvec2(4294967295u, 7u);
    seeds[1] = uvec2(uint(gl_VertexID), 1u);
    gl_Position = pos;
}
