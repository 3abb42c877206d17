#pragma chrisos profile 2
// dFdx, dFdy and fwidth on every genType (profile 2, fragment shaders only).
in vec4 v;
out vec4 c;
void main() {
    float a = dFdx(v.x) + dFdy(v.y) + fwidth(v.z);
    vec2 b = dFdx(v.xy) - fwidth(v.zw);
    vec3 d = dFdy(v.xyz * v.w);
    vec4 e = fwidth(v) + dFdx(gl_FragCoord);
    c = vec4(a, b, 0.0) + vec4(d, 1.0) * e;
}
