#pragma chrisos profile 2
// An array of input blocks read with an index known only at run time (as array varyings).
uniform int k;
in VS_OUT { vec3 n; float f; } fs_in[2];
out vec4 c;
void main() {
    c = vec4(fs_in[k].n, fs_in[1 - k].f);
}
