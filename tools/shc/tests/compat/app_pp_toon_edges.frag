#version 330 core
#pragma chrisos profile 2
// Post-processing: comic look, colour quantised in HSV-like luminance steps plus dark Laplacian
// edges; luminance helper, clamp, floor on texel-centre samples.
in vec2 v_uv;
uniform sampler2D u_image;
uniform vec2 u_texel;
uniform float u_levels;
out vec4 frag_color;

float luma(vec2 uv) { return dot(texture(u_image, uv).rgb, vec3(0.2126, 0.7152, 0.0722)); }

void main() {
    vec3 c = texture(u_image, v_uv).rgb;
    float l = luma(v_uv);
    float q = (floor(l * u_levels) + 0.5) / u_levels;
    vec3 toon = c * (q / max(l, 1e-3));
    float lap = 4.0 * l - luma(v_uv + vec2(u_texel.x, 0.0)) - luma(v_uv - vec2(u_texel.x, 0.0)) -
                luma(v_uv + vec2(0.0, u_texel.y)) - luma(v_uv - vec2(0.0, u_texel.y));
    float edge = smoothstep(0.05, 0.25, abs(lap));
    frag_color = vec4(clamp(toon, 0.0, 1.0) * (1.0 - 0.85 * edge), 1.0);
}
