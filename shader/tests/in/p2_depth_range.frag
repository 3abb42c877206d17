#version 330
#pragma chrisos profile 2
// gl_DepthRange (GLSL 3.30 7.4): Gfx3D's depth range is GL's default, so its members are
// the constants near 0.0, far 1.0 and diff 1.0; they fold like any constant.
out vec4 color;
void main() {
    float z = (gl_FragCoord.z - gl_DepthRange.near) / gl_DepthRange.diff;
    color = vec4(z, gl_DepthRange.far, gl_DepthRange.near + 0.25, 1.0);
}
