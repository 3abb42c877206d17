#version 330 core
#pragma chrisos profile 2
// A switch over the flat material id: labels above 2^24 and negative ones, fall-through.
flat in int v_material;
in vec2 v_uv;

out vec4 frag_color;

void main() {
    vec3 base = vec3(0.1);
    float shade = 0.5 + 0.5 * v_uv.y;
    switch (v_material) {
    case 0:
        base = vec3(0.9, 0.2, 0.1);
        break;
    case 1:
        base = vec3(0.2, 0.8, 0.3);
        break;
    case 2:
        base.b = 0.7;
    case 3:
        base.r += 0.5;
        break;
    case -5:
        base = vec3(0.6, 0.6, 0.1);
        break;
    case 16777217:
        base = vec3(0.1, 0.5, 0.9);
        shade = 1.0;
        break;
    case -2147483647 - 1:
        base = vec3(0.9, 0.9, 0.9);
        break;
    default:
        // 2147483647: the id's low bits pick the colour.
        base = vec3(float(v_material & 7) / 7.0, 0.3, float((v_material >> 28) & 7) / 7.0);
    }
    frag_color = vec4(base * shade, 1.0);
}
