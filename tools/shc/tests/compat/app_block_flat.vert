#version 330 core
#pragma chrisos profile 2
// A vertex output block carrying a flat member (qualified inside the block) and smooth ones,
// for the per-vertex colour triangles.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;

out VertexData {
    flat vec3 face_color;
    vec3 color;
    vec2 pos;
} vo;

void main() {
    vo.face_color = a_color.rgb;
    vo.color = a_color.rgb;
    vo.pos = a_pos;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
