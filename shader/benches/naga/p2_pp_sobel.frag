#version 450 core
// naga copy of tools/shc/tests/compat/pp_sobel.frag (uniform block, separate sampler).
layout(location = 0) in vec2 v_uv;

layout(set = 0, binding = 1) uniform texture2D u_image;
layout(set = 0, binding = 2) uniform sampler u_image_s;
layout(set = 0, binding = 0) uniform U {
    vec2 u_texel;
};

layout(location = 0) out vec4 frag_color;

float lum(float dx, float dy) {
    vec3 c = texture(sampler2D(u_image, u_image_s), v_uv + vec2(dx, dy) * u_texel).rgb;
    return dot(c, vec3(0.299, 0.587, 0.114));
}

void main() {
    float tl = lum(-1.0, 1.0), t = lum(0.0, 1.0), tr = lum(1.0, 1.0);
    float l = lum(-1.0, 0.0), r = lum(1.0, 0.0);
    float bl = lum(-1.0, -1.0), b = lum(0.0, -1.0), br = lum(1.0, -1.0);
    float gx = (tr + 2.0 * r + br) - (tl + 2.0 * l + bl);
    float gy = (tl + 2.0 * t + tr) - (bl + 2.0 * b + br);
    float edge = clamp(length(vec2(gx, gy)), 0.0, 1.0);
    vec3 base = texture(sampler2D(u_image, u_image_s), v_uv).rgb * 0.3;
    frag_color = vec4(mix(base, vec3(1.0, 0.9, 0.3), edge), 1.0);
}
