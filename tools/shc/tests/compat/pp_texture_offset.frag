#version 330 core
#pragma chrisos profile 2
// Post-processing with textureOffset: constant integer texel offsets for a directional
// (north-west light) relief filter.
in vec2 v_uv;

uniform sampler2D u_image;

out vec4 frag_color;

void main() {
    vec3 c = texture(u_image, v_uv).rgb;
    vec3 nw = textureOffset(u_image, v_uv, ivec2(-1, 1)).rgb;
    vec3 se = textureOffset(u_image, v_uv, ivec2(1, -1)).rgb;
    vec3 n = textureOffset(u_image, v_uv, ivec2(0, 2)).rgb;
    vec3 relief = c + (nw - se) * 1.5 + (n - c) * 0.25;
    frag_color = vec4(clamp(relief, 0.0, 1.0), 1.0);
}
