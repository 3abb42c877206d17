#pragma chrisos profile 2
out vec4 c;
void main() {
    gl_FragDepth = vec2(0.5);
    c = vec4(1.0);
}
