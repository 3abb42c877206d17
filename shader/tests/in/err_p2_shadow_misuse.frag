#version 330 core
#pragma chrisos profile 2
// Shadow sampler misuse: coordinates without the reference, missing overloads, vec4 results.
in vec4 v_shadow;
out vec4 frag;
uniform sampler2DShadow u_map;
uniform samplerCubeShadow u_cube;

void main() {
    float a = texture(u_map, v_shadow.xy);
    float b = texelFetch(u_map, ivec2(0), 0);
    vec4 c = texture(u_map, v_shadow.xyz);
    float d = texture(u_cube, v_shadow.xyz);
    float e = textureLod(u_cube, v_shadow, 0.0);
    float f = textureProj(u_map, v_shadow.xyz);
    float g = textureGrad(u_map, v_shadow.xyz, vec2(0.0), vec2(0.0));
    frag = vec4(a + b + d + e + f + g) + c;
}
