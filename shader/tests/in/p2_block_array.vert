#pragma chrisos profile 2
// An array of output blocks: each element x member is its own varying (VS_OUT[k].member).
in vec4 pos;
out VS_OUT { vec3 n; float f; } vs_out[2];
void main() {
    vs_out[0].n = vec3(1.0, 0.0, 0.0);
    vs_out[0].f = 0.25;
    vs_out[1].n = pos.xyz;
    vs_out[1].f = 0.75;
    gl_Position = pos;
}
