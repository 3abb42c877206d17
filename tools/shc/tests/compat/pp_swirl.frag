#version 330 core
#pragma chrisos profile 2
// Post-processing distortion: a swirl (mat2 rotation by an angle that falls off with the
// radius) sampling the linearly filtered picture.
in vec2 v_uv;

uniform sampler2D u_image_linear;
uniform float u_strength;

out vec4 frag_color;

void main() {
    vec2 p = v_uv - 0.5;
    float r = length(p);
    float angle = u_strength * 3.0 * smoothstep(0.45, 0.0, r);
    float c = cos(angle), s = sin(angle);
    mat2 rot = mat2(c, -s, s, c);
    vec2 uv = rot * p + 0.5;
    frag_color = vec4(texture(u_image_linear, uv).rgb, 1.0);
}
