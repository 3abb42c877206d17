#pragma chrisos profile 2
centroid flat out float v_a;
void main() { v_a = 1.0; gl_Position = vec4(0.0); }
