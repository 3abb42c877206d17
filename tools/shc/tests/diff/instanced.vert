#version 330 core
#pragma chrisos profile 2
// One quad drawn as a grid of instances (glDrawElementsInstanced; glDrawArraysInstanced for
// the two triangles of instanced_arrays.json): each copy placed by
// gl_InstanceID, coloured by a per-instance attribute (divisor 1) and sized by another
// (divisor 4: one value per row); a per-vertex shade varies across each quad. The copies do
// not touch, so every triangle edge is next to the clear colour (gl_PrimitiveID restarts per
// instance in the edge pass).
layout(location = 0) in vec2 a_corner;
layout(location = 1) in float a_shade;
layout(location = 2) in vec4 a_color;
layout(location = 3) in float a_size;
out vec4 v_color;

void main() {
    float id = float(gl_InstanceID);
    float row = floor((id + 0.5) / 4.0);
    float col = id - 4.0 * row;
    vec2 origin = vec2(-0.9 + 0.46 * col, -0.85 + 0.58 * row);
    v_color = vec4(a_color.rgb * a_shade, a_color.a);
    gl_Position = vec4(origin + a_corner * vec2(0.36, 0.46) * a_size, 0.0, 1.0);
}
