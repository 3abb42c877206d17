#pragma chrisos profile 2
// Array varyings (a slot per element), uniform arrays of matrices, array returns.
uniform mat4 bones[4];
uniform float weights[4];
in vec3 pos;
out vec3 w[2];
vec3[2] pair(vec3 p) { return vec3[2](p, p * 2.0); }
void main() {
    vec4 p = vec4(pos, 1.0);
    vec4 skin = bones[0] * p * weights[0] + bones[1] * p * weights[1] + bones[3] * p * weights[3];
    w = pair(pos);
    w[1].x = 1.0;
    gl_Position = skin;
}
