#version 330 core
#pragma chrisos profile 2
// textureLod at fixed levels of a texture whose levels have their own colours: one level (or a
// blend of two) per horizontal band, the band chosen at pixel centres.
in vec2 v_uv;

uniform sampler2D u_levels;

out vec4 frag_color;

void main() {
    float band = floor(gl_FragCoord.y / 8.0);
    float lod = band * 0.625 - 0.5;
    vec2 uv = v_uv * 1.5 + vec2(0.03, 0.07);
    vec3 c = textureLod(u_levels, uv, lod).rgb;
    frag_color = vec4(c, 1.0);
}
