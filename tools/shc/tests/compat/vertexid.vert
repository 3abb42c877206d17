#version 330 core
#pragma chrisos profile 2
// The attribute-less full-screen triangle: corners from gl_VertexID (the scene's attribute is
// only there to count three vertices).
layout(location = 0) in float a_unused;
out vec2 v_ndc;

void main() {
    vec2 corner = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    v_ndc = corner;
    gl_Position = vec4(corner, 0.0, 1.0);
}
