#version 330 core
#pragma chrisos profile 2
// Nearest-mipmap level choice at lods of exactly .5 (issue 15): a 16x16 chain of five flat
// levels, one lod per 8-row band (0.5, 1.0, ..., 4.0). Left half: textureLod. Right half: an
// implicit lambda of exactly 1 (uv = v_uv * 8 on 64 pixels: two texels of level 0 per pixel)
// plus the band's bias - 1, the same lods. llvmpipe rounds ties to even (1.5 and 3.5 read the
// level above, 0.5 and 2.5 the level below).
in vec2 v_uv;

uniform sampler2D u_levels;

out vec4 frag_color;

void main() {
    float band = floor(gl_FragCoord.y / 8.0);
    float lod = band * 0.5 + 0.5;
    vec2 uv = v_uv * 8.0;
    vec3 c = gl_FragCoord.x < 32.0 ? textureLod(u_levels, uv, lod).rgb
                                   : texture(u_levels, uv, lod - 1.0).rgb;
    frag_color = vec4(c, 1.0);
}
