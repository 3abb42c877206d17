#pragma chrisos profile 2
out vec4 c;
void main() {
    gl_FrontFacing = false;
    c = vec4(1.0);
}
