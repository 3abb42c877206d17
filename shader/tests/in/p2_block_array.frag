#pragma chrisos profile 2
// An array of input blocks, read with constant indexes.
in VS_OUT { vec3 n; float f; } fs_in[2];
out vec4 c;
void main() {
    c = vec4(mix(fs_in[0].n, fs_in[1].n, fs_in[1].f), fs_in[0].f);
}
