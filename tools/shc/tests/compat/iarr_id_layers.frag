#version 330 core
#pragma chrisos profile 2
// An isampler2DArray of ids and a usampler2DArray of packed colours, one layer per band.
uniform isampler2DArray u_ids;
uniform usampler2DArray u_masks;
in vec2 v_uv;
out vec4 frag_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec3 size = textureSize(u_ids, 0);
    // Bands of 16 rows: layers 0, 1, 2, and a fourth band asking for layer 5 (clamped to 2).
    int band = p.y / 16;
    ivec2 cell = (p / ivec2(8, 2)) % size.xy;
    ivec4 e = band < 2 ? texelFetch(u_ids, ivec3(cell, band), 0)
                       : texture(u_ids, vec3((vec2(cell) + 0.5) / vec2(size.xy), float(band * 3 - 4)));
    int red = e.r & 255;
    int green = -e.g - 1000;
    int blue = (e.b >> 20) & 255;
    float shade = e.a < 0 ? 0.6 : 1.0;
    // The packed colour of the mask layer under the pixel (4x4 texels, two layers).
    uvec4 m = texture(u_masks, vec3(v_uv, float(p.x / 32)));
    uvec3 bytes = (uvec3(m.r) >> uvec3(0u, 8u, 16u)) & uvec3(255u);
    bool stripe = ((m.g >> uint(p.x % 32)) & 1u) == 1u;
    vec3 id = vec3(float(red), float(green), float(blue)) / 255.0 * shade;
    vec3 c = mix(id, vec3(bytes) / 255.0, stripe ? 0.35 : 0.1);
    frag_color = vec4(float((e.b & 15) + 1) / float(size.z + 1) * 0.2 + c * 0.8, 1.0);
}
