#pragma chrisos profile 2
// gl_FrontFacing (profile 2, fragment shaders only): a bool.
in vec4 v;
out vec4 c;
void main() {
    bool f = gl_FrontFacing;
    c = f ? v : -v;
    if (!gl_FrontFacing) c.w = 0.5;
}
