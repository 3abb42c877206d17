#version 330 core
#pragma chrisos profile 2
// Post-processing: posterisation to a few levels per channel with floor, plus a luminance
// outline where the level changes between neighbours.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;
uniform float u_levels;

out vec4 frag_color;

vec3 posterize(vec3 c) {
    return floor(c * u_levels + 0.5) / u_levels;
}

void main() {
    vec3 c = posterize(texture(u_image, v_uv).rgb);
    vec3 right = posterize(texture(u_image, v_uv + vec2(u_texel.x, 0.0)).rgb);
    vec3 up = posterize(texture(u_image, v_uv + vec2(0.0, u_texel.y)).rgb);
    float edge = step(0.01, distance(c, right) + distance(c, up));
    frag_color = vec4(mix(c, c * 0.3, edge), 1.0);
}
