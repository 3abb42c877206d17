#version 330 core
#pragma chrisos profile 2
// A uvec2 integer attribute (words above 2^31), mixed in the vertex shader, passed flat.
layout(location = 0) in vec2 a_pos;
layout(location = 2) in uvec2 a_seed;

flat out uvec2 v_seed;

void main() {
    v_seed = a_seed ^ (a_seed.yx >> 13u);
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
