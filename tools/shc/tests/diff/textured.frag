#version 330
// Two samplers whose declaration order differs from their scene units: u_tint (linear, clamp)
// and u_checker (nearest, repeat, some texels half transparent).
in vec2 v_uv;
uniform sampler2D u_tint;
uniform sampler2D u_checker;
out vec4 frag;

void main() {
    vec4 checker = texture(u_checker, v_uv);
    vec4 tint = texture(u_tint, v_uv * 0.4);
    frag = checker * tint;
}
