out vec4 c;
void main() {
    gl_FragDepth = 0.5;
    c = vec4(1.0);
}
