#version 330
// An earlier pass's RGBA8 target with its generated mip chain, sampled trilinear.
in vec2 v_uv;
uniform sampler2D u_img;
out vec4 frag;

void main() {
    frag = texture(u_img, v_uv);
}
