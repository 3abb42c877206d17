#pragma chrisos profile 2
// GLSL 3.30 section 4.3.7: a uniform block array takes only integral constant-expression
// indexes. A run-time index and a loop counter (even an unrollable one) are errors.
layout(std140) uniform Light { vec4 color; float k; } lights[3];
uniform int n;
out vec4 color;
void main() {
    vec4 c = vec4(0.0);
    c += lights[n].color;
    for (int i = 0; i < 3; i++) {
        c += lights[i].color;
    }
    color = c;
}
