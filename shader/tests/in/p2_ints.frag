#pragma chrisos profile 2
// Profile 2's 32-bit integers: wrapping arithmetic, division and remainder, bit operators and
// shifts, compound forms, compares, conversions, integer built-ins, folding of the same.
uniform int n;
uniform uint seed;
flat in ivec2 cell;
flat in uint id;
out vec4 color;
uint hash(uint x) {
    x ^= x >> 16u;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}
void main() {
    const int k = 0x7fffffff + 1;          // folds (wraps) to INT_MIN
    const uint w = 0u - 1u;                // 0xffffffff
    int a = n * 3 - 7;
    int q = a / n + a % 5;
    a <<= 2;
    a |= 0x10;
    a &= ~3;
    a ^= n;
    a >>= 1;
    uint h = hash(id + seed * uint(cell.x) + uint(cell.y));
    h += 1u;
    h++;
    int m = clamp(a, -100, 100) + min(q, 4) + max(-q, k) + abs(n) + sign(q);
    uint u = max(h, w) + min(h % 97u, 3u) + (h >> n);
    bool less = a < q && h >= 5u;
    ivec2 v = cell * 2 + ivec2(-n, n) - (cell >> 1);
    bvec2 e = equal(v, cell);
    float f = float(u & 0xffu) / 255.0 + float(m) + float(less) + float(v.x == v.y);
    color = vec4(f, float(int(2.9e9)), float(uint(-1.5)), float(e.x) + float(w));
}
