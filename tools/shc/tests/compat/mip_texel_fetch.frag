#version 330 core
#pragma chrisos profile 2
// texelFetch of every texel of level 0 (left) and level 1 (right) of a 16x16 texture with
// its own levels, each texel covering 2x2 pixels; textureSize of levels 0..4 shades the rows.
uniform sampler2D u_levels;

out vec4 frag_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) / 2;
    int lod = p.x < 16 ? 0 : 1;
    ivec2 size = textureSize(u_levels, lod);
    ivec2 q = ivec2(p.x - 16 * lod, p.y);
    vec3 c = texelFetch(u_levels, ivec2(min(q.x, size.x - 1), min(q.y, size.y - 1)), lod).rgb;
    float s = float(textureSize(u_levels, p.y / 4 > 4 ? 4 : p.y / 4).x) / 16.0;
    frag_color = vec4(c * (0.5 + 0.5 * s), 1.0);
}
