#pragma chrisos profile 2
// An array of output blocks written with an index known only at run time.
uniform int k;
in vec4 pos;
out VS_OUT { vec3 n; float f; } vs_out[2];
void main() {
    vs_out[k].n = pos.xyz;
    vs_out[k].f = 0.5;
    vs_out[1 - k] = vs_out[k];
    gl_Position = pos;
}
