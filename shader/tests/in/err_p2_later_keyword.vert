#pragma chrisos profile 2
sampler3D count;
void main() { gl_Position = vec4(0.0); }
