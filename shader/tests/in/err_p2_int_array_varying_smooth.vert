#pragma chrisos profile 2
// An integer array varying must be flat; a bool array cannot be a varying at all.
in vec4 pos;
out int ids[2];
flat out bool oks[2];
void main() { gl_Position = pos; }
