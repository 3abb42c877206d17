#version 330 core
#pragma chrisos profile 2
// A Julia set coloured by orbit traps: the iteration count a uniform, the distance to a trap
// point kept in the loop, and a do-while whose exit condition tests the escape radius.
uniform vec2 u_resolution;
uniform int u_iterations;
uniform float u_time;

out vec4 frag_color;

void main() {
    vec2 z = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y * 1.3;
    vec2 c = vec2(-0.4 + 0.05 * sin(u_time), 0.6);
    float trap = 10.0;
    int i = 0;
    do {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        trap = min(trap, length(z - vec2(0.2, 0.1)));
        i++;
    } while (i < u_iterations && dot(z, z) < 64.0);
    float glow = exp(-3.0 * trap);
    vec3 col = mix(vec3(0.05, 0.08, 0.2), vec3(1.0, 0.7, 0.3), glow);
    col = mix(col, vec3(0.9, 0.95, 1.0), float(i) / float(u_iterations) * 0.3);
    frag_color = vec4(col, 1.0);
}
