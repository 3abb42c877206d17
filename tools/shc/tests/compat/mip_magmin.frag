#version 330 core
#pragma chrisos profile 2
// Different filters for magnification (nearest) and minification (linear): the left half
// magnifies the texture, the right half minifies it.
in vec2 v_uv;

uniform sampler2D u_magmin;

out vec4 frag_color;

void main() {
    vec2 uv = gl_FragCoord.x < 32.0 ? v_uv * 0.37 + 0.013 : v_uv * 9.0 + 0.011;
    frag_color = vec4(texture(u_magmin, uv).rgb, 1.0);
}
