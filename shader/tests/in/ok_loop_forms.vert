#version 330 core
const int N = 3;
in vec4 p;
void main() {
    vec4 v = vec4(0.0);
    for (int i = 0; i < 4; ++i) v[i] = float(i);
    for (int j = N; j > 0; j--) v.x = v.x + 1.0;
    for (int k = 7; k >= 0; k = k - 3) v.y = v.y + float(k);
    for (int m = 0; m != 6; m = m + 2) v.z = v.z + p[m / 2];
    for (int z = 0; z < 0; z++) v.w = 100.0;
    for (int q = 1; q <= 4; q = q * 2) { v.w = v.w + float(q); }
    gl_Position = v;
}
