#version 330 core
#pragma chrisos profile 2
// sampler2DShadow and samplerCubeShadow: every overload, float results.
in vec4 v_shadow;
in vec3 v_dir;
out vec4 frag;
uniform sampler2DShadow u_map;
uniform samplerCubeShadow u_cube;

void main() {
    float a = texture(u_map, v_shadow.xyz);
    float b = texture(u_map, v_shadow.xyz, 1.0);
    float c = textureLod(u_map, v_shadow.xyz, 0.0);
    float d = textureOffset(u_map, v_shadow.xyz, ivec2(1, -1));
    float e = textureLodOffset(u_map, v_shadow.xyz, 0.0, ivec2(-2, 3));
    float f = textureProj(u_map, v_shadow);
    float g = textureProjOffset(u_map, v_shadow, ivec2(1, 0), 0.5);
    float h = texture(u_cube, vec4(v_dir, 0.5));
    ivec2 s = textureSize(u_map, 0) + textureSize(u_cube, 0);
    frag = vec4(a + b + c + d, e + f + g, h, float(s.x));
}
