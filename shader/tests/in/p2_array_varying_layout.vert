#pragma chrisos profile 2
// layout(location = N) on an array varying: element k takes location N + k; the varyings
// without a location take the lowest free ones around them. flat, noperspective and centroid
// arrays (each element keeps the qualifier).
in vec3 pos;
out vec4 first;
layout(location = 3) out vec3 w[2];
flat out float f[2];
noperspective centroid out vec2 np[2];
void main() {
    first = vec4(pos, 1.0);
    w[0] = pos;
    w[1] = pos * 2.0;
    f[0] = pos.x;
    f[1] = pos.y;
    np[0] = pos.xy;
    np[1] = pos.yz;
    gl_Position = vec4(pos, 1.0);
}
