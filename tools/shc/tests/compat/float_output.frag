#version 330 core
#pragma chrisos profile 2
// A single-channel output (a height or mask pass): a float written to an RGBA target.
uniform vec2 u_center;

out float o_height;

void main() {
    float r = length(gl_FragCoord.xy - u_center);
    o_height = clamp(1.0 - r / 40.0, 0.0, 1.0) * (0.75 + 0.25 * sin(r * 0.5));
}
