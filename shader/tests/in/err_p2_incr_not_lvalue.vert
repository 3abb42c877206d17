#pragma chrisos profile 2
in vec3 pos;
uniform int u;
void main() {
    int i = 0;
    int j = (i + 1)++;
    int k = ++u;
    bool b = true;
    b++;
    gl_Position = vec4(pos, 1.0);
}
