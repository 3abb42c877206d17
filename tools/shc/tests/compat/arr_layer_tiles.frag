#version 330 core
#pragma chrisos profile 2
// A sampler2DArray in four columns, one layer each: magnified on top, fixed levels below.
uniform sampler2DArray u_layers;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    float layer = floor(v_uv.x * 4.0);
    vec4 c;
    if (v_uv.y > 0.5) {
        c = texture(u_layers, vec3(v_uv * 2.0 + vec2(0.1, 0.05), layer));
    } else {
        // Level 1 and a blend of levels 2 and 3 (its 8x8, 4x4 and 2x2 box chains).
        float lod = v_uv.y > 0.25 ? 1.0 : 2.5;
        c = textureLod(u_layers, vec3(v_uv * 1.5, layer), lod);
    }
    frag_color = vec4(c.rgb, 1.0);
}
