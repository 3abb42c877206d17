#pragma chrisos profile 2
centroid uniform float u_a;
void main() { gl_Position = vec4(0.0); }
