#pragma chrisos profile 2
// A uniform block array indexed by constant expressions: literals, const ints and
// operators, constructors and built-ins on them (GLSL 3.30 section 4.3.7).
layout(std140) uniform Light { vec4 color; float k; } lights[3];
const int K = 1;
const ivec2 P = ivec2(0, 2);
out vec4 color;
void main() {
    vec4 c = lights[K + 1].color * lights[K].k;
    c += lights[P.y - K].color + lights[int(2.0)].color;
    c += lights[K > 0 ? 0 : 2].color * lights[max(K, 2)].k;
    color = c;
}
