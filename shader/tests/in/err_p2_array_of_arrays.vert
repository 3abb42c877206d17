#pragma chrisos profile 2
void main() { float a[2][2]; gl_Position = vec4(0.0); }
