#version 330 core
#pragma chrisos profile 2
// A tile floor pattern: each 8x8-pixel cell's kind from an integer hash of its index, drawn by
// a switch over the kind with fall-through (a bordered tile first draws a border, then the
// plain tile) and grouped case labels.
uniform vec2 u_resolution;

out vec4 frag_color;

void main() {
    ivec2 pix = ivec2(gl_FragCoord.xy);
    ivec2 cell = pix / 8;
    ivec2 local = pix % 8;
    uint h = uint(cell.x + cell.y * 8) * 0x9e3779b1u;
    int kind = int((h >> 27) % 6u);
    vec3 c = vec3(0.15);
    switch (kind) {
    case 0:
    case 1:
        c = vec3(0.8, 0.75, 0.7);
        break;
    case 2:
        if (local.x == 0 || local.y == 0) {
            c = vec3(0.1, 0.1, 0.2);
            break;
        }
    case 3:
        c = vec3(0.3, 0.5, 0.8);
        break;
    case 4: {
        int d = abs(local.x - 4) + abs(local.y - 4);
        c = d < 3 ? vec3(0.9, 0.6, 0.1) : vec3(0.4, 0.2, 0.1);
        break;
    }
    default:
        c = vec3(float(local.x) / 7.0, 0.3, float(local.y) / 7.0);
    }
    frag_color = vec4(c, 1.0);
}
