#version 330 core
#pragma chrisos profile 2
// Post-processing: a Laplacian edge filter whose texel size comes from textureSize rather
// than a uniform.
in vec2 v_uv;

uniform sampler2D u_image;

out vec4 frag_color;

void main() {
    vec2 texel = 1.0 / vec2(textureSize(u_image, 0));
    vec3 c = texture(u_image, v_uv).rgb;
    vec3 sum = texture(u_image, v_uv + vec2(texel.x, 0.0)).rgb +
               texture(u_image, v_uv - vec2(texel.x, 0.0)).rgb +
               texture(u_image, v_uv + vec2(0.0, texel.y)).rgb +
               texture(u_image, v_uv - vec2(0.0, texel.y)).rgb;
    vec3 edge = abs(sum - 4.0 * c);
    frag_color = vec4(c * 0.4 + edge, 1.0);
}
