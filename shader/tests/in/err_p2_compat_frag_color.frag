#version 330
#pragma chrisos profile 2
// gl_FragColor is deprecated in GLSL 3.30: profile 2 wants a declared output.
void main() {
    gl_FragColor = vec4(1.0, 0.5, 0.25, 1.0);
}
