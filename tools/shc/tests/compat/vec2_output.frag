#version 330 core
#pragma chrisos profile 2
// A two-channel output (a velocity or normal-xy pass): a vec2 written to an RGBA target.
uniform vec2 u_resolution;
uniform float u_time;

out vec2 o_velocity;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    o_velocity = vec2(0.5 + 0.5 * sin(uv.x * 5.0 + u_time), 0.5 + 0.5 * cos(uv.y * 4.0));
}
