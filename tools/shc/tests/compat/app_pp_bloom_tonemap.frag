#version 330 core
#pragma chrisos profile 2
// Post-processing: bright-pass bloom from a 9-tap cross, added and tone mapped (exposure then
// Uncharted-style filmic curve) with gamma correction.
in vec2 v_uv;
uniform sampler2D u_image_linear;
uniform vec2 u_texel;
uniform float u_strength;
out vec4 frag_color;

vec3 bright(vec2 uv) {
    vec3 c = texture(u_image_linear, uv).rgb;
    float l = max(max(c.r, c.g), c.b);
    return c * smoothstep(0.5, 0.9, l);
}
vec3 filmic(vec3 x) {
    const float A = 0.15, B = 0.50, C = 0.10, D = 0.20, E = 0.02, F = 0.30;
    return ((x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F)) - E / F;
}

void main() {
    vec3 bloom = bright(v_uv) * 0.2;
    for (int i = 1; i <= 4; i++) {
        float w = 0.2 - 0.04 * float(i);
        vec2 d = float(i) * 1.5 * u_texel;
        bloom += w * (bright(v_uv + vec2(d.x, 0.0)) + bright(v_uv - vec2(d.x, 0.0)) +
                      bright(v_uv + vec2(0.0, d.y)) + bright(v_uv - vec2(0.0, d.y)));
    }
    vec3 hdr = (texture(u_image_linear, v_uv).rgb + bloom * u_strength) * 2.0;
    vec3 mapped = filmic(hdr) / filmic(vec3(11.2));
    frag_color = vec4(pow(clamp(mapped, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
