#version 330 core
#pragma chrisos profile 2
// isampler2DArray and usampler2DArray: every gsampler2DArray overload of GLSL 3.30 §8.7
// (texture [bias], textureOffset [bias], textureLod, textureLodOffset, textureGrad,
// textureGradOffset, texelFetch, texelFetchOffset, textureSize), ivec4/uvec4 results
// (SVIEW 2D_ARRAY, SINT/UINT in TGSI).
in vec3 v_uvl;
flat in ivec3 v_texel;
out vec4 frag;
uniform isampler2DArray u_ids;
uniform usampler2DArray u_masks[2];

void main() {
    ivec4 a = texture(u_ids, v_uvl);
    ivec4 b = texture(u_ids, v_uvl, 0.5);
    ivec4 c = textureOffset(u_ids, v_uvl, ivec2(1, -2));
    ivec4 d = textureOffset(u_ids, v_uvl, ivec2(0, 1), 1.0);
    ivec4 e = textureLod(u_ids, vec3(v_uvl.xy, 2.0), 0.0);
    ivec4 f = textureLodOffset(u_ids, v_uvl, 0.0, ivec2(-8, 7));
    ivec4 g = textureGrad(u_ids, v_uvl, dFdx(v_uvl.xy), dFdy(v_uvl.xy));
    ivec4 h = textureGradOffset(u_ids, v_uvl, vec2(0.1), vec2(0.0), ivec2(3, 3));
    ivec4 i = texelFetch(u_ids, v_texel, 0);
    ivec4 j = texelFetchOffset(u_ids, ivec3(2, 3, 1), 0, ivec2(1, 0));
    uvec4 m = texelFetch(u_masks[1], v_texel, 0) + texture(u_masks[0], v_uvl)
        + textureLod(u_masks[1], v_uvl, 0.0);
    ivec3 s = textureSize(u_ids, 0) + textureSize(u_masks[0], 0);
    ivec4 sum = a + b + c + d + e + f + g + h + i + j;
    frag = vec4(sum) + vec4(m) + vec4(vec3(s), 0.0);
}
