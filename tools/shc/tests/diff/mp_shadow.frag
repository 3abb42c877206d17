#version 330
#pragma chrisos profile 2
// Shadow-mapped lighting: four compare taps (each bilinear PCF) of the light's depth pass.
in vec3 v_color;
in vec4 v_light;
uniform sampler2DShadow u_shadow;
uniform float u_texel;
out vec4 frag;

void main() {
    vec3 c = v_light.xyz / v_light.w * 0.5 + 0.5;
    float ref = c.z - 0.004;
    float h = 0.5 * u_texel;
    float s = texture(u_shadow, vec3(c.xy + vec2(-h, -h), ref));
    s += texture(u_shadow, vec3(c.xy + vec2(h, -h), ref));
    s += texture(u_shadow, vec3(c.xy + vec2(-h, h), ref));
    s += texture(u_shadow, vec3(c.xy + vec2(h, h), ref));
    frag = vec4(v_color * (0.35 + 0.1625 * s), 1.0);
}
