#version 330 core
#pragma chrisos profile 2
// sampler2DArray: texture (with and without bias), textureOffset, textureLod(Offset),
// textureGrad(Offset), texelFetch(Offset), textureSize (ivec3).
in vec3 v_uvl;
out vec4 frag;
uniform sampler2DArray u_layers;
uniform sampler2DArray u_decals[2];

void main() {
    vec4 a = texture(u_layers, v_uvl);
    vec4 b = texture(u_layers, v_uvl, 0.5);
    vec4 c = textureOffset(u_layers, v_uvl, ivec2(1, -2));
    vec4 d = textureLod(u_decals[1], vec3(v_uvl.xy, 2.0), 1.5);
    vec4 e = textureLodOffset(u_decals[0], v_uvl, 0.0, ivec2(-8, 7));
    vec4 f = textureGrad(u_layers, v_uvl, dFdx(v_uvl.xy), dFdy(v_uvl.xy));
    vec4 g = textureGradOffset(u_layers, v_uvl, vec2(0.1), vec2(0.0), ivec2(3, 3));
    vec4 h = texelFetch(u_layers, ivec3(gl_FragCoord.xy, 1), 0);
    vec4 i = texelFetchOffset(u_layers, ivec3(2, 3, 0), 1, ivec2(1, 0));
    ivec3 s = textureSize(u_layers, 0);
    frag = a + b + c + d + e + f + g + h + i + vec4(vec3(s), 0.0);
}
