#pragma chrisos profile 2
// A dynamic index may write any element: every one of the eight is a clip plane (those never
// written stay 0, on their plane, never clipped).
layout(location = 0) in vec4 p;
uniform int k;
void main() {
    gl_Position = p;
    gl_ClipDistance[k] = p.y;
}
