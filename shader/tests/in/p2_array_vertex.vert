#version 330 core
#pragma chrisos profile 2
// sampler2DArray in a vertex shader: textureLod, texelFetch, textureSize, and texture at
// level 0 (no implicit level of detail in the vertex stage).
layout(location = 0) in vec3 a_pos;
uniform sampler2DArray u_height;
out float v_h;

void main() {
    float h = textureLod(u_height, vec3(a_pos.xy, a_pos.z), 0.0).r;
    h += texture(u_height, a_pos).g;
    h += texelFetch(u_height, ivec3(1, 1, 2), 0).b;
    ivec3 s = textureSize(u_height, 0);
    v_h = h + float(s.z);
    gl_Position = vec4(a_pos.xy, h, 1.0);
}
