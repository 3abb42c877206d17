#version 330 core
#pragma chrisos profile 2
// Post-processing: desaturation by Rec. 709 luma, with prototypes before main and an
// overloaded luma() for vec3 and vec4.
in vec2 v_uv;

uniform sampler2D u_image;
uniform float u_strength;

out vec4 frag_color;

float luma(vec3 c);
float luma(vec4 c);
vec3 desaturate(vec3 c, float amount);

void main() {
    vec4 src = texture(u_image, v_uv);
    frag_color = vec4(desaturate(src.rgb, u_strength), src.a);
}

float luma(vec3 c) {
    return dot(c, vec3(0.2126, 0.7152, 0.0722));
}

float luma(vec4 c) {
    return luma(c.rgb) * c.a;
}

vec3 desaturate(vec3 c, float amount) {
    return mix(c, vec3(luma(vec4(c, 1.0))), amount);
}
