#version 330 core
#pragma chrisos profile 2
// Procedural: a two-level checkerboard from gl_FragCoord with floor and mod.
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

float checker(vec2 p, float size) {
    vec2 cell = floor(p / size);
    return mod(cell.x + cell.y, 2.0);
}

void main() {
    vec2 p = gl_FragCoord.xy;
    float big = checker(p, 16.0);
    float small = checker(p, 4.0);
    vec3 color = mix(u_color_a, u_color_b, big);
    color *= 0.8 + 0.2 * small;
    frag_color = vec4(color, 1.0);
}
