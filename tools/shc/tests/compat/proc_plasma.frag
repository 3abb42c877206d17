#version 330 core
#pragma chrisos profile 2
// Procedural: the demo-scene plasma, a sum of sines of the pixel position and time, coloured
// by a cosine palette.
uniform vec2 u_resolution;
uniform float u_time;

out vec4 frag_color;

#define TAU 6.2831853

void main() {
    vec2 p = gl_FragCoord.xy / u_resolution * 4.0 - 2.0;
    float v = sin(p.x * 2.1 + u_time);
    v += sin((p.y * 1.7 + u_time) * 0.9);
    v += sin((p.x + p.y) * 1.3 + u_time * 0.7);
    v += sin(length(p + vec2(sin(u_time * 0.5), cos(u_time * 0.3))) * 3.0);
    v *= 0.25;
    vec3 color = 0.5 + 0.5 * cos(TAU * (v + vec3(0.0, 0.33, 0.67)));
    frag_color = vec4(color, 1.0);
}
