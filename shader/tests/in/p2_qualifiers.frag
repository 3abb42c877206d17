#version 330 core
#pragma chrisos profile 2
precision mediump float;
flat in vec3 v_flat;
noperspective in float v_linear;
smooth in vec2 v_smooth;
centroid in vec2 v_centroid;
flat centroid in float v_flat_centroid;
invariant in vec4 v_inv;
layout(location = 12) in mediump vec4 v_loc;
in lowp float v_plain;
uniform lowp sampler2D u_tex;
layout(location = 0) out highp vec4 o_color;
void main() {
    o_color = vec4(v_flat, v_linear) + vec4(v_smooth, v_centroid) * v_flat_centroid
        + v_inv * v_plain + v_loc + texture(u_tex, v_smooth);
}
