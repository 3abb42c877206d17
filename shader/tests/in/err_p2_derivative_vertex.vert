#pragma chrisos profile 2
// Derivatives exist only in fragment shaders.
layout(location = 0) in vec4 p;
void main() {
    gl_Position = p + dFdy(p);
}
