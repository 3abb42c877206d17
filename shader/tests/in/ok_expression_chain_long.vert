#version 330 core
uniform vec4 u;
void main() {
    float a = u.x;
    float s = a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a;
    bool t = a > 0.0 && a > 1.0 && a > 2.0 && a > 3.0 && a > 4.0 && a > 5.0 && a > 6.0 && a > 7.0 && a > 8.0 && a > 9.0 && a > 10.0 && a > 11.0 && a > 12.0 && a > 13.0 && a > 14.0 && a > 15.0 && a > 16.0 && a > 17.0 && a > 18.0 && a > 19.0;
    float w = u.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.wzyx.x;
    if (t) {
        s = s * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a * a;
    }
    gl_Position = vec4(s, w, 0.0, 1.0);
}
