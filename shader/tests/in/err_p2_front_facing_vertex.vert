#pragma chrisos profile 2
// gl_FrontFacing exists only in fragment shaders.
void main() {
    gl_Position = vec4(gl_FrontFacing ? 1.0 : 0.0);
}
