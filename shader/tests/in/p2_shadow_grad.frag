#version 330 core
#pragma chrisos profile 2
// sampler2DShadow: textureGrad and textureGradOffset (SHADOW_GRAD, TXD SHADOW2D with an
// offset), and textureSize of a samplerCube (TXQ on its CUBE target).
in vec4 v_shadow;
in vec3 v_dir;
out vec4 frag;
uniform sampler2DShadow u_map;
uniform samplerCube u_sky;

void main() {
    float a = textureGrad(u_map, v_shadow.xyz, dFdx(v_shadow.xy), dFdy(v_shadow.xy));
    float b = textureGradOffset(u_map, v_shadow.xyz, vec2(0.01, 0.0), vec2(0.0, 0.01), ivec2(-1, 2));
    ivec2 s = textureSize(u_sky, 0);
    frag = vec4(a, b, float(s.x), 1.0);
}
