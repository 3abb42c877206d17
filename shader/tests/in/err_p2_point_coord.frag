#version 330
#pragma chrisos profile 2
// Gfx3D draws triangles only, so the point-sprite coordinate has no meaning.
out vec4 color;
void main() {
    color = vec4(gl_PointCoord, 0.0, 1.0);
}
