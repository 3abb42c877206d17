#version 330 core
#pragma chrisos profile 2
// Post-processing: a power-curve vignette and a warm tint in the darkened corners.
in vec2 v_uv;

uniform sampler2D u_image;
uniform float u_strength;

out vec4 frag_color;

void main() {
    vec3 color = texture(u_image, v_uv).rgb;
    float d = length(v_uv - vec2(0.5)) * 1.41421;
    float vignette = clamp(1.0 - pow(d, 2.5) * u_strength, 0.0, 1.0);
    color *= vignette;
    color = vignette < 0.6 ? mix(color, color * vec3(1.1, 0.9, 0.7), 0.5) : color;
    frag_color = vec4(color, 1.0);
}
