#pragma chrisos profile 2
void main() {
    gl_FragDepth = 0.5;
    gl_Position = vec4(0.0);
}
