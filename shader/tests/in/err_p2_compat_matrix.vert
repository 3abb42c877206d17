#version 330
#pragma chrisos profile 2
// A GLSL 1.20-style vertex shader: the compatibility profile's matrices are not provided.
in vec4 position;
void main() {
    gl_Position = gl_ModelViewProjectionMatrix * position;
}
