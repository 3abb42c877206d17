#pragma chrisos profile 2
// bvec from numeric vectors, == and != on vectors and matrices, flat integer inputs.
flat in ivec2 cell;
in vec3 color;
uniform bvec2 mask;
out vec4 frag;
void main() {
    bvec3 lit = bvec3(color);
    vec3 c = vec3(lit) * 0.5;
    if (cell == ivec2(1, 2) || mask != bvec2(true, false))
        c.x = 1.0;
    if (mat2(color.xy, color.yz) == mat2(1.0))
        c.y = 1.0;
    frag = vec4(c, float(mask.y));
}
