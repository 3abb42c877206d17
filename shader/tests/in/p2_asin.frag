#pragma chrisos profile 2
// asin/acos in the form Mesa lowers them to: sign(x) (pi/2 - sqrt(1 - |x|) p(|x|)),
// p(a) = pi/2 + a (pi/4 - 1 + a (p0 + a p1)), with asin's and acos's own p0, p1.
in vec2 uv;
out vec4 color;
void main() {
    color = vec4(asin(uv.x), acos(uv.y), asin(uv).y + acos(uv).x, 1.0);
}
