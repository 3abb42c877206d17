#pragma chrisos profile 2
// gl_ClipDistance: two user clip planes (elements 0 and 5) written by constant indexes, one
// read back; element 5 is also written through a dynamic index clamped like any array.
layout(location = 0) in vec4 p;
uniform vec4 plane;
uniform int k;
out vec4 c;
void main() {
    gl_Position = p;
    gl_ClipDistance[0] = dot(p, plane);
    gl_ClipDistance[5] = p.x + 0.5;
    c = vec4(gl_ClipDistance[0]);
}
