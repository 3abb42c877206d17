#pragma chrisos profile 2
out uvec2 id;
smooth out int n;
void main() {
    id = uvec2(1u);
    n = 2;
    gl_Position = vec4(0.0);
}
