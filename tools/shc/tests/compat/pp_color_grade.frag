#version 330 core
#pragma chrisos profile 2
// Post-processing colour grading: contrast around mid grey, brightness, saturation and a
// split tone, each step written with compound assignments.
in vec2 v_uv;

uniform sampler2D u_image;
uniform float u_brightness;
uniform float u_contrast;
uniform float u_saturation;

out vec4 frag_color;

#define LUMA_WEIGHTS vec3(0.2126, 0.7152, 0.0722)
#define SHADOW_TINT vec3(0.9, 1.0, 1.15)
#define HIGHLIGHT_TINT vec3(1.1, 1.0, 0.85)

void main() {
    vec3 c = texture(u_image, v_uv).rgb;
    c -= 0.5;
    c *= u_contrast;
    c += 0.5 + u_brightness;
    float y = dot(c, LUMA_WEIGHTS);
    c = mix(vec3(y), c, u_saturation);
    c *= y < 0.5 ? SHADOW_TINT : HIGHLIGHT_TINT;
    frag_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
