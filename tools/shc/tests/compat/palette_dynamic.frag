#version 330 core
#pragma chrisos profile 2
// Dynamic indexing: a colour from a constant array picked by an index computed per pixel,
// and a local array written through a computed index.
uniform vec2 u_resolution;
uniform float u_time;

out vec4 frag_color;

const vec3 PALETTE[6] = vec3[6](vec3(0.93, 0.27, 0.27), vec3(0.98, 0.6, 0.2),
                                vec3(0.98, 0.87, 0.3), vec3(0.35, 0.75, 0.4),
                                vec3(0.25, 0.5, 0.85), vec3(0.55, 0.35, 0.75));

void main() {
    vec2 cell = floor(gl_FragCoord.xy / 8.0);
    int index = int(cell.x + cell.y * 3.0 + floor(u_time)) % PALETTE.length();
    float shade[4];
    for (int i = 0; i < 4; ++i)
        shade[i] = 0.6 + 0.1 * float(i);
    int row = int(cell.y) % 4;
    shade[row] += 0.05;
    frag_color = vec4(PALETTE[index] * shade[row], 1.0);
}
