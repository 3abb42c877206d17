#version 330 core
#pragma chrisos profile 2
// textureGrad of a sampler2DShadow: a vec2 coordinate, vec3 derivatives, a non-constant or
// out-of-range offset, a vec4 result; textureGrad of a samplerCubeShadow does not exist.
in vec4 v_shadow;
out vec4 frag;
uniform sampler2DShadow u_map;
uniform samplerCubeShadow u_cube;
uniform ivec2 u_off;

void main() {
    float a = textureGrad(u_map, v_shadow.xy, vec2(0.0), vec2(0.0));
    float b = textureGrad(u_map, v_shadow.xyz, vec3(0.0), vec2(0.0));
    float c = textureGradOffset(u_map, v_shadow.xyz, vec2(0.0), vec2(0.0), u_off);
    float d = textureGradOffset(u_map, v_shadow.xyz, vec2(0.0), vec2(0.0), ivec2(8, 0));
    vec4 e = textureGrad(u_map, v_shadow.xyz, vec2(0.0), vec2(0.0));
    float f = textureGrad(u_cube, v_shadow, vec3(0.0), vec3(0.0));
    frag = vec4(a + b + c + d + f) + e;
}
