#pragma chrisos profile 2
uniform int k;
uniform mat4 bones[4];
out vec4 c;
void main() {
    vec3 a[3];
    a[k] = vec3(1.0);
    a[k].y += 2.0;
    vec4 v = bones[k][k];
    v[k] = a[k - 1].x;
    c = v;
}
