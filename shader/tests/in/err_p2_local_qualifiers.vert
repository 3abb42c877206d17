#pragma chrisos profile 2
void main() {
    highp float ok = 1.0;
    flat float bad = ok;
    gl_Position = vec4(bad);
}
