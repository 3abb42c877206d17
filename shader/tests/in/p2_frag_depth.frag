#pragma chrisos profile 2
// gl_FragDepth: a sphere impostor's depth, written on one path only (the other keeps the
// interpolated depth).
in vec2 uv;
out vec4 c;
void main() {
    float r2 = dot(uv, uv);
    if (r2 < 1.0) {
        gl_FragDepth = 0.5 - 0.25 * sqrt(1.0 - r2);
    }
    c = vec4(gl_FragDepth);
}
