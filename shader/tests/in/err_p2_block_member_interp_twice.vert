#pragma chrisos profile 2
// A block qualified flat whose member is qualified noperspective: given twice, an error.
in vec3 pos;
flat out Data { noperspective vec3 c; } d;
void main() { d.c = pos; gl_Position = vec4(pos, 1.0); }
