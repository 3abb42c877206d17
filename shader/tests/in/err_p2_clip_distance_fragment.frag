#pragma chrisos profile 2
out vec4 c;
void main() {
    c = vec4(gl_ClipDistance[0]);
}
