#version 330
#pragma chrisos profile 2
// Tone mapping of an earlier pass's RGBA32F target (values up to 4): exposure, Reinhard
// c / (1 + c), then a square-root gamma.
in vec2 v_uv;
uniform sampler2D u_hdr;
uniform float u_exposure;
out vec4 frag;

void main() {
    vec3 c = texture(u_hdr, v_uv).rgb * u_exposure;
    vec3 m = c / (vec3(1.0) + c);
    frag = vec4(sqrt(m), 1.0);
}
