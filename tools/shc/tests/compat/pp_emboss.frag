#version 330 core
#pragma chrisos profile 2
// Post-processing: emboss (difference of diagonal neighbours on grey) tinted like metal.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;

out vec4 frag_color;

float grey(vec2 uv) {
    return dot(texture(u_image, uv).rgb, vec3(0.333, 0.333, 0.334));
}

void main() {
    float e = grey(v_uv + u_texel) - grey(v_uv - u_texel);
    float shade = clamp(0.5 + e * 2.0, 0.0, 1.0);
    frag_color = vec4(shade * vec3(0.95, 0.9, 0.8), 1.0);
}
