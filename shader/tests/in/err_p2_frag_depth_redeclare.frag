#pragma chrisos profile 2
out vec4 c;
float gl_FragDepth;
void main() {
    gl_FragDepth = 0.5;
    c = vec4(1.0);
}
