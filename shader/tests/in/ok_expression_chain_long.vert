#version 330 core
uniform vec4 u;
void main() {
    // Chains far longer than the 32 nesting levels: runtime additions, and constant
    // comparisons, products and swizzles (folded at compile time).
    float a = u.x;
    float s = a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a;
    bool t = 0.0 < 40.0 && 1.0 < 40.0 && 2.0 < 40.0 && 3.0 < 40.0 && 4.0 < 40.0 && 5.0 < 40.0 && 6.0 < 40.0 && 7.0 < 40.0 && 8.0 < 40.0 && 9.0 < 40.0 && 10.0 < 40.0 && 11.0 < 40.0 && 12.0 < 40.0 && 13.0 < 40.0 && 14.0 < 40.0 && 15.0 < 40.0 && 16.0 < 40.0 && 17.0 < 40.0 && 18.0 < 40.0 && 19.0 < 40.0 && 20.0 < 40.0 && 21.0 < 40.0 && 22.0 < 40.0 && 23.0 < 40.0 && 24.0 < 40.0 && 25.0 < 40.0 && 26.0 < 40.0 && 27.0 < 40.0 && 28.0 < 40.0 && 29.0 < 40.0 && 30.0 < 40.0 && 31.0 < 40.0 && 32.0 < 40.0 && 33.0 < 40.0;
    float w = vec4(1.0, 2.0, 3.0, 4.0).wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.x;
    float m = 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0 * 2.0;
    if (t) {
        s = s * m;
    }
    gl_Position = vec4(s, w, 0.0, 1.0);
}
