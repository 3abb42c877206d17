#pragma chrisos profile 2
// layout(location) on array varyings: every element's location must be in range and free.
in vec3 pos;
layout(location = 14) out vec4 past_the_end[3];
layout(location = 2) out vec3 b;
layout(location = 1) out vec3 over_b[2];
void main() {
    b = pos;
    gl_Position = vec4(pos, 1.0);
}
