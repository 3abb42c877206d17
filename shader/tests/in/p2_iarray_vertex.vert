#version 330 core
#pragma chrisos profile 2
// isampler2DArray/usampler2DArray in a vertex shader: the functions without a bias
// (texture, textureLod, texelFetch, textureSize).
layout(location = 0) in vec4 pos;
layout(location = 1) in vec3 uvl;
flat out ivec4 v_id;
flat out uvec4 v_mask;
uniform isampler2DArray u_ids;
uniform usampler2DArray u_masks;

void main() {
    v_id = texture(u_ids, uvl) + textureLod(u_ids, uvl, 0.0)
        + texelFetch(u_ids, ivec3(1, 2, 3), 0) + ivec4(textureSize(u_ids, 0), 0);
    v_mask = texelFetchOffset(u_masks, ivec3(0, 0, 1), 0, ivec2(1, 1));
    gl_Position = pos;
}
