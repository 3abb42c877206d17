#version 330 core
#pragma chrisos profile 2
precision highp float;
precision mediump int;
layout(location = 0) in highp vec4 a_pos;
layout(location = 15) in vec3 a_color;
flat out vec3 v_flat;
noperspective out float v_linear;
smooth out vec2 v_smooth;
centroid out vec2 v_centroid;
flat centroid out float v_flat_centroid;
invariant out vec4 v_inv;
layout(location = 12) out mediump vec4 v_loc;
out lowp float v_plain;
uniform highp mat4 u_mvp;
invariant gl_Position;
invariant v_plain, v_loc;
highp float twice(mediump float x) { return x * 2.0; }
void main() {
    precision lowp float;
    highp float s = twice(a_pos.x);
    lowp vec2 t = vec2(s, 1.0);
    v_flat = a_color;
    v_linear = s;
    v_smooth = t;
    v_centroid = t;
    v_flat_centroid = s;
    v_inv = a_pos;
    v_loc = a_pos;
    v_plain = 1.0;
    gl_Position = u_mvp * a_pos;
}
